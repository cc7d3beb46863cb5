// The trading page: log on, pick an instrument, watch its book, trades and price, send, amend and cancel orders, and
// follow their execution reports. Everything goes over the gateway's WebSocket protocol (connection.ts); the
// operations view (ops.ts) reads the gateway's admin REST API.

import './app.css';
import { GatewayConnection } from './connection';
import type { LinkState, NoticeLevel } from './connection';
import { OrderBook, APPLIED, GAP } from './book';
import { validateOrder, validateAmend } from './validate';
import { TimeChart } from './charts';
import { OperationsView } from './ops';
import { byId, element } from './dom';
import { initTheme, toggleTheme, THEME_EVENT } from './theme';
import type { BookLevel } from './book';
import type { BookMessage, BookUpdateMessage, ExecutionReport, GatewayMessage, Instrument, LogonReply,
    OrderRequest, Side, TradeMessage } from './protocol';

const MAX_TRADES = 200;
const MAX_EXECUTIONS = 200;
const MAX_TAPE_ROWS = 50;
const MAX_NOTICES = 5;
const LADDER_LEVELS = 10;
const LIVE = new Set(['pendingNew', 'new', 'partiallyFilled']);

const input = (id: string): HTMLInputElement => byId<HTMLInputElement>(id);
const select = (id: string): HTMLSelectElement => byId<HTMLSelectElement>(id);

export class TradingPage
{
    connection: GatewayConnection | null = null;
    user: LogonReply | null = null;
    readonly instruments = new Map<string, Instrument>();
    symbol: string | null = null;
    book: OrderBook | null = null;
    trades: TradeMessage[] = [];
    readonly orders = new Map<string, ExecutionReport>();
    amending: string | null = null;
    marketDataGaps = 0;
    readonly operations: OperationsView;
    private credentials: { username: string; password: string } | null = null;
    private orderCount = 0;
    private readonly idPrefix = 'w' + Date.now().toString(36);
    private dirty = false;
    private openOrdersPartial = false;
    private priceChart: TimeChart | null = null;

    constructor()
    {
        this.operations = new OperationsView(() => this.credentials, (text, level) => this.notice(text, level));
    }

    start(): void
    {
        byId('logon-form').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            void this.logon(input('logon-user').value, input('logon-password').value);
        });
        byId('logout').addEventListener('click', () => this.connection?.logout());
        byId('theme').addEventListener('click', () => toggleTheme());
        window.addEventListener(THEME_EVENT, () =>
        {
            this.priceChart?.restyle();
            this.markDirty();
        });
        select('instrument').addEventListener('change', () => this.choose(select('instrument').value));
        byId('ticket').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            this.submitTicket();
        });
        select('order-type').addEventListener('change', () =>
        {
            const market = 'market' === select('order-type').value;
            input('order-price').disabled = market;
            if (market && 'gtc' === select('order-tif').value)
            {
                select('order-tif').value = 'ioc';
            }
        });
        byId('amend').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            this.submitAmend();
        });
        byId('amend-cancel').addEventListener('click', () => this.closeAmend());
        window.addEventListener('hashchange', () => this.showView());
        initTheme();
        this.priceChart = new TimeChart(byId('price-chart'), [{ label: 'last', color: '--series-1', points: true }],
            { format: (value) => value.toFixed(this.priceScale()), empty: 'no trades yet' });
        this.showView();
    }

    async logon(username: string, password: string): Promise<void>
    {
        byId('logon-error').textContent = '';
        byId<HTMLButtonElement>('logon-submit').disabled = true;
        const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
        const connection: GatewayConnection = new GatewayConnection(url, {
            onMessage: (message, meta) => this.onMessage(message, meta),
            onStatus: (text, state) => this.status(text, state),
            onNotice: (text, level) => this.notice(text, level),
            onEnded: (reason) => this.onEnded(connection, reason),
        });
        this.connection = connection;
        try
        {
            await connection.logon(username, password);
            this.credentials = { username, password };
            input('logon-password').value = '';
        }
        catch (error)
        {
            byId('logon-error').textContent = `logon refused: ${(error as Error).message}`;
            this.connection = null;
        }
        finally
        {
            byId<HTMLButtonElement>('logon-submit').disabled = false;
        }
    }

    private onEnded(connection: GatewayConnection, reason: string): void
    {
        if (connection !== this.connection)
        {
            return;
        }
        this.connection = null;
        this.credentials = null;
        this.user = null;
        this.operations.stop();
        this.notice(`session ended: ${reason}`, 'logout' === reason ? 'info' : 'warn');
        this.status('not logged on', 'down');
        byId('whoami').textContent = '';
        byId('logout').hidden = true;
        byId('tabs').hidden = true;
        this.orders.clear();
        this.showView();
    }

    private status(text: string, state: LinkState): void
    {
        const node = byId('status');
        node.textContent = text;
        node.dataset.state = state;
    }

    notice(text: string, level: NoticeLevel = 'info'): void
    {
        const node = element('div', `${new Date().toLocaleTimeString()} ${text}`, `notice ${level}`);
        const notices = byId('notices');
        notices.prepend(node);
        while (notices.children.length > MAX_NOTICES)
        {
            notices.lastElementChild?.remove();
        }
        this.execution(text, 'notice');
    }

    private execution(text: string, className: string): void
    {
        const list = byId('executions');
        list.prepend(element('li', `${new Date().toLocaleTimeString()} ${text}`, className));
        while (list.children.length > MAX_EXECUTIONS)
        {
            list.lastElementChild?.remove();
        }
    }

    isAdmin(): boolean
    {
        return null !== this.user && this.user.roles.includes('admin');
    }

    private showView(): void
    {
        const user = this.user;
        const ops = '#ops' === location.hash;
        byId('logon-view').hidden = null !== user;
        byId('trade-view').hidden = null === user || ops;
        byId('ops-view').hidden = null === user || !ops;
        byId('tab-trade').classList.toggle('active', null !== user && !ops);
        byId('tab-ops').classList.toggle('active', null !== user && ops);
        if (null !== user && ops)
        {
            if (this.isAdmin())
            {
                byId('ops-denied').hidden = true;
                byId('ops-content').hidden = false;
                this.operations.start();
            }
            else
            {
                byId('ops-denied').hidden = false;
                byId('ops-denied').textContent = 'The operations view needs the admin role; ' +
                    `${user.user} has ${user.roles.join(', ') || 'no roles'}.`;
                byId('ops-content').hidden = true;
                this.operations.stop();
            }
        }
        else
        {
            this.operations.stop();
        }
        this.markDirty();
    }

    private onMessage(message: GatewayMessage, meta: { resent: boolean }): void
    {
        switch (message.type)
        {
            case 'logon':
                this.onLogon(message as unknown as LogonReply);
                break;
            case 'sessionLost':
                this.orders.clear();
                this.markDirty();
                break;
            case 'instruments':
                this.onInstruments(message.instruments as Instrument[]);
                break;
            case 'book':
                this.onBook(message as unknown as BookMessage);
                break;
            case 'bookUpdate':
                this.onBookUpdate(message as unknown as BookUpdateMessage);
                break;
            case 'trade':
                this.onTrade(message as unknown as TradeMessage);
                break;
            case 'executionReport':
                this.onExecutionReport(message as unknown as ExecutionReport, meta.resent);
                break;
            case 'openOrders':
                this.onOpenOrders(message.orders as ExecutionReport[], String(message.reqId ?? ''),
                    true === message.more);
                break;
            case 'error':
                this.onError(String(message.code), String(message.text), String(message.reqId ?? ''));
                break;
            case 'logout':
                this.notice(`logged out by the gateway: ${String(message.reason)}`,
                    'logout' === message.reason ? 'info' : 'warn');
                break;
            default:
                break;
        }
    }

    private onLogon(message: LogonReply): void
    {
        this.user = message;
        byId('whoami').textContent = `${message.user} (${message.roles.join(', ')})`;
        byId('logout').hidden = false;
        byId('tabs').hidden = false;
        byId('tab-ops').hidden = !this.isAdmin();
        select('order-account').replaceChildren(...message.accounts.map((number) => element('option', number)));
        this.connection?.send({ type: 'instruments', reqId: 'instruments' });
        this.connection?.send({ type: 'openOrders', reqId: 'orders' });
        if (message.resumed && this.symbol)
        {
            // The gateway keeps the session's subscriptions, across its restarts too, and answers this with
            // subscriptionState (ignored in onError); the book (reason resumed) it sends is what the page needs.
            this.book = new OrderBook(this.symbol);
            this.connection?.send({ type: 'subscribe', instrument: this.symbol, reqId: 'resubscribe' });
        }
        this.showView();
    }

    private onInstruments(instruments: Instrument[]): void
    {
        for (const instrument of instruments)
        {
            this.instruments.set(instrument.symbol, instrument);
        }
        const picker = select('instrument');
        const chosen = this.symbol;
        picker.replaceChildren(...[...this.instruments.keys()].sort().map((symbol) => element('option', symbol)));
        if (chosen && this.instruments.has(chosen))
        {
            picker.value = chosen;
            this.describeInstrument();
        }
        else if (this.instruments.size > 0)
        {
            this.choose(picker.value);
        }
    }

    private choose(symbol: string): void
    {
        if (symbol === this.symbol)
        {
            return;
        }
        if (this.symbol && this.connection)
        {
            this.connection.send({ type: 'unsubscribe', instrument: this.symbol, reqId: 'unsubscribe' });
        }
        this.symbol = symbol;
        this.book = new OrderBook(symbol);
        this.trades = [];
        byId<HTMLTableElement>('tape').tBodies[0].replaceChildren();
        this.describeInstrument();
        this.connection?.send({ type: 'subscribe', instrument: symbol, reqId: 'subscribe' });
        byId('md-state').textContent = 'waiting for the book';
        this.markDirty();
    }

    private describeInstrument(): void
    {
        const instrument = this.symbol ? this.instruments.get(this.symbol) : undefined;
        if (instrument)
        {
            byId('instrument-info').textContent = `tick ${instrument.tickSize}, lot ${instrument.lotSize}, quantity ` +
                `${instrument.minQuantity} to ${instrument.maxQuantity}` + (instrument.trading ? '' : ', HALTED');
        }
    }

    private priceScale(): number
    {
        const instrument = this.symbol ? this.instruments.get(this.symbol) : undefined;
        return instrument ? instrument.priceScale : 2;
    }

    private onBook(message: BookMessage): void
    {
        if (message.instrument !== this.symbol || null === this.book)
        {
            return;
        }
        this.book.applySnapshot(message);
        byId('md-state').textContent = `book at #${message.mdSeq} (${message.reason})`;
        this.markDirty();
    }

    private sequenced(message: TradeMessage): boolean
    {
        if (message.instrument !== this.symbol || null === this.book)
        {
            return false;
        }
        const outcome = this.book.sequence(message);
        if (GAP === outcome)
        {
            this.onMarketDataGap(this.book, message);
        }
        return APPLIED === outcome;
    }

    private onMarketDataGap(book: OrderBook, message: { instrument: string; mdSeq: number }): void
    {
        this.marketDataGaps++;
        const expected = book.mdSeq + 1;
        this.notice(`market-data gap on ${message.instrument}: expected #${expected}, got #${message.mdSeq}; ` +
            're-requesting the book', 'warn');
        byId('md-state').textContent = `gap at #${expected}: waiting for a fresh book`;
        this.connection?.send({ type: 'unsubscribe', instrument: message.instrument, reqId: 'gap' });
        this.connection?.send({ type: 'subscribe', instrument: message.instrument, reqId: 'gap' });
    }

    private onBookUpdate(message: BookUpdateMessage): void
    {
        if (message.instrument !== this.symbol || null === this.book)
        {
            return;
        }
        const outcome = this.book.applyUpdate(message);
        if (GAP === outcome)
        {
            this.onMarketDataGap(this.book, message);
        }
        else if (APPLIED === outcome)
        {
            byId('md-state').textContent = `book at #${message.mdSeq}`;
            this.markDirty();
        }
    }

    private onTrade(message: TradeMessage): void
    {
        if (!this.sequenced(message))
        {
            return;
        }
        this.trades.push(message);
        if (this.trades.length > MAX_TRADES)
        {
            this.trades.shift();
        }
        const row = element('tr');
        row.append(element('td', new Date(Math.floor(message.time / 1e6)).toLocaleTimeString()),
            element('td', message.price), element('td', message.quantity),
            element('td', message.aggressor ?? '', message.aggressor ?? ''));
        const body = byId<HTMLTableElement>('tape').tBodies[0];
        body.prepend(row);
        while (body.rows.length > MAX_TAPE_ROWS)
        {
            body.lastElementChild?.remove();
        }
        this.markDirty();
    }

    private onExecutionReport(report: ExecutionReport, resent: boolean): void
    {
        const live = LIVE.has(report.orderStatus);
        if (true !== report.requestOnly)
        {
            if (live)
            {
                this.orders.set(report.clOrdId, report);
            }
            else
            {
                this.orders.delete(report.clOrdId);
                if (this.amending === report.clOrdId)
                {
                    this.closeAmend();
                }
            }
        }
        const filled = 'partiallyFilled' === report.execType || 'filled' === report.execType;
        const rejected = ['rejected', 'cancelRejected', 'replaceRejected'].includes(report.execType);
        let text = `${report.execType} ${report.clOrdId}: ${report.side} ${report.quantity} ${report.instrument}` +
            ('market' === report.orderType ? ' at market' : ` @ ${report.price}`);
        if (filled)
        {
            text += `, filled ${report.lastQuantity} @ ${report.lastPrice} (total ${report.cumQuantity}, leaves ` +
                `${report.leavesQuantity})`;
        }
        if (0 !== report.reason)
        {
            text += ` - reason ${report.reason}: ${report.text}`;
        }
        if (resent)
        {
            text += ' (resent after reconnect)';
        }
        const item = element('li', `#${report.seq} ${text}`, rejected ? 'rejected' : filled ? 'fill' : '');
        item.dataset.clOrdId = report.clOrdId;
        item.dataset.execType = report.execType;
        item.dataset.execId = String(report.execId);
        byId('executions').prepend(item);
        this.markDirty();
    }

    private onOpenOrders(orders: ExecutionReport[], reqId: string, more: boolean): void
    {
        if ('orders' === reqId && !this.openOrdersPartial)
        {
            this.orders.clear();
        }
        for (const order of orders)
        {
            this.orders.set(order.clOrdId, order);
        }
        this.openOrdersPartial = more;
        this.markDirty();
    }

    private onError(code: string, text: string, reqId: string): void
    {
        if ('subscriptionState' === code && ('resubscribe' === reqId || 'gap' === reqId))
        {
            return;
        }
        this.notice(`gateway error ${code}: ${text}`, 'error');
    }

    private nextClOrdId(): string
    {
        this.orderCount++;
        return `${this.idPrefix}-${this.orderCount}`;
    }

    private ticketOrder(): OrderRequest
    {
        const side = document.querySelector<HTMLInputElement>('input[name="side"]:checked');
        return {
            side: side ? side.value : '',
            orderType: select('order-type').value,
            timeInForce: select('order-tif').value,
            price: input('order-price').value.trim(),
            quantity: input('order-quantity').value.trim(),
            postOnly: input('order-post-only').checked,
            account: Number(select('order-account').value),
        };
    }

    private submitTicket(): void
    {
        const order = this.ticketOrder();
        const problems = validateOrder(order, this.symbol ? this.instruments.get(this.symbol) : undefined);
        byId('ticket-errors').replaceChildren(...problems.map((problem) => element('li', problem)));
        if (0 === problems.length)
        {
            this.sendOrder(order);
        }
    }

    /**
     * Sends a new order as given, without the page's checks (the ticket checks first).
     * @returns its clOrdId, or null when there is no connection to send it on
     */
    sendOrder(order: OrderRequest): string | null
    {
        const message: Record<string, unknown> = {
            type: 'newOrder',
            clOrdId: order.clOrdId ?? this.nextClOrdId(),
            account: order.account,
            instrument: order.instrument ?? this.symbol,
            side: order.side,
            orderType: order.orderType,
            timeInForce: order.timeInForce,
            quantity: Number(order.quantity),
            postOnly: order.postOnly,
        };
        if ('market' !== order.orderType)
        {
            message.price = order.price;
        }
        if (!this.connection || !this.connection.send(message))
        {
            byId('ticket-errors').replaceChildren(element('li', 'not connected: the order was not sent'));
            return null;
        }
        return String(message.clOrdId);
    }

    private cancel(clOrdId: string): void
    {
        if (!this.connection || !this.connection.send({ type: 'cancelOrder', clOrdId }))
        {
            this.notice(`not connected: cancel of ${clOrdId} not sent`, 'error');
        }
    }

    private openAmend(order: ExecutionReport): void
    {
        this.amending = order.clOrdId;
        byId('amend').hidden = false;
        byId('amend-id').textContent = order.clOrdId;
        input('amend-price').value = order.price;
        input('amend-quantity').value = String(order.quantity);
        byId('amend-errors').textContent = '';
    }

    private closeAmend(): void
    {
        this.amending = null;
        byId('amend').hidden = true;
    }

    private submitAmend(): void
    {
        const order = null === this.amending ? undefined : this.orders.get(this.amending);
        if (!order)
        {
            byId('amend-errors').textContent = 'the order is no longer open';
            return;
        }
        const price = input('amend-price').value.trim();
        const quantity = input('amend-quantity').value.trim();
        const problems = validateAmend(order, price, quantity, this.instruments.get(order.instrument));
        byId('amend-errors').textContent = problems.join('; ');
        if (0 === problems.length)
        {
            if (this.connection && this.connection.send({ type: 'replaceOrder', clOrdId: order.clOrdId, price,
                quantity: Number(quantity) }))
            {
                this.closeAmend();
            }
            else
            {
                byId('amend-errors').textContent = 'not connected: the amend was not sent';
            }
        }
    }

    markDirty(): void
    {
        if (!this.dirty)
        {
            this.dirty = true;
            requestAnimationFrame(() =>
            {
                this.dirty = false;
                this.render();
            });
        }
    }

    private render(): void
    {
        if (null === this.user || '#ops' === location.hash)
        {
            return;
        }
        this.renderLadder();
        this.renderOrders();
        this.renderChart();
    }

    private ownQuantities(): Record<Side, Map<number, number>>
    {
        const own: Record<Side, Map<number, number>> = { buy: new Map(), sell: new Map() };
        for (const order of this.orders.values())
        {
            if (order.instrument === this.symbol && 'limit' === order.orderType)
            {
                const side = own[order.side];
                const key = Number(order.price);
                side.set(key, (side.get(key) ?? 0) + order.leavesQuantity);
            }
        }
        return own;
    }

    private renderLadder(): void
    {
        const body = byId<HTMLTableElement>('ladder').tBodies[0];
        if (!this.book || !this.book.valid)
        {
            body.replaceChildren();
            return;
        }
        const own = this.ownQuantities();
        const asks = this.book.askLevels().slice(0, LADDER_LEVELS).reverse();
        const bids = this.book.bidLevels().slice(0, LADDER_LEVELS);
        const rows: HTMLTableRowElement[] = [];
        const row = (level: BookLevel, side: Side): HTMLTableRowElement =>
        {
            const mine = own[side].get(Number(level.price));
            const tr = element('tr', null, 'buy' === side ? 'bid' : 'ask');
            tr.dataset.price = level.price;
            tr.dataset.side = side;
            if (mine)
            {
                tr.classList.add('own');
                tr.dataset.own = String(mine);
            }
            const buy = 'buy' === side;
            tr.append(element('td', buy && mine ? mine : '', 'mine'),
                element('td', buy ? `${level.quantity} (${level.orders})` : '', 'bidqty'),
                element('td', level.price, 'price'),
                element('td', buy ? '' : `${level.quantity} (${level.orders})`, 'askqty'),
                element('td', !buy && mine ? mine : '', 'mine'));
            return tr;
        };
        for (const level of asks)
        {
            rows.push(row(level, 'sell'));
        }
        if (rows.length > 0)
        {
            rows[rows.length - 1].classList.add('spread');
        }
        for (const level of bids)
        {
            rows.push(row(level, 'buy'));
        }
        body.replaceChildren(...rows);
    }

    private renderOrders(): void
    {
        const body = byId<HTMLTableElement>('orders').tBodies[0];
        const rows: HTMLTableRowElement[] = [];
        for (const order of this.orders.values())
        {
            const tr = element('tr');
            tr.dataset.clOrdId = order.clOrdId;
            const actions = element('td');
            const cancel = element('button', 'cancel', 'cancel');
            cancel.type = 'button';
            cancel.addEventListener('click', () => this.cancel(order.clOrdId));
            actions.append(cancel);
            if ('limit' === order.orderType)
            {
                const amend = element('button', 'amend', 'amend');
                amend.type = 'button';
                amend.addEventListener('click', () => this.openAmend(order));
                actions.append(' ', amend);
            }
            tr.append(element('td', order.clOrdId, 'text'), element('td', order.side, 'text'),
                element('td', order.instrument, 'text'),
                element('td', 'market' === order.orderType ? 'market' : order.price),
                element('td', order.quantity), element('td', order.cumQuantity),
                element('td', order.orderStatus, 'text'), actions);
            rows.push(tr);
        }
        body.replaceChildren(...rows);
    }

    private renderChart(): void
    {
        const times = this.trades.map((trade) => Math.floor(trade.time / 1e6));
        const prices = this.trades.map((trade) => Number(trade.price));
        this.priceChart?.setData(times, [prices]);
    }
}

declare global
{
    interface Window
    {
        warpbus: TradingPage;
    }
}

const page = new TradingPage();
// For people at the browser console and for the page's browser tests: the page's own objects, no credentials.
window.warpbus = page;
page.start();

// The trading page: log on, pick an instrument, watch its book, trades and price, send, amend and cancel orders, and
// follow their execution reports. Everything goes over the gateway's WebSocket protocol (connection.js).

import { GatewayConnection } from './connection.js';
import { OrderBook, APPLIED, GAP } from './book.js';
import { validateOrder, validateAmend } from './validate.js';
import { drawLineChart } from './chart.js';
import { OperationsView } from './ops.js';

const MAX_TRADES = 200;
const MAX_EXECUTIONS = 200;
const LADDER_LEVELS = 10;
const LIVE = new Set(['pendingNew', 'new', 'partiallyFilled']);

const $ = (id) => document.getElementById(id);

function element(tag, text, className)
{
    const node = document.createElement(tag);
    if (undefined !== text && null !== text)
    {
        node.textContent = String(text);
    }
    if (className)
    {
        node.className = className;
    }
    return node;
}

class TradingPage
{
    constructor()
    {
        this.connection = null;
        this.user = null;
        this.instruments = new Map();
        this.symbol = null;
        this.book = null;
        this.trades = [];
        this.orders = new Map();
        this.amending = null;
        this.orderCount = 0;
        this.idPrefix = 'w' + Date.now().toString(36);
        this.dirty = false;
        this.operations = new OperationsView(() => this.credentials, (text, level) => this.notice(text, level));
        this.credentials = null;
        this.marketDataGaps = 0;
    }

    start()
    {
        $('logon-form').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            this.logon($('logon-user').value, $('logon-password').value);
        });
        $('logout').addEventListener('click', () => this.connection && this.connection.logout());
        $('theme').addEventListener('click', () => this.toggleTheme());
        $('instrument').addEventListener('change', () => this.choose($('instrument').value));
        $('ticket').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            this.submitTicket();
        });
        $('order-type').addEventListener('change', () =>
        {
            const market = 'market' === $('order-type').value;
            $('order-price').disabled = market;
            if (market && 'gtc' === $('order-tif').value)
            {
                $('order-tif').value = 'ioc';
            }
        });
        $('amend').addEventListener('submit', (event) =>
        {
            event.preventDefault();
            this.submitAmend();
        });
        $('amend-cancel').addEventListener('click', () => this.closeAmend());
        window.addEventListener('hashchange', () => this.showView());
        window.addEventListener('resize', () => this.markDirty());
        const theme = localStorage.getItem('warpbus-theme');
        if (theme)
        {
            document.documentElement.dataset.theme = theme;
        }
        else if (window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches)
        {
            document.documentElement.dataset.theme = 'light';
        }
        this.showView();
    }

    toggleTheme()
    {
        const next = 'dark' === document.documentElement.dataset.theme ? 'light' : 'dark';
        document.documentElement.dataset.theme = next;
        localStorage.setItem('warpbus-theme', next);
        this.markDirty();
        this.operations.redraw();
    }

    async logon(username, password)
    {
        $('logon-error').textContent = '';
        $('logon-submit').disabled = true;
        const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
        const connection = new GatewayConnection(url, {
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
            $('logon-password').value = '';
        }
        catch (error)
        {
            $('logon-error').textContent = `logon refused: ${error.message}`;
            this.connection = null;
        }
        finally
        {
            $('logon-submit').disabled = false;
        }
    }

    onEnded(connection, reason)
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
        $('whoami').textContent = '';
        $('logout').hidden = true;
        $('tabs').hidden = true;
        this.orders.clear();
        this.showView();
    }

    status(text, state)
    {
        const node = $('status');
        node.textContent = text;
        node.dataset.state = state;
    }

    notice(text, level = 'info')
    {
        const node = element('div', `${new Date().toLocaleTimeString()} ${text}`, `notice ${level}`);
        const notices = $('notices');
        notices.prepend(node);
        while (notices.children.length > 5)
        {
            notices.lastChild.remove();
        }
        this.execution(text, 'notice');
    }

    execution(text, className)
    {
        const list = $('executions');
        list.prepend(element('li', `${new Date().toLocaleTimeString()} ${text}`, className));
        while (list.children.length > MAX_EXECUTIONS)
        {
            list.lastChild.remove();
        }
    }

    isAdmin()
    {
        return null !== this.user && this.user.roles.includes('admin');
    }

    showView()
    {
        const loggedOn = null !== this.user;
        const ops = '#ops' === location.hash;
        $('logon-view').hidden = loggedOn;
        $('trade-view').hidden = !loggedOn || ops;
        $('ops-view').hidden = !loggedOn || !ops;
        $('tab-trade').classList.toggle('active', loggedOn && !ops);
        $('tab-ops').classList.toggle('active', loggedOn && ops);
        if (loggedOn && ops)
        {
            if (this.isAdmin())
            {
                $('ops-denied').hidden = true;
                $('ops-content').hidden = false;
                this.operations.start();
            }
            else
            {
                $('ops-denied').hidden = false;
                $('ops-denied').textContent = 'The operations view needs the admin role; ' +
                    `${this.user.user} has ${this.user.roles.join(', ') || 'no roles'}.`;
                $('ops-content').hidden = true;
                this.operations.stop();
            }
        }
        else
        {
            this.operations.stop();
        }
        this.markDirty();
    }

    onMessage(message, meta)
    {
        switch (message.type)
        {
            case 'logon':
                this.onLogon(message);
                break;
            case 'sessionLost':
                this.orders.clear();
                this.markDirty();
                break;
            case 'instruments':
                this.onInstruments(message);
                break;
            case 'book':
                this.onBook(message);
                break;
            case 'bookUpdate':
                this.onBookUpdate(message);
                break;
            case 'trade':
                this.onTrade(message);
                break;
            case 'executionReport':
                this.onExecutionReport(message, meta.resent);
                break;
            case 'openOrders':
                this.onOpenOrders(message);
                break;
            case 'error':
                this.onError(message);
                break;
            case 'logout':
                this.notice(`logged out by the gateway: ${message.reason}`, 'logout' === message.reason ? 'info' : 'warn');
                break;
            default:
                break;
        }
    }

    onLogon(message)
    {
        this.user = message;
        $('whoami').textContent = `${message.user} (${message.roles.join(', ')})`;
        $('logout').hidden = false;
        $('tabs').hidden = false;
        $('tab-ops').hidden = !this.isAdmin();
        const account = $('order-account');
        account.replaceChildren(...message.accounts.map((number) => element('option', number)));
        this.connection.send({ type: 'instruments', reqId: 'instruments' });
        this.connection.send({ type: 'openOrders', reqId: 'orders' });
        if (message.resumed && this.symbol)
        {
            // After a gateway restart the session's subscriptions are gone; when they are not, the gateway answers
            // subscriptionState and the book (reason resumed) it sends anyway is what the page needs.
            this.book = new OrderBook(this.symbol);
            this.connection.send({ type: 'subscribe', instrument: this.symbol, reqId: 'resubscribe' });
        }
        this.showView();
    }

    onInstruments(message)
    {
        for (const instrument of message.instruments)
        {
            this.instruments.set(instrument.symbol, instrument);
        }
        const select = $('instrument');
        const chosen = this.symbol;
        select.replaceChildren(...[...this.instruments.keys()].sort().map((symbol) => element('option', symbol)));
        if (chosen && this.instruments.has(chosen))
        {
            select.value = chosen;
            this.describeInstrument();
        }
        else if (this.instruments.size > 0)
        {
            this.choose(select.value);
        }
    }

    choose(symbol)
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
        $('tape').tBodies[0].replaceChildren();
        this.describeInstrument();
        this.connection.send({ type: 'subscribe', instrument: symbol, reqId: 'subscribe' });
        $('md-state').textContent = 'waiting for the book';
        this.markDirty();
    }

    describeInstrument()
    {
        const instrument = this.instruments.get(this.symbol);
        if (instrument)
        {
            $('instrument-info').textContent = `tick ${instrument.tickSize}, lot ${instrument.lotSize}, quantity ` +
                `${instrument.minQuantity} to ${instrument.maxQuantity}` + (instrument.trading ? '' : ', HALTED');
        }
    }

    onBook(message)
    {
        if (message.instrument !== this.symbol)
        {
            return;
        }
        this.book.applySnapshot(message);
        $('md-state').textContent = `book at #${message.mdSeq} (${message.reason})`;
        this.markDirty();
    }

    sequenced(message)
    {
        if (message.instrument !== this.symbol)
        {
            return false;
        }
        const outcome = this.book.sequence(message);
        if (GAP === outcome)
        {
            this.onMarketDataGap(message);
        }
        return APPLIED === outcome;
    }

    onMarketDataGap(message)
    {
        this.marketDataGaps++;
        const expected = this.book.mdSeq + 1;
        this.notice(`market-data gap on ${message.instrument}: expected #${expected}, got #${message.mdSeq}; ` +
            're-requesting the book', 'warn');
        $('md-state').textContent = `gap at #${expected}: waiting for a fresh book`;
        this.connection.send({ type: 'unsubscribe', instrument: message.instrument, reqId: 'gap' });
        this.connection.send({ type: 'subscribe', instrument: message.instrument, reqId: 'gap' });
    }

    onBookUpdate(message)
    {
        if (message.instrument !== this.symbol)
        {
            return;
        }
        const outcome = this.book.applyUpdate(message);
        if (GAP === outcome)
        {
            this.onMarketDataGap(message);
        }
        else if (APPLIED === outcome)
        {
            $('md-state').textContent = `book at #${message.mdSeq}`;
            this.markDirty();
        }
    }

    onTrade(message)
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
            element('td', message.aggressor || '', message.aggressor || ''));
        const body = $('tape').tBodies[0];
        body.prepend(row);
        while (body.rows.length > 50)
        {
            body.lastChild.remove();
        }
        this.markDirty();
    }

    onExecutionReport(report, resent)
    {
        const live = LIVE.has(report.orderStatus);
        const requestOnly = true === report.requestOnly;
        if (!requestOnly)
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
        $('executions').prepend(item);
        this.markDirty();
    }

    onOpenOrders(message)
    {
        if ('orders' === message.reqId && !this.openOrdersPartial)
        {
            this.orders.clear();
        }
        for (const order of message.orders)
        {
            this.orders.set(order.clOrdId, order);
        }
        this.openOrdersPartial = message.more;
        this.markDirty();
    }

    onError(message)
    {
        if ('subscriptionState' === message.code && ('resubscribe' === message.reqId || 'gap' === message.reqId))
        {
            return;
        }
        this.notice(`gateway error ${message.code}: ${message.text}`, 'error');
    }

    nextClOrdId()
    {
        this.orderCount++;
        return `${this.idPrefix}-${this.orderCount}`;
    }

    ticketOrder()
    {
        return {
            side: document.querySelector('input[name="side"]:checked').value,
            orderType: $('order-type').value,
            timeInForce: $('order-tif').value,
            price: $('order-price').value.trim(),
            quantity: $('order-quantity').value.trim(),
            postOnly: $('order-post-only').checked,
            account: Number($('order-account').value),
        };
    }

    submitTicket()
    {
        const order = this.ticketOrder();
        const problems = validateOrder(order, this.instruments.get(this.symbol));
        $('ticket-errors').replaceChildren(...problems.map((problem) => element('li', problem)));
        if (0 === problems.length)
        {
            this.sendOrder(order);
        }
    }

    /**
     * Sends a new order as given, without the page's checks (the ticket checks first); returns its clOrdId.
     */
    sendOrder(order)
    {
        const message = {
            type: 'newOrder',
            clOrdId: order.clOrdId || this.nextClOrdId(),
            account: order.account,
            instrument: order.instrument || this.symbol,
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
            $('ticket-errors').replaceChildren(element('li', 'not connected: the order was not sent'));
            return null;
        }
        return message.clOrdId;
    }

    cancel(clOrdId)
    {
        if (!this.connection || !this.connection.send({ type: 'cancelOrder', clOrdId }))
        {
            this.notice(`not connected: cancel of ${clOrdId} not sent`, 'error');
        }
    }

    openAmend(order)
    {
        this.amending = order.clOrdId;
        $('amend').hidden = false;
        $('amend-id').textContent = order.clOrdId;
        $('amend-price').value = order.price;
        $('amend-quantity').value = order.quantity;
        $('amend-errors').textContent = '';
    }

    closeAmend()
    {
        this.amending = null;
        $('amend').hidden = true;
    }

    submitAmend()
    {
        const order = this.orders.get(this.amending);
        if (!order)
        {
            $('amend-errors').textContent = 'the order is no longer open';
            return;
        }
        const price = $('amend-price').value.trim();
        const quantity = $('amend-quantity').value.trim();
        const problems = validateAmend(order, price, quantity, this.instruments.get(order.instrument));
        $('amend-errors').textContent = problems.join('; ');
        if (0 === problems.length)
        {
            if (this.connection && this.connection.send({ type: 'replaceOrder', clOrdId: order.clOrdId, price,
                quantity: Number(quantity) }))
            {
                this.closeAmend();
            }
            else
            {
                $('amend-errors').textContent = 'not connected: the amend was not sent';
            }
        }
    }

    markDirty()
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

    render()
    {
        if (null === this.user || '#ops' === location.hash)
        {
            return;
        }
        this.renderLadder();
        this.renderOrders();
        this.renderChart();
    }

    ownQuantities()
    {
        const own = { buy: new Map(), sell: new Map() };
        for (const order of this.orders.values())
        {
            if (order.instrument === this.symbol && 'limit' === order.orderType)
            {
                const side = own[order.side];
                const key = Number(order.price);
                side.set(key, (side.get(key) || 0) + order.leavesQuantity);
            }
        }
        return own;
    }

    renderLadder()
    {
        const body = $('ladder').tBodies[0];
        if (!this.book || !this.book.valid)
        {
            body.replaceChildren();
            return;
        }
        const own = this.ownQuantities();
        const asks = this.book.askLevels().slice(0, LADDER_LEVELS).reverse();
        const bids = this.book.bidLevels().slice(0, LADDER_LEVELS);
        const rows = [];
        const row = (level, side) =>
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

    renderOrders()
    {
        const body = $('orders').tBodies[0];
        const rows = [];
        for (const order of this.orders.values())
        {
            const tr = element('tr');
            tr.dataset.clOrdId = order.clOrdId;
            const actions = element('td');
            const cancel = element('button', 'cancel');
            cancel.type = 'button';
            cancel.className = 'cancel';
            cancel.addEventListener('click', () => this.cancel(order.clOrdId));
            actions.append(cancel);
            if ('limit' === order.orderType)
            {
                const amend = element('button', 'amend');
                amend.type = 'button';
                amend.className = 'amend';
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

    renderChart()
    {
        const points = this.trades.map((trade) => [Math.floor(trade.time / 1e6), Number(trade.price)]);
        const instrument = this.instruments.get(this.symbol);
        const scale = instrument ? instrument.priceScale : 2;
        drawLineChart($('price-chart'), [{ label: `${this.symbol || ''} last`, color: '--series-1', points }],
            { format: (value) => value.toFixed(scale), empty: 'no trades yet' });
    }
}

const page = new TradingPage();
// For people at the browser console and for the page's browser tests: the page's own objects, no credentials.
window.warpbus = page;
page.start();

// The operations view (admin role): polls the gateway's /api/admin/operations once a second with HTTP Basic, as the
// user logged on to the page, and draws latency and throughput over time, bus health, the engine link, the gateway's
// counters and its sessions.

import { TimeChart } from './charts';
import { byId, element } from './dom';
import { THEME_EVENT } from './theme';
import type { NoticeLevel } from './connection';

const POLL_MS = 1000;
const BAD = /back\.?pressure|drops|disconnects|gaps|errors|failures|timeouts|lost|unroutable|crc|terminates|conflated|rejects|stalls|unsent/i;

type Series = Record<string, (number | null)[]> & { timeMs: number[] };

interface Publication
{
    stream: string;
    session: string;
    endpoint: string;
    position?: number;
    limit?: number;
    backPressure?: number;
    subscriber?: string;
    subscriberPosition?: number;
    lag?: number;
}

interface Subscription
{
    channel: string;
    uri: string;
    stream: number;
    policy: string;
    position: number | null;
    gaps: number;
    messages: number;
}

interface SessionRow
{
    token: string;
    user: string;
    name: string;
    address: string;
    state: string;
    ageMs: number;
    lastSeq: number;
    messagesInPerS: number;
    messagesOutPerS: number;
    openOrders: number;
    subscriptions: string[];
    conflatedUpdates: number;
    queueBytes: number;
    queueCapacity: number;
}

/** The matching engine's own figures, read by the gateway from the engine's HTTP side. */
interface MatchingEngine
{
    source: string | null;
    error: string | null;
    counters: Record<string, number>;
}

/** The answer of GET /api/admin/operations (docs/web.md). */
export interface Operations
{
    matchingEngine?: MatchingEngine;
    timeMs: number;
    gatewayName: string;
    samplerError: string | null;
    series: Series;
    engine: Record<string, boolean | number>;
    gateway: Record<string, number>;
    bus: Record<string, number>;
    rnic: Record<string, number>;
    publications: Publication[];
    subscriptions: Subscription[];
    sessions: SessionRow[];
}

type Cell = string | number;
type Column<T> = [string, (row: T) => Cell];

function counters(values: Record<string, number | boolean>): HTMLDListElement
{
    const list = element('dl', null, 'counters');
    for (const [name, value] of Object.entries(values))
    {
        const dd = element('dd', typeof value === 'number' ? value.toLocaleString() : String(value));
        if ((typeof value === 'number' && value > 0 && BAD.test(name)) || false === value)
        {
            dd.classList.add('bad');
        }
        dd.dataset.name = name;
        list.append(element('dt', name), dd);
    }
    return list;
}

function table<T>(node: HTMLTableElement, columns: Column<T>[], rows: T[]): void
{
    const head = element('tr');
    head.append(...columns.map(([label]) => element('th', label)));
    const body = rows.map((row) =>
    {
        const tr = element('tr');
        tr.append(...columns.map(([, value]) =>
        {
            const cell = value(row);
            return element('td', typeof cell === 'number' ? cell.toLocaleString() : cell);
        }));
        return tr;
    });
    if (0 === rows.length)
    {
        const tr = element('tr');
        const td = element('td', 'none', 'text');
        td.colSpan = columns.length;
        tr.append(td);
        body.push(tr);
    }
    const thead = element('thead');
    thead.append(head);
    const tbody = element('tbody');
    tbody.append(...body);
    node.replaceChildren(thead, tbody);
}

/** A latency in microseconds, as µs below a millisecond and as ms above. */
export function micros(value: number): string
{
    if (value >= 1000)
    {
        return `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)} ms`;
    }
    return value >= 10 || 0 === value ? `${value.toFixed(0)} µs` : `${value.toFixed(1)} µs`;
}

export class OperationsView
{
    private timer: ReturnType<typeof setInterval> | null = null;
    last: Operations | null = null;
    private latencyChart: TimeChart | null = null;
    private engineChart: TimeChart | null = null;
    private throughputChart: TimeChart | null = null;

    /**
     * @param credentials gives {username, password} of the logged-on user, or null
     * @param notice shows a notice on the page
     */
    constructor(private readonly credentials: () => { username: string; password: string } | null,
        private readonly notice: (text: string, level: NoticeLevel) => void)
    {
        window.addEventListener(THEME_EVENT, () =>
        {
            this.latencyChart?.restyle();
            this.engineChart?.restyle();
            this.throughputChart?.restyle();
        });
    }

    start(): void
    {
        if (null === this.timer)
        {
            void this.poll();
            this.timer = setInterval(() => void this.poll(), POLL_MS);
        }
    }

    stop(): void
    {
        if (null !== this.timer)
        {
            clearInterval(this.timer);
        }
        this.timer = null;
    }

    async poll(): Promise<void>
    {
        const credentials = this.credentials();
        if (!credentials)
        {
            this.stop();
            return;
        }
        let response: Response;
        try
        {
            response = await fetch('/api/admin/operations', {
                // X-Requested-With: Spring Security then answers a 401 without a Basic challenge, so the browser
                // shows no password dialog of its own.
                headers: {
                    Authorization: 'Basic ' + btoa(`${credentials.username}:${credentials.password}`),
                    'X-Requested-With': 'XMLHttpRequest',
                },
                cache: 'no-store',
            });
        }
        catch (error)
        {
            byId('ops-updated').textContent = `the gateway did not answer: ${(error as Error).message}`;
            return;
        }
        if (!response.ok)
        {
            byId('ops-updated').textContent = `the gateway answered ${response.status} to /api/admin/operations`;
            if (401 === response.status || 403 === response.status)
            {
                this.stop();
                this.notice(`operations view refused by the gateway: HTTP ${response.status}`, 'error');
            }
            return;
        }
        this.last = await response.json() as Operations;
        this.render();
    }

    redraw(): void
    {
        if (this.last)
        {
            this.render();
        }
    }

    private charts(): [TimeChart, TimeChart, TimeChart]
    {
        if (null === this.latencyChart || null === this.engineChart || null === this.throughputChart)
        {
            this.latencyChart = new TimeChart(byId('latency-chart'), [
                { label: 'p50', color: '--series-1' },
                { label: 'p99', color: '--series-2' },
                { label: 'max', color: '--series-4' },
                { label: 'gateway own p50', color: '--series-3' },
            ], { zeroBased: true, format: micros, empty: 'no orders in the last five minutes' });
            this.engineChart = new TimeChart(byId('engine-latency-chart'), [
                { label: 'p50', color: '--series-1' },
                { label: 'p99', color: '--series-2' },
                { label: 'p99.9', color: '--series-4' },
            ], { zeroBased: true, format: micros, empty: 'no engine figures (no orders, or the engine is not read)' });
            this.throughputChart = new TimeChart(byId('throughput-chart'), [
                { label: 'order requests/s', color: '--series-1' },
                { label: 'reports/s', color: '--series-3' },
                { label: 'market data/s', color: '--series-2' },
                { label: 'bus msgs in/s', color: '--series-4' },
            ], { zeroBased: true, format: (value) => value.toFixed(0) });
        }
        return [this.latencyChart, this.engineChart, this.throughputChart];
    }

    private renderEngine(engine: MatchingEngine | undefined, s: Series): void
    {
        const source = byId('engine-source');
        const list = byId('engine-counters');
        if (!engine || null === engine.source)
        {
            source.textContent = 'The gateway has no engine address (warpbus.gateway.operations.engine-url).';
            list.replaceChildren();
            return;
        }
        source.textContent = null === engine.error ? `from ${engine.source}` : engine.error;
        source.classList.toggle('error', null !== engine.error);
        const last = (values: (number | null)[] | undefined): number | null =>
            values && values.length > 0 ? values[values.length - 1] : null;
        const rates: Record<string, number> = {};
        const orders = last(s.engineOrdersPerS);
        const trades = last(s.engineTradesPerS);
        if (null !== orders)
        {
            rates['commands/s'] = Math.round(orders * 10) / 10;
        }
        if (null !== trades)
        {
            rates['trades/s'] = Math.round(trades * 10) / 10;
        }
        list.replaceChildren(counters({ ...rates, ...engine.counters }));
    }

    private render(): void
    {
        const data = this.last;
        if (null === data)
        {
            return;
        }
        const s = data.series;
        const [latency, engineLatency, throughput] = this.charts();
        latency.setData(s.timeMs, [s.rttP50Us, s.rttP99Us, s.rttMaxUs, s.ownP50Us]);
        const none = s.timeMs.map(() => null);
        engineLatency.setData(s.timeMs, [s.engineMatchP50Us ?? none, s.engineMatchP99Us ?? none,
            s.engineMatchP999Us ?? none]);
        this.renderEngine(data.matchingEngine, s);
        throughput.setData(s.timeMs, [s.ordersPerS, s.reportsPerS, s.marketDataPerS, s.busMessagesReceivedPerS]);

        byId('bus-health').replaceChildren(counters(data.bus), element('h3', 'iWARP engine'), counters(data.rnic));
        byId('gateway-counters').replaceChildren(counters(data.engine), element('h3', 'gateway'),
            counters(data.gateway));

        table<Publication>(byId<HTMLTableElement>('publications'), [
            ['stream', (p) => p.stream], ['session', (p) => p.session], ['endpoint', (p) => p.endpoint],
            ['position', (p) => p.position ?? ''], ['limit', (p) => p.limit ?? ''],
            ['back pressure', (p) => p.backPressure ?? ''], ['subscriber', (p) => p.subscriber ?? ''],
            ['subscriber position', (p) => p.subscriberPosition ?? ''], ['lag (bytes)', (p) => p.lag ?? ''],
        ], data.publications);
        table<Subscription>(byId<HTMLTableElement>('subscriptions'), [
            ['channel', (c) => c.channel], ['stream', (c) => c.stream], ['policy', (c) => c.policy],
            ['position', (c) => c.position ?? ''], ['gaps', (c) => c.gaps ?? 0], ['uri', (c) => c.uri],
        ], data.subscriptions);
        table<SessionRow>(byId<HTMLTableElement>('sessions'), [
            ['user', (x) => x.user], ['name', (x) => x.name], ['state', (x) => x.state], ['address', (x) => x.address],
            ['age', (x) => `${Math.round(x.ageMs / 1000)} s`], ['msgs in/s', (x) => x.messagesInPerS.toFixed(1)],
            ['msgs out/s', (x) => x.messagesOutPerS.toFixed(1)], ['seq', (x) => x.lastSeq],
            ['open orders', (x) => x.openOrders], ['queue', (x) => `${x.queueBytes} / ${x.queueCapacity}`],
            ['conflated', (x) => x.conflatedUpdates], ['subscriptions', (x) => x.subscriptions.join(' ')],
        ], data.sessions);
        byId('ops-updated').textContent = `updated ${new Date(data.timeMs).toLocaleTimeString()}; ` +
            `${s.timeMs.length} samples of one second` + (data.samplerError ? `; sampler: ${data.samplerError}` : '');
    }
}

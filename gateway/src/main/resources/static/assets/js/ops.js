// The operations view (admin role): polls the gateway's /api/admin/operations once a second with HTTP Basic, as the
// user logged on to the page, and draws latency and throughput over time, bus health, the engine link, the gateway's
// counters and its sessions.

import { drawLineChart } from './chart.js';

const POLL_MS = 1000;
const BAD = /back\.pressure|drops|disconnects|gaps|errors|failures|timeouts|lost|unroutable|crc|terminates|conflated|rejects|stalls/;

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

function counters(values)
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

function table(node, columns, rows)
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
    node.replaceChildren(element('thead'), element('tbody'));
    node.tHead.append(head);
    node.tBodies[0].append(...body);
}

/** A latency in microseconds, as µs below a millisecond and as ms above. */
function micros(value)
{
    return value >= 1000 ? `${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)} ms` : `${value.toFixed(0)} µs`;
}

function series(data, key)
{
    return data.timeMs.map((t, i) => [t, data[key][i]]);
}

export class OperationsView
{
    /**
     * @param credentials a function giving {username, password} of the logged-on user, or null
     * @param notice a function showing a notice on the page
     */
    constructor(credentials, notice)
    {
        this.credentials = credentials;
        this.notice = notice;
        this.timer = null;
        this.last = null;
    }

    start()
    {
        if (null === this.timer)
        {
            this.poll();
            this.timer = setInterval(() => this.poll(), POLL_MS);
        }
    }

    stop()
    {
        clearInterval(this.timer);
        this.timer = null;
    }

    async poll()
    {
        const credentials = this.credentials();
        if (!credentials)
        {
            this.stop();
            return;
        }
        let response;
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
            document.getElementById('ops-updated').textContent = `the gateway did not answer: ${error.message}`;
            return;
        }
        if (!response.ok)
        {
            document.getElementById('ops-updated').textContent =
                `the gateway answered ${response.status} to /api/admin/operations`;
            if (401 === response.status || 403 === response.status)
            {
                this.stop();
                this.notice(`operations view refused by the gateway: HTTP ${response.status}`, 'error');
            }
            return;
        }
        this.last = await response.json();
        this.render();
    }

    redraw()
    {
        if (this.last)
        {
            this.render();
        }
    }

    render()
    {
        const data = this.last;
        const s = data.series;
        drawLineChart(document.getElementById('latency-chart'), [
            { label: 'p50', color: '--series-1', points: series(s, 'rttP50Us') },
            { label: 'p99', color: '--series-2', points: series(s, 'rttP99Us') },
            { label: 'max', color: '--series-4', points: series(s, 'rttMaxUs') },
            { label: 'gateway own p50', color: '--series-3', points: series(s, 'ownP50Us') },
        ], { zeroBased: true, format: micros, empty: 'no orders in the last five minutes' });
        drawLineChart(document.getElementById('throughput-chart'), [
            { label: 'order requests/s', color: '--series-1', points: series(s, 'ordersPerS') },
            { label: 'reports/s', color: '--series-3', points: series(s, 'reportsPerS') },
            { label: 'market data/s', color: '--series-2', points: series(s, 'marketDataPerS') },
            { label: 'bus msgs in/s', color: '--series-4', points: series(s, 'busMessagesReceivedPerS') },
        ], { zeroBased: true, format: (v) => v.toFixed(0) });

        const health = document.getElementById('bus-health');
        health.replaceChildren(counters(data.bus), element('h3', 'iWARP engine'), counters(data.rnic));
        const gateway = document.getElementById('gateway-counters');
        gateway.replaceChildren(counters(data.engine), element('h3', 'gateway'), counters(data.gateway));

        table(document.getElementById('publications'), [
            ['stream', (p) => p.stream], ['session', (p) => p.session], ['endpoint', (p) => p.endpoint],
            ['position', (p) => p.position], ['limit', (p) => p.limit], ['back pressure', (p) => p.backPressure],
            ['subscriber', (p) => p.subscriber || ''], ['subscriber position', (p) => p.subscriberPosition ?? ''],
            ['lag (bytes)', (p) => p.lag ?? ''],
        ], data.publications);
        table(document.getElementById('subscriptions'), [
            ['channel', (c) => c.channel], ['stream', (c) => c.stream], ['policy', (c) => c.policy],
            ['position', (c) => c.position ?? ''], ['gaps', (c) => c.gaps ?? 0], ['uri', (c) => c.uri],
        ], data.subscriptions);
        table(document.getElementById('sessions'), [
            ['user', (x) => x.user], ['name', (x) => x.name], ['state', (x) => x.state], ['address', (x) => x.address],
            ['age', (x) => `${Math.round(x.ageMs / 1000)} s`], ['msgs in/s', (x) => x.messagesInPerS.toFixed(1)],
            ['msgs out/s', (x) => x.messagesOutPerS.toFixed(1)], ['seq', (x) => x.lastSeq],
            ['open orders', (x) => x.openOrders], ['queue', (x) => `${x.queueBytes} / ${x.queueCapacity}`],
            ['conflated', (x) => x.conflatedUpdates], ['subscriptions', (x) => x.subscriptions.join(' ')],
        ], data.sessions);
        document.getElementById('ops-updated').textContent =
            `updated ${new Date(data.timeMs).toLocaleTimeString()}; ${s.timeMs.length} samples of one second`;
    }
}

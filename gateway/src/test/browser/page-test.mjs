// The gateway web page in a real browser: Debian's chromium driven by playwright-core, against a real gateway and
// matching engine that WebPageBrowserTest started. Prints "PASS <step>" per step passed; exits 1 at the first
// failure ("FAIL <step>: why"), or when the whole run takes longer than RUN_TIMEOUT_MS.
//
// Environment: GATEWAY_HTTP (http://127.0.0.1:PORT), ARTIFACTS (a directory for screenshots and the browser's
// console), CHROMIUM (default /usr/bin/chromium), and the users' passwords: ALICE_PASSWORD, BOB_PASSWORD,
// ADMIN_PASSWORD. The engine's ACME book holds resting orders of another user: bids 99.00 and 98.50, asks 101.00
// and 101.50, 10 and 20 units.

import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';

const RUN_TIMEOUT_MS = 240_000;
const STEP_TIMEOUT_MS = 15_000;
const gateway = new URL(process.env.GATEWAY_HTTP);
const artifacts = process.env.ARTIFACTS || 'target/browser';
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(artifacts, { recursive: true });

const watchdog = setTimeout(() =>
{
    console.log(`FAIL ${currentStep}: the run did not end within ${RUN_TIMEOUT_MS} ms`);
    writeFileSync(join(artifacts, 'console.log'), consoleLines.join('\n') + '\n');
    process.exit(1);
}, RUN_TIMEOUT_MS);

/**
 * A TCP proxy on loopback in front of the gateway, for the page whose connection the test cuts: cut() closes every
 * connection through it and refuses new ones until restore().
 */
function startProxy(target)
{
    const sockets = new Set();
    let refusing = false;
    const server = net.createServer((client) =>
    {
        if (refusing)
        {
            client.destroy();
            return;
        }
        const upstream = net.connect(Number(target.port), target.hostname);
        sockets.add(client);
        sockets.add(upstream);
        client.pipe(upstream);
        upstream.pipe(client);
        const close = () =>
        {
            client.destroy();
            upstream.destroy();
            sockets.delete(client);
            sockets.delete(upstream);
        };
        client.on('error', close);
        upstream.on('error', close);
        client.on('close', close);
        upstream.on('close', close);
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
        port: server.address().port,
        cut()
        {
            refusing = true;
            for (const socket of sockets)
            {
                socket.destroy();
            }
            sockets.clear();
        },
        restore()
        {
            refusing = false;
        },
        close()
        {
            server.close();
        },
    })));
}

let currentStep = 'start';
const runStartMs = Date.now();

async function step(name, body)
{
    currentStep = name;
    const startMs = Date.now();
    await body();
    console.log(`PASS ${name}`);
    console.log(`  (${Date.now() - startMs} ms, ${Date.now() - runStartMs} ms since the start)`);
}

async function logon(page, user, password)
{
    await page.fill('#logon-user', user);
    await page.fill('#logon-password', password);
    await page.click('#logon-submit');
}

async function ticket(page, { side, type = 'limit', price = '', quantity, tif = 'gtc', postOnly = false })
{
    await page.check(`input[name="side"][value="${side}"]`);
    await page.selectOption('#order-type', type);
    if ('limit' === type)
    {
        await page.fill('#order-price', price);
    }
    await page.fill('#order-quantity', String(quantity));
    await page.selectOption('#order-tif', tif);
    await page.setChecked('#order-post-only', postOnly);
    await page.click('#order-submit');
}

/** The clOrdIds of the open orders table. */
async function openOrders(page)
{
    return page.$$eval('#orders tbody tr', (rows) => rows.map((row) => row.dataset.clOrdId));
}

async function waitFor(page, what, predicate, argument)
{
    try
    {
        await page.waitForFunction(predicate, argument, { timeout: STEP_TIMEOUT_MS, polling: 100 });
    }
    catch (error)
    {
        throw new Error(`timed out waiting for ${what}`);
    }
}

const userDataDir = mkdtempSync(join(tmpdir(), 'warpbus-chromium-'));
const proxy = await startProxy(gateway);
let context;
const consoleLines = [];
try
{
    context = await chromium.launchPersistentContext(userDataDir, {
        executablePath,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        viewport: { width: 1440, height: 900 },
        colorScheme: 'dark',
        timeout: 30_000,
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const alice = context.pages()[0] || await context.newPage();
    alice.on('console', (message) => consoleLines.push(`alice ${message.type()}: ${message.text()}`));
    alice.on('pageerror', (error) => consoleLines.push(`alice pageerror: ${error.message}`));
    const proxied = `http://127.0.0.1:${proxy.port}/`;

    await step('page served without credentials in its source', async () =>
    {
        const response = await alice.goto(proxied);
        if (200 !== response.status())
        {
            throw new Error(`GET / answered ${response.status()}`);
        }
        const html = await response.text();
        // The page as Vite built it: index.html and the bundles it loads (scripts, styles, source maps).
        const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]);
        if (!assets.some((path) => path.endsWith('.js')))
        {
            throw new Error(`index.html loads no script from /assets: ${assets}`);
        }
        const sources = [html];
        for (const path of assets.flatMap((path) => path.endsWith('.js') ? [path, `${path}.map`] : [path]))
        {
            const asset = await alice.request.get(`${proxied}${path}`);
            if (200 !== asset.status())
            {
                throw new Error(`GET /${path} answered ${asset.status()}`);
            }
            sources.push(await asset.text());
        }
        for (const secret of [process.env.ALICE_PASSWORD, process.env.BOB_PASSWORD, process.env.ADMIN_PASSWORD])
        {
            if (sources.some((source) => source.includes(secret)))
            {
                throw new Error('a password appears in the page source');
            }
        }
    });

    await step('the theme follows the system until the toggle picks one, which is remembered', async () =>
    {
        const look = () => alice.evaluate(() => [document.documentElement.dataset.theme,
            getComputedStyle(document.body).backgroundColor, localStorage.getItem('warpbus-theme')]);
        const [dark, darkBackground, storedBefore] = await look();
        if ('dark' !== dark || null !== storedBefore)
        {
            throw new Error(`with a dark system preference the page is ${dark} (stored ${storedBefore})`);
        }
        await alice.emulateMedia({ colorScheme: 'light' });
        await waitFor(alice, 'the light theme from the system', () =>
            'light' === document.documentElement.dataset.theme);
        await alice.click('#theme');
        const [picked, pickedBackground, stored] = await look();
        if ('dark' !== picked || 'dark' !== stored || pickedBackground !== darkBackground)
        {
            throw new Error(`the toggle gave ${picked} (stored ${stored}, background ${pickedBackground})`);
        }
        await alice.click('#theme');
        const [light, lightBackground] = await look();
        if ('light' !== light || lightBackground === darkBackground)
        {
            throw new Error(`the second toggle gave ${light} with background ${lightBackground}`);
        }
        await alice.emulateMedia({ colorScheme: 'dark' });
        await alice.reload();
        await waitFor(alice, 'the remembered light theme after a reload under a dark system preference', () =>
            'light' === document.documentElement.dataset.theme &&
            'light' === localStorage.getItem('warpbus-theme'));
    });

    await step('logon with a wrong password shows the gateway reason', async () =>
    {
        await logon(alice, 'alice', 'not-her-password');
        await waitFor(alice, 'the logon error', () =>
            document.getElementById('logon-error').textContent.includes('unknown user or wrong password'));
    });

    await step('logon', async () =>
    {
        await logon(alice, 'alice', process.env.ALICE_PASSWORD);
        await waitFor(alice, 'the status to be up', () => 'up' === document.getElementById('status').dataset.state);
        await waitFor(alice, 'the trade view', () => !document.getElementById('trade-view').hidden);
        const instruments = await alice.$$eval('#instrument option', (options) => options.map((o) => o.value));
        if (!instruments.includes('ACME') || !instruments.includes('BETA'))
        {
            throw new Error(`instruments ${instruments}`);
        }
    });

    await step('ladder shows levels', async () =>
    {
        await waitFor(alice, 'ACME levels in the ladder', () =>
        {
            const prices = [...document.querySelectorAll('#ladder tbody tr')].map((row) => row.dataset.price);
            return ['101.50', '101.00', '99.00', '98.50'].every((price) => prices.includes(price));
        });
    });

    await step('client-side validation refuses an off-tick price without sending it', async () =>
    {
        const before = await alice.$$eval('#executions li', (items) => items.length);
        await ticket(alice, { side: 'buy', price: '99.53', quantity: 20 });
        await waitFor(alice, 'the ticket error', () =>
            document.getElementById('ticket-errors').textContent.includes('tick size 0.05 (109)'));
        await alice.waitForTimeout(300);
        const after = await alice.$$eval('#executions li', (items) => items.length);
        if (after !== before)
        {
            throw new Error('something was sent');
        }
    });

    await step('an order shows in open orders and marked in the ladder', async () =>
    {
        await ticket(alice, { side: 'buy', price: '99.50', quantity: 20 });
        await waitFor(alice, 'the open order', () =>
            [...document.querySelectorAll('#orders tbody tr')].some((row) => row.textContent.includes('99.50')));
        await waitFor(alice, 'the own order marked in the ladder', () =>
        {
            const row = document.querySelector('#ladder tbody tr[data-price="99.50"]');
            return null !== row && row.classList.contains('own') && '20' === row.dataset.own;
        });
    });

    await step('cancel removes it', async () =>
    {
        await alice.click('#orders tbody tr button.cancel');
        await waitFor(alice, 'no open orders', () => 0 === document.querySelectorAll('#orders tbody tr').length);
        await waitFor(alice, 'the level gone', () =>
            null === document.querySelector('#ladder tbody tr[data-price="99.50"]'));
        await waitFor(alice, 'the cancelled report', () =>
            [...document.querySelectorAll('#executions li')].some((li) => 'cancelled' === li.dataset.execType));
    });

    await step('an order the page lets through is rejected with the gateway reason', async () =>
    {
        const clOrdId = await alice.evaluate(() => window.warpbus.sendOrder({ side: 'buy', orderType: 'limit',
            timeInForce: 'gtc', price: '99.53', quantity: 20, postOnly: false, account: 101 }));
        await waitFor(alice, 'the rejection', (id) => [...document.querySelectorAll('#executions li.rejected')]
            .some((li) => li.dataset.clOrdId === id &&
                li.textContent.includes('reason 109: price is not a multiple of the tick size')), clOrdId);
    });

    await step('a crossing order fills and the trade reaches the tape and the chart', async () =>
    {
        await ticket(alice, { side: 'buy', price: '101.00', quantity: 10 });
        await waitFor(alice, 'the fill', () => [...document.querySelectorAll('#executions li.fill')]
            .some((li) => 'filled' === li.dataset.execType && li.textContent.includes('filled 10 @ 101.00')));
        await waitFor(alice, 'the trade on the tape', () =>
            [...document.querySelectorAll('#tape tbody tr')].some((row) => row.textContent.includes('101.00')));
        await waitFor(alice, 'the price chart', () =>
            Number(document.getElementById('price-chart').dataset.points) >= 1);
    });

    await step('amend changes price and quantity', async () =>
    {
        await ticket(alice, { side: 'buy', price: '99.50', quantity: 10 });
        await waitFor(alice, 'the open order', () => 1 === document.querySelectorAll('#orders tbody tr').length);
        await alice.click('#orders tbody tr button.amend');
        await alice.fill('#amend-price', '99.60');
        await alice.fill('#amend-quantity', '30');
        await alice.click('#amend-submit');
        await waitFor(alice, 'the amended order', () =>
        {
            const row = document.querySelector('#orders tbody tr');
            return null !== row && row.textContent.includes('99.60') && row.textContent.includes('30');
        });
        await waitFor(alice, 'the ladder at the new price', () =>
        {
            const row = document.querySelector('#ladder tbody tr[data-price="99.60"]');
            return null !== row && '30' === row.dataset.own;
        });
    });

    const bob = await context.newPage();
    bob.on('console', (message) => consoleLines.push(`bob ${message.type()}: ${message.text()}`));
    await step('a dropped connection reconnects and resumes without losing the fill made meanwhile', async () =>
    {
        const [restingId] = await openOrders(alice);
        await bob.goto(`${gateway.origin}/`);
        await logon(bob, 'bob', process.env.BOB_PASSWORD);
        await waitFor(bob, 'bob logged on', () => 'up' === document.getElementById('status').dataset.state);
        proxy.cut();
        await waitFor(alice, 'the page to see the drop', () =>
            'up' !== document.getElementById('status').dataset.state &&
            document.getElementById('notices').textContent.includes('connection lost'));
        await ticket(bob, { side: 'sell', price: '99.60', quantity: 30 });
        await waitFor(bob, 'bob filled', () => [...document.querySelectorAll('#executions li.fill')]
            .some((li) => 'filled' === li.dataset.execType));
        proxy.restore();
        await waitFor(alice, 'the page to resume', () =>
            'up' === document.getElementById('status').dataset.state &&
            document.getElementById('notices').textContent.includes('resumed the session'));
        await waitFor(alice, 'the fill, once', (id) =>
        {
            const fills = [...document.querySelectorAll('#executions li')]
                .filter((li) => li.dataset.clOrdId === id && 'filled' === li.dataset.execType);
            return 1 === fills.length && fills[0].textContent.includes('resent after reconnect');
        }, restingId);
        await waitFor(alice, 'the filled order out of open orders', () =>
            0 === document.querySelectorAll('#orders tbody tr').length);
        await alice.waitForTimeout(500);
        const fills = await alice.$$eval('#executions li', (items, id) => items.filter((li) =>
            li.dataset.clOrdId === id && 'filled' === li.dataset.execType).length, restingId);
        if (1 !== fills)
        {
            throw new Error(`the fill shown ${fills} times`);
        }
        await alice.screenshot({ path: join(artifacts, 'trade-view.png'), fullPage: true });
    });

    await step('a non-admin cannot open the operations view or its endpoint', async () =>
    {
        if (await alice.isVisible('#tab-ops'))
        {
            throw new Error('the operations tab is shown to alice');
        }
        await alice.evaluate(() =>
        {
            location.hash = '#ops';
        });
        await waitFor(alice, 'the refusal', () => !document.getElementById('ops-denied').hidden &&
            document.getElementById('ops-denied').textContent.includes('needs the admin role') &&
            document.getElementById('ops-content').hidden);
        // As the page asks (X-Requested-With, so that a 401 carries no Basic challenge and no browser dialog), and
        // without credentials through Playwright's own HTTP client.
        const status = await alice.evaluate(async (password) => (await fetch('/api/admin/operations',
            { headers: { Authorization: 'Basic ' + btoa(`alice:${password}`), 'X-Requested-With': 'XMLHttpRequest' } }))
            .status, process.env.ALICE_PASSWORD);
        const anonymous = (await alice.request.get(`${proxied}api/admin/operations`)).status();
        if (403 !== status || 401 !== anonymous)
        {
            throw new Error(`/api/admin/operations answered alice ${status}, no credentials ${anonymous}`);
        }
    });

    await step('the admin sees the operations view with charts of data', async () =>
    {
        await bob.click('#logout');
        await waitFor(bob, 'bob logged out', () => !document.getElementById('logon-view').hidden);
        await bob.goto(`${gateway.origin}/#ops`);
        await logon(bob, 'admin', process.env.ADMIN_PASSWORD);
        await waitFor(bob, 'the operations view', () => !document.getElementById('ops-view').hidden &&
            document.getElementById('ops-denied').hidden);
        await waitFor(bob, 'latency and throughput charts with data', () =>
            Number(document.getElementById('latency-chart').dataset.points) > 0 &&
            Number(document.getElementById('throughput-chart').dataset.points) > 0);
        await waitFor(bob, 'sessions, bus and subscriptions', () =>
            document.querySelectorAll('#sessions tbody tr').length >= 2 &&
            null !== document.querySelector('#bus-health dd[data-name="messages.received"]') &&
            document.getElementById('subscriptions').textContent.includes('market data') &&
            document.getElementById('gateway-counters').textContent.includes('engine connected'));
        await waitFor(bob, "the engine's match latency chart and counters", () =>
            Number(document.getElementById('engine-latency-chart').dataset.points) > 0 &&
            Number(document.querySelector('#engine-counters dd[data-name="commands"]')?.textContent
                .replace(/[^0-9]/g, '')) > 0);
        await bob.screenshot({ path: join(artifacts, 'operations-view.png'), fullPage: true });
    });

    await step('logout', async () =>
    {
        await alice.evaluate(() =>
        {
            location.hash = '#trade';
        });
        await waitFor(alice, 'the trade view', () => !document.getElementById('trade-view').hidden);
        await alice.click('#logout');
        await waitFor(alice, 'the logon form', () => !document.getElementById('logon-view').hidden &&
            document.getElementById('notices').textContent.includes('session ended: logout'));
    });
    await step('an operator ending the session logs the page off with the reason, without reconnecting', async () =>
    {
        await logon(alice, 'alice', process.env.ALICE_PASSWORD);
        await waitFor(alice, 'logged on', () => 'up' === document.getElementById('status').dataset.state);
        const token = await alice.evaluate(() => window.warpbus.connection.token);
        const ended = await bob.request.delete(`${gateway.origin}/api/admin/sessions/${token}?reason=maintenance-window`,
            { headers: { Authorization: 'Basic ' + Buffer.from(`admin:${process.env.ADMIN_PASSWORD}`).toString('base64') } });
        if (200 !== ended.status())
        {
            throw new Error(`DELETE /api/admin/sessions answered ${ended.status()}`);
        }
        await waitFor(alice, 'the logon form and the reason', () => !document.getElementById('logon-view').hidden &&
            document.getElementById('notices').textContent.includes('session ended: maintenance-window'));
        await alice.waitForTimeout(1500);
        const state = await alice.evaluate(() => [document.getElementById('status').dataset.state,
            null === window.warpbus.connection, !document.getElementById('logon-view').hidden]);
        if ('down' !== state[0] || !state[1] || !state[2])
        {
            throw new Error(`the page did not stay logged off: status ${state[0]}, connection gone ${state[1]}, ` +
                `logon form shown ${state[2]}`);
        }
    });
    console.log('DONE');
}
catch (error)
{
    console.log(`FAIL ${currentStep}: ${error.message}`);
    process.exitCode = 1;
}
finally
{
    writeFileSync(join(artifacts, 'console.log'), consoleLines.join('\n') + '\n');
    if (context)
    {
        await context.close().catch(() => {});
    }
    proxy.close();
    rmSync(userDataDir, { recursive: true, force: true });
    clearTimeout(watchdog);
}

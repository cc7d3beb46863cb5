// The gateway web page in Firefox: Debian's firefox-esr driven headless by puppeteer-core over WebDriver BiDi, against
// the real gateway and matching engine WebPageBrowserTest started (after page-test.mjs ran in chromium). Nothing
// downloads a browser. Prints "PASS <step>" per step passed; exits 1 at the first failure ("FAIL <step>: why"), or when
// the whole run takes longer than RUN_TIMEOUT_MS.
//
// Environment: GATEWAY_HTTP (http://127.0.0.1:PORT), ARTIFACTS (a directory for screenshots and the browser's
// console), FIREFOX (default /usr/bin/firefox-esr), ALICE_PASSWORD and ADMIN_PASSWORD. The engine's ACME book holds
// another user's bid of 10 at 99.00 and asks at 101.50.

import puppeteer from 'puppeteer-core';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN_TIMEOUT_MS = 200_000;
const STEP_TIMEOUT_MS = 20_000;
const gateway = new URL(process.env.GATEWAY_HTTP);
const artifacts = process.env.ARTIFACTS || 'target/browser';
const executablePath = process.env.FIREFOX || '/usr/bin/firefox-esr';
mkdirSync(artifacts, { recursive: true });
const consoleLines = [];
let currentStep = 'start';

const watchdog = setTimeout(() =>
{
    console.log(`FAIL ${currentStep}: the run did not end within ${RUN_TIMEOUT_MS} ms`);
    writeFileSync(join(artifacts, 'firefox-console.log'), consoleLines.join('\n') + '\n');
    process.exit(1);
}, RUN_TIMEOUT_MS);

async function step(name, body)
{
    currentStep = name;
    const startMs = Date.now();
    await body();
    console.log(`PASS ${name}`);
    console.log(`  (${Date.now() - startMs} ms)`);
}

async function waitFor(page, what, predicate, ...args)
{
    try
    {
        await page.waitForFunction(predicate, { timeout: STEP_TIMEOUT_MS, polling: 100 }, ...args);
    }
    catch (error)
    {
        throw new Error(`timed out waiting for ${what}`);
    }
}

/** Sets an input's value as a person typing it would, with the events the page listens to. */
async function fill(page, selector, value)
{
    await page.$eval(selector, (node, text) =>
    {
        node.value = text;
        node.dispatchEvent(new Event('input', { bubbles: true }));
        node.dispatchEvent(new Event('change', { bubbles: true }));
    }, String(value));
}

async function logon(page, user, password)
{
    await fill(page, '#logon-user', user);
    await fill(page, '#logon-password', password);
    await page.click('#logon-submit');
}

const userDataDir = mkdtempSync(join(tmpdir(), 'warpbus-firefox-'));
let browser;
try
{
    browser = await puppeteer.launch({
        browser: 'firefox',
        protocol: 'webDriverBiDi',
        executablePath,
        headless: true,
        userDataDir,
        defaultViewport: { width: 1440, height: 900 },
        timeout: 60_000,
        extraPrefsFirefox: {
            'browser.shell.checkDefaultBrowser': false,
            'datareporting.policy.dataSubmissionEnabled': false,
            'toolkit.telemetry.enabled': false,
            'app.update.enabled': false,
            'network.captive-portal-service.enabled': false,
        },
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
    console.log(`browser ${await browser.version()}`);

    await step('firefox: logon with a wrong password shows the gateway reason, then logon', async () =>
    {
        await page.goto(`${gateway.origin}/`);
        await logon(page, 'alice', 'not-her-password');
        await waitFor(page, 'the logon error', () =>
            document.getElementById('logon-error').textContent.includes('unknown user or wrong password'));
        await logon(page, 'alice', process.env.ALICE_PASSWORD);
        await waitFor(page, 'the status to be up', () => 'up' === document.getElementById('status').dataset.state);
        await waitFor(page, 'the trade view', () => !document.getElementById('trade-view').hidden);
    });

    await step('firefox: the book populates', async () =>
    {
        await waitFor(page, 'ACME levels in the ladder', () =>
        {
            const prices = [...document.querySelectorAll('#ladder tbody tr')].map((row) => row.dataset.price);
            return prices.includes('99.00') && prices.includes('101.50');
        });
    });

    await step('firefox: a crossing order fills and its trade reaches the tape and the chart', async () =>
    {
        await page.click('input[name="side"][value="sell"]');
        await page.select('#order-type', 'limit');
        await fill(page, '#order-price', '99.00');
        await fill(page, '#order-quantity', '10');
        await page.select('#order-tif', 'gtc');
        await page.click('#order-submit');
        await waitFor(page, 'the fill', () => [...document.querySelectorAll('#executions li.fill')]
            .some((li) => 'filled' === li.dataset.execType && li.textContent.includes('filled 10 @ 99.00')));
        await waitFor(page, 'the trade on the tape', () =>
            [...document.querySelectorAll('#tape tbody tr')].some((row) => row.textContent.includes('99.00')));
        await waitFor(page, 'the price chart', () =>
            Number(document.getElementById('price-chart').dataset.points) >= 1 &&
            null !== document.querySelector('#price-chart canvas'));
        await waitFor(page, 'the filled level gone', () =>
            null === document.querySelector('#ladder tbody tr[data-price="99.00"]'));
        await page.screenshot({ path: join(artifacts, 'firefox-trade-view.png'), fullPage: true });
    });

    await step('firefox: the admin sees the operations view with charts of data', async () =>
    {
        await page.click('#logout');
        await waitFor(page, 'alice logged out', () => !document.getElementById('logon-view').hidden);
        await page.goto(`${gateway.origin}/#ops`);
        await logon(page, 'admin', process.env.ADMIN_PASSWORD);
        await waitFor(page, 'the operations view', () => !document.getElementById('ops-view').hidden &&
            document.getElementById('ops-denied').hidden);
        await waitFor(page, 'latency and throughput charts with data', () =>
            Number(document.getElementById('latency-chart').dataset.points) > 0 &&
            Number(document.getElementById('throughput-chart').dataset.points) > 0 &&
            null !== document.querySelector('#latency-chart canvas'));
        await waitFor(page, 'sessions, bus and subscriptions', () =>
            document.querySelectorAll('#sessions tbody tr').length >= 1 &&
            null !== document.querySelector('#bus-health dd[data-name="messages.received"]') &&
            document.getElementById('subscriptions').textContent.includes('market data') &&
            document.getElementById('gateway-counters').textContent.includes('engine connected'));
        await waitFor(page, "the engine's match latency chart and counters", () =>
            Number(document.getElementById('engine-latency-chart').dataset.points) > 0 &&
            Number(document.querySelector('#engine-counters dd[data-name="commands"]')?.textContent
                .replace(/[^0-9]/g, '')) > 0);
        await page.screenshot({ path: join(artifacts, 'firefox-operations-view.png'), fullPage: true });
        await page.click('#logout');
        await waitFor(page, 'the admin logged out', () => !document.getElementById('logon-view').hidden);
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
    writeFileSync(join(artifacts, 'firefox-console.log'), consoleLines.join('\n') + '\n');
    if (browser)
    {
        await browser.close().catch(() => {});
    }
    rmSync(userDataDir, { recursive: true, force: true });
    clearTimeout(watchdog);
}

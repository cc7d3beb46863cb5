// Screenshots of the web page for the docs, taken from a running gateway (e.g. `./warpbus demo`): both views, in the
// dark and the light theme. Not a test. Environment: PAGE_URL (the demo's `gateway page`), PAGE_USER,
// PAGE_PASSWORD (an admin, as the demo user is), OUT (a directory), CHROMIUM (default /usr/bin/chromium),
// SYMBOL (optional: the instrument to show), SCALE (optional: the device pixel ratio, e.g. 0.6944 for images 1000
// pixels wide from the 1440 x 900 window) and FORMAT (optional: png, the default, or jpeg at quality 80).

import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = process.env.OUT || 'target/screenshots';
mkdirSync(out, { recursive: true });
const userDataDir = mkdtempSync(join(tmpdir(), 'warpbus-chromium-'));
const watchdog = setTimeout(() =>
{
    console.log('FAIL: screenshots not done within 90 s');
    process.exit(1);
}, 90_000);
const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: Number(process.env.SCALE || 1),
});
const format = 'jpeg' === process.env.FORMAT ? 'jpeg' : 'png';
const shot = (name) => ({ path: join(out, `${name}.${'jpeg' === format ? 'jpg' : 'png'}`), type: format,
    ...('jpeg' === format ? { quality: 80 } : {}) });
try
{
    context.setDefaultTimeout(15_000);
    const page = context.pages()[0] || await context.newPage();
    await page.goto(process.env.PAGE_URL);
    await page.fill('#logon-user', process.env.PAGE_USER);
    await page.fill('#logon-password', process.env.PAGE_PASSWORD);
    await page.click('#logon-submit');
    await page.waitForFunction(() => 'up' === document.getElementById('status').dataset.state);
    if (process.env.SYMBOL)
    {
        await page.selectOption('#instrument', process.env.SYMBOL);
    }
    await page.waitForFunction(() => document.querySelectorAll('#ladder tbody tr').length > 4);
    await page.waitForTimeout(8_000);
    for (const theme of ['dark', 'light'])
    {
        await page.evaluate((name) =>
        {
            if (name !== document.documentElement.dataset.theme)
            {
                document.getElementById('theme').click();
            }
        }, theme);
        await page.waitForTimeout(1_500);
        await page.screenshot(shot(`trade-${theme}`));
    }
    await page.evaluate(() =>
    {
        location.hash = '#ops';
    });
    await page.waitForFunction(() => Number(document.getElementById('latency-chart').dataset.points) > 5,
        null, { timeout: 30_000 });
    for (const theme of ['dark', 'light'])
    {
        await page.evaluate((name) =>
        {
            if (name !== document.documentElement.dataset.theme)
            {
                document.getElementById('theme').click();
            }
        }, theme);
        await page.waitForTimeout(1_500);
        await page.screenshot({ ...shot(`operations-${theme}`), fullPage: true });
    }
    console.log(`screenshots in ${out}`);
}
finally
{
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
    clearTimeout(watchdog);
}

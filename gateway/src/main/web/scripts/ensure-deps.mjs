// Runs `npm ci` when node_modules is missing or was installed from another package-lock.json than the committed one;
// otherwise does nothing, so a Maven build with the dependencies in place needs no network. Run by the gateway's
// Maven build (exec-maven-plugin) in this directory, with the machine's own node and npm.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const STAMP = 'node_modules/.warpbus-package-lock.sha256';

if (!existsSync('package-lock.json'))
{
    console.error(`ensure-deps: no package-lock.json in ${process.cwd()}`);
    process.exit(2);
}
const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const installed = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
if (installed === lockHash && existsSync('node_modules/.bin/vite'))
{
    console.log('ensure-deps: node_modules matches package-lock.json');
    process.exit(0);
}
console.log(`ensure-deps: ${null === installed ? 'no node_modules from npm ci' : 'package-lock.json changed'}: ` +
    'running npm ci');
const npm = 'win32' === process.platform ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
if (result.error)
{
    console.error(`ensure-deps: cannot run ${npm}: ${result.error.message} (node and npm must be on the PATH)`);
    process.exit(2);
}
if (0 !== result.status)
{
    console.error(`ensure-deps: npm ci failed with exit status ${result.status}`);
    process.exit(result.status ?? 1);
}
writeFileSync(STAMP, lockHash + '\n');

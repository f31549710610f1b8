// Runs the WASM build in headless Chromium, as an app ships it: app.mjs and the vector cases are
// bundled by esbuild against the packed package installed in `--project`, served from localhost
// with testdata/, and loaded twice (init(url), then initSync(bytes)). Prints each case; exits 1
// on any failure, or if a page ran no case. With --test-chain, the page also proves a tx from the
// test chain's stub node and anvil over fetch (both serve CORS), as a wallet's page would. The
// init(url) page also runs txfx/worker's cases (its thread bundled as an entry of its own) and
// prints how long the page's thread went without a tick while a log-heavy block was hashed on it
// and in the worker.
//
// node run.mjs --tools DIR (esbuild, playwright-core) --project DIR (txfx installed)
//              --testdata DIR [--chromium PATH] [--test-chain BINARY (txfx-test-chain)]
//              [--heavy log-heavy-64.json (the block txfx/worker is measured on; log-heavy-3.json)]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CHROMIUM_ARGS, serve, within } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
for (const needed of ['tools', 'project', 'testdata']) if (!args[needed]) throw new Error(`--${needed} is required`);
const here = path.dirname(fileURLToPath(import.meta.url));
const tools = createRequire(path.join(path.resolve(args.tools), 'package.json'));
const esbuild = tools('esbuild');
const { chromium } = tools('playwright-core');

const project = path.resolve(args.project);
const out = path.join(project, 'page');
await copyFile(path.join(here, 'app.mjs'), path.join(project, 'app.mjs'));
await copyFile(path.join(here, '..', 'vectors.mjs'), path.join(project, 'vectors.mjs'));
const built = await esbuild.build({
  absWorkingDir: project,
  // The worker's thread as an entry of its own (esbuild does not follow `new Worker(new URL())`).
  entryPoints: ['app.mjs', { in: 'txfx/worker-thread', out: 'txfx-worker' }],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outdir: out,
  loader: { '.wasm': 'file' },
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.entries(built.metafile.outputs).map(([file, { bytes }]) => `${path.basename(file)} ${bytes} B`);
console.log(`esbuild bundled the app: ${outputs.join(', ')}`);
await writeFile(path.join(out, 'index.html'), '<!doctype html><meta charset="utf-8"><title>txfx</title><script type="module" src="./app.js"></script>\n');

const { origin, close } = await serve((pathname) =>
  pathname.startsWith('/testdata/') ? within(args.testdata, pathname.slice('/testdata/'.length)) : within(out, pathname.slice(1) || 'index.html'),
);

// The test chain, honest: its URLs go to the page in the query. It stops when its input closes.
let chain = null;
let chainUrls = '';
if (args['test-chain']) {
  chain = spawn(args['test-chain'], ['none'], { stdio: ['pipe', 'pipe', 'inherit'] });
  chainUrls = await new Promise((resolve, reject) => {
    createInterface({ input: chain.stdout }).once('line', resolve);
    chain.once('exit', (code) => reject(new Error(`txfx-test-chain exited with ${code}`)));
  });
}

const browser = await chromium.launch({ executablePath: args.chromium ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
let failed = 0;
try {
  for (const mode of ['async', 'sync']) {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const heavy = args.heavy ? `&heavy=${encodeURIComponent(args.heavy)}` : '';
    await page.goto(`${origin}/index.html?init=${mode}${heavy}${chainUrls ? `&chain=${encodeURIComponent(chainUrls)}` : ''}`);
    await page.waitForFunction(() => window.__txfx !== undefined, null, { timeout: 300_000 });
    const report = await page.evaluate(() => window.__txfx);
    if (report.error) problems.push(report.error);
    for (const { name, ok, error } of report.results) {
      console.log(`${ok ? 'ok' : 'FAILED'} [chromium, init ${mode}] ${name}${ok ? '' : `\n  ${error}`}`);
      if (!ok) failed += 1;
    }
    if (report.results.length === 0) problems.push('the page ran no case');
    if (report.measures && Object.keys(report.measures).length > 0) console.log(`measured [chromium, init ${mode}]: ${JSON.stringify(report.measures)}`);
    for (const problem of problems) console.log(`FAILED [chromium, init ${mode}] ${problem}`);
    failed += problems.length;
    console.log(`chromium (${browser.version()}), init ${mode}: ${report.results.filter((r) => r.ok).length} of ${report.results.length} cases passed`);
    await page.close();
  }
} finally {
  await browser.close();
  close();
  if (chain) {
    const exited = new Promise((resolve) => chain.once('exit', resolve));
    chain.stdin.end();
    await exited;
  }
}
process.exit(failed === 0 ? 0 : 1);

// The packed package as apps load it, each run in headless Chromium (apps/checks.mjs: the main
// entry and txfx/worker hash the three-tx block to testdata's root, refusals keep their class):
//   importmap  no bundler: an import map names txfx's ES modules in node_modules
//   cdn        no bundler: the page imports /npm/txfx@<version>/browser.mjs from another origin,
//              laid out as a CDN serves a package (with CORS)
//   vite       `vite build`, and Vite's dev server
//   webpack    webpack 5, production mode
//   esbuild    esbuild, the module as txfx/txfx.wasm and the worker's thread as an entry of its own
// and Node: a script bundled by esbuild with txfx inside must fail at load saying to mark txfx
// external; with txfx external it runs. Prints each case, the bundles' sizes and each stage's
// time; exits 1 on any failure.
//
// node bundlers.mjs --tools DIR (esbuild, playwright-core) --bundlers DIR (vite, webpack)
//                   --project DIR (txfx installed) --testdata DIR [--chromium PATH]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { CHROMIUM_ARGS, serve, within } from './serve.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
for (const needed of ['tools', 'bundlers', 'project', 'testdata']) if (!args[needed]) throw new Error(`--${needed} is required`);
const here = path.dirname(fileURLToPath(import.meta.url));
const tools = createRequire(path.join(path.resolve(args.tools), 'package.json'));
const bundlers = createRequire(path.join(path.resolve(args.bundlers), 'package.json'));
const esbuild = tools('esbuild');
const { chromium } = tools('playwright-core');
const webpack = bundlers('webpack');
const vite = await import(pathToFileURL(bundlers.resolve('vite')).href);

const project = path.resolve(args.project);
const testdata = path.resolve(args.testdata);
const apps = path.join(project, 'apps');
const installed = path.join(project, 'node_modules', 'txfx');
const { version } = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
await rm(apps, { recursive: true, force: true });
await mkdir(apps, { recursive: true });
for (const file of ['checks.mjs', 'plain.mjs', 'esbuild.mjs', 'node-app.cjs']) await cp(path.join(here, 'apps', file), path.join(apps, file));
const page = (script) => `<!doctype html><meta charset="utf-8"><title>txfx</title>${script}\n`;

const timings = [];
async function timed(name, run) {
  const started = performance.now();
  const value = await run();
  timings.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return value;
}

// The files under `dir` and their sizes, for the report.
async function sizes(dir) {
  const out = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.html')) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    out.push(`${path.relative(dir, file)} ${(await stat(file)).size} B`);
  }
  return out.sort();
}

const testdataFile = (pathname) => (pathname.startsWith('/testdata/') ? within(testdata, pathname.slice('/testdata/'.length)) : undefined);
const staticSite = (dir) => (pathname) => testdataFile(pathname) ?? within(dir, pathname.slice(1) || 'index.html');

// ---- builds ----

const built = {};

await timed('vite build', async () => {
  // The app's folder is Vite's root (its index.html the build's input and the dev server's page).
  await writeFile(path.join(apps, 'index.html'), page('<script type="module" src="./plain.mjs"></script>'));
  const outDir = path.join(apps, 'vite-dist');
  await vite.build({ root: apps, configFile: false, logLevel: 'warn', publicDir: false, build: { outDir, emptyOutDir: true } });
  built.vite = outDir;
});

await timed('webpack', async () => {
  const outDir = path.join(apps, 'webpack-dist');
  const stats = await new Promise((resolve, reject) => {
    webpack(
      { mode: 'production', context: apps, entry: './plain.mjs', output: { path: outDir, filename: 'app.js', clean: true }, target: 'web', performance: { hints: false } },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  if (stats.hasErrors()) throw new Error(`webpack: ${stats.toString({ all: false, errors: true })}`);
  await writeFile(path.join(outDir, 'index.html'), page('<script src="./app.js"></script>'));
  built.webpack = outDir;
});

await timed('esbuild', async () => {
  const outDir = path.join(apps, 'esbuild-dist');
  await esbuild.build({
    absWorkingDir: apps,
    entryPoints: ['esbuild.mjs', { in: 'txfx/worker-thread', out: 'txfx-worker' }],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: outDir,
    loader: { '.wasm': 'file' },
    logLevel: 'warning',
  });
  await writeFile(path.join(outDir, 'index.html'), page('<script type="module" src="./esbuild.js"></script>'));
  built.esbuild = outDir;
});

// ---- Node: txfx bundled in, then external ----

let failed = 0;
const report = (ok, name, detail = '') => {
  console.log(`${ok ? 'ok' : 'FAILED'} ${name}${ok || !detail ? '' : `\n  ${detail}`}`);
  if (!ok) failed += 1;
};

await timed('node bundles', async () => {
  // Outside the project: no node_modules above the bundle, as in a deployed server image.
  const away = path.join(project, '..', 'bundled-node');
  await rm(away, { recursive: true, force: true });
  const node = (file) => spawnSync(process.execPath, [file, path.join(testdata, 'blocks/three-fixtures.json')], { encoding: 'utf8', env: { ...process.env, TXFX_BACKEND: '' } });
  const common = { absWorkingDir: apps, entryPoints: ['node-app.cjs'], bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' };
  await esbuild.build({ ...common, outfile: path.join(away, 'inside.cjs') });
  const inside = node(path.join(away, 'inside.cjs'));
  report(
    inside.status !== 0 && /Mark txfx external in your bundler \(esbuild --external:txfx/.test(inside.stderr),
    '[node] txfx bundled into a script fails at load, saying to mark txfx external',
    `exit ${inside.status}\n${inside.stdout}${inside.stderr}`,
  );
  await esbuild.build({ ...common, outfile: path.join(apps, 'node-external.cjs'), external: ['txfx'] });
  const outside = node(path.join(apps, 'node-external.cjs'));
  const root = JSON.parse(await readFile(path.join(testdata, 'aztec-fixtures.json'), 'utf8')).three_tx_block.root;
  report(outside.status === 0 && outside.stdout.includes(`root ${root}`), '[node] with txfx external, the bundled script hashes the block', `exit ${outside.status}\n${outside.stdout}${outside.stderr}`);
});

// ---- Chromium ----

const browser = await chromium.launch({ executablePath: args.chromium ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });

async function visit(name, url) {
  const tab = await browser.newPage();
  const problems = [];
  tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  try {
    await tab.goto(url);
    await tab.waitForFunction(() => window.__txfx !== undefined, null, { timeout: 120_000 });
    const result = await tab.evaluate(() => window.__txfx);
    if (result.error) problems.push(result.error);
    for (const { name: what, ok, error } of result.results) report(ok, `[${name}] ${what}`, error);
    if (result.results.length < 4) problems.push(`${result.results.length} of 4 cases ran`);
  } catch (error) {
    problems.push(String(error));
  } finally {
    await tab.close();
  }
  for (const problem of problems) report(false, `[${name}] ${problem}`);
}

const servers = [];
async function site(files, headers) {
  const server = await serve(files, headers);
  servers.push(server);
  return server.origin;
}

try {
  for (const bundler of ['vite', 'webpack', 'esbuild']) {
    await timed(`chromium: ${bundler}`, async () => visit(bundler, `${await site(staticSite(built[bundler]))}/index.html`));
  }

  await timed('chromium: import map', async () => {
    const dir = path.join(apps, 'importmap');
    await mkdir(dir, { recursive: true });
    const map = { imports: { txfx: '/node_modules/txfx/browser.mjs', 'txfx/worker': '/node_modules/txfx/worker.mjs' } };
    await writeFile(path.join(dir, 'index.html'), page(`<script type="importmap">${JSON.stringify(map)}</script><script type="module" src="/plain.mjs"></script>`));
    const origin = await site((pathname) => {
      if (pathname.startsWith('/node_modules/txfx/')) return within(installed, pathname.slice('/node_modules/txfx/'.length));
      if (pathname === '/plain.mjs' || pathname === '/checks.mjs') return within(apps, pathname.slice(1));
      return staticSite(dir)(pathname);
    });
    await visit('import map', `${origin}/index.html`);
  });

  await timed('chromium: cdn', async () => {
    // The package at /npm/txfx@<version>/ on its own origin, with CORS, as jsDelivr and unpkg
    // serve it; the page on another.
    const prefix = `/npm/txfx@${version}/`;
    const cdn = await site((pathname) => (pathname.startsWith(prefix) ? within(installed, pathname.slice(prefix.length)) : null), { 'access-control-allow-origin': '*' });
    const dir = path.join(apps, 'cdn');
    await mkdir(dir, { recursive: true });
    const script = `<script type="module">
import * as txfx from '${cdn}${prefix}browser.mjs';
import * as worker from '${cdn}${prefix}worker.mjs';
import { check } from '/checks.mjs';
check(txfx, worker);
</script>`;
    await writeFile(path.join(dir, 'index.html'), page(script));
    const origin = await site((pathname) => (pathname === '/checks.mjs' ? within(apps, 'checks.mjs') : staticSite(dir)(pathname)));
    await visit('cdn', `${origin}/index.html`);
  });

  await timed('chromium: vite dev server', async () => {
    const server = await vite.createServer({
      root: apps,
      configFile: false,
      logLevel: 'warn',
      publicDir: false,
      server: { host: '127.0.0.1', port: 0, strictPort: false, fs: { allow: [project] } },
      plugins: [
        {
          name: 'testdata',
          configureServer(dev) {
            dev.middlewares.use(async (request, response, next) => {
              const file = testdataFile(new URL(request.url, 'http://localhost').pathname);
              if (file === undefined) return next();
              try {
                response.end(await readFile(file));
              } catch {
                response.statusCode = 404;
                response.end();
              }
            });
          },
        },
      ],
    });
    await server.listen();
    try {
      const address = server.httpServer.address();
      await visit('vite dev', `http://127.0.0.1:${address.port}/index.html`);
    } finally {
      await server.close();
    }
  });
} finally {
  await browser.close();
  for (const server of servers) server.close();
}

for (const bundler of ['vite', 'webpack', 'esbuild']) console.log(`bundle ${bundler}: ${(await sizes(built[bundler])).join(', ')}`);
console.log(`timings: ${timings.join(', ')}`);
console.log(failed === 0 ? `every app loaded txfx in Chromium (${browser.version?.() ?? ''})` : `${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

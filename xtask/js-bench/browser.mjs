// The Chromium part of `cargo xtask bench --js`: bundles page.mjs (txfx's package, bb.js's browser
// build and @aztec/foundation in one app, by esbuild), serves it from localhost beside the
// workloads' inputs, and runs both engines in one headless Chromium page, alternating over the
// rounds. Writes OUT_DIR/chromium-ROUND.json, in bench.mjs's format.
//
// node browser.mjs EXPORT.json TESTDATA PACKAGE OUT_DIR --tools DIR (esbuild, playwright-core)
//                  [--chromium PATH] [--rounds N] [--quick]
// Runs from target/peer/js-bench/, under the reference's node_modules, beside a copy of
// js/test/browser/serve.mjs.
import { createRequire } from 'node:module';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CHROMIUM_ARGS, serve, within } from './serve.mjs';

const [exportPath, testdata, packageDir, outDir, ...rest] = process.argv.slice(2);
const option = (name, fallback) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : fallback);
const quick = rest.includes('--quick');
const rounds = Number(option('--rounds', quick ? 1 : 2));
const tools = createRequire(path.join(path.resolve(option('--tools')), 'package.json'));
const esbuild = tools('esbuild');
const { chromium } = tools('playwright-core');
const here = path.dirname(fileURLToPath(import.meta.url));

// The package as an app depends on it: by name, through its package.json's exports (the
// `browser` condition, `txfx/txfx.wasm`).
const link = path.join(here, '..', 'node_modules', 'txfx');
await rm(link, { recursive: true, force: true });
await symlink(path.resolve(packageDir), link, 'dir');

const page = path.join(outDir, 'chromium-page');
const builtins = path.join(here, 'builtins.mjs');
const built = await esbuild.build({
  absWorkingDir: here,
  entryPoints: ['page.mjs'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outdir: page,
  loader: { '.wasm': 'file' },
  inject: [path.join(here, 'globals.mjs')],
  define: { global: 'globalThis' },
  plugins: [{ name: 'node-builtins', setup: (build) => build.onResolve({ filter: /^(node:)?(util|tty)$/ }, () => ({ path: builtins })) }],
  metafile: true,
  logLevel: 'warning',
});
const bundled = Object.entries(built.metafile.outputs).map(([file, { bytes }]) => `${path.basename(file)} ${(bytes / 1024).toFixed(0)} KB`);
console.error(`js-bench: chromium: esbuild bundled the page: ${bundled.join(', ')}`);
await writeFile(path.join(page, 'index.html'), '<!doctype html><meta charset="utf-8"><title>txfx bench</title><script type="module" src="./page.js"></script>\n');

const { origin, close } = await serve((pathname) => {
  if (pathname === '/export.json') return path.resolve(exportPath);
  return pathname.startsWith('/testdata/') ? within(testdata, pathname.slice('/testdata/'.length)) : within(page, pathname.slice(1) || 'index.html');
});

const browser = await chromium.launch({ executablePath: option('--chromium', '/usr/bin/chromium'), headless: true, args: CHROMIUM_ARGS });
try {
  const tab = await browser.newPage();
  const problems = [];
  tab.on('pageerror', (error) => problems.push(error.message));
  await tab.goto(`${origin}/index.html`);
  await tab.waitForFunction(() => window.__benchReady !== undefined, null, { timeout: 120_000 });
  const ready = await tab.evaluate(() => window.__benchReady);
  if (ready !== 'ok' || problems.length) throw new Error(`chromium: the page did not load: ${[ready, ...problems].join('\n')}`);
  const versions = { chromium: browser.version() };
  await mkdir(outDir, { recursive: true });
  for (let round = 1; round <= rounds; round++) {
    const results = [];
    for (const engine of ['wasm', 'bb-wasm']) {
      const records = await tab.evaluate(([e, q]) => window.__bench(e, q), [engine, quick]);
      if (records.length === 0) throw new Error(`chromium: ${engine} recorded nothing`);
      for (const r of records) console.error(`js-bench: ${r.engine} ${r.workload} ${r.name} n=${r.n}: ${r.median_ms.toFixed(4)} ms`);
      results.push(...records);
    }
    await writeFile(path.join(outDir, `chromium-${round}.json`), JSON.stringify({ versions, results }, null, 1));
  }
  if (problems.length) throw new Error(`chromium: ${problems.join('\n')}`);
} finally {
  await browser.close();
  close();
}
process.exit(0);

// `cargo xtask bench --js`: the npm package's engines side by side with Aztec's own stack
// (@aztec/foundation + @aztec/bb.js, as `bench --peer` installs them), one Node process per
// engine: `node bench.mjs ENGINE EXPORT.json TESTDATA PACKAGE OUT.json [--quick] [--repeat]`,
// ENGINE one of
// native, wasm (txfx's package, TXFX_BACKEND forcing the engine), bb-shm, bb-wasm (bb.js's
// synchronous backends, the ones Aztec's node hashes trees with).
//
// The timed workloads are workloads.mjs's (shared with the Chromium page, page.mjs); this
// process adds what only Node has: the event loop under each engine's async path, cold start.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';

import { bbSyncOn } from './bb-sync.mjs';
import { bbOps, timedWorkloads, txfxOps } from './workloads.mjs';

const [engine, exportPath, testdata, packageDir, outPath, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
// A second round repeats the timed workloads only (not the event loop or cold start).
const repeat = flags.includes('--repeat');
const spec = JSON.parse(readFileSync(exportPath, 'utf8'));
const TREE = spec.separators.tree;
const isTxfx = engine === 'native' || engine === 'wasm';

let ops;
if (isTxfx) {
  const txfx = createRequire(path.resolve(packageDir, 'index.js'))('./index.js');
  if (txfx.backend !== engine) throw new Error(`asked for ${engine}, got ${txfx.backend}`);
  ops = txfxOps(txfx, spec, (c) => readFileSync(path.join(testdata, 'blocks', `${c.profile}-${c.n}.json`), 'utf8'));
} else {
  // This script runs from a copy in target/peer/js-bench/, under the reference's node_modules.
  const bb = await import('@aztec/bb.js');
  const type = engine === 'bb-shm' ? bb.BackendType.NativeSharedMemory : bb.BackendType.Wasm;
  const sync = await bbSyncOn(bb, type, () => import('@aztec/foundation/crypto/sync'));
  const { Fr } = await import('@aztec/foundation/curves/bn254');
  const trees = await import('@aztec/foundation/trees');
  ops = bbOps({ Fr, sync, trees }, spec);
}

const results = [];
const record = (workload, name, n, stats) => {
  results.push({ workload, name, engine, n, ...stats });
  const value = stats.median_ms ?? stats.p99_ms;
  console.error(`js-bench: ${engine} ${workload} ${name} n=${n}: ${value.toFixed(4)} ms`);
};

// ---- 1-3. per call, the 64-leaf tree, witness and verification, complete commitments ----
await timedWorkloads(ops, spec, { engine, quick, record });

// ---- 4. the event loop while a log-heavy 64-tx block's leaves are computed (each engine's
// async path: txfx's …Async forms; bb.js's sync backends have none, so they block). A 1 ms
// interval timer, as an application's would, records how late each of its ticks runs; a
// blocked loop shows as one late tick as long as the block. perf_hooks' monitorEventLoopDelay
// runs beside it (it records nothing while the loop is blocked outright).
if (!quick && !repeat) {
  const logHeavy64 = spec.commitment.find((c) => c.profile === 'log-heavy' && c.n === 64);
  const { async } = ops.commitment(logHeavy64);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const lateness = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    lateness.push(Math.max(0, now - last - 1));
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 50));
  lateness.length = 0;
  last = performance.now();
  histogram.enable();
  const start = performance.now();
  for (let i = 0; i < 3; i++) await async();
  const elapsed = performance.now() - start;
  // Let the ticks a blocked loop owes run before reading them.
  await new Promise((r) => setTimeout(r, 20));
  histogram.disable();
  clearInterval(ticker);
  lateness.sort((a, b) => a - b);
  const at = (q) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))];
  const ms = (ns) => ns / 1e6;
  record('event-loop', 'log-heavy-64', 64, {
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: lateness[lateness.length - 1],
    ticks: lateness.length,
    monitor_p99_ms: ms(histogram.percentile(99)),
    monitor_max_ms: ms(histogram.max),
    blocks: 3,
    elapsed_ms: elapsed,
  });
}

// ---- 5. cold start: a fresh process per sample (cold.mjs beside this script) ----
if (!repeat) {
  const runs = [];
  for (let i = 0; i < (quick ? 1 : 7); i++) {
    const out = execFileSync(process.execPath, [new URL('./cold.mjs', import.meta.url).pathname, engine, testdata, path.resolve(packageDir), String(TREE)], {
      env: { ...process.env, TXFX_BACKEND: isTxfx ? engine : '' },
      encoding: 'utf8',
    });
    runs.push(JSON.parse(out.trim().split('\n').pop()));
  }
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  record('cold-start', 'import-and-first-root', 3, { median_ms: median('importAndFirstRootMs'), since_process_start_ms: median('sinceProcessStartMs'), samples: runs.length });
}

const versions = { node: process.version };
if (!isTxfx) {
  for (const name of ['@aztec/foundation', '@aztec/bb.js']) {
    versions[name] = JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
  }
}
writeFileSync(outPath, JSON.stringify({ versions, results }, null, 1));
process.exit(0);

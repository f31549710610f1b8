// `cargo xtask bench --js`: the npm package's engines side by side with Aztec's own stack
// (@aztec/foundation + @aztec/bb.js, as `bench --peer` installs them), one Node process per
// engine: `node bench.mjs ENGINE EXPORT.json TESTDATA PACKAGE OUT.json [--quick] [--repeat]`,
// ENGINE one of
// native, wasm (txfx's package, TXFX_BACKEND forcing the engine), bb-shm, bb-wasm (bb.js's
// synchronous backends, the ones Aztec's node hashes trees with).
//
// Every workload goes through each side's public JavaScript API, boundary included: field
// elements in as each API takes them (txfx: 0x-hex strings and JSON text; bb.js: Fr objects).
// Every root is checked against the export's (written by txfx-bench, which the Rust benchmark
// checks against the reference) before any timing; a mismatch aborts the run.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';

const [engine, exportPath, testdata, packageDir, outPath, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
// A second round repeats the timed workloads only (not the event loop or cold start).
const repeat = flags.includes('--repeat');
const spec = JSON.parse(readFileSync(exportPath, 'utf8'));
const TREE = spec.separators.tree;
const isTxfx = engine === 'native' || engine === 'wasm';

const hex = (buffer) => '0x' + Buffer.from(buffer).toString('hex');
const leafOf = (i) => (BigInt(i) * 0x9e3779b97f4a7c15n) % (1n << 64n) | 1n;
const leafHex = (i) => '0x' + leafOf(i).toString(16).padStart(64, '0');
const check = (what, got, want) => {
  if (got !== want) throw new Error(`${engine}: ${what}: root ${got}, expected ${want}`);
};

async function measure(samples, warmups, f) {
  const times = [];
  for (let i = 0; i < warmups + samples; i++) {
    const start = performance.now();
    await f();
    const elapsed = performance.now() - start;
    if (i >= warmups) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const n = times.length;
  return { median_ms: n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2, min_ms: times[0], max_ms: times[n - 1], samples: n };
}
// Fewer samples where one takes long (a log-heavy block through the reference: seconds).
async function timed(f) {
  const start = performance.now();
  await f();
  const once = performance.now() - start;
  const [samples, warmups] = quick ? [3, 1] : once > 500 ? [5, 1] : once > 50 ? [9, 2] : [spec.samples, spec.warmups];
  return measure(samples, warmups, f);
}

const results = [];
const record = (workload, name, n, stats) => {
  results.push({ workload, name, engine, n, ...stats });
  const value = stats.median_ms ?? stats.p99_ms;
  console.error(`js-bench: ${engine} ${workload} ${name} n=${n}: ${value.toFixed(4)} ms`);
};

// ---- each side's operations ----

let ops;
if (isTxfx) {
  const txfx = createRequire(path.resolve(packageDir, 'index.js'))('./index.js');
  if (txfx.backend !== engine) throw new Error(`asked for ${engine}, got ${txfx.backend}`);
  const body = (c) => readFileSync(path.join(testdata, 'blocks', `${c.profile}-${c.n}.json`), 'utf8');
  ops = {
    permutation: (state) => txfx.poseidon2Permutation(state),
    start: ['0x1', '0x2', '0x3', '0x4'],
    node: () => txfx.poseidon2HashWithSeparator(['0x5', '0x6'], TREE),
    commitment: (c) => {
      const text = body(c);
      return { root: () => txfx.txEffectsTreeRoot(text), async: () => txfx.txEffectLeavesAsync(text, 1) };
    },
    leaves: (n) => Array.from({ length: n }, (_, i) => leafHex(i)),
    root: (leaves) => txfx.txEffectsTreeRootFromLeaves(leaves),
    witness: (leaves, i) => txfx.txEffectMembershipWitnessFromLeaves(leaves, i, 1),
    verify: (witness, leaf, root) => {
      const verdict = txfx.verifyTxEffectMembershipWitness(witness, { leaf }, root);
      if (!verdict.valid) throw new Error(`verification failed: ${verdict.reason}`);
    },
  };
} else {
  // This script runs from a copy in target/peer/js-bench/, under the reference's node_modules.
  const { BarretenbergSync, BackendType } = await import('@aztec/bb.js');
  const { Fr } = await import('@aztec/foundation/curves/bn254');
  const sync = await import('@aztec/foundation/crypto/sync');
  const trees = await import('@aztec/foundation/trees');
  await BarretenbergSync.initSingleton({ backend: engine === 'bb-shm' ? BackendType.NativeSharedMemory : BackendType.Wasm });
  const nodeHash = (l, r) => sync.poseidon2HashWithSeparator([Fr.fromBuffer(Buffer.from(l)), Fr.fromBuffer(Buffer.from(r))], TREE).toBuffer();
  const commit = (stages) => {
    const done = [];
    for (const stage of stages) {
      const resolve = (x) => (Array.isArray(x) ? done[x[0]][x[1]] : Fr.fromString(x));
      done.push(stage.map((job) => (job.s === null ? sync.poseidon2Hash(job.i.map(resolve)) : sync.poseidon2HashWithSeparator(job.i.map(resolve), job.s))));
    }
    return trees.computeUnbalancedMerkleTreeRoot(done[done.length - 1].map((fr) => fr.toBuffer()), nodeHash);
  };
  ops = {
    permutation: (state) => sync.poseidon2Permutation(state),
    start: [1n, 2n, 3n, 4n].map((x) => new Fr(x)),
    node: () => sync.poseidon2HashWithSeparator([new Fr(5n), new Fr(6n)], TREE),
    commitment: (c) => ({ root: () => hex(commit(c.stages)), async: async () => commit(c.stages) }),
    leaves: (n) => Array.from({ length: n }, (_, i) => new Fr(leafOf(i)).toBuffer()),
    root: (leaves) => hex(trees.computeUnbalancedMerkleTreeRoot(leaves, nodeHash)),
    witness: (leaves, i) => {
      const calculator = trees.UnbalancedMerkleTreeCalculator.create(leaves, undefined, undefined, nodeHash);
      return { leafIndex: i, siblings: calculator.getSiblingPathByLeafIndex(i).toBufferArray() };
    },
    verify: ({ leafIndex, siblings }, leaf, root) => {
      let current = leaf;
      let index = leafIndex;
      for (const sibling of siblings) {
        current = index & 1 ? nodeHash(sibling, current) : nodeHash(current, sibling);
        index >>= 1;
      }
      if (hex(current) !== root) throw new Error('verification failed');
    },
  };
}

// ---- 1. per call: a permutation, a tree node ----
{
  const calls = quick ? 20 : 500;
  const perCall = async (name, f) => {
    const stats = await measure(quick ? 3 : spec.samples, quick ? 1 : spec.warmups, () => {
      for (let i = 0; i < calls; i++) f();
    });
    for (const key of ['median_ms', 'min_ms', 'max_ms']) stats[key] /= calls;
    record('hash', name, 1, { ...stats, calls_per_sample: calls });
  };
  let state = ops.start;
  await perCall('permutation', () => (state = ops.permutation(state)));
  await perCall('node', ops.node);
}

// ---- 2. the 64-leaf tree, one witness, one verification ----
{
  const leaves = ops.leaves(64);
  const root = ops.root(leaves);
  check('64 leaves', root, spec.leaves64.root);
  const i = spec.leaves64.verify_index;
  const witness = ops.witness(leaves, i);
  ops.verify(witness, leaves[i], root);
  record('leaves64', 'tree', 64, await timed(() => ops.root(leaves)));
  record('leaves64', 'witness', 64, await timed(() => ops.witness(leaves, spec.leaves64.witness_index)));
  record('leaves64', 'verify', 64, await timed(() => ops.verify(witness, leaves[i], root)));
}

// ---- 3. complete commitments ----
const logHeavy64 = spec.commitment.find((c) => c.profile === 'log-heavy' && c.n === 64);
for (const c of spec.commitment) {
  if (quick && c.n > 3) continue;
  const { root } = ops.commitment(c);
  check(`commitment ${c.profile}/${c.n}`, root(), c.root);
  record('commitment', c.profile, c.n, await timed(root));
}

// ---- 4. the event loop while a log-heavy 64-tx block's leaves are computed (each engine's
// async path: txfx's …Async forms; bb.js's sync backends have none, so they block). A 1 ms
// interval timer, as an application's would, records how late each of its ticks runs; a
// blocked loop shows as one late tick as long as the block. perf_hooks' monitorEventLoopDelay
// runs beside it (it records nothing while the loop is blocked outright).
if (!quick && !repeat) {
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

// The reference side of `cargo xtask bench --peer`: workloads 1-3 through Aztec's own stack,
// @aztec/foundation + @aztec/bb.js, on one bb.js backend per process (the sync singleton holds
// one backend): `node bench.mjs EXPORT.json uds|shm|wasm OUT.json`.
//
// Hashing goes through the same foundation calls the reference code makes: the async
// `poseidon2HashWithSeparator` / `poseidon2Hash` (Barretenberg singleton) for `uds`, and the sync
// ones from `@aztec/foundation/crypto/sync` (BarretenbergSync singleton) for `shm` and `wasm`.
// Trees use foundation's unbalanced-tree code. Every root is checked against txfx's before any
// timing; a mismatch aborts the run.

// foundation's modules are imported only after bb.js's singleton is set (bb-sync.mjs says why).
import * as bb from '@aztec/bb.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { bbSyncOn } from './bb-sync.mjs';

const [exportPath, backend, outPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(exportPath, 'utf8'));
const { Barretenberg, BackendType } = bb;
const isAsync = backend === 'uds';
const SYNC_TYPE = { shm: BackendType.NativeSharedMemory, wasm: BackendType.Wasm };
const loadSync = () => import('@aztec/foundation/crypto/sync');
let syncPoseidon;
if (isAsync) {
  await Barretenberg.initSingleton({ backend: BackendType.NativeUnixSocket });
  syncPoseidon = await loadSync();
} else if (SYNC_TYPE[backend]) {
  syncPoseidon = await bbSyncOn(bb, SYNC_TYPE[backend], loadSync);
} else {
  throw new Error(`unknown backend ${backend}`);
}
const { Fr } = await import('@aztec/foundation/curves/bn254');
const asyncPoseidon = await import('@aztec/foundation/crypto/poseidon');
const { UnbalancedMerkleTreeCalculator, computeUnbalancedMerkleTreeRoot, computeUnbalancedMerkleTreeRootAsync } = await import('@aztec/foundation/trees');

const TREE = spec.separators.tree;
const hashSep = isAsync
  ? (inputs, sep) => asyncPoseidon.poseidon2HashWithSeparator(inputs, sep)
  : (inputs, sep) => syncPoseidon.poseidon2HashWithSeparator(inputs, sep);
const hashPlain = isAsync ? (inputs) => asyncPoseidon.poseidon2Hash(inputs) : (inputs) => syncPoseidon.poseidon2Hash(inputs);
const syncNode = (l, r) => syncPoseidon.poseidon2HashWithSeparator([Fr.fromBuffer(Buffer.from(l)), Fr.fromBuffer(Buffer.from(r))], TREE).toBuffer();
const asyncNode = async (l, r) =>
  (await asyncPoseidon.poseidon2HashWithSeparator([Fr.fromBuffer(Buffer.from(l)), Fr.fromBuffer(Buffer.from(r))], TREE)).toBuffer();

const hex = (buffer) => '0x' + Buffer.from(buffer).toString('hex');
const leafOf = (i) => {
  const x = (BigInt(i) * 0x9e3779b97f4a7c15n) % (1n << 64n) | 1n;
  return new Fr(x).toBuffer();
};
const leavesOf = (n) => Array.from({ length: n }, (_, i) => leafOf(i));

// The commitment: replay each stage's jobs, substituting earlier results for references.
async function commit(stages) {
  const results = [];
  for (const stage of stages) {
    const resolve = (x) => (Array.isArray(x) ? results[x[0]][x[1]] : Fr.fromString(x));
    const run = (job) => {
      const inputs = job.i.map(resolve);
      return job.s === null ? hashPlain(inputs) : hashSep(inputs, job.s);
    };
    results.push(isAsync ? await Promise.all(stage.map(run)) : stage.map(run));
  }
  const leaves = results[results.length - 1].map((fr) => fr.toBuffer());
  return root(leaves);
}

async function root(leaves) {
  return isAsync ? computeUnbalancedMerkleTreeRootAsync(leaves, asyncNode) : computeUnbalancedMerkleTreeRoot(leaves, syncNode);
}

// Witness paths. Sync backends use foundation's UnbalancedMerkleTreeCalculator; foundation has no
// async calculator, so the async backend builds the same levels with awaited node hashes.
async function levelsAsync(leaves) {
  const levels = [leaves];
  while (levels[levels.length - 1].length > 1) {
    const level = levels[levels.length - 1];
    const next = await Promise.all(
      Array.from({ length: Math.floor(level.length / 2) }, (_, j) => asyncNode(level[2 * j], level[2 * j + 1])),
    );
    if (level.length % 2 === 1) next.push(level[level.length - 1]);
    levels.push(next);
  }
  return levels;
}
function pathFromLevels(levels, index) {
  const siblings = [];
  let leafIndex = 0;
  let position = index;
  for (const level of levels.slice(0, -1)) {
    const carried = level.length % 2 === 1 && position === level.length - 1;
    if (!carried) {
      leafIndex |= (position & 1) << siblings.length;
      siblings.push(level[position ^ 1]);
    }
    position >>= 1;
  }
  return { leafIndex, siblings };
}
async function witnesses(leaves, indices) {
  if (isAsync) {
    const levels = await levelsAsync(leaves);
    return indices.map((i) => pathFromLevels(levels, i));
  }
  const calculator = UnbalancedMerkleTreeCalculator.create(leaves, undefined, undefined, syncNode);
  return indices.map((i) => {
    const location = calculator.getLeafLocation(i);
    return { leafIndex: Number(location.index), siblings: calculator.getSiblingPathByLeafIndex(i).toBufferArray() };
  });
}
async function rootFromPath(leaf, { leafIndex, siblings }) {
  let current = leaf;
  let index = leafIndex;
  for (const sibling of siblings) {
    const [l, r] = index & 1 ? [sibling, current] : [current, sibling];
    current = isAsync ? await asyncNode(l, r) : syncNode(l, r);
    index >>= 1;
  }
  return current;
}

async function measure(samples, warmups, f, gapMs = 0) {
  const times = [];
  for (let i = 0; i < warmups + samples; i++) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    const start = performance.now();
    await f();
    const elapsed = performance.now() - start;
    if (i >= warmups) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const n = times.length;
  return { median_ms: n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2, min_ms: times[0], max_ms: times[n - 1], samples: n };
}

const { samples, warmups } = spec;
const results = [];
const record = (workload, name, n, stats) => {
  results.push({ workload, name, backend, n, ...stats });
  console.error(`reference: ${workload} ${name} ${backend} n=${n}: ${stats.median_ms.toFixed(3)} ms`);
};
const check = (what, got, want) => {
  if (got !== want) throw new Error(`${what}: reference root ${got} but txfx computed ${want}`);
};

for (const c of spec.commitment) {
  check(`commitment ${c.profile}/${c.n}`, hex(await commit(c.stages)), c.root);
  record('1-commitment', c.profile, c.n, await measure(samples, warmups, () => commit(c.stages)));
}

const leaves64 = leavesOf(64);
check('64 leaves', hex(await root(leaves64)), spec.leaves64.root);
const [w] = await witnesses(leaves64, [spec.leaves64.verify_index]);
check('64-leaf witness', hex(await rootFromPath(leaves64[spec.leaves64.verify_index], w)), spec.leaves64.root);
for (const [gap, suffix] of spec.quick ? [[0, '']] : [[0, ''], [300, '-after-idle']]) {
  record('2-leaves64', `tree${suffix}`, 64, await measure(samples, warmups, () => root(leaves64), gap));
  record('2-leaves64', `witness${suffix}`, 64, await measure(samples, warmups, () => witnesses(leaves64, [spec.leaves64.witness_index]), gap));
  record('2-leaves64', `verify${suffix}`, 64, await measure(samples, warmups, () => rootFromPath(leaves64[spec.leaves64.verify_index], w), gap));
}

for (const { n, root: expected } of spec.sweep) {
  if (spec.quick && n > 4096) continue;
  const leaves = leavesOf(n);
  check(`sweep ${n}`, hex(await root(leaves)), expected);
  // The largest trees take seconds per sample through the reference; fewer samples there.
  const s = n >= 4096 ? Math.min(samples, 3) : samples;
  const wu = n >= 4096 ? 1 : warmups;
  record('3-sweep', 'root', n, await measure(s, wu, () => root(leaves)));
  const all = Array.from({ length: n }, (_, i) => i);
  record('3-sweep', 'all-witnesses', n, await measure(s, wu, () => witnesses(leaves, all)));
}

// Per-hash cost: one call at a time, `calls` per sample, recorded per call (workload 5). A node
// hash is what the reference's tree makes (two inputs and the tree separator: one permutation);
// the bare permutation is bb.js's `poseidon2Permutation` through foundation.
{
  const calls = spec.quick ? 20 : 200;
  const start = [1n, 2n, 3n, 4n].map((x) => new Fr(x));
  const perm = isAsync ? (s) => asyncPoseidon.poseidon2Permutation(s) : (s) => syncPoseidon.poseidon2Permutation(s);
  const pair = [new Fr(5n), new Fr(6n)];
  const perCall = async (name, f) => {
    // Sync backends run the loop without an await, so no microtask is timed with the hash.
    const loop = isAsync
      ? async () => {
          for (let i = 0; i < calls; i++) await f();
        }
      : () => {
          for (let i = 0; i < calls; i++) f();
        };
    const stats = await measure(samples, warmups, loop);
    for (const key of ['median_ms', 'min_ms', 'max_ms']) stats[key] /= calls;
    record('5-hash', name, 1, { ...stats, calls_per_sample: calls });
  };
  let state = start;
  await perCall('single', isAsync ? async () => (state = await perm(state)) : () => (state = perm(state)));
  await perCall('node', () => hashSep(pair, TREE));
}

const { version: node } = process;
const pkg = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url))).version;
writeFileSync(outPath, JSON.stringify({ versions: { node, foundation: pkg('@aztec/foundation'), 'bb.js': pkg('@aztec/bb.js') }, results }, null, 1));
process.exit(0);

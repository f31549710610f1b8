// The timed workloads of `cargo xtask bench --js`, shared by the Node processes (bench.mjs) and
// the Chromium page (page.mjs), so that both runtimes time the same calls the same way: each
// side's operations through its public JavaScript API, boundary included (txfx: 0x-hex strings
// and JSON text; bb.js: Fr objects through @aztec/foundation, as Aztec's node calls it). Every
// root is checked against the export's (written by txfx-bench, which the Rust benchmark checks
// against the reference) before any timing; a mismatch aborts the run.

export const now = () => performance.now();

const median = (sorted) => {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
};

// `samples` timings of f after `warmups`; each timing covers `inner` calls and is divided by it.
export async function measure(samples, warmups, f, inner = 1) {
  const times = [];
  for (let i = 0; i < warmups + samples; i++) {
    const start = now();
    for (let k = 0; k < inner; k++) {
      // Synchronous calls stay synchronous: no microtask between them.
      const result = f();
      if (result && typeof result.then === 'function') await result;
    }
    const elapsed = (now() - start) / inner;
    if (i >= warmups) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { median_ms: median(times), min_ms: times[0], max_ms: times[times.length - 1], samples: times.length, calls_per_sample: inner };
}

// A deterministic leaf for position i (odd, below 2^64: a field element on every side).
const leafOf = (i) => ((BigInt(i) * 0x9e3779b97f4a7c15n) % (1n << 64n)) | 1n;
const hex = (bytes) => '0x' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// txfx's package, already loaded (and initialised, in a browser); `body(c)` is a commitment
// workload's block as JSON text.
export function txfxOps(txfx, spec, body) {
  return {
    permutation: (state) => txfx.poseidon2Permutation(state),
    start: ['0x1', '0x2', '0x3', '0x4'],
    node: () => txfx.poseidon2HashWithSeparator(['0x5', '0x6'], spec.separators.tree),
    commitment: (c) => {
      const text = body(c);
      return { root: () => txfx.txEffectsTreeRoot(text), async: () => txfx.txEffectLeavesAsync(text, 1) };
    },
    leaves: (n) => Array.from({ length: n }, (_, i) => '0x' + leafOf(i).toString(16).padStart(64, '0')),
    root: (leaves) => txfx.txEffectsTreeRootFromLeaves(leaves),
    witness: (leaves, i) => txfx.txEffectMembershipWitnessFromLeaves(leaves, i, 1),
    verify: (witness, leaf, root) => {
      // A witness served from bare leaves carries no categoriesHash, which a v6 witness
      // document must have; the leaf is the subject, so AZIP-26's reading (the same hashing,
      // categoriesHash optional) verifies it.
      const verdict = txfx.verifyTxEffectMembershipWitness(witness, { leaf }, root, undefined, { protocol: 'azip-26' });
      if (!verdict.valid) throw new Error(`verification failed: ${verdict.reason}`);
    },
  };
}

// The reference: `Fr` (@aztec/foundation/curves/bn254), `sync` (@aztec/foundation/crypto/sync)
// and `trees` (@aztec/foundation/trees), with bb.js's BarretenbergSync singleton initialised on
// the backend being measured. Leaves and nodes are Buffers, as foundation's trees take them.
export function bbOps({ Fr, sync, trees }, spec) {
  const TREE = spec.separators.tree;
  const nodeHash = (l, r) => sync.poseidon2HashWithSeparator([Fr.fromBuffer(l), Fr.fromBuffer(r)], TREE).toBuffer();
  const commit = (stages) => {
    const done = [];
    for (const stage of stages) {
      const resolve = (x) => (Array.isArray(x) ? done[x[0]][x[1]] : Fr.fromString(x));
      done.push(stage.map((job) => (job.s === null ? sync.poseidon2Hash(job.i.map(resolve)) : sync.poseidon2HashWithSeparator(job.i.map(resolve), job.s))));
    }
    return trees.computeUnbalancedMerkleTreeRoot(done[done.length - 1].map((fr) => fr.toBuffer()), nodeHash);
  };
  return {
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

// Per call (a permutation, a tree node), the 64-leaf tree, one witness, one verification, and
// the complete commitments. `record(workload, name, n, stats)` receives each median.
// `minSampleMs`: a timing shorter than this repeats the call within the sample (a browser's
// clock is coarse without cross-origin isolation: Chromium's, 100 µs).
export async function timedWorkloads(ops, spec, { engine, quick, record, minSampleMs = 0 }) {
  const check = (what, got, want) => {
    if (got !== want) throw new Error(`${engine}: ${what}: root ${got}, expected ${want}`);
  };
  // Fewer samples where one takes long (a log-heavy block through the reference: seconds).
  const timed = async (f) => {
    const start = now();
    await f();
    const once = Math.max(now() - start, 1e-3);
    const inner = once < minSampleMs ? Math.ceil(minSampleMs / once) : 1;
    const [samples, warmups] = quick ? [3, 1] : once > 500 ? [5, 1] : once > 50 ? [9, 2] : [spec.samples, spec.warmups];
    return measure(samples, warmups, f, inner);
  };

  const calls = quick ? 20 : 500;
  const perCall = async (name, f) => {
    const stats = await measure(quick ? 3 : spec.samples, quick ? 1 : spec.warmups, f, calls);
    record('hash', name, 1, stats);
  };
  let state = ops.start;
  await perCall('permutation', () => {
    state = ops.permutation(state);
  });
  await perCall('node', ops.node);

  const leaves = ops.leaves(64);
  const root = ops.root(leaves);
  check('64 leaves', root, spec.leaves64.root);
  const i = spec.leaves64.verify_index;
  const witness = ops.witness(leaves, i);
  ops.verify(witness, leaves[i], root);
  record('leaves64', 'tree', 64, await timed(() => ops.root(leaves)));
  record('leaves64', 'witness', 64, await timed(() => ops.witness(leaves, spec.leaves64.witness_index)));
  record('leaves64', 'verify', 64, await timed(() => ops.verify(witness, leaves[i], root)));

  for (const c of spec.commitment) {
    if (quick && c.n > 3) continue;
    const { root: commit } = ops.commitment(c);
    check(`commitment ${c.profile}/${c.n}`, commit(), c.root);
    record('commitment', c.profile, c.n, await timed(commit));
  }
}

// Cold start, for `cargo xtask bench --js`: in a fresh process, load an engine and compute the
// first root (the upstream three-tx block's leaves' tree, checked against Aztec's value).
// `node cold.mjs ENGINE TESTDATA PACKAGE TREE_SEPARATOR`; prints one JSON line. `performance.now()` counts from
// the process's start, so `sinceProcessStartMs` includes Node's own start-up.
import { performance } from 'node:perf_hooks';

const start = performance.now();
const [engine, testdata, packageDir, separatorText] = process.argv.slice(2);
const { readFileSync } = await import('node:fs');
const three = JSON.parse(readFileSync(`${testdata}/aztec-fixtures.json`, 'utf8')).three_tx_block;
let root;
if (engine === 'native' || engine === 'wasm') {
  const { createRequire } = await import('node:module');
  const txfx = createRequire(`${packageDir}/index.js`)('./index.js');
  if (txfx.backend !== engine) throw new Error(`asked for ${engine}, got ${txfx.backend}`);
  root = txfx.txEffectsTreeRootFromLeaves(three.leaves);
} else {
  const { bbSyncOn } = await import('./bb-sync.mjs');
  const bb = await import('@aztec/bb.js');
  const type = engine === 'bb-shm' ? bb.BackendType.NativeSharedMemory : bb.BackendType.Wasm;
  const sync = await bbSyncOn(bb, type, () => import('@aztec/foundation/crypto/sync'));
  const { Fr } = await import('@aztec/foundation/curves/bn254');
  const { computeUnbalancedMerkleTreeRoot } = await import('@aztec/foundation/trees');
  const separator = Number(separatorText);
  const node = (l, r) => sync.poseidon2HashWithSeparator([Fr.fromBuffer(l), Fr.fromBuffer(r)], separator).toBuffer();
  root = '0x' + computeUnbalancedMerkleTreeRoot(three.leaves.map((x) => Fr.fromString(x).toBuffer()), node).toString('hex');
}
const end = performance.now();
if (root !== three.root) throw new Error(`${engine}: first root ${root}, expected ${three.root}`);
console.log(JSON.stringify({ engine, importAndFirstRootMs: end - start, sinceProcessStartMs: end }));
process.exit(0);

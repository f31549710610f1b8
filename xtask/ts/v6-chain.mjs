// Aztec v6 (AZIP-26, as deployed on mainnet and testnet) chain fixtures, for `cargo xtask ts-fixtures`.
//
// Writes testdata/v6/chain.json (and the convenience files listed at the end): the canonical v6 genesis, a chain of
// eight blocks in four checkpoints over it, the archive after every block with the node's archive witnesses, each
// checkpoint's blob fields in the v6 layout, the node's JSON-RPC answers in their v6 shapes (one request/response file
// per answer under v6/rpc/), and an L1 story (what the rollup's archiveAt returns per checkpoint, and suggested tips:
// checkpoints 1..3 on L1, checkpoint 4 (block 8) only proposed on L2).
//
// Independence: nothing here runs txfx. Every hash is @aztec/foundation 5.2.0's Poseidon2 (bb.js 5.0.0, WASM backend,
// synchronous); every v6 rule is written out below from the v6 sources it cites (AN = aztec-labs-eng/aztec-node,
// AP = AztecProtocol/aztec-packages; repo, path and commit of each are in testdata/v6/upstream.json and in the `sources`
// list this script writes). The bodies are the upstream fixtures of testdata/aztec-fixtures.json; their leaves and the
// three-tx root are recomputed and asserted against the upstream values, never taken from txfx. Block 3 carries the
// upstream three-tx block exactly; every tx outside it is an upstream fixture with its own seeded tx hash (so every
// by-hash lookup outside block 3 names one tx), its leaf recomputed from (tx hash, upstream categories hash).
//
// Determinism: every value that is not fixed by a rule comes from a splitmix64 stream with a fixed seed, so a re-run
// writes the same bytes. Checkpoint 4 (block 8) draws from a third stream of its own, so adding it shifted nothing.
//
// Usage: node v6-chain.mjs TESTDATA_DIR   (run from the folder where the packages are installed)
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { BackendType, BarretenbergSync } from '@aztec/bb.js';
import { poseidon2Hash, poseidon2HashWithSeparator, poseidon2Permutation } from '@aztec/foundation/crypto/sync';
import { Fr } from '@aztec/foundation/curves/bn254';
import { MembershipWitness, MerkleTreeCalculator, SiblingPath, computeRootFromSiblingPath } from '@aztec/foundation/trees';

import { archiveTree } from './archive-tree.mjs';

// The async Barretenberg needs a network CRS download; the synchronous WASM build does not.
await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });

const testdata = process.argv[2];
if (!testdata) throw new Error('usage: node v6-chain.mjs TESTDATA_DIR');
const outDir = join(testdata, 'v6');
const rpcDir = join(outDir, 'rpc');
rmSync(rpcDir, { recursive: true, force: true }); // written only by this script
mkdirSync(rpcDir, { recursive: true });
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const upstream = readJson(join(outDir, 'upstream.json'));
const fixtures = readJson(join(testdata, 'aztec-fixtures.json'));
const packageVersion = (name) => readJson(join('node_modules', name, 'package.json')).version;
const packages = { '@aztec/foundation': packageVersion('@aztec/foundation'), '@aztec/bb.js': packageVersion('@aztec/bb.js') };
if (packages['@aztec/foundation'] !== '5.2.0' || packages['@aztec/bb.js'] !== '5.0.0') {
  throw new Error(`expected @aztec/foundation 5.2.0 and @aztec/bb.js 5.0.0, found ${JSON.stringify(packages)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Sources followed (key -> repo, path, commit). Keys are cited in comments and in the output.
const AP = 'AztecProtocol/aztec-packages';
const AN = 'aztec-labs-eng/aztec-node';
const SOURCES = {
  constants: [AP, 'noir-projects/fnd/noir-protocol-circuits/crates/types/src/constants.nr', '064e570d673d4407ff27e1a90edb57a87a69a5ac'],
  genesisPatch: [AP, 'labs-patches/0010-feat-world-state-expose-the-canonical-genesis-measur.patch', '064e570d673d4407ff27e1a90edb57a87a69a5ac'],
  hashTs: [AN, 'yarn-project/stdlib/src/hash/hash.ts', '54e3383c4baa491a83ce129709023d0b6dcf8bc3'],
  blockHeaderNr: [AP, 'noir-projects/fnd/noir-protocol-circuits/crates/types/src/abis/block_header.nr', '0397da3a45ef8ab71b1656c48b740998d1885040'],
  blockHeaderTs: [AN, 'yarn-project/stdlib/src/tx/block_header.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  blockHeaderTest: [AN, 'yarn-project/stdlib/src/tx/block_header.test.ts', '91def7814e2d774db176deb2c35d61f4b7d38837'],
  factories: [AN, 'yarn-project/stdlib/src/tests/factories.ts', '91def7814e2d774db176deb2c35d61f4b7d38837'],
  globalVariables: [AN, 'yarn-project/stdlib/src/tx/global_variables.ts', '1a26db3e9d5fd41f83616703635c498a68509fbd'],
  partialState: [AN, 'yarn-project/stdlib/src/tx/partial_state_reference.ts', '8699111e21e5bc07f4adea8837f40682fa30b529'],
  stateReference: [AN, 'yarn-project/stdlib/src/tx/state_reference.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  gasFees: [AN, 'yarn-project/stdlib/src/gas/gas_fees.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  snapshot: [AN, 'yarn-project/stdlib/src/trees/append_only_tree_snapshot.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  treeLeafIndex: [AN, 'yarn-project/foundation/src/branded-types/tree_leaf_index.ts', '052f8a03155a14c38eaed0a3197c94baf481212b'],
  blockHash: [AN, 'yarn-project/stdlib/src/block/block_hash.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  l2Block: [AN, 'yarn-project/stdlib/src/block/l2_block.ts', '821928393a3bd15bb7882e81b938db15478a51d8'],
  body: [AN, 'yarn-project/stdlib/src/block/body.ts', '0ef565f7f0ce2cb75bacbb9eeb4ff567139af24b'],
  bodyTest: [AN, 'yarn-project/stdlib/src/block/body.test.ts', '0ef565f7f0ce2cb75bacbb9eeb4ff567139af24b'],
  txEffect: [AN, 'yarn-project/stdlib/src/tx/tx_effect.ts', 'df724bfb3cc5b5234a23590964a2c2b886022416'],
  txEffectTest: [AN, 'yarn-project/stdlib/src/tx/tx_effect.test.ts', '(test "matches the empty, maximum and three-tx Noir fixtures"; see aztec-fixtures.json)'],
  txHash: [AN, 'yarn-project/stdlib/src/tx/tx_hash.ts', '997087138813c106123550847d7e3ad007f6a578'],
  privateLog: [AN, 'yarn-project/stdlib/src/logs/private_log.ts', '8699111e21e5bc07f4adea8837f40682fa30b529'],
  publicLog: [AN, 'yarn-project/stdlib/src/logs/public_log.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  contractClassLog: [AN, 'yarn-project/stdlib/src/logs/contract_class_log.ts', '1a26db3e9d5fd41f83616703635c498a68509fbd'],
  revertCode: [AN, 'yarn-project/stdlib/src/avm/revert_code.ts', '0c6c40e360303cfb1b0d2e31b03d03ed1d4eb55b'],
  txBlobData: [AN, 'yarn-project/blob-lib/src/encoding/tx_blob_data.ts', '48c0af4ed99fd8d5965faf4ee3e60c7b0752a5fd'],
  txStartMarker: [AN, 'yarn-project/blob-lib/src/encoding/tx_start_marker.ts', '997087138813c106123550847d7e3ad007f6a578'],
  blockBlobData: [AN, 'yarn-project/blob-lib/src/encoding/block_blob_data.ts', '8699111e21e5bc07f4adea8837f40682fa30b529'],
  blockEndMarker: [AN, 'yarn-project/blob-lib/src/encoding/block_end_marker.ts', '997087138813c106123550847d7e3ad007f6a578'],
  blockEndStateField: [AN, 'yarn-project/blob-lib/src/encoding/block_end_state_field.ts', '821928393a3bd15bb7882e81b938db15478a51d8'],
  checkpointBlobData: [AN, 'yarn-project/blob-lib/src/encoding/checkpoint_blob_data.ts + checkpoint_end_marker.ts', '997087138813c106123550847d7e3ad007f6a578'],
  spongeBlob: [AN, 'yarn-project/blob-lib/src/sponge_blob.ts', '0038873e225f90a8a909309996e716633517e47b'],
  spongeBlobTest: [AN, 'yarn-project/blob-lib/src/sponge_blob.test.ts', 'c4bc37f18f114d8ef49b0db3fe41d9541de21445'],
  dataRetrieval: [AN, 'yarn-project/archiver/src/l1/data_retrieval.ts', '005eadc5ede6cd87a1626af8d9c5b995aac31b97'],
  blockStore: [AN, 'yarn-project/archiver/src/store/block_store.ts', '997087138813c106123550847d7e3ad007f6a578'],
  txEffectsTreeResolver: [AN, 'yarn-project/archiver/src/modules/tx_effects_tree_resolver.ts', '406b5de9aec257caf56527b01a0b754c7b134e1b'],
  txEffectMembership: [AN, 'yarn-project/stdlib/src/tx/tx_effect_membership.ts', 'unknown (index id 66867451198; the categoriesHash version)'],
  blockResponse: [AN, 'yarn-project/stdlib/src/interfaces/block_response.ts', '8699111e21e5bc07f4adea8837f40682fa30b529'],
  blockResponseHelpers: [AN, 'yarn-project/aztec-node/src/aztec-node/block_response_helpers.ts', '997087138813c106123550847d7e3ad007f6a578'],
  nodeBlockProvider: [AN, 'yarn-project/aztec-node/src/modules/node_block_provider.ts', '67bc977a77daaa2a76ae55ae1b2ea7cd6b8e8c8c'],
  blockData: [AN, 'yarn-project/stdlib/src/block/block_data.ts', '997087138813c106123550847d7e3ad007f6a578'],
  txReceipt: [AN, 'yarn-project/stdlib/src/tx/tx_receipt.ts', 'df724bfb3cc5b5234a23590964a2c2b886022416'],
  nodeTxReceipt: [AN, 'yarn-project/aztec-node/src/modules/node_tx_receipt.ts', '997087138813c106123550847d7e3ad007f6a578'],
  indexedTxEffect: [AN, 'yarn-project/stdlib/src/tx/indexed_tx_effect.ts', 'df724bfb3cc5b5234a23590964a2c2b886022416'],
  epochHelpers: [AN, 'yarn-project/stdlib/src/epoch-helpers/index.ts', '997087138813c106123550847d7e3ad007f6a578'],
  aztecNodeApi: [AN, 'yarn-project/stdlib/src/interfaces/aztec-node.ts', '2e73256d8c0aff119e841d2ce09472db8331fd80'],
  worldStateQueries: [AN, 'yarn-project/aztec-node/src/modules/node_world_state_queries.ts', '997087138813c106123550847d7e3ad007f6a578'],
  rpcHandlers: [AN, 'yarn-project/aztec-node/src/aztec-node/register_node_rpc_handlers.ts', '997087138813c106123550847d7e3ad007f6a578'],
  rpcServerTest: [AN, 'yarn-project/foundation/src/json-rpc/server/safe_json_rpc_server.test.ts', '1a26db3e9d5fd41f83616703635c498a68509fbd'],
  siblingPath: [AN, 'yarn-project/foundation/src/trees/sibling_path.ts', 'df724bfb3cc5b5234a23590964a2c2b886022416'],
  foundationNpm: ['npm', '@aztec/foundation 5.2.0: dest/trees/membership_witness.js, dest/trees/sibling_path.js, dest/json-rpc/convert.js (jsonStringify), dest/json-rpc/server/safe_json_rpc_server.js, dest/json-rpc/client/safe_json_rpc_client.js', 'npm 5.2.0'],
  stdlib412: ['npm', '@aztec/stdlib 4.1.2 dest/ (compiled output: parameter-property fields are emitted before other class fields, e.g. dest/p2p/block_proposal.js, dest/tx/block_header.js)', 'npm 4.1.2'],
  txEffectTestCurrent: [AN, 'yarn-project/stdlib/src/tx/tx_effect.test.ts', 'unknown (index id 66710385064; tests "hashes each field over its slice of the blob encoding", "binds the tx hash into the leaf")'],
  txEffectMembershipData: [AN, 'yarn-project/stdlib/src/tx/tx_effect_membership.ts (computeTxEffectsTreeLeaf, computeTxEffectsTreeData)', 'unknown (index id 66867451198; the categoriesHash version)'],
  azip26: ['unknown (index id 67290772889)', 'AZIP-26 proposal text: "Start Marker, Categories Hash, and Leaf", "Ordered Tree Construction", Rationale "Separate categories hash and leaf"', 'unknown'],
  aztecFixtures: ['txfx', 'testdata/aztec-fixtures.json (upstream tx-effect fixtures, leaves and three-tx root)', 'this repository'],
  stfLib: [AP, 'l1-contracts/src/core/libraries/rollup/STFLib.sol (initialize: archives[0] = genesisArchiveRoot; prune)', '99ff034ebf1d196d0bf0b5b90b95353926bdcc1e'],
  rollupSol: [AP, 'l1-contracts/src/core/Rollup.sol (archiveAt: archives[n] if n <= pending, else bytes32(0)) + interfaces/IRollup.sol', '99ff034ebf1d196d0bf0b5b90b95353926bdcc1e'],
  foundationTrees: ['npm', '@aztec/foundation 5.2.0: dest/trees/merkle_tree_calculator.js (MerkleTreeCalculator), dest/trees/sibling_path.js (computeRootFromSiblingPath), dest/trees/membership_witness.js (MembershipWitness.fromBuffer)', 'npm 5.2.0'],
};
const sourceList = Object.entries(SOURCES).map(([key, [repo, path, commit]]) => ({ key, repo, path, commit }));

// ---------------------------------------------------------------------------------------------------------------
// Constants (constants.nr @064e570d unless noted), checked against the records of testdata/v6/upstream.json.
const record = (name) => {
  const found = upstream.find((r) => r.name === name);
  if (!found) throw new Error(`upstream.json has no record ${name}`);
  return found;
};
const DOM_SEP = {
  MERKLE_HASH: 2982624097,
  BLOCK_HEADER_HASH: 4195546849,
  TX_EFFECT_CATEGORY_HASH: 1030022731,
  TX_EFFECT_CATEGORIES_HASH: 1426387399,
  TX_EFFECTS_TREE_LEAF: 1186802524,
  TX_EFFECTS_TREE: 2908237871,
};
for (const [name, value] of Object.entries(DOM_SEP)) {
  if (record(`DOM_SEP__${name}`).value !== String(value)) throw new Error(`DOM_SEP__${name} disagrees with upstream.json`);
}
const GENESIS_BLOCK_HEADER_HASH = record('GENESIS_BLOCK_HEADER_HASH').value;
const GENESIS_ARCHIVE_ROOT = record('GENESIS_ARCHIVE_ROOT').value;
const GENESIS_NULLIFIER_TREE_ROOT = record('GENESIS_NULLIFIER_TREE_ROOT').value;
const ARCHIVE_HEIGHT = Number(record('ARCHIVE_HEIGHT').value); // 30
// Tree heights: the widths of the block-end state field (block_end_state_field.ts uses the heights).
const L1_TO_L2_MSG_TREE_HEIGHT = 36n;
const NOTE_HASH_TREE_HEIGHT = 42n;
const NULLIFIER_TREE_HEIGHT = 42n;
const PUBLIC_DATA_TREE_HEIGHT = 40n;
const TOTAL_MANA_USED_BIT_SIZE = 48n;
// Blob prefixes (record "BLOB PREFIXES").
const TX_START_PREFIX = 0x9c707518n;
const BLOCK_END_PREFIX = 0xeb8dcdbfn;
const CHECKPOINT_END_PREFIX = 0x8c637443n;
if (!record('BLOB PREFIXES').value.includes('TX_START_PREFIX=0x9c707518') || !record('BLOB PREFIXES').value.includes('BLOCK_END_PREFIX=0xeb8dcdbf') || !record('BLOB PREFIXES').value.includes('CHECKPOINT_END_PREFIX=0x8c637443')) {
  throw new Error('blob prefixes disagree with upstream.json');
}
const FIELDS_PER_BLOB = 4096;
const BLOBS_PER_CHECKPOINT = 6;
const TWO_POW_64 = 1n << 64n;
const NUM_BLOCK_END_BLOB_FIELDS = 7; // block_blob_data.ts @8699111e: 7 for every block (4.1.2: 7 for the first, 6 after)
if (record('NUM_BLOCK_END_BLOB_FIELDS').value !== '7') throw new Error('NUM_BLOCK_END_BLOB_FIELDS disagrees');
const PRIVATE_LOG_SIZE_IN_FIELDS = 16;
const CONTRACT_CLASS_LOG_SIZE_IN_FIELDS = 3023;
const MAX_L1_TO_L2_MSGS_PER_CHECKPOINT = 1024;
const MAX_NOTE_HASHES_PER_TX = 64;
const MAX_NULLIFIERS_PER_TX = 64;
const MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX = 63; // MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX (64) - 1

// ---------------------------------------------------------------------------------------------------------------
// Small helpers.
const fr = (x) => (x instanceof Fr ? x : new Fr(BigInt(x)));
const hex = (f) => fr(f).toString(); // 0x + 64 lower-case hex digits
const hex20 = (v) => '0x' + BigInt(v).toString(16).padStart(40, '0');
const checks = [];
function check(name, computed, expected, source, note) {
  const c = typeof computed === 'string' ? computed : JSON.stringify(computed);
  const e = typeof expected === 'string' ? expected : JSON.stringify(expected);
  if (c !== e) throw new Error(`check failed: ${name}\n  computed ${c.slice(0, 2000)}\n  expected ${e.slice(0, 2000)}`);
  // Long values (whole documents) are recorded by their sha256.
  const shown = (v) => (v.length > 200 ? `sha256:${createHash('sha256').update(v).digest('hex')} (${v.length} bytes)` : v);
  checks.push({ name, computed: shown(c), expected: shown(e), matched: true, source, ...(note ? { note } : {}) });
}
/** JSON text as v6's jsonStringify (foundation json-rpc/convert.ts) prints it: the values here are already the strings
 * and numbers the classes' toJSON produce, so plain JSON.stringify (compact) gives the same bytes. */
const compact = (value) => JSON.stringify(value);

// splitmix64: a deterministic stream for every value no rule fixes.
class Rng {
  constructor(seed) {
    this.state = BigInt.asUintN(64, seed);
  }
  next64() {
    this.state = BigInt.asUintN(64, this.state + 0x9e3779b97f4a7c15n);
    let z = this.state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }
  below(n) {
    return this.next64() % BigInt(n);
  }
  field() {
    let v = 0n;
    for (let i = 0; i < 4; i++) v = (v << 64n) | this.next64();
    return new Fr(v % Fr.MODULUS);
  }
  bits(n) {
    let v = 0n;
    for (let i = 0; i < Math.ceil(n / 64); i++) v = (v << 64n) | this.next64();
    return BigInt.asUintN(n, v);
  }
}
const SEED = 0x76365f636861696en; // "v6_chain"
const rng = new Rng(SEED);

// ---------------------------------------------------------------------------------------------------------------
// 1. Archive tree. AN hash.ts @54e3383c: computeMerkleHash(l, r) = poseidon2HashWithSeparator([l, r], MERKLE_HASH),
// "for append-only trees (note-hash, L1->L2, archive)". Height ARCHIVE_HEIGHT, empty leaf 0, leaf i = hash of block i.
const merkleHash = (l, r) => poseidon2HashWithSeparator([l, r], DOM_SEP.MERKLE_HASH);
// Empty subtrees up to 42 levels: the empty note-hash tree's root is zeros[42].
const archive = archiveTree(ARCHIVE_HEIGHT, merkleHash, Fr.ZERO, 42);
const zeros = archive.zeros;
const archiveRoot = archive.root;
const archivePath = archive.path;
// MembershipWitness.toBuffer (foundation 5.2.0 dest/trees/membership_witness.js; the labs copy is not indexed):
// toBufferBE(leafIndex, 32) followed by the siblings, leaf level first. toJSON returns that buffer; jsonStringify
// prints a Buffer as base64.
function membershipWitnessBase64(index, path) {
  const buf = Buffer.concat([Buffer.from(BigInt(index).toString(16).padStart(64, '0'), 'hex'), ...path.map((p) => p.toBuffer())]);
  const theirs = new MembershipWitness(path.length, BigInt(index), path).toBuffer();
  if (!buf.equals(theirs)) throw new Error('MembershipWitness encoding disagrees with foundation 5.2.0');
  return buf.toString('base64');
}

const genesisHash = Fr.fromString(GENESIS_BLOCK_HEADER_HASH);
check('GENESIS_ARCHIVE_ROOT: archive (height 30, MERKLE_HASH nodes) over the single leaf GENESIS_BLOCK_HEADER_HASH',
  hex(archiveRoot([genesisHash])), GENESIS_ARCHIVE_ROOT, ['constants', 'hashTs']);
// The canonical genesis L1-to-L2 and note-hash roots are the empty append-only trees under the same hasher.
check('canonical genesis L1-to-L2 message tree root = empty tree of height 36 with MERKLE_HASH nodes',
  hex(zeros[36]), '0x0fef6d80d31109ddb56d6b3f607cbc9c0af0bff3ea0d43e8f278983c64c11f7a', ['genesisPatch', 'hashTs']);
check('canonical genesis note hash tree root = empty tree of height 42 with MERKLE_HASH nodes',
  hex(zeros[42]), '0x2590f2aab19dd791700b4a43d3f52bb88ef2409a3731da8e848663559202e4c6', ['genesisPatch', 'hashTs']);

// ---------------------------------------------------------------------------------------------------------------
// 2. Block header: 23 fields (AN block_header.ts @0c6c40e3 getFields + nested toFields; AP block_header.nr @0397da3a),
// hash = poseidon2HashWithSeparator(fields, BLOCK_HEADER_HASH).
// A header here: { lastArchive: {root: Fr, index: number}, l1ToL2, noteHash, nullifier, publicData (same shape),
//   spongeBlobHash, txEffectsTreeRoot, chainId, version (Fr), blockNumber (number), slotNumber (number), timestamp
//   (bigint), coinbase (bigint < 2^160), feeRecipient (Fr), feePerDaGas, feePerL2Gas (bigint), totalFees,
//   totalManaUsed (Fr) }.
function headerFields(h) {
  return [
    h.lastArchive.root, fr(h.lastArchive.index),
    h.l1ToL2.root, fr(h.l1ToL2.index),
    h.noteHash.root, fr(h.noteHash.index),
    h.nullifier.root, fr(h.nullifier.index),
    h.publicData.root, fr(h.publicData.index),
    h.spongeBlobHash, h.txEffectsTreeRoot,
    h.chainId, h.version, fr(h.blockNumber), fr(h.slotNumber), fr(h.timestamp), fr(h.coinbase), h.feeRecipient,
    fr(h.feePerDaGas), fr(h.feePerL2Gas),
    h.totalFees, h.totalManaUsed,
  ];
}
const headerHash = (h) => poseidon2HashWithSeparator(headerFields(h), DOM_SEP.BLOCK_HEADER_HASH);
// AppendOnlyTreeSnapshot (AN @0c6c40e3) has no toJSON: JSON.stringify prints its fields {root, nextAvailableLeafIndex},
// the index a JS number (TreeLeafIndex, a safe integer). The script refuses anything above 2^53 - 1.
function snapshotJson(s) {
  if (!Number.isSafeInteger(s.index) || s.index < 0) throw new Error(`leaf index ${s.index} is not a TreeLeafIndex`);
  return { root: hex(s.root), nextAvailableLeafIndex: s.index };
}
// BlockHeader fields in constructor order; GlobalVariables.toJSON (AN @1a26db3e) prints slotNumber as an Fr and the
// bigint timestamp through jsonStringify (decimal string); GasFees (AN @0c6c40e3) holds two bigints (decimal strings);
// EthAddress prints 0x + 40 hex digits, AztecAddress and every Fr 0x + 64.
function headerJson(h, { cachedHash = false } = {}) {
  const json = {
    lastArchive: snapshotJson(h.lastArchive),
    state: {
      l1ToL2MessageTree: snapshotJson(h.l1ToL2),
      partial: {
        noteHashTree: snapshotJson(h.noteHash),
        nullifierTree: snapshotJson(h.nullifier),
        publicDataTree: snapshotJson(h.publicData),
      },
    },
    spongeBlobHash: hex(h.spongeBlobHash),
    txEffectsTreeRoot: hex(h.txEffectsTreeRoot),
    globalVariables: {
      chainId: hex(h.chainId),
      version: hex(h.version),
      blockNumber: h.blockNumber,
      slotNumber: hex(h.slotNumber),
      timestamp: h.timestamp.toString(),
      coinbase: hex20(h.coinbase),
      feeRecipient: hex(h.feeRecipient),
      gasFees: { feePerDaGas: h.feePerDaGas.toString(), feePerL2Gas: h.feePerL2Gas.toString() },
    },
    totalFees: hex(h.totalFees),
    totalManaUsed: hex(h.totalManaUsed),
  };
  // `private _cachedHash?: Promise<BlockHash>` is a declared class field: once hash() or setHash() ran it holds a
  // Promise, which JSON.stringify prints as {} after the constructor's fields (as 4.1.2 prints it, SPEC §12.3).
  if (cachedHash) json._cachedHash = {};
  return json;
}
const headerRecord = (h) => ({ json: compact(headerJson(h)), fields: headerFields(h).map(hex), hash: hex(headerHash(h)) });

const zeroSnapshot = () => ({ root: Fr.ZERO, index: 0 });
const emptyHeader = {
  lastArchive: zeroSnapshot(), l1ToL2: zeroSnapshot(), noteHash: zeroSnapshot(), nullifier: zeroSnapshot(), publicData: zeroSnapshot(),
  spongeBlobHash: Fr.ZERO, txEffectsTreeRoot: Fr.ZERO, chainId: Fr.ZERO, version: Fr.ZERO, blockNumber: 0, slotNumber: 0,
  timestamp: 0n, coinbase: 0n, feeRecipient: Fr.ZERO, feePerDaGas: 0n, feePerL2Gas: 0n, totalFees: Fr.ZERO, totalManaUsed: Fr.ZERO,
};
check('BlockHeader.empty() hash (23 zero fields)', hex(headerHash(emptyHeader)),
  '0x270629a7878b72709d3600bf6f84458849d70beb86506bbdfa05ba9fe0e130c9', ['blockHeaderNr', 'blockHeaderTest']);

// The canonical genesis header (block 0). Its roots are those of the l2_block genesis test in labs-patches/0010 and
// GENESIS_NULLIFIER_TREE_ROOT; the nullifier and public-data trees start with 128 leaves; everything else is zero
// (timestamp 0, lastArchive {0, 0}). The hash must be GENESIS_BLOCK_HEADER_HASH, which pins every field.
const genesisHeader = {
  ...emptyHeader,
  l1ToL2: { root: zeros[36], index: 0 },
  noteHash: { root: zeros[42], index: 0 },
  nullifier: { root: Fr.fromString(GENESIS_NULLIFIER_TREE_ROOT), index: 128 },
  publicData: { root: Fr.fromString('0x1bef38b621017d3c7416663d0cd81369424560710526a3fbaaec13e356b9d084'), index: 128 },
};
check('canonical genesis header (block 0) hash = GENESIS_BLOCK_HEADER_HASH', hex(headerHash(genesisHeader)),
  GENESIS_BLOCK_HEADER_HASH, ['constants', 'genesisPatch', 'blockHeaderNr'],
  'the public-data index 128 and lastArchive {0, 0} are the values that reproduce the constant (the patch context cuts the public-data index off)');

// makeBlockHeader(9870243) (AN factories.ts @91def781, copied in upstream.json).
function makeSnapshot(seed) {
  return { root: fr(seed), index: seed % 2 ** 43 }; // makeAppendOnlyTreeSnapshot: nextAvailableLeafIndex = seed % 2**43
}
function makeLabsHeader(seed) {
  const s2 = seed + 0x200;
  const p = s2 + 1; // makePartialStateReference(seed + 1)
  const g = seed + 0x700; // `globalVariables: makeGlobalVariables((seed += 0x700), ...)`: later lines use the bumped seed
  return {
    lastArchive: makeSnapshot(seed + 0x100),
    l1ToL2: makeSnapshot(MAX_L1_TO_L2_MSGS_PER_CHECKPOINT * s2),
    noteHash: makeSnapshot(MAX_NOTE_HASHES_PER_TX * p),
    nullifier: makeSnapshot(MAX_NULLIFIERS_PER_TX * (p + 1)),
    publicData: makeSnapshot(MAX_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX * (p + 2)),
    spongeBlobHash: fr(seed + 0x300),
    txEffectsTreeRoot: fr(seed + 0x350),
    chainId: fr(g), version: fr(g + 1), blockNumber: g + 2, slotNumber: g + 3, timestamp: BigInt(g + 4),
    coinbase: BigInt(g + 5), feeRecipient: fr(g + 6), feePerDaGas: BigInt(g + 7), feePerL2Gas: BigInt(g + 8),
    totalFees: fr(g + 0x800), totalManaUsed: fr(g + 0x900),
  };
}
const labsHeader = makeLabsHeader(9870243);
check('makeBlockHeader(9870243) l1-to-l2 nextAvailableLeafIndex', String(labsHeader.l1ToL2.index), '10107653120', ['factories']);
check('makeBlockHeader(9870243) hash', hex(headerHash(labsHeader)),
  '0x1e79dab28d2f5be3414dcb6f177bffd2e61f258f85761cceb34eab5dbf205e1e', ['blockHeaderTest', 'factories']);

// ---------------------------------------------------------------------------------------------------------------
// 3. SpongeBlob (AN sponge_blob.ts @0038873e): a Poseidon2 sponge (rate 3) with IV = MAX_FIELDS * 2^64 in state[3],
// MAX_FIELDS = BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB; absorb field by field (duplex when the cache is full and a field
// arrives), squeeze = one last duplex, state[0]. The chunked absorb there is tested equal to this per-field absorb.
class Sponge {
  constructor() {
    this.state = [Fr.ZERO, Fr.ZERO, Fr.ZERO, new Fr(BigInt(BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB) * TWO_POW_64)];
    this.cache = [];
    this.absorbed = 0;
  }
  duplex() {
    this.state = poseidon2Permutation(this.state.map((s, i) => (i < this.cache.length ? s.add(this.cache[i]) : s)));
  }
  absorb(fields) {
    if (this.absorbed + fields.length > BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB) throw new Error('sponge overfull');
    for (const f of fields) {
      if (this.cache.length === 3) {
        this.duplex();
        this.cache = [];
      }
      this.cache.push(f);
    }
    this.absorbed += fields.length;
  }
  squeezeClone() {
    const clone = new Sponge();
    clone.state = [...this.state];
    clone.cache = [...this.cache];
    clone.duplex();
    return clone.state[0];
  }
}
{
  const small = new Sponge();
  small.absorb([fr(1), fr(4), fr(7)]);
  check('SpongeBlob: init, absorb [1, 4, 7], squeeze', hex(small.squeezeClone()),
    '0x142a2d54d67841d1ab00580036a6bb63e7ff8c1bc4ca5232628a9dde48bd55ae', ['spongeBlobTest']);
  const full = new Sponge();
  full.absorb(Array.from({ length: BLOBS_PER_CHECKPOINT * FIELDS_PER_BLOB }, (_, i) => fr(i + 123)));
  check('SpongeBlob: init, absorb MAX_FIELDS fields i + 123, squeeze', hex(full.squeezeClone()),
    '0x23f78d3bf4a9e4a96e28d05f4daaa32a91c93dac6e9903246dc69c2290e7a000', ['spongeBlobTest']);
}

// ---------------------------------------------------------------------------------------------------------------
// 4. The tx effects: the three upstream fixtures of aztec-fixtures.json, built from their documented inputs.
// An effect: { name, revertCode, txHash, transactionFee, noteHashes, nullifiers, l2ToL1Msgs, publicDataWrites:
// [{leafSlot, value}], privateLogs: [{fields[16], emittedLength}], publicLogs: [{contractAddress, fields}],
// contractClassLogs: [{contractAddress, fields[3023], emittedLength}] } (all values Fr).
const pad = (values, n) => [...values.map(fr), ...Array(n - values.length).fill(Fr.ZERO)];
function smallEffect() {
  const i = fixtures.tx_effect_fixtures.small.inputs;
  return {
    name: 'small', revertCode: i.revertCode, txHash: Fr.fromString(i.txHash), transactionFee: fr(i.transactionFee),
    noteHashes: i.noteHashes.map(fr), nullifiers: i.nullifiers.map(fr), l2ToL1Msgs: i.l2ToL1Msgs.map(fr),
    publicDataWrites: i.publicDataWrites.map((w) => ({ leafSlot: fr(w.leafSlot), value: fr(w.value) })),
    privateLogs: i.privateLogs.map((l) => ({ fields: pad(l.fields, PRIVATE_LOG_SIZE_IN_FIELDS), emittedLength: l.emittedLength })),
    publicLogs: i.publicLogs.map((l) => ({ contractAddress: fr(l.contractAddress), fields: l.fields.map(fr) })),
    contractClassLogs: i.contractClassLogs.map((l) => ({ contractAddress: fr(l.contractAddress), fields: pad(l.fields, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS), emittedLength: l.emittedLength })),
  };
}
function emptyEffect() {
  // TxEffect.empty(): RevertCode.OK, TxHash.zero(), fee 0, every array empty.
  return { name: 'empty', revertCode: 0, txHash: Fr.ZERO, transactionFee: Fr.ZERO, noteHashes: [], nullifiers: [], l2ToL1Msgs: [], publicDataWrites: [], privateLogs: [], publicLogs: [], contractClassLogs: [] };
}
function maximumEffect() {
  // aztec-fixtures.json tx_effect_fixtures.maximum.inputs, each sentence turned into code.
  const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  return {
    name: 'maximum', revertCode: 0, txHash: fr(0x1234), transactionFee: fr(42),
    noteHashes: range(64, (i) => fr(i + 1)),
    nullifiers: range(64, (i) => fr(i + 101)),
    l2ToL1Msgs: range(8, (i) => fr(i + 201)),
    publicDataWrites: range(64, (i) => ({ leafSlot: fr(i + 301), value: fr(i + 401) })),
    privateLogs: range(64, (i) => ({ fields: range(16, () => fr(i + 501)), emittedLength: 16 })),
    publicLogs: [{ contractAddress: fr(601), fields: range(4094, () => fr(601)) }],
    contractClassLogs: [{ contractAddress: fr(801), fields: range(3023, () => fr(701)), emittedLength: 3023 }],
  };
}
const EFFECTS = { small: smallEffect(), empty: emptyEffect(), maximum: maximumEffect() };

// TxEffect JSON (AN tx_effect.ts @df724bfb): constructor fields in order; RevertCode.toJSON is the number (AN
// revert_code.ts @0c6c40e3), TxHash.toJSON its 0x string (tx_hash.ts @99708713), PublicDataWrite {leafSlot, value},
// PrivateLog {fields (16), emittedLength} (@8699111e), PublicLog {contractAddress, fields} (@0c6c40e3),
// ContractClassLog {contractAddress, fields: {fields (3023)}, emittedLength} (@1a26db3e).
function effectJson(e) {
  return {
    revertCode: e.revertCode,
    txHash: hex(e.txHash),
    transactionFee: hex(e.transactionFee),
    noteHashes: e.noteHashes.map(hex),
    nullifiers: e.nullifiers.map(hex),
    l2ToL1Msgs: e.l2ToL1Msgs.map(hex),
    publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: hex(w.leafSlot), value: hex(w.value) })),
    privateLogs: e.privateLogs.map((l) => ({ fields: l.fields.map(hex), emittedLength: l.emittedLength })),
    publicLogs: e.publicLogs.map((l) => ({ contractAddress: hex(l.contractAddress), fields: l.fields.map(hex) })),
    contractClassLogs: e.contractClassLogs.map((l) => ({ contractAddress: hex(l.contractAddress), fields: { fields: l.fields.map(hex) }, emittedLength: l.emittedLength })),
  };
}
// The repository's transcriptions of the same inputs (testdata/effects/, written by tools/transcribe_fixtures.py) must
// be these effects exactly, so the named body files can stand for them.
for (const name of Object.keys(EFFECTS)) {
  const transcribed = readJson(join(testdata, 'effects', `${name}.json`));
  check(`effects/${name}.json is the v6 TxEffect JSON of the upstream "${name}" fixture`, compact(transcribed), compact(effectJson(EFFECTS[name])), ['aztecFixtures', 'txEffect']);
}
check('blocks/three-fixtures.json is the v6 Body JSON of [empty, small, maximum]',
  compact(readJson(join(testdata, 'blocks', 'three-fixtures.json'))),
  compact({ txEffects: ['empty', 'small', 'maximum'].map((n) => effectJson(EFFECTS[n])) }), ['aztecFixtures', 'body']);

// Blob encoding of one tx (AN tx_blob_data.ts @48c0af4e, tx_start_marker.ts @99708713; unchanged from 4.1.2):
// [marker, txHash, fee, noteHashes, nullifiers, l2ToL1Msgs, (leafSlot, value)*, (len, fields)* per private log,
//  the flat public logs (len, contractAddress, fields)*, contract-class log (contractAddress, emitted fields)].
// Marker, most significant first: TX_START_PREFIX | numNoteHashes 16 | numNullifiers 16 | numL2ToL1Msgs 16 |
// numPublicDataWrites 16 | numPrivateLogs 16 | privateLogsLength 16 | publicLogsLength 32 | contractClassLogLength 16 |
// revertCode 8 | numBlobFields 32. The encoder writes RevertCode.getCode(), which v6 keeps at 0 or 1.
function txSections(e) {
  const publicFlat = e.publicLogs.flatMap((l) => [fr(l.fields.length), l.contractAddress, ...l.fields]);
  const ccl = e.contractClassLogs.flatMap((l) => [l.contractAddress, ...l.fields.slice(0, l.emittedLength)]);
  const privateLogsLength = e.privateLogs.reduce((a, l) => a + l.emittedLength, 0);
  const contractClassLogLength = e.contractClassLogs[0]?.emittedLength ?? 0;
  const numBlobFields = 3 + e.noteHashes.length + e.nullifiers.length + e.l2ToL1Msgs.length + 2 * e.publicDataWrites.length +
    e.privateLogs.length + privateLogsLength + publicFlat.length + contractClassLogLength + (contractClassLogLength > 0 ? 1 : 0);
  const revertCode = e.revertCode >= 1 ? 1 : 0; // toRevertCodeEnum (revert_code.ts): any value >= 1 is REVERTED
  let m = TX_START_PREFIX;
  for (const [v, bits] of [[e.noteHashes.length, 16n], [e.nullifiers.length, 16n], [e.l2ToL1Msgs.length, 16n], [e.publicDataWrites.length, 16n],
    [e.privateLogs.length, 16n], [privateLogsLength, 16n], [publicFlat.length, 32n], [contractClassLogLength, 16n], [revertCode, 8n], [numBlobFields, 32n]]) {
    m = (m << bits) + BigInt(v);
  }
  const marker = new Fr(m);
  const fields = [marker, e.txHash, e.transactionFee, ...e.noteHashes, ...e.nullifiers, ...e.l2ToL1Msgs,
    ...e.publicDataWrites.flatMap((w) => [w.leafSlot, w.value]),
    ...e.privateLogs.flatMap((l) => [fr(l.emittedLength), ...l.fields.slice(0, l.emittedLength)]),
    ...publicFlat, ...ccl];
  if (fields.length !== numBlobFields) throw new Error('blob field count');
  // Category preimages (docs/spec.md §6.1; categories 0-5 are the blob sections, 6 is [contractAddress, cclHash] with
  // cclHash = poseidon2Hash over all 3023 fields).
  const categories = [
    e.noteHashes, e.nullifiers, e.l2ToL1Msgs, e.publicDataWrites.flatMap((w) => [w.leafSlot, w.value]),
    e.privateLogs.flatMap((l) => [fr(l.emittedLength), ...l.fields.slice(0, l.emittedLength)]), publicFlat,
    e.contractClassLogs.flatMap((l) => [l.contractAddress, poseidon2Hash(l.fields)]),
  ];
  return { marker, fields, categories };
}
function effectCommitment(e) {
  const { marker, fields, categories } = txSections(e);
  const categoryHashes = categories.map((p) => (p.length === 0 ? Fr.ZERO : poseidon2HashWithSeparator(p, DOM_SEP.TX_EFFECT_CATEGORY_HASH)));
  const categoriesHash = poseidon2HashWithSeparator([marker, e.transactionFee, ...categoryHashes], DOM_SEP.TX_EFFECT_CATEGORIES_HASH);
  // computeTxEffectsTreeLeaf (tx_effect_membership.ts): poseidon2HashWithSeparator([txHash, categoriesHash], TX_EFFECTS_TREE_LEAF)
  const leaf = poseidon2HashWithSeparator([e.txHash, categoriesHash], DOM_SEP.TX_EFFECTS_TREE_LEAF);
  return { marker, fields, categoriesHash, leaf };
}
const COMMIT = {};
for (const [name, e] of Object.entries(EFFECTS)) {
  const c = effectCommitment(e);
  const f = fixtures.tx_effect_fixtures[name];
  check(`fixture ${name}: leaf (upstream)`, hex(c.leaf), f.leaf, ['aztecFixtures', 'txEffectTest']);
  check(`fixture ${name}: tx start marker (derived in aztec-fixtures.json)`, hex(c.marker), f.tx_start_marker, ['aztecFixtures', 'txStartMarker']);
  check(`fixture ${name}: number of blob fields`, String(c.fields.length), String(f.num_blob_fields), ['aztecFixtures', 'txBlobData']);
  check(`fixture ${name}: categories hash (derived in aztec-fixtures.json)`, hex(c.categoriesHash), f.categories_hash, ['aztecFixtures']);
  COMMIT[name] = c;
}
check('fixture small: blob fields (upstream tx_effect.nr test tx_blob_sections_match_flat_blob_encoding)',
  COMMIT.small.fields.map(hex), fixtures.tx_effect_fixtures.small.blob_fields, ['aztecFixtures', 'txBlobData']);

// Tx effects tree (AN body.ts @0ef565f7, body.test.ts): greedy unbalanced tree, node = poseidon2HashWithSeparator([l, r],
// TX_EFFECTS_TREE); no txs -> root 0; one tx -> the leaf itself. Witness (tx_effect_membership.ts): leafIndex at the
// leaf's own level, siblings lowest level first.
const txNode = (l, r) => poseidon2HashWithSeparator([l, r], DOM_SEP.TX_EFFECTS_TREE);
function txEffectsTree(leaves) {
  const paths = leaves.map(() => []);
  const where = leaves.map(() => null);
  function build(lo, hi, level, index) {
    const n = hi - lo;
    if (n === 1) {
      where[lo] = { level, index };
      return leaves[lo];
    }
    let k = 1;
    while (k * 2 < n) k *= 2;
    const left = build(lo, lo + k, level + 1, 2 * index);
    const right = build(lo + k, hi, level + 1, 2 * index + 1);
    for (let i = lo; i < lo + k; i++) paths[i].push(right);
    for (let i = lo + k; i < hi; i++) paths[i].push(left);
    return txNode(left, right);
  }
  const root = leaves.length === 0 ? Fr.ZERO : build(0, leaves.length, 0, 0);
  return { root, witnesses: leaves.map((_, i) => ({ leafIndex: where[i].index, depth: where[i].level, siblingPath: paths[i] })) };
}
{
  const three = txEffectsTree(['empty', 'small', 'maximum'].map((n) => COMMIT[n].leaf));
  check('three-tx block [empty, small, maximum]: tx effects tree root (upstream)', hex(three.root), fixtures.three_tx_block.root, ['aztecFixtures', 'body']);
  check('three-tx block witnesses (aztec-fixtures.json three_tx_block.witnesses, derived there)',
    three.witnesses.map((w, i) => ({ txIndexInBlock: i, depth: w.depth, leafIndex: w.leafIndex, siblingPath: w.siblingPath.map(hex) })),
    fixtures.three_tx_block.witnesses, ['aztecFixtures']);
}

// ---------------------------------------------------------------------------------------------------------------
// 5. The chain. Checkpoint 1: block 1; checkpoint 2: blocks 2, 3, 4; checkpoint 3: blocks 5, 6, 7; checkpoint 4: block 8.
// Block 3 is the upstream three-tx block, exactly (its tx hashes 0x0, 0x1234, 0x1234, root and witnesses are pinned
// upstream). Every other tx is an upstream fixture whose tx hash is replaced by a seeded one (below), so that no tx
// hash outside block 3 repeats anywhere in the chain.
const UPSTREAM_BLOCK = 3;
const BODIES = {
  1: { fixtures: ['small'] },
  2: { fixtures: [], source: 'the empty body {"txEffects":[]}' },
  3: { fixtures: ['empty', 'small', 'maximum'], source: 'blocks/three-fixtures.json (the upstream three-tx block, unchanged)' },
  4: { fixtures: ['empty'] },
  5: { fixtures: ['maximum'] },
  6: { fixtures: [], source: 'the empty body {"txEffects":[]}' },
  7: { fixtures: ['small'] },
  8: { fixtures: ['small'] },
};
const ROOT_SOURCE = {
  0: 'Body.empty() has root 0 (AN body.test.ts @0ef565f7 "is zero for a block with no txs")',
  1: 'a one-tx block\'s root is its leaf (AN body.test.ts @0ef565f7 "is the leaf itself for one tx"; AZIP-26 R([leaf]) = leaf); the leaf is recomputed with foundation as poseidon2HashWithSeparator([txHash, categoriesHash], DOM_SEP__TX_EFFECTS_TREE_LEAF) (computeTxEffectsTreeLeaf, tx_effect_membership.ts), categoriesHash = aztec-fixtures.json tx_effect_fixtures.<name>.categories_hash (the tx hash is not in its preimage)',
  3: 'aztec-fixtures.json three_tx_block.root (upstream: tx_effect.test.ts inline snapshot + tx_effect.nr)',
};
const CHECKPOINTS = [
  { number: 1, blocks: [1] },
  { number: 2, blocks: [2, 3, 4] },
  { number: 3, blocks: [5, 6, 7] },
  { number: 4, blocks: [8] },
];
const NUM_BLOCKS = 8;
// The L1 story (chain.json `l1`): checkpoints 1..3 are proposed on L1 (pending 3) and 1..2 proven; checkpoint 4 (block 8)
// exists on L2 only, so the node reports block 8 as proposed and L1's archiveAt(4) is still bytes32(0).
const L1_PENDING_CHECKPOINT = 3;
const L1_PROVEN_CHECKPOINT = 2;

// Unique tx hashes. The archiver keeps one location per tx hash (block_store.ts #txEffects), so a by-hash lookup names
// one tx only when its hash occurs once in the chain. Every tx outside block 3 gets its own tx hash from a second
// splitmix64 stream (its own seed, so the chain's other seeded values are untouched), nonzero, distinct from each other
// and from 0x0 / 0x1234 (the fixtures' hashes, which stay in block 3).
// The effect is otherwise the fixture's. The categories hash does not cover the tx hash: its preimage is
// [M, transactionFee, C_0..C_6] (AZIP-26 "the categories hash has exactly nine input fields"; tx_effect.test.ts
// "hashes each field over its slice of the blob encoding"; TX_EFFECT_CATEGORIES_HASH_PREIMAGE_LENGTH = 2 + 7), and the
// marker M packs counts, lengths and the revert code only (tx_effect.ts getTxStartMarker). So each such tx keeps its
// fixture's categories hash, and its leaf is computeTxEffectsTreeLeaf(txHash, categoriesHash) =
// poseidon2HashWithSeparator([txHash, categoriesHash], DOM_SEP__TX_EFFECTS_TREE_LEAF) (tx_effect_membership.ts;
// tx_effect.test.ts "binds the tx hash into the leaf"). The tx hash is also blob field 1 of the tx (tx_blob_data.ts),
// so the blob fields, sponge, header and everything after follow.
const TX_HASH_SEED = 0x7636747868617368n; // "v6txhash"
const txHashRng = new Rng(TX_HASH_SEED);
const effectsDir = join(outDir, 'effects');
rmSync(effectsDir, { recursive: true, force: true }); // written only by this script
mkdirSync(effectsDir, { recursive: true });
const usedTxHashes = new Set([hex(Fr.ZERO), hex(fr(0x1234))]);
const BLOCK_TXS = {};
const chainTxEffects = [];
for (let number = 1; number <= NUM_BLOCKS; number++) {
  BLOCK_TXS[number] = BODIES[number].fixtures.map((name, i) => {
    if (number === UPSTREAM_BLOCK) return { effect: EFFECTS[name], commit: COMMIT[name], file: `blocks/three-fixtures.json txEffects[${i}] (= effects/${name}.json)` };
    const txHash = txHashRng.field();
    if (txHash.isZero() || usedTxHashes.has(hex(txHash))) throw new Error(`seeded tx hash ${hex(txHash)} is zero or repeats`);
    usedTxHashes.add(hex(txHash));
    const effect = { ...EFFECTS[name], txHash };
    const commit = effectCommitment(effect); // the whole effect again: marker, blob fields, categories hash, leaf
    const upstreamCategoriesHash = Fr.fromString(fixtures.tx_effect_fixtures[name].categories_hash);
    // Only blob field 1 (the tx hash) differs from the fixture's encoding; the marker is the same.
    if (!commit.marker.equals(COMMIT[name].marker) || commit.fields.length !== COMMIT[name].fields.length ||
      commit.fields.some((f, k) => (k === 1 ? !f.equals(txHash) : !f.equals(COMMIT[name].fields[k])))) {
      throw new Error(`block ${number} tx ${i}: the blob fields differ from the ${name} fixture's beyond the tx hash`);
    }
    check(`block ${number} tx ${i} (${name} fixture, tx hash ${hex(txHash)}): categories hash = the fixture's (the tx hash is not in the preimage [M, fee, C_0..C_6])`,
      hex(commit.categoriesHash), hex(upstreamCategoriesHash), ['aztecFixtures', 'txEffectTestCurrent', 'azip26', 'constants']);
    check(`block ${number} tx ${i} (${name} fixture): recomputed leaf = poseidon2HashWithSeparator([txHash, upstream categoriesHash], DOM_SEP__TX_EFFECTS_TREE_LEAF)`,
      hex(commit.leaf), hex(poseidon2HashWithSeparator([txHash, upstreamCategoriesHash], DOM_SEP.TX_EFFECTS_TREE_LEAF)),
      ['txEffectMembership', 'txEffectMembershipData', 'txEffectTestCurrent', 'azip26', 'aztecFixtures']);
    const file = `v6/effects/block${number}-tx${i}.json`;
    const text = compact(effectJson(effect)); // as jsonStringify prints the TxEffect (what getTxEffect's `data` carries)
    writeFileSync(join(testdata, file), text + '\n');
    chainTxEffects.push({
      block: number, txIndexInBlock: i, fixture: name, file, sha256: createHash('sha256').update(text).digest('hex'), bytes: text.length,
      txHash: hex(txHash), txHashSource: `seeded (splitmix64, seed 0x${TX_HASH_SEED.toString(16)}); every other field is the ${name} fixture's`,
      revertCode: effect.revertCode, transactionFee: hex(effect.transactionFee), txStartMarker: hex(commit.marker), numBlobFields: commit.fields.length,
      categoriesHash: hex(commit.categoriesHash), categoriesHashSource: `aztec-fixtures.json tx_effect_fixtures.${name}.categories_hash (recomputed from the effect and asserted)`,
      leaf: hex(commit.leaf), leafRule: 'poseidon2HashWithSeparator([txHash, categoriesHash], DOM_SEP__TX_EFFECTS_TREE_LEAF = 1186802524) (computeTxEffectsTreeLeaf, tx_effect_membership.ts); foundation 5.2.0',
    });
    return { effect, commit, file };
  });
  if (number !== UPSTREAM_BLOCK && BODIES[number].fixtures.length > 0) {
    BODIES[number].source = `${BLOCK_TXS[number].map((t) => t.file).join(', ')} as a one-tx body (the upstream ${BODIES[number].fixtures.join(', ')} fixture with its own tx hash)`;
  }
}
// Checkpoint 4 (block 8) was added after the others: its per-checkpoint values and block 8's world-state values come from
// a third splitmix64 stream with its own seed, so the first stream (and every value drawn from it) is unchanged. Block
// 8's tx hash is the next draw of the tx-hash stream (its fifth), after block 7's.
const BLOCK8_SEED = 0x7636626c6f636b38n; // "v6block8"
const rng8 = new Rng(BLOCK8_SEED);
const streamOf = (checkpointNumber) => (checkpointNumber === 4 ? rng8 : rng);
// L1 rollup constants (epoch-helpers/index.ts: epoch = slot / epochDuration). epochDuration 32 is an assumption: no v6
// network value was read. slotDuration/l1GenesisTime only seed the timestamps.
const L1_CONSTANTS = { epochDuration: 32, slotDuration: 72, l1GenesisTime: 1_750_000_000n + rng.below(10_000_000) };
// Chain tips: finalized = block 1 (checkpoint 1), proven = block 4 (checkpoint 2), checkpointed = block 7 (checkpoint 3,
// L1's pending checkpoint), proposed = block 8 (checkpoint 4, not on L1).
const TIPS = { proposed: 8, checkpointed: 7, proven: 4, finalized: 1 };
const chainId = fr(1n + rng.below(0xffffffff));
const version = fr(1n + rng.below(0xffffffff));
const firstEpoch = 2000n + rng.below(2000);
// cp 3 in the next epoch; cp 4 in the slot after cp 3's (same epoch)
const SLOTS = { 1: Number(firstEpoch * 32n + 30n), 2: Number(firstEpoch * 32n + 31n), 3: Number(firstEpoch * 32n + 35n), 4: Number(firstEpoch * 32n + 36n) };
for (const cp of CHECKPOINTS) {
  const r = streamOf(cp.number);
  cp.slotNumber = SLOTS[cp.number];
  cp.coinbase = r.bits(160);
  cp.feeRecipient = r.field();
  cp.feePerDaGas = cp.number === 2 ? (1n << 60n) + r.bits(40) : r.bits(40); // one above 2^53
  cp.feePerL2Gas = r.bits(40);
}

// World state walk. Note-hash and nullifier indices grow by 64 per tx (StateReference.validate requires multiples of 64);
// public data by the block's writes; L1-to-L2 by a seeded message count, except block 5, which lands above 2^32 (a
// synthetic jump: the L1-to-L2 index is a TreeLeafIndex, and the blob state field gives it 36 bits). A tree whose
// block inserts nothing keeps its root; otherwise the new root is seeded (no real tree is built).
let state = {
  l1ToL2: { ...genesisHeader.l1ToL2 }, noteHash: { ...genesisHeader.noteHash },
  nullifier: { ...genesisHeader.nullifier }, publicData: { ...genesisHeader.publicData },
};
const archiveLeaves = [genesisHash];
const archiveAfter = [{ block: 0, root: archiveRoot(archiveLeaves), nextAvailableLeafIndex: 1 }];
const blocks = [];
const blockOf = (n) => blocks[n - 1];
for (const cp of CHECKPOINTS) {
  const sponge = new Sponge(); // SpongeBlob.init() per checkpoint (data_retrieval.ts @005eadc5)
  cp.blobFields = [];
  cp.blockEnds = [];
  for (const [indexWithinCheckpoint, number] of cp.blocks.entries()) {
    const effects = BLOCK_TXS[number].map((t) => t.effect);
    const commits = BLOCK_TXS[number].map((t) => t.commit);
    const tree = txEffectsTree(commits.map((c) => c.leaf));
    const numTxs = effects.length;
    const r = streamOf(cp.number);
    const messages = number === 5 ? Number((1n << 32n) + r.below(1 << 20)) - state.l1ToL2.index : Number(r.below(17));
    const writes = effects.reduce((a, e) => a + e.publicDataWrites.length, 0);
    const noteHashes = effects.reduce((a, e) => a + e.noteHashes.length, 0);
    const next = (s, grow, changed) => ({ root: changed ? r.field() : s.root, index: s.index + grow });
    state = {
      l1ToL2: next(state.l1ToL2, messages, messages > 0),
      noteHash: next(state.noteHash, 64 * numTxs, noteHashes > 0),
      nullifier: next(state.nullifier, 64 * numTxs, numTxs > 0),
      publicData: next(state.publicData, writes, writes > 0),
    };
    const lastArchive = { root: archiveRoot(archiveLeaves), index: number };
    // Block 8's timestamp follows its slot like blocks 1..6 (so it is below block 7's synthetic one).
    let timestamp = L1_CONSTANTS.l1GenesisTime + BigInt(cp.slotNumber * L1_CONSTANTS.slotDuration) + BigInt(12 * indexWithinCheckpoint) + r.below(6);
    if (number === 7) timestamp = (1n << 53n) + 1n + r.below(1n << 40n); // above 2^53 - 1: a decimal string JS cannot hold as a number
    const totalManaUsed = numTxs === 0 ? 0n : 1n + r.bits(30);
    const totalFees = effects.reduce((a, e) => a.add(e.transactionFee), Fr.ZERO); // data_retrieval.ts: sum of the tx fees
    // Block blob data (AN l2_block.ts @82192839 toBlockBlobData; block_blob_data.ts @8699111e encodeBlockEndBlobData):
    // the txs, then [marker, state field, header.lastArchive.root, header's own note-hash, nullifier, public-data and
    // L1-to-L2 roots] for every block.
    // Marker (block_end_marker.ts @99708713), most significant first: BLOCK_END_PREFIX | timestamp 64 | blockNumber 32 | numTxs 16.
    const marker = new Fr((((((BLOCK_END_PREFIX << 64n) + timestamp) << 32n) + BigInt(number)) << 16n) + BigInt(numTxs));
    // State field (block_end_state_field.ts @82192839): l1ToL2 index 36 | note hash 42 | nullifier 42 | public data 40 | totalManaUsed 48.
    let stateField = BigInt(state.l1ToL2.index);
    stateField = (stateField << NOTE_HASH_TREE_HEIGHT) + BigInt(state.noteHash.index);
    stateField = (stateField << NULLIFIER_TREE_HEIGHT) + BigInt(state.nullifier.index);
    stateField = (stateField << PUBLIC_DATA_TREE_HEIGHT) + BigInt(state.publicData.index);
    stateField = (stateField << TOTAL_MANA_USED_BIT_SIZE) + totalManaUsed;
    if (BigInt(state.l1ToL2.index) > (1n << L1_TO_L2_MSG_TREE_HEIGHT) - 1n) throw new Error('l1-to-l2 index exceeds its 36 bits');
    const blockEnd = [marker, new Fr(stateField), lastArchive.root, state.noteHash.root, state.nullifier.root, state.publicData.root, state.l1ToL2.root];
    const txFields = commits.flatMap((c) => c.fields);
    const blockFields = [...txFields, ...blockEnd];
    const start = cp.blobFields.length;
    cp.blobFields.push(...blockFields);
    // spongeBlobHash (data_retrieval.ts): absorb this block's blob fields into the checkpoint's sponge, squeeze a clone.
    sponge.absorb(blockFields);
    const spongeBlobHash = sponge.squeezeClone();
    const header = {
      lastArchive, spongeBlobHash, txEffectsTreeRoot: tree.root,
      chainId, version, blockNumber: number, slotNumber: cp.slotNumber, timestamp, coinbase: cp.coinbase,
      feeRecipient: cp.feeRecipient, feePerDaGas: cp.feePerDaGas, feePerL2Gas: cp.feePerL2Gas,
      totalFees, totalManaUsed: new Fr(totalManaUsed),
    };
    for (const t of ['l1ToL2', 'noteHash', 'nullifier', 'publicData']) header[t] = { root: state[t].root, index: state[t].index };
    const hash = headerHash(header);
    archiveLeaves.push(hash);
    const archive = { root: archiveRoot(archiveLeaves), index: number + 1 };
    archiveAfter.push({ block: number, root: archive.root, nextAvailableLeafIndex: number + 1 });
    cp.blockEnds.push({
      blockNumber: number,
      indexWithinCheckpoint,
      txFields: [start, start + txFields.length],
      blockEndFields: [start + txFields.length, start + blockFields.length],
      fields: blockEnd.map(hex),
      decoded: {
        blockEndMarker: { prefix: '0x' + BLOCK_END_PREFIX.toString(16), timestamp: timestamp.toString(), blockNumber: number, numTxs },
        blockEndStateField: {
          l1ToL2MessageNextAvailableLeafIndex: state.l1ToL2.index, noteHashNextAvailableLeafIndex: state.noteHash.index,
          nullifierNextAvailableLeafIndex: state.nullifier.index, publicDataNextAvailableLeafIndex: state.publicData.index,
          totalManaUsed: totalManaUsed.toString(),
        },
        lastArchiveRoot: hex(lastArchive.root), noteHashRoot: hex(state.noteHash.root), nullifierRoot: hex(state.nullifier.root),
        publicDataRoot: hex(state.publicData.root), l1ToL2MessageRoot: hex(state.l1ToL2.root),
      },
    });
    blocks.push({ number, checkpointNumber: cp.number, indexWithinCheckpoint, effects, commits, tree, header, hash, archive, spongeBlobHash });
  }
  // Checkpoint end marker (checkpoint_end_marker.ts @99708713): CHECKPOINT_END_PREFIX | numBlobFields (32), counting
  // every field of the checkpoint, the marker included. Then zeros to the end of the last blob.
  cp.numBlobFields = cp.blobFields.length + 1;
  cp.checkpointEndMarker = new Fr((CHECKPOINT_END_PREFIX << 32n) + BigInt(cp.numBlobFields));
  cp.blobFields.push(cp.checkpointEndMarker);
  cp.numBlobs = Math.ceil(cp.numBlobFields / FIELDS_PER_BLOB);
  if (cp.numBlobs > BLOBS_PER_CHECKPOINT) throw new Error('too many blobs');
  cp.archive = blockOf(cp.blocks.at(-1)).archive;
}
check('archive root after block 0 (before block 1) = GENESIS_ARCHIVE_ROOT', hex(blockOf(1).header.lastArchive.root), GENESIS_ARCHIVE_ROOT, ['constants']);
// By construction block i's post-archive is block i+1's lastArchive.root (the archiver's rule, data_retrieval.ts), and
// the last block's is the checkpoint archive (archiveAt(checkpoint)).

// ---------------------------------------------------------------------------------------------------------------
// 6. Archive witnesses. getBlockHashMembershipWitness(R, hash(n)) (node_world_state_queries.ts @99708713): the
// world state at R - 1, i.e. against header(R).lastArchive.root; undefined (JSON-RPC result null) for R = 0 or when
// hash(n) is not in that archive (n >= R). getBlockHashMembershipWitnessAtArchive(root, hash): exactly the given root.
const hashOf = (n) => (n === 0 ? genesisHash : blockOf(n).hash);
const archiveWitnesses = [];
for (let n = 0; n < NUM_BLOCKS; n++) {
  for (let R = n + 1; R <= NUM_BLOCKS; R++) {
    const leaves = archiveLeaves.slice(0, R); // blocks 0..R-1
    const path = archivePath(leaves, n);
    const root = archiveRoot(leaves);
    if (!root.equals(blockOf(R).header.lastArchive.root)) throw new Error('reference root');
    // Self-check: hashing the leaf up the path gives the root.
    let acc = hashOf(n);
    path.forEach((s, level) => { acc = (n >> level) & 1 ? merkleHash(s, acc) : merkleHash(acc, s); });
    if (!acc.equals(root)) throw new Error('archive path');
    archiveWitnesses.push({
      block: n, blockHash: hex(hashOf(n)), referenceBlock: R, case: R === n + 1 ? 'next block' : 'later block',
      root: hex(root), rootIs: `header(${R}).lastArchive.root = the archive after block ${R - 1}`,
      leafIndex: n, siblingPath: path.map(hex), base64: membershipWitnessBase64(n, path),
    });
  }
}
const archiveWitnessesAtArchive = [];
for (let n = 0; n <= NUM_BLOCKS; n++) {
  const leaves = archiveLeaves.slice(0, n + 1);
  const path = archivePath(leaves, n);
  archiveWitnessesAtArchive.push({
    block: n, blockHash: hex(hashOf(n)), archive: hex(archiveRoot(leaves)), archiveIs: `the archive after block ${n} (its own)`,
    leafIndex: n, siblingPath: path.map(hex), base64: membershipWitnessBase64(n, path),
  });
}
const archiveWitnessNulls = [
  { method: 'getBlockHashMembershipWitness', referenceBlock: 0, blockHash: hex(genesisHash), result: null, why: 'reference block 0: the archive before it is empty (node_world_state_queries.ts returns undefined)' },
  ...[1, 3, 7, 8].map((n) => ({ method: 'getBlockHashMembershipWitness', referenceBlock: n, blockHash: hex(hashOf(n)), result: null, why: `block ${n} is not in header(${n}).lastArchive (the archive before block ${n})` })),
];

// ---------------------------------------------------------------------------------------------------------------
// 7. JSON-RPC. Client requests (foundation 5.2.0 safe_json_rpc_client.js): {jsonrpc:'2.0', id, method, params},
// always sent as an array, methods namespaced aztec_ (register_node_rpc_handlers.ts; node_ is a legacy alias).
// Server answers (safe_json_rpc_server.js / safe_json_rpc_server.test.ts @1a26db3e): {jsonrpc, id, result}, result null
// for undefined; a batch answers an array in the request order.
const envelope = (id, resultJson) => `{"jsonrpc":"2.0","id":${id},"result":${resultJson}}`;
const request = (id, method, params) => ({ jsonrpc: '2.0', id, method: `aztec_${method}`, params });
// Files: v6/rpc/<name>.request.json (the request object, or the array of a batch) and v6/rpc/<name>.response.json (the
// exact response body), each followed by one newline. Names: <method>-block<N>[-tx<I>][-with-...] for an answer about
// block N (tx I), getBlockHashMembershipWitness-R<R>-block<N> for the witness of block N's hash at reference block R.
const rpcFiles = [];
const rpcPath = (name) => `v6/rpc/${name}.response.json`;
function writeRpc(name, req, body, answers) {
  JSON.parse(body); // well-formed
  if (rpcFiles.some((f) => f.name === name)) throw new Error(`rpc file ${name} written twice`);
  writeFileSync(join(rpcDir, `${name}.request.json`), compact(req) + '\n');
  writeFileSync(join(rpcDir, `${name}.response.json`), body + '\n');
  const call = Array.isArray(req) ? { method: 'batch', calls: req.map((q) => ({ id: q.id, method: q.method, params: q.params })) } : { method: req.method, params: req.params };
  rpcFiles.push({ name, ...call, answers, request: `v6/rpc/${name}.request.json`, response: rpcPath(name) });
  return rpcPath(name);
}
// One answer per file: request id 1, response {"jsonrpc":"2.0","id":1,"result":<resultJson>}.
const rpcAnswer = (name, method, params, resultJson, answers) => writeRpc(name, request(1, method, params), envelope(1, resultJson), answers);

// ---------------------------------------------------------------------------------------------------------------
// 8. Node answers (v6 shapes), each as the exact JSON text the node's JSON-RPC `result` carries.
const statusOf = (n) => (n <= TIPS.finalized ? 'finalized' : n <= TIPS.proven ? 'proven' : n <= TIPS.checkpointed ? 'checkpointed' : 'proposed'); // node_tx_receipt.ts #deriveMinedStatus
const epochOf = (slot) => Math.floor(slot / L1_CONSTANTS.epochDuration); // getEpochAtSlot
const blockResponse = (b, withBody) => {
  // block_response_helpers.ts @99708713: {header, archive, hash, checkpointNumber, indexWithinCheckpoint, number, body?}.
  // node_block_provider.ts @67bc977a: without includeTransactions the answer is built from BlockData, whose header is
  // read from the store unhashed (no _cachedHash); with it, from the stored L2Block, whose header had setHash() called
  // (block_store.ts getBlockFromBlockStorage), so the header prints a trailing "_cachedHash":{}.
  const r = {
    header: headerJson(b.header, { cachedHash: withBody }),
    archive: snapshotJson(b.archive),
    hash: hex(b.hash),
    checkpointNumber: b.checkpointNumber,
    indexWithinCheckpoint: b.indexWithinCheckpoint,
    number: b.number,
  };
  if (withBody) r.body = { txEffects: b.effects.map(effectJson) };
  return r;
};
// BlockData (block_data.ts, block_store.ts getBlockDataFromBlockStorage): {header, archive, blockHash, checkpointNumber, indexWithinCheckpoint}.
const blockDataJson = (b) => ({ header: headerJson(b.header), archive: snapshotJson(b.archive), blockHash: hex(b.hash), checkpointNumber: b.checkpointNumber, indexWithinCheckpoint: b.indexWithinCheckpoint });
// MinedTxReceipt (tx_receipt.ts @df724bfb). JSON key order is the order the compiled class defines its own fields:
// base TxReceiptBase(txHash, error?), then MinedTxReceipt's parameter properties, then its other declared fields
// (status, tx). undefined values (error, tx, debugLogs, txEffect unless asked) are dropped. transactionFee is a bigint
// (decimal string); blockNumber, slotNumber, txIndexInBlock, epochNumber are numbers.
function minedReceipt(b, i, includeTxEffect) {
  const e = b.effects[i];
  const r = {
    txHash: hex(e.txHash),
    executionResult: e.revertCode === 0 ? 'success' : 'reverted', // executionResultFromRevertCode
    transactionFee: fr(e.transactionFee).toBigInt().toString(),
    blockHash: hex(b.hash),
    blockNumber: b.number,
    slotNumber: b.header.slotNumber,
    txIndexInBlock: i,
    epochNumber: epochOf(b.header.slotNumber),
  };
  if (includeTxEffect) r.txEffect = effectJson(e);
  r.status = statusOf(b.number);
  return r;
}
// IndexedTxEffect (indexed_tx_effect.ts deserializeIndexedTxEffect): {l2BlockHash, l2BlockNumber, txIndexInBlock, slotNumber, data}.
const indexedTxEffect = (b, i) => ({ l2BlockHash: hex(b.hash), l2BlockNumber: b.number, txIndexInBlock: i, slotNumber: b.header.slotNumber, data: effectJson(b.effects[i]) });
// SiblingPath.toJSON is its buffer: u32 big-endian count, then 32-byte elements (serializeArrayOfBufferableToVector),
// printed as base64. Checked against foundation 5.2.0's SiblingPath.
function siblingPathBase64(path) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(path.length);
  const buf = Buffer.concat([count, ...path.map((p) => p.toBuffer())]);
  if (!buf.equals(new SiblingPath(path.length, path.map((p) => p.toBuffer())).toBuffer())) throw new Error('SiblingPath encoding disagrees with foundation 5.2.0');
  return buf.toString('base64');
}
// TxEffectMembershipWitness (tx_effects_tree_resolver.ts @406b5de9 returns {blockNumber, root, categoriesHash, leafIndex,
// siblingPath}; leafIndex a bigint -> decimal string).
function txWitness(b, i) {
  const w = b.tree.witnesses[i];
  return { blockNumber: b.number, root: hex(b.tree.root), categoriesHash: hex(b.commits[i].categoriesHash), leafIndex: String(w.leafIndex), siblingPath: siblingPathBase64(w.siblingPath) };
}

// Where each tx hash occurs. The archiver keys stored tx effects by tx hash (block_store.ts #txEffects, getTxLocation),
// so a hash seen twice has one stored location: the node cannot answer for both. Outside block 3 every tx has its own
// seeded hash (section 5), so each occurs once; block 3 keeps the upstream hashes 0x0 (tx 0) and 0x...1234 (txs 1, 2).
const occurrences = {};
for (const b of blocks) b.effects.forEach((e, i) => (occurrences[hex(e.txHash)] ??= []).push({ block: b.number, txIndexInBlock: i }));
const duplicateInBlock = (b, i) => b.effects.filter((e) => e.txHash.equals(b.effects[i].txHash)).length > 1;
// A witness verifies as a client checks it (tx_effect_membership.ts): leaf = computeTxEffectsTreeLeaf(txHash,
// witness.categoriesHash), then the path (index & 1 ? H(sibling, acc) : H(acc, sibling)) to the header's root.
function verifyTxWitness(b, i) {
  const e = b.effects[i];
  const w = b.tree.witnesses[i];
  let acc = poseidon2HashWithSeparator([e.txHash, b.commits[i].categoriesHash], DOM_SEP.TX_EFFECTS_TREE_LEAF);
  w.siblingPath.forEach((sib, level) => { acc = (w.leafIndex >> level) & 1 ? txNode(sib, acc) : txNode(acc, sib); });
  if (!acc.equals(b.header.txEffectsTreeRoot)) throw new Error(`block ${b.number} tx ${i}: the witness does not verify against the header`);
}

// Every by-hash answer is written to v6/rpc/ as a whole JSON-RPC response (rpcFile). Answers up to 16 kB are also
// inline (json); longer ones (those carrying the small or maximum effect: a 3023-field contract-class log, and for the
// maximum every category at its limit) are given by file only (file = rpcFile).
function answer(name, method, params, json, answers) {
  const rpcFile = rpcAnswer(name, method, params, json, answers);
  return json.length <= 16384 ? { json, rpcFile } : { file: rpcFile, rpcFile };
}
const receipts = [];
const txEffectAnswers = [];
const txWitnesses = [];
const refusedLookups = [];
const positionalWitnesses = [];
for (const b of blocks) {
  b.effects.forEach((e, i) => {
    verifyTxWitness(b, i);
    const where = { block: b.number, txIndexInBlock: i, txHash: hex(e.txHash), fixture: e.name };
    if (b.number === UPSTREAM_BLOCK) {
      // Block 3 (the upstream three-tx block, tx hashes unchanged) gets no by-hash answer. Its witnesses by position
      // are given, and the by-hash lookups of the hash it repeats (0x...1234, txs 1 and 2) are refused. Tx 0 (0x0)
      // occurs once in the chain but is left without a by-hash answer too: block 3 stays the upstream block, as is.
      positionalWitnesses.push({ ...where, json: compact(txWitness(b, i)), source: 'aztec-fixtures.json three_tx_block.witnesses (derived) and root (upstream)' });
      if (duplicateInBlock(b, i)) {
        refusedLookups.push({
          ...where,
          why: `tx hash ${hex(e.txHash)} appears ${b.effects.filter((x) => x.txHash.equals(e.txHash)).length} times in block ${b.number}: a lookup by this hash names two txs and must be refused`,
        });
      }
      return;
    }
    // Every other tx: its hash occurs once in the chain, so the node's by-hash answers name it alone.
    if (occurrences[hex(e.txHash)].length !== 1) throw new Error(`tx hash ${hex(e.txHash)} of block ${b.number} tx ${i} is not unique`);
    where.effectFile = BLOCK_TXS[b.number][i].file;
    const subject = `block ${b.number} tx ${i} (${e.name} fixture, tx hash ${hex(e.txHash)}, status ${statusOf(b.number)})`;
    receipts.push({ ...where, options: null, ...answer(`getTxReceipt-block${b.number}-tx${i}`, 'getTxReceipt', [hex(e.txHash)], compact(minedReceipt(b, i, false)), `the mined receipt of ${subject}`) });
    const options = { includeTxEffect: true };
    receipts.push({ ...where, options, ...answer(`getTxReceipt-block${b.number}-tx${i}-with-tx-effect`, 'getTxReceipt', [hex(e.txHash), options], compact(minedReceipt(b, i, true)), `the mined receipt of ${subject} with its txEffect (${BLOCK_TXS[b.number][i].file})`) });
    txEffectAnswers.push({ ...where, ...answer(`getTxEffect-block${b.number}-tx${i}`, 'getTxEffect', [hex(e.txHash)], compact(indexedTxEffect(b, i)), `the IndexedTxEffect of ${subject}`) });
    const witnessJson = compact(txWitness(b, i));
    txWitnesses.push({
      ...where, json: witnessJson, rpcFile: rpcAnswer(`getTxEffectMembershipWitness-block${b.number}-tx${i}`, 'getTxEffectMembershipWitness', [hex(e.txHash)], witnessJson, `the tx-effects-tree witness of ${subject} against header(${b.number}).txEffectsTreeRoot`), leaf: hex(b.commits[i].leaf),
      leafSource: `recomputed: poseidon2HashWithSeparator([txHash, categoriesHash], DOM_SEP__TX_EFFECTS_TREE_LEAF) (computeTxEffectsTreeLeaf), categoriesHash = aztec-fixtures.json tx_effect_fixtures.${e.name}.categories_hash; the block's txEffectsTreeRoot (one tx: the leaf itself)`,
    });
  });
}
// Unmined receipts (tx_receipt.ts): Pending {txHash, status}; Dropped {txHash, error, status} with the node's
// 'Tx dropped by P2P node' for an unknown tx (node_tx_receipt.ts).
const pendingHash = rng.field();
const droppedHash = rng.field();
const pendingReceipt = { txHash: hex(pendingHash), json: compact({ txHash: hex(pendingHash), status: 'pending' }) };
const droppedReceipt = { txHash: hex(droppedHash), json: compact({ txHash: hex(droppedHash), error: 'Tx dropped by P2P node', status: 'dropped' }) };
for (const h of [pendingHash, droppedHash]) if (occurrences[hex(h)]) throw new Error('an unmined tx hash is also mined');

// ---------------------------------------------------------------------------------------------------------------
const checkpointOf = (n) => CHECKPOINTS.find((cp) => cp.blocks.includes(n));
const blockAnswers = blocks.map((b) => {
  const about = `block ${b.number} (checkpoint ${b.checkpointNumber}, index ${b.indexWithinCheckpoint}, ${b.effects.length} tx${b.effects.length === 1 ? '' : 's'})`;
  const getBlock = compact(blockResponse(b, false));
  const getBlockData = compact(blockDataJson(b));
  const files = {
    getBlock: rpcAnswer(`getBlock-block${b.number}`, 'getBlock', [b.number], getBlock, `the BlockResponse of ${about}, without body (header without _cachedHash)`),
    getBlockWithTransactions: rpcAnswer(`getBlock-block${b.number}-with-transactions`, 'getBlock', [b.number, { includeTransactions: true }], compact(blockResponse(b, true)), `the BlockResponse of ${about} with its body (header with "_cachedHash":{})`),
    getBlockData: rpcAnswer(`getBlockData-block${b.number}`, 'getBlockData', [b.number], getBlockData, `the BlockData of ${about}`),
  };
  return { number: b.number, getBlock, getBlockWithTransactions: files.getBlockWithTransactions, getBlockData, rpcFiles: files };
});
// Archive witnesses as files: for every block n in 1..7, at the next block (R = n + 1) and at the block after the last
// of n's checkpoint (R = last + 1, whose lastArchive is the checkpoint's archive, L1's archiveAt(checkpoint)). Block 8
// has neither: there is no block 9, and its checkpoint 4 is not on L1.
for (let n = 1; n < NUM_BLOCKS; n++) {
  const cp = checkpointOf(n);
  const afterCheckpoint = cp.blocks.at(-1) + 1;
  for (const R of [...new Set([n + 1, afterCheckpoint])].sort((a, b) => a - b)) {
    const w = archiveWitnesses.find((x) => x.block === n && x.referenceBlock === R);
    const roles = [];
    if (R === n + 1) roles.push(`the block after block ${n}`);
    if (R === afterCheckpoint) roles.push(`the first block after checkpoint ${cp.number} (${cp.blocks.length === 1 ? 'block' : 'blocks'} ${cp.blocks.join(', ')})`);
    const anchored = R === afterCheckpoint ? `, = archiveAt(${cp.number}), which L1 holds (chain.json l1)` : '';
    w.rpcFile = rpcAnswer(`getBlockHashMembershipWitness-R${R}-block${n}`, 'getBlockHashMembershipWitness', [R, w.blockHash], compact(w.base64),
      `the archive witness of block ${n}'s hash at reference block ${R} (${roles.join('; also ')}), against header(${R}).lastArchive.root = the archive after block ${R - 1} (${w.root})${anchored}`);
  }
}
// A batch: three requests in one array, three answers in the same order (one of them null: an unknown block hash).
const unknownHash = hex(rng.field());
const batchRequest = [
  request(7, 'getBlockData', [4]),
  request(8, 'getBlockHashMembershipWitness', [5, hex(hashOf(4))]),
  request(9, 'getBlockHashMembershipWitness', [5, unknownHash]),
];
const batchResponse = `[${[
  envelope(7, blockAnswers[3].getBlockData),
  envelope(8, compact(archiveWitnesses.find((x) => x.block === 4 && x.referenceBlock === 5).base64)),
  envelope(9, 'null'),
].join(',')}]`;
if (occurrences[unknownHash] || blocks.some((b) => hex(b.hash) === unknownHash)) throw new Error('the unknown hash is known');
writeRpc('batch', batchRequest, batchResponse, 'a batch of three: getBlockData(4), getBlockHashMembershipWitness(5, hash(4)), and getBlockHashMembershipWitness(5, an unknown hash) answered null; array in, array out in order');

// ---------------------------------------------------------------------------------------------------------------
// 8b. The L1 story. Rollup.sol @99ff034e: archiveAt(c) = archives[c] if c <= pending, else bytes32(0); archives[0] is
// written by STFLib.initialize (archives[0] = _genesisState.genesisArchiveRoot) at deployment; archives[c] for c >= 1 is
// the archive a CheckpointProposed carries, which the archiver requires to equal archiveAt(c) and takes as the post-
// archive of the checkpoint's last block (data_retrieval.ts @005eadc5). Here: the canonical genesis (archives[0] =
// GENESIS_ARCHIVE_ROOT, the archive after block 0), checkpoints 1..3 proposed (pending 3), 1..2 proven (proven 2), and
// checkpoint 4 (block 8) not on L1 (archiveAt(4) = bytes32(0)).
const ZERO32 = hex(Fr.ZERO);
if (!record('STFLib.initialize: archives[0] = genesisArchiveRoot').excerpt.includes('rollupStore.archives[0] = _genesisState.genesisArchiveRoot;')) {
  throw new Error('upstream.json lacks the STFLib.initialize excerpt');
}
const lastBlockOf = (c) => (c === 0 ? 0 : CHECKPOINTS[c - 1].blocks.at(-1));
const checkpointArchive = (c) => archiveAfter[lastBlockOf(c)].root;
// Cross-checks with foundation 5.2.0's own tree code (MerkleTreeCalculator, computeRootFromSiblingPath,
// MembershipWitness.fromBuffer), its hasher poseidon2HashWithSeparator([l, r], DOM_SEP__MERKLE_HASH).
const merkleHasher = async (l, r) => poseidon2HashWithSeparator([Fr.fromBuffer(l), Fr.fromBuffer(r)], DOM_SEP.MERKLE_HASH).toBuffer();
const archiveCalculator = await MerkleTreeCalculator.create(ARCHIVE_HEIGHT, Buffer.alloc(32), merkleHasher);
const foundationArchive = async (lastBlock) => hex(Fr.fromBuffer(await archiveCalculator.computeTreeRoot(archiveLeaves.slice(0, lastBlock + 1).map((h) => h.toBuffer()))));
for (let c = 0; c <= CHECKPOINTS.length; c++) {
  const last = lastBlockOf(c);
  const expected = c === 0 ? GENESIS_ARCHIVE_ROOT : last < NUM_BLOCKS ? hex(blockOf(last + 1).header.lastArchive.root) : hex(blockOf(last).archive.root);
  const expectedIs = c === 0 ? 'GENESIS_ARCHIVE_ROOT (upstream)' : last < NUM_BLOCKS ? `header(${last + 1}).lastArchive.root` : `block ${last}'s archive (chain.json blocks[].archive)`;
  check(`archives[${c}] (L1 archiveAt(${c})${c === 4 ? ' once checkpoint 4 is proposed' : ''}): foundation 5.2.0 MerkleTreeCalculator (height 30, MERKLE_HASH) over the hashes of blocks 0..${last} = ${expectedIs}`,
    await foundationArchive(last), expected, c === 0 ? ['constants', 'stfLib', 'foundationTrees'] : ['dataRetrieval', 'rollupSol', 'hashTs', 'foundationTrees']);
}
check('block 8 header.lastArchive = {archive after block 7 = archiveAt(3) (foundation MerkleTreeCalculator), nextAvailableLeafIndex 8}',
  snapshotJson(blockOf(8).header.lastArchive), { root: await foundationArchive(7), nextAvailableLeafIndex: 8 }, ['dataRetrieval', 'foundationTrees']);
// A witness as a client checks it: decode the base64 answer with foundation's MembershipWitness.fromBuffer, fold the
// block hash up its path with computeRootFromSiblingPath, compare with the root it should reach.
async function foldArchiveWitness(w) {
  const mw = MembershipWitness.fromBuffer(Buffer.from(w.base64, 'base64'), ARCHIVE_HEIGHT);
  if (mw.leafIndex !== BigInt(w.block)) throw new Error('witness leaf index');
  return hex(Fr.fromBuffer(await computeRootFromSiblingPath(hashOf(w.block).toBuffer(), mw.siblingPath.map((f) => f.toBuffer()), Number(mw.leafIndex), merkleHasher)));
}
{
  const at8 = archiveWitnesses.filter((w) => w.referenceBlock === 8);
  check('getBlockHashMembershipWitness(8, hash(n)) for n = 0..7, decoded and folded with foundation 5.2.0: each reaches archiveAt(3) (the archive after block 7)',
    await Promise.all(at8.map(foldArchiveWitness)), at8.map(() => hex(checkpointArchive(3))), ['worldStateQueries', 'rollupSol', 'foundationTrees', 'foundationNpm']);
}
const anchors = [];
for (let n = 0; n <= NUM_BLOCKS; n++) {
  const c = n === 0 ? 0 : checkpointOf(n).number;
  const R = lastBlockOf(c) + 1;
  const base = { block: n, blockHash: hex(hashOf(n)), checkpoint: c, archiveAt: hex(checkpointArchive(c)) };
  if (c > L1_PENDING_CHECKPOINT) {
    anchors.push({ ...base, referenceBlock: null, onL1: false, why: `checkpoint ${c} is not on L1: archiveAt(${c}) returns bytes32(0) until it is proposed; the archive it will hold is given as archiveAt. There is no block ${R} to serve a witness against it.` });
    continue;
  }
  const w = archiveWitnesses.find((x) => x.block === n && x.referenceBlock === R);
  anchors.push({ ...base, referenceBlock: R, onL1: true, proven: c <= L1_PROVEN_CHECKPOINT, witness: w.base64, ...(w.rpcFile ? { rpcFile: w.rpcFile } : {}),
    why: `header(${R}).lastArchive.root = the archive after block ${R - 1}, the last block of checkpoint ${c}${c === 0 ? ' (genesis)' : ''}` });
}
check('getBlockHashMembershipWitness(last block of n\'s checkpoint + 1, hash(n)) for n = 0..7, decoded and folded with foundation 5.2.0: each reaches archiveAt(its checkpoint)',
  await Promise.all(anchors.filter((a) => a.onL1).map((a) => foldArchiveWitness(archiveWitnesses.find((x) => x.block === a.block && x.referenceBlock === a.referenceBlock)))),
  anchors.filter((a) => a.onL1).map((a) => a.archiveAt), ['worldStateQueries', 'rollupSol', 'dataRetrieval', 'foundationTrees', 'foundationNpm']);
const l1Story = {
  note: 'the L1 side of the tests\' story: what the Rollup holds per checkpoint, and suggested tips. Rollup.sol @99ff034e: archiveAt(c) = archives[c] if c <= pending, else bytes32(0); archive() = archives[pending]. archives[0] is the genesis archive root, written by STFLib.initialize (`rollupStore.archives[0] = _genesisState.genesisArchiveRoot;`, l1-contracts/src/core/libraries/rollup/STFLib.sol @99ff034e; upstream.json record "STFLib.initialize: archives[0] = genesisArchiveRoot"; testdata/l1/StandInRollup.sol\'s constructor does the same). For this chain that root is the canonical GENESIS_ARCHIVE_ROOT (block 1\'s lastArchive.root; a network with prefunded genesis, e.g. testnet, has another). archives[c] for c >= 1 is the archive of the checkpoint\'s last block (CheckpointProposed; the archiver checks it against archiveAt(c), data_retrieval.ts @005eadc5).',
  archives: Array.from({ length: CHECKPOINTS.length + 1 }, (_, c) => ({
    checkpoint: c,
    blocks: c === 0 ? [0] : CHECKPOINTS[c - 1].blocks,
    archive: hex(checkpointArchive(c)),
    nextAvailableLeafIndex: lastBlockOf(c) + 1,
    is: c === 0 ? 'archives[0]: genesisArchiveRoot (STFLib.initialize at deployment) = GENESIS_ARCHIVE_ROOT, the archive after block 0' : `archives[${c}]: the archive after block ${lastBlockOf(c)}, the last block of checkpoint ${c}`,
    onL1: c <= L1_PENDING_CHECKPOINT,
    proven: c <= L1_PROVEN_CHECKPOINT,
  })),
  suggestedTips: {
    provenCheckpointNumber: L1_PROVEN_CHECKPOINT,
    pendingCheckpointNumber: L1_PENDING_CHECKPOINT,
    note: 'checkpoint 4 (block 8) is not yet on L1. The node\'s tips agree (chainTips): finalized block 1 (checkpoint 1), proven block 4 (checkpoint 2 = proven), checkpointed block 7 (checkpoint 3 = pending), proposed block 8 (checkpoint 4, so its receipt status is "proposed")',
  },
  views: {
    note: 'what the Rollup returns under suggestedTips',
    getProvenCheckpointNumber: L1_PROVEN_CHECKPOINT,
    getPendingCheckpointNumber: L1_PENDING_CHECKPOINT,
    archive: hex(checkpointArchive(L1_PENDING_CHECKPOINT)),
    archiveAt: Array.from({ length: CHECKPOINTS.length + 2 }, (_, c) => ({ checkpoint: c, result: c <= L1_PENDING_CHECKPOINT ? hex(checkpointArchive(c)) : ZERO32 })),
  },
  anchors: {
    note: 'for each block n: the checkpoint holding it and the witness of hash(n) against archiveAt(that checkpoint), i.e. getBlockHashMembershipWitness(R, hash(n)) with R = the last block of the checkpoint + 1 (blocks 1..7 also as v6/rpc/ files). Every block 0..7 is also provable against archiveAt(3) = archive() through reference block 8 (archiveWitnesses with referenceBlock 8). Block 8 is not provable against L1 yet.',
    blocks: anchors,
  },
  standInRollup: `testdata/l1/StandInRollup.sol: deploy with constructor(${hex(checkpointArchive(0))}) (archives[0]), then propose(1, archives[1]), propose(2, archives[2]), propose(3, archives[3]), prove(2)`,
};

// ---------------------------------------------------------------------------------------------------------------
// 9. Output.
const provenance = 'generated by xtask/ts/v6-chain.mjs (cargo xtask ts-fixtures) with @aztec/foundation 5.2.0 + @aztec/bb.js 5.0.0 (Poseidon2 only); every v6 rule written in the script from the sources listed under "sources"; deterministic (splitmix64, fixed seed): a re-run writes the same bytes; never computed with txfx';
const blobFile = (n) => `v6/checkpoint-${n}.blobs.json`;
for (const cp of CHECKPOINTS) {
  const padded = [...cp.blobFields.map(hex), ...Array(cp.numBlobs * FIELDS_PER_BLOB - cp.numBlobFields).fill(hex(Fr.ZERO))];
  writeFileSync(join(testdata, blobFile(cp.number)), compact(padded) + '\n');
}
const chain = {
  provenance,
  packages,
  seed: '0x' + SEED.toString(16),
  sources: sourceList,
  checks,
  vectors: {
    genesisArchiveRoot: { leaf: GENESIS_BLOCK_HEADER_HASH, root: hex(archiveRoot([genesisHash])), nextAvailableLeafIndex: 1, expected: GENESIS_ARCHIVE_ROOT },
    emptyArchiveRoot: { root: hex(zeros[ARCHIVE_HEIGHT]), note: 'the height-30 archive with no leaf (MERKLE_HASH nodes); not used by the genesis header, whose lastArchive is {0, 0}' },
    emptyHeader: { ...headerRecord(emptyHeader), expected: '0x270629a7878b72709d3600bf6f84458849d70beb86506bbdfa05ba9fe0e130c9' },
    genesisHeader: { ...headerRecord(genesisHeader), expected: GENESIS_BLOCK_HEADER_HASH },
    labsSeedHeader: { seed: 9870243, factory: 'makeBlockHeader(9870243)', ...headerRecord(labsHeader), expected: '0x1e79dab28d2f5be3414dcb6f177bffd2e61f258f85761cceb34eab5dbf205e1e' },
  },
  txEffects: Object.fromEntries(Object.entries(COMMIT).map(([name, c]) => [name, {
    file: `effects/${name}.json`, txHash: hex(EFFECTS[name].txHash), revertCode: EFFECTS[name].revertCode,
    transactionFee: hex(EFFECTS[name].transactionFee), txStartMarker: hex(c.marker), numBlobFields: c.fields.length,
    categoriesHash: hex(c.categoriesHash), leaf: hex(c.leaf), leafSource: `aztec-fixtures.json tx_effect_fixtures.${name}.leaf (upstream; recomputed and asserted)`,
  }])),
  txEffectsInChain: {
    note: 'the txs outside block 3: each an upstream fixture with its own seeded tx hash (unique in the chain, nonzero, not 0x1234); file = the exact jsonStringify text of the TxEffect plus a newline (sha256 and bytes are of the text without it); categoriesHash = the fixture\'s (the tx hash is not in its preimage [M, transactionFee, C_0..C_6]); leaf recomputed from (txHash, categoriesHash). Block 3 keeps the upstream effects and tx hashes (blocks/three-fixtures.json).',
    txs: chainTxEffects,
  },
  l1RollupConstants: { epochDuration: L1_CONSTANTS.epochDuration, slotDuration: L1_CONSTANTS.slotDuration, l1GenesisTime: L1_CONSTANTS.l1GenesisTime.toString(), note: 'epochDuration is assumed (32); epochNumber = floor(slotNumber / epochDuration) (epoch-helpers getEpochAtSlot)' },
  chainTips: TIPS,
  genesis: { number: 0, header: headerRecord(genesisHeader), hash: hex(genesisHash), archive: { root: hex(archiveAfter[0].root), nextAvailableLeafIndex: 1 } },
  blocks: blocks.map((b) => ({
    number: b.number,
    checkpointNumber: b.checkpointNumber,
    indexWithinCheckpoint: b.indexWithinCheckpoint,
    body: {
      source: BODIES[b.number].source,
      txs: b.effects.map((e, i) => ({ fixture: e.name, file: BLOCK_TXS[b.number][i].file, txHash: hex(e.txHash), categoriesHash: hex(b.commits[i].categoriesHash), leaf: hex(b.commits[i].leaf) })),
      txEffectsTreeRoot: hex(b.tree.root),
      rootSource: ROOT_SOURCE[b.effects.length].replace('<name>', b.effects[0]?.name),
    },
    header: { json: compact(headerJson(b.header)), fields: headerFields(b.header).map(hex), hash: hex(b.hash) },
    spongeBlobHash: { value: hex(b.spongeBlobHash), rule: 'SpongeBlob.init() per checkpoint, absorb each block\'s blob fields (txs + its 7 block-end fields) in order, squeeze a clone after this block (data_retrieval.ts)' },
    archive: { root: hex(b.archive.root), nextAvailableLeafIndex: b.archive.index },
    blobFields: { file: blobFile(b.checkpointNumber), ...(({ txFields, blockEndFields, fields, decoded }) => ({ txFields, blockEndFields, blockEnd: fields, decoded }))(CHECKPOINTS[b.checkpointNumber - 1].blockEnds[b.indexWithinCheckpoint]) },
  })),
  archive: archiveAfter.map((a) => ({ afterBlock: a.block, root: hex(a.root), nextAvailableLeafIndex: a.nextAvailableLeafIndex })),
  archiveWitnesses,
  archiveWitnessesAtArchive,
  archiveWitnessNulls,
  checkpoints: CHECKPOINTS.map((cp) => ({
    number: cp.number,
    blocks: cp.blocks,
    slotNumber: cp.slotNumber,
    epochNumber: epochOf(cp.slotNumber),
    archive: { root: hex(cp.archive.root), nextAvailableLeafIndex: cp.archive.index },
    archiveAt: hex(cp.archive.root),
    blobFieldsFile: blobFile(cp.number),
    numBlobFields: cp.numBlobFields,
    numBlobs: cp.numBlobs,
    paddedLength: cp.numBlobs * FIELDS_PER_BLOB,
    checkpointEndMarker: { field: hex(cp.checkpointEndMarker), at: cp.numBlobFields - 1, prefix: '0x' + CHECKPOINT_END_PREFIX.toString(16), numBlobFields: cp.numBlobFields },
    blockEnds: cp.blockEnds.map(({ blockNumber, txFields, blockEndFields, fields }) => ({ blockNumber, txFields, blockEndFields, fields })),
  })),
  l1: l1Story,
  nodeAnswers: {
    note: 'each json is the exact text of the JSON-RPC result (jsonStringify), or file is a v6/rpc/ response holding it (answers over 16 kB); rpcFile(s) name the v6/rpc/ response file of each answer (id 1); wrap a json as {"jsonrpc":"2.0","id":<id>,"result":<json>}. By-hash answers (getTxReceipt without options and with {includeTxEffect:true}, getTxEffect, getTxEffectMembershipWitness) are given for every tx outside block 3: each of those tx hashes is seeded and occurs once in the chain (txHashOccurrences), and a node keeps one location per hash (block_store.ts keys tx effects by hash). Block 3 is the upstream three-tx block with its tx hashes 0x0, 0x...1234, 0x...1234: it gets no by-hash answer; its witnesses are given by position (positionalTxEffectWitnesses), and a lookup of 0x...1234 there must be refused (refusedTxLookups). Its tx 0 (0x0) occurs once in the chain but has no by-hash answer here either.',
    txHashOccurrences: occurrences,
    getTxReceipt: receipts,
    getTxReceiptPending: pendingReceipt,
    getTxReceiptDropped: droppedReceipt,
    getTxEffect: txEffectAnswers,
    getTxEffectMembershipWitness: txWitnesses,
    refusedTxLookups: refusedLookups,
    positionalTxEffectWitnesses: positionalWitnesses,
    blocks: blockAnswers,
  },
  jsonRpc: {
    note: 'requests as the v6 client sends them (always an array on the wire; the single examples and the request files show one object), answers as the server prints them. files: one request/response pair per answer under v6/rpc/ (request id 1, response {"jsonrpc":"2.0","id":1,"result":...} plus a newline), each with its method, params and what it answers; names <method>-block<N>[-tx<I>][-with-...], getBlockHashMembershipWitness-R<R>-block<N>, and batch',
    single: { request: compact(request(2, 'getBlock', [3])), response: envelope(2, blockAnswers[2].getBlock) },
    batch: { request: compact(batchRequest), response: batchResponse },
    files: rpcFiles,
  },
};
writeFileSync(join(outDir, 'chain.json'), JSON.stringify(chain, null, 1) + '\n');
// Convenience files.
writeFileSync(join(outDir, 'header-3.json'), compact(headerJson(blockOf(3).header)) + '\n');
// archive-root.txt: the archive L1 holds as its pending tip, archive() = archiveAt(3) (the archive after block 7).
writeFileSync(join(outDir, 'archive-root.txt'), hex(checkpointArchive(L1_PENDING_CHECKPOINT)) + '\n');
writeFileSync(join(outDir, 'genesis-header.json'), compact(headerJson(genesisHeader)) + '\n');
writeFileSync(join(outDir, 'labs-seed-9870243-header.json'), compact(headerJson(labsHeader)) + '\n');
console.log(`v6: ${checks.length} checks against upstream passed; wrote ${blocks.length} blocks in ${CHECKPOINTS.length} checkpoints (archive root ${hex(blockOf(NUM_BLOCKS).archive.root)})`);

// Writes testdata/l1/rollup-abi.json: the Rollup ABI entries txfx reads, copied from the published
// npm package @aztec/l1-artifacts, with their selectors / event topics (keccak256 by @noble/hashes,
// checked against the compiler's own methodIdentifiers shipped in the package), and a check that
// the package's IRollup.sol declares them exactly as v6's IRollup.sol does.
//
// Usage (the package is 30 MB packed, so it is not in xtask/l1/package.json):
//   npm install --prefix /tmp/l1-artifacts --ignore-scripts --no-audit --no-fund @aztec/l1-artifacts@4.1.2
//   node xtask/l1/abi.mjs /tmp/l1-artifacts/node_modules/@aztec/l1-artifacts
// Tools from TXFX_L1_TOOLS (default target/l1/), see tools.mjs.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';

import { importTool, root } from './tools.mjs';

const pkgDir = process.argv[2];
if (!pkgDir) throw new Error('usage: node xtask/l1/abi.mjs PATH/TO/node_modules/@aztec/l1-artifacts');

const { keccak_256 } = await importTool('@noble/hashes', 'sha3.js');
const keccakHex = (s) => Buffer.from(keccak_256(new TextEncoder().encode(s))).toString('hex');
const sha256File = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');

// The entries txfx reads or may read, in this order.
const WANTED = [
  ['function', 'archiveAt'],
  ['function', 'getProvenCheckpointNumber'],
  ['function', 'getPendingCheckpointNumber'],
  ['function', 'archive'],
  ['function', 'status'],
  ['function', 'getCheckpoint'],
  ['function', 'getTips'],
  ['event', 'CheckpointProposed'],
  ['event', 'L2ProofVerified'],
  ['event', 'PrunedPending'],
];

// v6's IRollup.sol (AztecProtocol/aztec-packages @ 99ff034e, read through the search index; see
// testdata/v6/NOTES.md §13): the declarations of the entries above, copied as written there.
const V6 = {
  repo: 'AztecProtocol/aztec-packages',
  path: 'l1-contracts/src/core/interfaces/IRollup.sol',
  commit: '99ff034ebf1d196d0bf0b5b90b95353926bdcc1e',
  declarations: {
    archiveAt: 'function archiveAt(uint256 _checkpointNumber) external view returns (bytes32);',
    getProvenCheckpointNumber: 'function getProvenCheckpointNumber() external view returns (uint256);',
    getPendingCheckpointNumber: 'function getPendingCheckpointNumber() external view returns (uint256);',
    archive: 'function archive() external view returns (bytes32);',
    status:
      'function status(uint256 _myHeaderCheckpointNumber) external view returns ( uint256 provenCheckpointNumber, ' +
      'bytes32 provenArchive, uint256 pendingCheckpointNumber, bytes32 pendingArchive, bytes32 archiveOfMyCheckpoint, ' +
      'Epoch provenEpochNumber );',
    getCheckpoint: 'function getCheckpoint(uint256 _checkpointNumber) external view returns (CheckpointLog memory);',
    getTips: 'function getTips() external view returns (ChainTips memory);',
    CheckpointProposed:
      'event CheckpointProposed( uint256 indexed checkpointNumber, bytes32 indexed archive, ' +
      'bytes32[] versionedBlobHashes, bytes32 payloadDigest, bytes32 attestationsHash );',
    L2ProofVerified: 'event L2ProofVerified(uint256 indexed checkpointNumber, address indexed proverId);',
    PrunedPending: 'event PrunedPending(uint256 provenCheckpointNumber, uint256 pendingCheckpointNumber);',
  },
  // l1-contracts/src/core/libraries/compressed-data/CheckpointLog.sol @ the same commit.
  checkpointLog: [
    'bytes32 archive',
    'bytes32 headerHash',
    'bytes32 blobCommitmentsHash',
    'bytes32 outHash',
    'bytes32 attestationsHash',
    'bytes32 payloadDigest',
    'Slot slotNumber',
  ],
};

const norm = (s) => s.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();

const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const abiFile = 'dest/RollupAbi.js';
const { RollupAbi } = await import(pathToFileURL(join(pkgDir, abiFile)).href);
const forgeFile = 'l1-contracts/out/Rollup.sol/Rollup.json';
const forge = JSON.parse(readFileSync(join(pkgDir, forgeFile), 'utf8'));
const iRollupFile = 'l1-contracts/src/core/interfaces/IRollup.sol';
const iRollup = norm(readFileSync(join(pkgDir, iRollupFile), 'utf8'));
const checkpointLogFile = 'l1-contracts/src/core/libraries/compressed-data/CheckpointLog.sol';
const checkpointLogSrc = readFileSync(join(pkgDir, checkpointLogFile), 'utf8');

// Canonical type of an ABI parameter (tuples expanded).
const canon = (p) => {
  if (!p.type.startsWith('tuple')) return p.type;
  return `(${p.components.map(canon).join(',')})${p.type.slice('tuple'.length)}`;
};

const entries = [];
const selectors = {};
const topics = {};
const comparison = {};
for (const [type, name] of WANTED) {
  const found = RollupAbi.filter((e) => e.type === type && e.name === name);
  if (found.length !== 1) throw new Error(`${type} ${name}: ${found.length} entries in ${abiFile}`);
  const entry = found[0];
  const inForge = forge.abi.filter((e) => e.type === type && e.name === name);
  if (inForge.length !== 1 || !isDeepStrictEqual(inForge[0], entry)) {
    throw new Error(`${type} ${name}: ${abiFile} and ${forgeFile} differ`);
  }
  entries.push(entry);
  const signature = `${name}(${entry.inputs.map(canon).join(',')})`;
  const hash = keccakHex(signature);
  if (type === 'function') {
    const selector = hash.slice(0, 8);
    if (forge.methodIdentifiers[signature] !== selector) {
      throw new Error(`${signature}: keccak gives ${selector}, solc's methodIdentifiers ${forge.methodIdentifiers[signature]}`);
    }
    selectors[signature] = '0x' + selector;
  } else {
    topics[signature] = '0x' + hash;
  }
  const declaration = norm(V6.declarations[name]);
  comparison[name] = { v6_declaration: V6.declarations[name], same_in_package_IRollup_sol: iRollup.includes(declaration) };
}

// CheckpointLog (getCheckpoint's return struct) as the package declares it.
const m = /struct CheckpointLog \{([^}]*)\}/.exec(checkpointLogSrc);
const pkgCheckpointLog = m[1].split(';').map((s) => s.trim()).filter(Boolean);
const checkpointLogSame = isDeepStrictEqual(pkgCheckpointLog, V6.checkpointLog);
comparison.getCheckpoint.return_struct = {
  package: pkgCheckpointLog,
  v6: V6.checkpointLog,
  same: checkpointLogSame,
};
if (!checkpointLogSame) {
  comparison.getCheckpoint.note =
    "The declaration matches, but CheckpointLog does not: the package's struct ends with `FeeHeader feeHeader` " +
    '(5 more words), v6 @ 99ff034e has no feeHeader. The selector is the same (it depends on the inputs only); ' +
    'every field is static, so the first 7 words of the return data mean the same in both.';
}

const out = {
  about:
    'Rollup ABI entries txfx reads, verbatim from the published npm package, with their 4-byte selectors and event ' +
    'topics (keccak256 of the canonical signature). Written by xtask/l1/abi.mjs; see README.md.',
  provenance: {
    package: pkg.name,
    version: pkg.version,
    abi_file: `${abiFile} (export RollupAbi)`,
    abi_file_sha256: sha256File(join(pkgDir, abiFile)),
    cross_checked_with: `${forgeFile} (.abi equal entry for entry; .methodIdentifiers equal to the computed selectors; compiled by solc ${forge.metadata.compiler.version})`,
    package_IRollup_sol: iRollupFile,
    package_IRollup_sol_sha256: sha256File(join(pkgDir, iRollupFile)),
    compared_with: { repo: V6.repo, path: V6.path, commit: V6.commit },
    keccak: 'npm @noble/hashes 2.0.1 keccak_256',
  },
  selectors,
  event_topics: topics,
  v6_comparison: comparison,
  abi: entries,
};
const path = join(root, 'testdata', 'l1', 'rollup-abi.json');
writeFileSync(path, JSON.stringify(out, null, 2) + '\n');
console.log(`l1: wrote ${path}`);
for (const [s, v] of Object.entries({ ...selectors, ...topics })) console.log(`  ${v}  ${s}`);
for (const [n, c] of Object.entries(comparison)) {
  if (!c.same_in_package_IRollup_sol) console.log(`  DIFFERS from v6: ${n}`);
}
if (!checkpointLogSame) console.log('  DIFFERS from v6: CheckpointLog (getCheckpoint return struct)');

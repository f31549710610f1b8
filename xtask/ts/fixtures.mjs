// Fixtures from Aztec's own TypeScript (@aztec/stdlib 4.1.2), for `cargo xtask ts-fixtures`.
//
// Writes testdata/typescript/{effects,bodies,node-results,checkpoints}.json: what TypeScript prints
// for tx effects, bodies and the node's getTxEffect / getBlock results, with the blob fields
// TypeScript encodes for them, and checkpoints as @aztec/blob-lib encodes them for L1 with what its
// decoder reads back (expected values for txfx, from TypeScript, never from txfx).
// With TXFX_BIN set (a txfx binary), it also feeds txfx's output back to TypeScript's schemas and
// writes what was accepted to testdata/typescript/acceptance.json.
//
// Usage: node fixtures.mjs OUT_DIR   (run from the folder where the packages are installed)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { decodeCheckpointBlobData, encodeCheckpointBlobDataFromBlocks } from '@aztec/blob-lib/encoding';
import { BlockNumber, IndexWithinCheckpoint } from '@aztec/foundation/branded-types';
import { Fr } from '@aztec/foundation/curves/bn254';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { AztecAddress } from '@aztec/stdlib/aztec-address';
import { RevertCode } from '@aztec/stdlib/avm';
import { Body, L2Block } from '@aztec/stdlib/block';
import { ContractClassLog, ContractClassLogFields, PrivateLog } from '@aztec/stdlib/logs';
import { TxEffect, indexedTxSchema, randomIndexedTxEffect } from '@aztec/stdlib/tx';

const out = process.argv[2];
if (!out) throw new Error('usage: node fixtures.mjs OUT_DIR');
mkdirSync(out, { recursive: true });

const hex = (fields) => fields.map((f) => f.toString());
const codes = [RevertCode.OK, RevertCode.APP_LOGIC_REVERTED, RevertCode.TEARDOWN_REVERTED, RevertCode.BOTH_REVERTED];

async function withCcl(emittedLength) {
  const base = await TxEffect.random({ maxEffects: 2, numContractClassLogs: 0 });
  const log = new ContractClassLog(await AztecAddress.random(), ContractClassLogFields.random(emittedLength), emittedLength);
  return TxEffect.from({ ...base, contractClassLogs: [log] });
}

const effects = [['empty', TxEffect.empty()]];
for (const code of codes) {
  const base = await TxEffect.random({ maxEffects: 3, numContractClassLogs: 0 });
  effects.push([`random, revert code ${code.getCode()}`, TxEffect.from({ ...base, revertCode: code })]);
}
for (const length of [1, 17, 1512, 3023]) effects.push([`contract-class log of ${length} fields`, await withCcl(length)]);
effects.push(['every category at its limit but public logs', await TxEffect.random({
  numNoteHashes: 64, numNullifiers: 64, numL2ToL1Msgs: 8, numPublicDataWrites: 64, numPrivateLogs: 64,
  numPublicCallsPerTx: 0, numContractClassLogs: 1,
})]);
// TypeScript's schema takes nonzero private-log fields past emittedLength; its blob encoding drops them.
{
  const base = await TxEffect.random({ maxEffects: 2, numContractClassLogs: 0 });
  const fields = Array.from({ length: 16 }, (_, i) => (i < 3 || i === 9 ? Fr.random() : Fr.ZERO));
  effects.push(['private log with nonzero fields past emittedLength', TxEffect.from({ ...base, privateLogs: [new PrivateLog(fields, 3)] })]);
}
effects.push(['many public logs', await TxEffect.random({ maxEffects: 1, numPublicCallsPerTx: 8, numPublicLogsPerCall: 2, numContractClassLogs: 0 })]);
effects.push(['no public logs', await TxEffect.random({ maxEffects: 4, numPublicCallsPerTx: 0, numContractClassLogs: 0 })]);

const effectRecords = effects.map(([name, effect]) => ({
  name,
  json: jsonStringify(effect),
  blobFields: hex(effect.toBlobFields()),
}));

const bodies = [];
for (const n of [0, 1, 3, 8]) {
  const body = n === 0 ? Body.empty() : await Body.random({ txsPerBlock: n, maxEffects: 2, numContractClassLogs: 0 });
  bodies.push({ name: `${n} txs`, json: jsonStringify(body), blobFields: hex(body.txEffects.flatMap((e) => e.toBlobFields())) });
}

const indexed = await randomIndexedTxEffect();
const block = await L2Block.random(BlockNumber(4_000_017), { txsPerBlock: 3, txOptions: { maxEffects: 2, numContractClassLogs: 0 } });
const nodeResults = {
  getTxEffect: { json: jsonStringify(indexed), dataJson: jsonStringify(indexed.data), blobFields: hex(indexed.data.toBlobFields()) },
  getBlock: {
    json: jsonStringify(block),
    blockNumber: Number(block.number),
    bodyJson: jsonStringify(block.body),
    blobFields: hex(block.body.txEffects.flatMap((e) => e.toBlobFields())),
  },
};

// Checkpoints: blocks as L2Block.toBlockBlobData() gives them (values may be overridden to reach the
// extremes of the packed widths), encoded by blob-lib and decoded back by blob-lib.
const FIELDS_PER_BLOB = 4096;
async function checkpoint(name, specs) {
  const blocks = [];
  for (const [i, spec] of specs.entries()) {
    const block = await L2Block.random(BlockNumber(spec.number), {
      indexWithinCheckpoint: IndexWithinCheckpoint(i),
      txsPerBlock: spec.txs,
      txOptions: { maxEffects: 2, numContractClassLogs: spec.contractClassLogs ?? 0 },
    });
    const data = block.toBlockBlobData();
    const extra = (spec.extraTxs ?? []).map((effect) => effect.toTxBlobData());
    blocks.push({
      ...data,
      txs: data.txs.concat(extra),
      blockEndMarker: { ...data.blockEndMarker, numTxs: data.txs.length + extra.length, ...spec.endMarker },
      blockEndStateField: { ...data.blockEndStateField, ...spec.state },
    });
  }
  const fields = encodeCheckpointBlobDataFromBlocks(blocks);
  const decoded = decodeCheckpointBlobData(fields);
  const padded = fields.concat(Array(Math.ceil(fields.length / FIELDS_PER_BLOB) * FIELDS_PER_BLOB - fields.length).fill(Fr.ZERO));
  decodeCheckpointBlobData(padded); // blob-lib reads the zero tail too
  return {
    name,
    padded: hex(padded),
    blobFields: hex(fields),
    paddedLength: padded.length,
    decoded: {
      numBlobFields: decoded.checkpointEndMarker.numBlobFields,
      blocks: decoded.blocks.map((b, i) => ({
        blockNumber: Number(b.blockEndMarker.blockNumber),
        timestamp: b.blockEndMarker.timestamp.toString(),
        numTxs: b.blockEndMarker.numTxs,
        indexWithinCheckpoint: i,
        state: { ...b.blockEndStateField, totalManaUsed: b.blockEndStateField.totalManaUsed.toString() },
        lastArchiveRoot: b.lastArchiveRoot.toString(),
        noteHashRoot: b.noteHashRoot.toString(),
        nullifierRoot: b.nullifierRoot.toString(),
        publicDataRoot: b.publicDataRoot.toString(),
        ...(b.l1ToL2MessageRoot ? { l1ToL2MessageRoot: b.l1ToL2MessageRoot.toString() } : {}),
        body: JSON.parse(jsonStringify(new Body(b.txs.map((tx) => TxEffect.fromTxBlobData(tx))))),
      })),
    },
  };
}
const MAX_STATE = {
  l1ToL2MessageNextAvailableLeafIndex: 2 ** 36 - 1,
  noteHashNextAvailableLeafIndex: 2 ** 42 - 1,
  nullifierNextAvailableLeafIndex: 2 ** 42 - 1,
  publicDataNextAvailableLeafIndex: 2 ** 40 - 1,
  totalManaUsed: 2n ** 48n - 1n,
};
const checkpoints = [
  await checkpoint('1 block of 3 txs', [{ number: 70, txs: 3 }]),
  await checkpoint('1 empty block', [{ number: 71, txs: 0 }]),
  await checkpoint('2 blocks, the second empty', [{ number: 80, txs: 2 }, { number: 81, txs: 0 }]),
  await checkpoint('3 blocks with a contract-class log', [{ number: 90, txs: 1, contractClassLogs: 1 }, { number: 91, txs: 2 }, { number: 92, txs: 1 }]),
  await checkpoint('2 blocks over 3 blobs (full contract-class logs)', [
    { number: 95, txs: 1, extraTxs: [await withCcl(3023), await withCcl(3023)] },
    { number: 96, txs: 2, extraTxs: [await withCcl(3023), await withCcl(1)] },
  ]),
  await checkpoint('3 blocks at the extremes of the packed widths', [
    { number: 2 ** 32 - 3, txs: 1, endMarker: { timestamp: 2n ** 64n - 1n }, state: MAX_STATE },
    { number: 2 ** 32 - 2, txs: 0, endMarker: { timestamp: 0n }, state: { l1ToL2MessageNextAvailableLeafIndex: 0, noteHashNextAvailableLeafIndex: 0, nullifierNextAvailableLeafIndex: 0, publicDataNextAvailableLeafIndex: 0, totalManaUsed: 0n } },
    { number: 2 ** 32 - 1, txs: 2, endMarker: { timestamp: 2n ** 63n }, state: MAX_STATE },
  ]),
];

const provenance = 'generated by xtask/ts/fixtures.mjs with @aztec/stdlib, @aztec/foundation and @aztec/blob-lib 4.1.2 (random values; re-running gives other ones)';
writeFileSync(join(out, 'effects.json'), JSON.stringify({ provenance, effects: effectRecords }) + '\n');
writeFileSync(join(out, 'bodies.json'), JSON.stringify({ provenance, bodies }) + '\n');
writeFileSync(join(out, 'node-results.json'), JSON.stringify({ provenance, ...nodeResults }) + '\n');
// The zero-padded blob fields of one checkpoint, as L1 carries them: the CLI's bundled example.
const example = checkpoints.find((c) => c.name === '3 blocks with a contract-class log');
writeFileSync(join(out, 'checkpoint-3-blocks.blobs.json'), JSON.stringify(example.padded) + '\n');
writeFileSync(join(out, 'checkpoints.json'), JSON.stringify({ provenance, checkpoints: checkpoints.map(({ padded, ...rest }) => rest) }) + '\n');

// What TypeScript accepts of txfx's output, and whether it is TypeScript's own JSON.
if (process.env.TXFX_BIN) {
  const txfx = (args, input) => execFileSync(process.env.TXFX_BIN, args, { input, maxBuffer: 1 << 28 }).toString();
  const checks = [];
  for (const [name, effect] of effects) {
    const printed = txfx(['effect', 'print', '--compact', '-'], jsonStringify(effect)).trim();
    const parsed = TxEffect.schema.safeParse(JSON.parse(printed));
    checks.push({ what: `effect print: ${name}`, acceptedByTypeScript: parsed.success && parsed.data.equals(effect), sameBytes: printed === jsonStringify(effect) });
  }
  for (const body of bodies) {
    const decoded = txfx(['block', 'decode-blob', '-'], JSON.stringify(body.blobFields));
    const parsed = Body.schema.safeParse(JSON.parse(decoded));
    checks.push({ what: `block decode-blob: ${body.name}`, acceptedByTypeScript: parsed.success && parsed.data.equals(Body.schema.parse(JSON.parse(body.json))), sameBytes: null });
  }
  for (const record of checkpoints) {
    const decoded = JSON.parse(txfx(['checkpoint', 'decode', '-'], JSON.stringify(record.blobFields)));
    const bodiesAccepted = decoded.blocks.every((block, i) => {
      const parsed = Body.schema.safeParse(block.body);
      return parsed.success && parsed.data.equals(Body.schema.parse(record.decoded.blocks[i].body));
    });
    const strip = ({ txEffectsTreeRoot, ...rest }) => rest;
    const sameAsBlobLib = JSON.stringify({ ...decoded, blocks: decoded.blocks.map(strip) }) === JSON.stringify(record.decoded);
    checks.push({ what: `checkpoint decode: ${record.name}`, acceptedByTypeScript: bodiesAccepted && sameAsBlobLib, sameBytes: null });
    const encoded = JSON.parse(txfx(['checkpoint', 'encode', '-'], JSON.stringify(decoded)));
    let reDecoded = false;
    try {
      reDecoded = JSON.stringify(encoded) === JSON.stringify(record.blobFields) && decodeCheckpointBlobData(encoded.map((f) => Fr.fromString(f))).blocks.length === record.decoded.blocks.length;
    } catch { reDecoded = false; }
    checks.push({ what: `checkpoint encode: ${record.name}`, acceptedByTypeScript: reDecoded, sameBytes: JSON.stringify(encoded) === JSON.stringify(record.blobFields) });
  }
  // The files testdata/ ships as inputs are in TypeScript's shapes, as they are.
  const testdataDir = join(out, '..');
  for (const name of ['empty', 'small', 'maximum']) {
    const parsed = TxEffect.schema.safeParse(JSON.parse(readFileSync(join(testdataDir, 'effects', `${name}.json`), 'utf8')));
    checks.push({ what: `testdata/effects/${name}.json`, acceptedByTypeScript: parsed.success, sameBytes: null });
  }
  for (const file of readdirSync(join(testdataDir, 'blocks')).filter((f) => f.endsWith('.json') && !f.includes('.blob.') && !f.includes('.leaves.')).sort()) {
    const parsed = Body.schema.safeParse(JSON.parse(readFileSync(join(testdataDir, 'blocks', file), 'utf8')));
    checks.push({ what: `testdata/blocks/${file}`, acceptedByTypeScript: parsed.success, sameBytes: null });
  }
  const indexedParsed = indexedTxSchema().safeParse(JSON.parse(nodeResults.getTxEffect.json));
  checks.push({ what: 'TypeScript re-reads its own getTxEffect JSON (sanity)', acceptedByTypeScript: indexedParsed.success, sameBytes: null });
  writeFileSync(join(out, 'acceptance.json'), JSON.stringify({ provenance, checks }, null, 1) + '\n');
  const accepted = checks.filter((c) => c.acceptedByTypeScript).length;
  console.log(`typescript accepted ${accepted} of ${checks.length} txfx outputs`);
}
console.log(`wrote ${effectRecords.length} effects, ${bodies.length} bodies, 2 node results and ${checkpoints.length} checkpoints to ${out}`);

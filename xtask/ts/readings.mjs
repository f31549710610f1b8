// How Aztec's TypeScript (@aztec/stdlib 4.1.2) reads mixed and ambiguous documents, for
// `cargo xtask ts-fixtures`: the differential corpus behind txfx's "one reading per document".
//
// Writes testdata/typescript/readings.json: documents (genuine ones TypeScript printed, and
// variants of them: wrappers with extra keys, two shapes at once, duplicated and conflicting keys,
// missing keys, lenient and odd values), each in the context txfx reads it in (an effect, a body,
// a header, an archive witness), with what every TypeScript schema a reader could pick for that
// context reads from it: TxEffect.schema or the node's getTxEffect result (indexedTxSchema); Body,
// L2Block or an array of effects; BlockHeader or L2Block; the archive's MembershipWitness. A
// JSON-RPC response is also read through its `result`, as the node client reads it.
//
// A reading is what TypeScript prints of what it parsed (jsonStringify), so txfx's reading can be
// compared byte for byte; null when the schema refuses the document. The Rust side
// (suite: "typescript readings") asserts that txfx refuses every document or reads exactly what
// every accepting schema reads.
//
// Usage: node readings.mjs OUT_DIR   (run from the folder where the packages are installed)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ARCHIVE_HEIGHT } from '@aztec/constants';
import { BlockNumber } from '@aztec/foundation/branded-types';
import { Fr } from '@aztec/foundation/curves/bn254';
import { jsonStringify } from '@aztec/foundation/json-rpc';
import { MembershipWitness } from '@aztec/foundation/trees';
import { Body, L2Block } from '@aztec/stdlib/block';
import { BlockHeader, TxEffect, indexedTxSchema, randomIndexedTxEffect } from '@aztec/stdlib/tx';
import { z } from 'zod';

const out = process.argv[2];
if (!out) throw new Error('usage: node readings.mjs OUT_DIR');

// What each schema's parse result prints as: the reading compared with txfx's.
const schemas = {
  effect: [
    ['TxEffect.schema', TxEffect.schema, (e) => ({ effect: jsonStringify(e) })],
    ['indexedTxSchema', indexedTxSchema(), (r) => ({
      effect: jsonStringify(r.data),
      l2BlockNumber: Number(r.l2BlockNumber),
      l2BlockHash: r.l2BlockHash.toString(),
      txIndexInBlock: r.txIndexInBlock,
    })],
  ],
  body: [
    ['Body.schema', Body.schema, (b) => ({ body: jsonStringify(b) })],
    ['L2Block.schema', L2Block.schema, (l) => ({ body: jsonStringify(l.body), blockNumber: Number(l.header.globalVariables.blockNumber) })],
    ['z.array(TxEffect.schema)', z.array(TxEffect.schema), (a) => ({ body: jsonStringify(new Body(a)) })],
  ],
  header: [
    ['BlockHeader.schema', BlockHeader.schema, (h) => ({ header: jsonStringify(h) })],
    ['L2Block.schema', L2Block.schema, (l) => ({ header: jsonStringify(l.header) })],
  ],
  archiveWitness: [
    [`MembershipWitness.schemaFor(${ARCHIVE_HEIGHT})`, MembershipWitness.schemaFor(ARCHIVE_HEIGHT), (w) => ({
      leafIndex: w.leafIndex.toString(),
      siblingPath: w.siblingPath.map((f) => f.toString()),
    })],
  ],
};

function readings(context, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: no schema reads it (JSON.parse is where every reader starts).
    return schemas[context].map(([schema]) => ({ schema, reading: null }));
  }
  const results = [];
  // A schema's transform may throw instead of failing the parse: either way the document is
  // refused, as it would be for the reader that called the schema.
  const read = (name, schema, print, input) => {
    let reading = null;
    try {
      const parsed = schema.safeParse(input);
      if (parsed.success) reading = print(parsed.data);
    } catch {
      reading = null;
    }
    results.push({ schema: name, reading });
  };
  for (const [name, schema, print] of schemas[context]) read(name, schema, print, value);
  // The node client reads a JSON-RPC response's result (an error answer, or none, is no reading).
  if (value && typeof value === 'object' && !Array.isArray(value) && 'jsonrpc' in value && !('error' in value) && value.result != null) {
    for (const [name, schema, print] of schemas[context]) read(`${name} of result`, schema, print, value.result);
  }
  return results;
}

const documents = [];
const add = (context, name, text, extra = {}) => documents.push({ context, name, json: text, ...extra, typescript: readings(context, text) });
const clone = (value) => JSON.parse(JSON.stringify(value));
const text = (value) => JSON.stringify(value);
// An object's text with `key` given twice: first `first`, then `second` (JSON.parse keeps the last).
function duplicate(object, key, first, second) {
  const rest = Object.entries(object).filter(([k]) => k !== key).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${[`${JSON.stringify(key)}:${JSON.stringify(first)}`, ...rest, `${JSON.stringify(key)}:${JSON.stringify(second)}`].join(',')}}`;
}

// ---- Effects: a TxEffect, and the node's getTxEffect result around one.
const e1 = JSON.parse(jsonStringify(await TxEffect.random({ maxEffects: 2, numContractClassLogs: 0 })));
const e2 = JSON.parse(jsonStringify(await TxEffect.random({ maxEffects: 2, numContractClassLogs: 0 })));
const withLog = JSON.parse(jsonStringify(await TxEffect.random({ maxEffects: 1, numContractClassLogs: 1 })));
const indexed = JSON.parse(jsonStringify({ ...(await randomIndexedTxEffect()), l2BlockNumber: BlockNumber(7), txIndexInBlock: 2 }));
indexed.data = clone(e1);

add('effect', 'a tx effect', text(e1));
add('effect', 'a tx effect with a contract-class log', text(withLog));
add('effect', 'a getTxEffect result', text(indexed));
// Finding 1: another effect's keys beside `data`.
add('effect', 'a getTxEffect result with another effect\'s keys at the top', text({ ...indexed, ...e2 }));
add('effect', 'a tx effect with a data key holding another effect', text({ ...e1, data: e2 }));
add('effect', 'a getTxEffect result without data', text((({ data, ...rest }) => rest)(indexed)));
add('effect', 'a getTxEffect result with an unknown key', text({ ...indexed, source: 'archiver' }));
add('effect', 'a getTxEffect result with one effect key at the top', text({ ...indexed, txHash: e2.txHash }));
add('effect', 'a tx effect with an unknown key', text({ ...e1, surprise: [1, 2] }));
add('effect', 'a tx effect with l2BlockNumber beside it', text({ ...e1, l2BlockNumber: 7 }));
add('effect', 'a tx effect with txHash given twice', duplicate(e1, 'txHash', e2.txHash, e1.txHash));
add('effect', 'a tx effect with nullifiers given twice', duplicate(e1, 'nullifiers', e2.nullifiers, e1.nullifiers));
add('effect', 'a getTxEffect result with data given twice', duplicate(indexed, 'data', e2, e1));
for (const key of Object.keys(e1)) add('effect', `a tx effect without ${key}`, text((({ [key]: _, ...rest }) => rest)(e1)));
for (const key of Object.keys(indexed)) add('effect', `a getTxEffect result without ${key}`, text((({ [key]: _, ...rest }) => rest)(indexed)));
for (const key of ['noteHashes', 'publicLogs', 'contractClassLogs']) add('effect', `a tx effect with ${key} null`, text({ ...e1, [key]: null }));
// Field elements as strings TypeScript's Fr schema may or may not read.
for (const fee of ['0x1', '0x0001', '0X1', '1', '10', '0x1A', '1a', '', ' 0x1', '0x1 ', '+1', '-1', '1e3', '0x' + '0'.repeat(64), '0x' + '0'.repeat(65), '0x' + 'f'.repeat(64), 42, null, true]) {
  add('effect', `transactionFee ${JSON.stringify(fee)}`, text({ ...e1, transactionFee: fee }));
}
for (const hash of [e1.txHash.slice(2), e1.txHash.toUpperCase().replace('0X', '0x'), '0x' + e1.txHash.slice(4), '0x1234', e1.txHash + '00', 7]) {
  add('effect', `txHash ${JSON.stringify(hash)}`, text({ ...e1, txHash: hash }));
}
for (const code of [0, 1, 2, 3, 4, -1, 1.5, '1', true, null]) add('effect', `revertCode ${JSON.stringify(code)}`, text({ ...e1, revertCode: code }));
// Private logs: TypeScript's one strict schema.
if (e1.privateLogs.length > 0) {
  const log = e1.privateLogs[0];
  const withLogs = (logs) => text({ ...e1, privateLogs: logs });
  add('effect', 'a private log with an unknown key', withLogs([{ ...log, extra: 1 }]));
  add('effect', 'a private log of 15 fields', withLogs([{ ...log, fields: log.fields.slice(0, 15) }]));
  add('effect', 'a private log of 17 fields', withLogs([{ ...log, fields: [...log.fields, '0x01'] }]));
  add('effect', 'a private log of emittedLength 0', withLogs([{ ...log, emittedLength: 0 }]));
  add('effect', 'a private log of emittedLength 17', withLogs([{ ...log, emittedLength: 17 }]));
  add('effect', 'a private log of emittedLength 3.5', withLogs([{ ...log, emittedLength: 3.5 }]));
  add('effect', 'a private log of emittedLength "3"', withLogs([{ ...log, emittedLength: '3' }]));
  const padded = clone(log);
  padded.emittedLength = Math.min(log.emittedLength, 15);
  padded.fields[15] = '0x05';
  add('effect', 'a private log with a nonzero field past emittedLength', withLogs([padded]));
}
// Contract-class logs: TypeScript reads only the nested form of exactly 3023 fields.
{
  const log = withLog.contractClassLogs[0];
  const withLogs = (logs) => text({ ...withLog, contractClassLogs: logs });
  add('effect', 'a contract-class log flat', withLogs([{ ...log, fields: log.fields.fields.slice(0, log.emittedLength) }]));
  add('effect', 'a contract-class log nested with 3022 fields', withLogs([{ ...log, fields: { fields: log.fields.fields.slice(1) } }]));
  add('effect', 'a contract-class log with an unknown key in its fields', withLogs([{ ...log, fields: { ...log.fields, extra: 1 } }]));
  add('effect', 'a contract-class log without emittedLength', withLogs([(({ emittedLength, ...rest }) => rest)(log)]));
}
// The getTxEffect result's own values.
for (const [key, value] of [['l2BlockNumber', '7'], ['l2BlockNumber', '0x7'], ['l2BlockNumber', 2 ** 53], ['l2BlockNumber', -1], ['l2BlockNumber', 7.5], ['l2BlockHash', '0x01'], ['l2BlockHash', indexed.l2BlockHash.slice(2)], ['txIndexInBlock', '2'], ['txIndexInBlock', 2.5], ['txIndexInBlock', -1]]) {
  add('effect', `a getTxEffect result with ${key} ${JSON.stringify(value)}`, text({ ...indexed, [key]: value }));
}
// Node answers over JSON-RPC.
add('effect', 'a JSON-RPC response around a getTxEffect result', text({ jsonrpc: '2.0', id: 1, result: indexed }));
add('effect', 'a JSON-RPC response with no result', text({ jsonrpc: '2.0', id: 1 }));
add('effect', 'a JSON-RPC response with result null', text({ jsonrpc: '2.0', id: 1, result: null }));
add('effect', 'a JSON-RPC error', text({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } }));
add('effect', 'a JSON-RPC response with an effect\'s keys beside it', text({ jsonrpc: '2.0', id: 1, result: indexed, ...e2 }));
add('effect', 'a JSON-RPC response with data beside it', text({ jsonrpc: '2.0', id: 1, result: indexed, data: e2 }));
add('effect', 'an array', text([e1]));
add('effect', 'not JSON', '{"revertCode":');

// ---- Bodies: a Body, an L2Block, an array of effects.
const block = await L2Block.random(BlockNumber(4_000_017), { txsPerBlock: 2, txOptions: { maxEffects: 2, numContractClassLogs: 0 } });
const l2 = JSON.parse(jsonStringify(block));
const otherBody = JSON.parse(jsonStringify(await Body.random({ txsPerBlock: 1, maxEffects: 2, numContractClassLogs: 0 })));
add('body', 'a body', text(l2.body));
add('body', 'an L2Block', text(l2));
add('body', 'an array of effects', text(l2.body.txEffects));
add('body', 'an empty body', text({ txEffects: [] }));
add('body', 'an empty array', '[]');
// Finding 3: a body beside the L2Block's.
add('body', 'an L2Block with txEffects at the top', text({ ...l2, txEffects: otherBody.txEffects }));
add('body', 'a body with an L2Block\'s body key', text({ ...otherBody, body: l2.body }));
add('body', 'a body with a header key', text({ ...l2.body, header: l2.header }));
add('body', 'a body with an unknown key', text({ ...l2.body, surprise: 1 }));
add('body', 'an L2Block with an unknown key', text({ ...l2, surprise: 1 }));
add('body', 'an L2Block with body given twice', duplicate(l2, 'body', otherBody, l2.body));
add('body', 'a body with txEffects given twice', duplicate(l2.body, 'txEffects', otherBody.txEffects, l2.body.txEffects));
for (const key of Object.keys(l2)) add('body', `an L2Block without ${key}`, text((({ [key]: _, ...rest }) => rest)(l2)));
add('body', 'an L2Block whose body is an array', text({ ...l2, body: l2.body.txEffects }));
add('body', 'an L2Block with checkpointNumber "5"', text({ ...l2, checkpointNumber: '5' }));
add('body', 'an L2Block with a txEffectsTreeRoot in its header', text({ ...l2, header: { ...l2.header, txEffectsTreeRoot: Fr.random().toString() } }));
add('body', 'a body whose first effect lacks txHash', text({ txEffects: [(({ txHash, ...rest }) => rest)(l2.body.txEffects[0])] }));
add('body', 'a JSON-RPC response around an L2Block', text({ jsonrpc: '2.0', id: 1, result: l2 }));
add('body', 'a JSON-RPC response with txEffects beside it', text({ jsonrpc: '2.0', id: 1, result: l2, txEffects: otherBody.txEffects }));
add('body', 'a string', '"txEffects"');

// ---- Headers: a BlockHeader (4.1.2's 22-field layout), and an L2Block around one.
const header = l2.header;
const otherHeader = JSON.parse(jsonStringify(BlockHeader.random({ blockNumber: BlockNumber(4) })));
add('header', 'a header', text(header), { layout: 'pre-azip-26' });
add('header', 'an L2Block', text(l2), { layout: 'pre-azip-26' });
add('header', 'a header already hashed', text({ ...header, _cachedHash: {} }), { layout: 'pre-azip-26' });
// Finding 2: a header's own fields beside a nested header and body.
add('header', 'header fields beside a nested header and a body', text({ ...otherHeader, header, body: l2.body }), { layout: 'pre-azip-26' });
add('header', 'an L2Block with header fields at the top', text({ ...l2, ...otherHeader }), { layout: 'pre-azip-26' });
add('header', 'a header with an unknown key', text({ ...header, surprise: 1 }), { layout: 'pre-azip-26' });
add('header', 'a header with globalVariables given twice', duplicate(header, 'globalVariables', otherHeader.globalVariables, header.globalVariables), { layout: 'pre-azip-26' });
for (const key of Object.keys(header)) add('header', `a header without ${key}`, text((({ [key]: _, ...rest }) => rest)(header)), { layout: 'pre-azip-26' });
const gv = (key, value) => text({ ...header, globalVariables: { ...header.globalVariables, [key]: value } });
for (const [key, value] of [['blockNumber', '3'], ['blockNumber', '0x3'], ['blockNumber', 2 ** 32], ['blockNumber', -1], ['timestamp', 5], ['timestamp', '0x10'], ['timestamp', '-1'], ['timestamp', ''], ['coinbase', header.globalVariables.coinbase.toUpperCase().replace('0X', '0x')], ['coinbase', header.globalVariables.coinbase.slice(2)], ['coinbase', '0x+f' + header.globalVariables.coinbase.slice(4)], ['coinbase', header.globalVariables.coinbase.slice(0, -2)], ['slotNumber', '7'], ['slotNumber', 7], ['chainId', 1]]) {
  add('header', `a header with ${key} ${JSON.stringify(value)}`, gv(key, value), { layout: 'pre-azip-26' });
}
for (const value of ['5', 2 ** 32, -1, 1.5]) {
  add('header', `a header with lastArchive.nextAvailableLeafIndex ${JSON.stringify(value)}`, text({ ...header, lastArchive: { ...header.lastArchive, nextAvailableLeafIndex: value } }), { layout: 'pre-azip-26' });
}
for (const value of ['0x10', '-1', 5]) {
  add('header', `a header with gasFees.feePerDaGas ${JSON.stringify(value)}`, gv('gasFees', { ...header.globalVariables.gasFees, feePerDaGas: value }), { layout: 'pre-azip-26' });
}
// The AZIP-26 layout: TypeScript 4.1.2 reads the same document and ignores txEffectsTreeRoot.
const withRoot = {};
for (const [key, value] of Object.entries(header)) {
  withRoot[key] = value;
  if (key === 'spongeBlobHash') withRoot.txEffectsTreeRoot = Fr.random().toString();
}
add('header', 'an AZIP-26 header', text(withRoot), { layout: 'azip-26' });
add('header', 'an AZIP-26 header read as pre-AZIP-26', text(withRoot), { layout: 'pre-azip-26' });
add('header', 'a 4.1.2 header read as AZIP-26', text(header), { layout: 'azip-26' });
add('header', 'a JSON-RPC response around a header', text({ jsonrpc: '2.0', id: 1, result: header }), { layout: 'pre-azip-26' });

// ---- Archive witnesses: what getBlockHashMembershipWitness returns.
const witness = MembershipWitness.random(ARCHIVE_HEIGHT);
witness.leafIndex = 3n;
const base64 = witness.toBuffer().toString('base64');
add('archiveWitness', 'a witness', text(base64));
add('archiveWitness', 'a JSON-RPC response around a witness', text({ jsonrpc: '2.0', id: 1, result: base64 }));
add('archiveWitness', 'a witness as a Buffer object', text({ type: 'Buffer', data: [...witness.toBuffer()] }));
add('archiveWitness', 'a witness with a byte more', text(Buffer.concat([witness.toBuffer(), Buffer.from([7])]).toString('base64')));
add('archiveWitness', 'a witness a byte short', text(witness.toBuffer().subarray(1).toString('base64')));
add('archiveWitness', 'a witness with a character that is not base64', text(base64.slice(0, 10) + '*' + base64.slice(10)));
add('archiveWitness', 'a witness with spaces', text(base64.slice(0, 10) + ' ' + base64.slice(10)));
add('archiveWitness', 'a JSON-RPC response with leafIndex beside it', text({ jsonrpc: '2.0', id: 1, result: base64, leafIndex: 4 }));

// ---- Objects given as arrays of their values (serde's sequence form; z.object refuses them),
// and JSON numbers above 2^53 - 1, which JSON.parse rounds to a neighbour.
const asArray = (value) => Object.values(value);
add('effect', 'a tx effect as the array of its values', text(asArray(e1)));
add('effect', 'a getTxEffect result as the array of its values', text(asArray(indexed)));
add('effect', 'a getTxEffect result whose data is an array', text({ ...indexed, data: asArray(e1) }));
if (e1.publicDataWrites.length > 0) add('effect', 'public data writes as arrays', text({ ...e1, publicDataWrites: e1.publicDataWrites.map(asArray) }));
if (e1.privateLogs.length > 0) add('effect', 'private logs as arrays', text({ ...e1, privateLogs: e1.privateLogs.map(asArray) }));
if (e1.publicLogs.length > 0) add('effect', 'public logs as arrays', text({ ...e1, publicLogs: e1.publicLogs.map(asArray) }));
if (withLog.contractClassLogs.length > 0) add('effect', 'a contract-class log as an array', text({ ...withLog, contractClassLogs: withLog.contractClassLogs.map(asArray) }));
add('body', 'a body whose effects are arrays', text({ txEffects: l2.body.txEffects.map(asArray) }));
add('body', 'an array of effects given as arrays', text(l2.body.txEffects.map(asArray)));
add('body', 'an L2Block whose body is the array of its values', text({ ...l2, body: asArray(l2.body) }));
add('body', 'an L2Block as the array of its values', text(asArray(l2)));
add('header', 'a header as the array of its values', text(asArray(header)), { layout: 'pre-azip-26' });
add('header', 'a header whose lastArchive is [root, index]', text({ ...header, lastArchive: asArray(header.lastArchive) }), { layout: 'pre-azip-26' });
add('header', 'a header whose gasFees are an array', gv('gasFees', asArray(header.globalVariables.gasFees)), { layout: 'pre-azip-26' });
add('header', 'a header whose globalVariables are an array', text({ ...header, globalVariables: asArray(header.globalVariables) }), { layout: 'pre-azip-26' });
add('header', 'a header whose state is an array', text({ ...header, state: asArray(header.state) }), { layout: 'pre-azip-26' });
// A placeholder string replaced by a JSON number JavaScript cannot hold: the text is what a
// hostile node sends, JSON.parse rounds it.
const BIG = '9007199254740993'; // 2^53 + 1: JSON.parse reads 9007199254740992
const bigNumber = (value) => text(value).replace('"__big__"', BIG);
add('header', 'a header whose timestamp is the JSON number 2^53 + 1', bigNumber({ ...header, globalVariables: { ...header.globalVariables, timestamp: '__big__' } }), { layout: 'pre-azip-26' });
add('header', 'a header whose timestamp is the decimal string 2^53 + 1', gv('timestamp', BIG), { layout: 'pre-azip-26' });
add('header', 'a header whose feePerL2Gas is the JSON number 2^60', text({ ...header, globalVariables: { ...header.globalVariables, gasFees: { ...header.globalVariables.gasFees, feePerL2Gas: '__big__' } } }).replace('"__big__"', String(2n ** 60n)), { layout: 'pre-azip-26' });
add('header', 'a header whose totalManaUsed is the JSON number 2^53 + 1', bigNumber({ ...header, totalManaUsed: '__big__' }), { layout: 'pre-azip-26' });
add('header', 'a header whose nextAvailableLeafIndex is the JSON number 2^53 + 1', bigNumber({ ...header, lastArchive: { ...header.lastArchive, nextAvailableLeafIndex: '__big__' } }), { layout: 'pre-azip-26' });
add('effect', 'a tx effect whose revertCode is the JSON number 2^53 + 1', bigNumber({ ...e1, revertCode: '__big__' }));
add('effect', 'a getTxEffect result whose l2BlockNumber is the JSON number 2^53 + 1', bigNumber({ ...indexed, l2BlockNumber: '__big__' }));
add('effect', 'a getTxEffect result whose txIndexInBlock is the JSON number 2^53 + 1', bigNumber({ ...indexed, txIndexInBlock: '__big__' }));
add('effect', 'a getTxEffect result whose txIndexInBlock is the decimal string 2^53 + 1', text({ ...indexed, txIndexInBlock: BIG }));
add('body', 'an L2Block whose checkpointNumber is the JSON number 2^53 + 1', bigNumber({ ...l2, checkpointNumber: '__big__' }));
add('archiveWitness', 'a witness as a Buffer object whose byte is 2^53 + 1', bigNumber({ type: 'Buffer', data: ['__big__', ...[...witness.toBuffer()].slice(1)] }));

const provenance = 'generated by xtask/ts/readings.mjs with @aztec/stdlib, @aztec/foundation and @aztec/constants 4.1.2 (random values; re-running gives other ones)';
writeFileSync(join(out, 'readings.json'), JSON.stringify({ provenance, documents }) + '\n');
const read = documents.filter((d) => d.typescript.some((t) => t.reading !== null)).length;
console.log(`wrote ${documents.length} documents (${read} read by some TypeScript schema) to ${out}`);

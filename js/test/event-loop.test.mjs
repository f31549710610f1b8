// The …Async forms hold no thread of libuv's pool (Node's, UV_THREADPOOL_SIZE: fs, DNS, zlib,
// crypto): the addon hands the work to txfx's own background pool and settles the promise from
// there. And every document goes in as JSON text, a parsed object, or its bytes (a Uint8Array or a
// Buffer of UTF-8 JSON), on both engines, with bytes that are not UTF-8 refused as NotUtf8 naming
// the offset of the first bad byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';
import { chainOfBlock3 } from './vectors.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = process.env.TXFX_TESTDATA ?? path.join(here, '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');
const body = read('blocks/three-fixtures.json');
const effect = read('effects/small.json');
const three = JSON.parse(read('aztec-fixtures.json')).three_tx_block;
const chain = chainOfBlock3(read);
const checkpoint = JSON.parse(read('typescript/checkpoints.json')).checkpoints[0];
const PRE = { protocol: 'pre-azip-26' };

// A document's bytes in each form a caller holds: a Uint8Array, a Buffer, a view into the middle
// of a larger buffer, and a view over a SharedArrayBuffer.
function byteForms(text) {
  const encoded = new TextEncoder().encode(text);
  const padded = new Uint8Array(encoded.length + 7);
  padded.set(encoded, 3);
  const shared = new Uint8Array(new SharedArrayBuffer(encoded.length));
  shared.set(encoded);
  return {
    Uint8Array: encoded,
    Buffer: Buffer.from(text, 'utf8'),
    'a view at an offset': padded.subarray(3, 3 + encoded.length),
    'a view over a SharedArrayBuffer': shared,
  };
}

// Every call that takes a document, given its documents as `doc` makes them (the identity for text).
const calls = {
  txEffectCommitment: (doc) => txfx.txEffectCommitment(doc(effect)),
  txEffectLeaf: (doc) => txfx.txEffectLeaf(doc(effect)),
  txEffectsTreeRoot: (doc) => txfx.txEffectsTreeRoot(doc(body)),
  txEffectLeaves: (doc) => txfx.txEffectLeaves(doc(body), 3),
  txEffectMembershipWitness: (doc) => txfx.txEffectMembershipWitness(doc(body), { index: 1 }, 3),
  txEffectsTreeRootFromLeaves: (doc) => txfx.txEffectsTreeRootFromLeaves(doc(JSON.stringify(txfx.txEffectLeaves(body, 3)))),
  txEffectMembershipWitnessFromLeaves: (doc) => txfx.txEffectMembershipWitnessFromLeaves(doc(JSON.stringify(txfx.txEffectLeaves(body, 3))), { index: 2 }),
  verifyTxEffectMembershipWitness: (doc) => txfx.verifyTxEffectMembershipWitness(doc(chain.witness), { effect: doc(JSON.stringify(JSON.parse(body).txEffects[1])) }, three.root, undefined, { protocol: 'azip-26' }),
  verifyTx: (doc) => txfx.verifyTx({ ...chain, archiveWitness: doc(chain.archiveWitness), header: doc(chain.header), witness: doc(chain.witness), subject: { effect: doc(JSON.stringify(JSON.parse(body).txEffects[1])) } }),
  verifyArchive: (doc) => txfx.verifyArchive({ archiveRoot: chain.archiveRoot, archiveWitness: doc(chain.archiveWitness), header: doc(chain.header), protocol: 'azip-26' }),
  blockHeaderHash: (doc) => txfx.blockHeaderHash(doc(chain.header), 'azip-26'),
  decodeCheckpoint: (doc) => txfx.decodeCheckpoint(doc(JSON.stringify(checkpoint.blobFields)), PRE),
  encodeBlobFields: (doc) => txfx.encodeBlobFields(doc(body)),
  txEffectCommitmentAsync: (doc) => txfx.txEffectCommitmentAsync(doc(effect)),
  txEffectLeafAsync: (doc) => txfx.txEffectLeafAsync(doc(effect)),
  txEffectsTreeRootAsync: (doc) => txfx.txEffectsTreeRootAsync(doc(body)),
  txEffectLeavesAsync: (doc) => txfx.txEffectLeavesAsync(doc(body), 3),
  txEffectMembershipWitnessAsync: (doc) => txfx.txEffectMembershipWitnessAsync(doc(body), { index: 1 }, 3),
};

test('every document may be given as bytes, on this engine, with the result its text gives', async () => {
  for (const [name, call] of Object.entries(calls)) {
    const expected = await call((text) => text);
    if (name.startsWith('verify')) assert.equal(expected.valid, true, `${name}: ${JSON.stringify(expected)}`);
    for (const form of Object.keys(byteForms(''))) {
      const given = [];
      const result = await call((text) => {
        const bytes = byteForms(text)[form];
        given.push([bytes, Uint8Array.from(bytes)]);
        return bytes;
      });
      assert.deepEqual(result, expected, `${name}, as ${form}`);
      // Nothing the caller gave is altered.
      for (const [bytes, copy] of given) assert.deepEqual(Uint8Array.from(bytes), copy, `${name}, as ${form}: the bytes changed`);
    }
  }
});

// Bytes that are not UTF-8, and the offset of the first bad byte as Rust's `valid_up_to` counts it
// (a sequence cut short counts from its first byte).
const notUtf8 = [
  [[0x7b, 0x22, 0x61, 0x22, 0x3a, 0x20, 0xff, 0x7d], 6],
  [[0x5b, 0x22, 0xe2, 0x82, 0x22, 0x5d], 2],
  [[0xc0, 0x80], 0],
  [[0x5b, 0x31, 0x2c, 0x20, 0x32, 0x5d, 0xed, 0xa0, 0x80], 6],
  [[0x61, 0x62, 0x63, 0xf0, 0x9f, 0x98], 3],
];

const isNotUtf8 = (what, offset) => (error) => {
  assert.ok(error instanceof TypeError, `${what}: ${error}`);
  assert.equal(error.kind, 'NotUtf8', `${what}: ${error.message}`);
  assert.equal(error.txfxClass, 'Malformed');
  assert.match(error.message, new RegExp(`not UTF-8: the byte at offset ${offset}\\b`), what);
  return true;
};

test('bytes that are not UTF-8 are a TypeError of kind NotUtf8 naming the offset, in the engine and in a verification\'s named arguments', async () => {
  for (const [given, offset] of notUtf8) {
    const bytes = Uint8Array.from(given);
    assert.throws(() => txfx.txEffectsTreeRoot(bytes), isNotUtf8(`txEffectsTreeRoot ${given}`, offset));
    assert.throws(() => txfx.txEffectsTreeRoot(Buffer.from(bytes)), isNotUtf8(`txEffectsTreeRoot, a Buffer, ${given}`, offset));
    assert.throws(() => txfx.blockHeaderHash(bytes), isNotUtf8(`blockHeaderHash ${given}`, offset));
    assert.throws(() => txfx.verifyArchive({ archiveRoot: chain.archiveRoot, archiveWitness: bytes, header: chain.header }), isNotUtf8(`verifyArchive ${given}`, offset));
    assert.throws(() => txfx.verifyTx({ ...chain, subject: { effect: bytes } }), isNotUtf8(`verifyTx ${given}`, offset));
    await assert.rejects(txfx.txEffectsTreeRootAsync(bytes), isNotUtf8(`txEffectsTreeRootAsync ${given}`, offset));
    await assert.rejects(txfx.txEffectLeafAsync(bytes), isNotUtf8(`txEffectLeafAsync ${given}`, offset));
  }
  // The document's name is in the message, as for every refusal of a document.
  assert.throws(() => txfx.txEffectCommitment(Uint8Array.of(0xff)), (error) => error.message.startsWith('effect: not UTF-8'));
  assert.throws(() => txfx.verifyArchive({ archiveRoot: chain.archiveRoot, archiveWitness: Uint8Array.of(0xff), header: chain.header }), (error) => error.message.startsWith('archiveWitness: not UTF-8'));
});

test('bytes are a document only: other views and bytes in other places are refused as before', () => {
  const encoded = new TextEncoder().encode(body);
  assert.throws(() => txfx.txEffectsTreeRoot(new DataView(encoded.buffer)), TypeError);
  assert.throws(() => txfx.txEffectsTreeRoot(new Uint16Array(4)), TypeError);
  assert.throws(() => txfx.txEffectsTreeRoot(body, { protocol: new TextEncoder().encode('v6') }), TypeError);
});

test('an async call has its bytes before it returns: the caller may reuse its buffer at once', async () => {
  const expected = txfx.txEffectsTreeRoot(body);
  for (const [form, bytes] of Object.entries(byteForms(body))) {
    const pending = txfx.txEffectsTreeRootAsync(bytes);
    bytes.fill(0xff);
    assert.equal(await pending, expected, form);
  }
  const leaves = txfx.txEffectLeaves(body, 3);
  const buffer = Buffer.from(body);
  const pending = txfx.txEffectLeavesAsync(buffer, 3);
  buffer.write('{"not": "a body"}'.padEnd(buffer.length, ' '));
  assert.deepEqual(await pending, leaves);
});

// A panic in the work (kind Panic) and a pool that drops a call (kind WorkerGone) have no input
// that reaches them: txfx-js-edge's unit tests (`a_panic_is_a_failure_of_kind_panic`,
// `a_dropped_settlement_is_worker_gone`) check both. Every refusal an async call can give has the
// class and kind its synchronous form throws.
test('an async refusal has the class and kind of the synchronous one', async () => {
  const cases = [
    ['{', (doc) => txfx.txEffectsTreeRoot(doc), (doc) => txfx.txEffectsTreeRootAsync(doc)],
    [body, (doc) => txfx.txEffectMembershipWitness(doc, 3, 3), (doc) => txfx.txEffectMembershipWitnessAsync(doc, 3, 3)],
    [effect, (doc) => txfx.txEffectCommitment(doc, { protocol: 'v99' }), (doc) => txfx.txEffectCommitmentAsync(doc, { protocol: 'v99' })],
  ];
  for (const [doc, sync, async_] of cases) {
    let thrown;
    assert.throws(() => sync(doc), (error) => { thrown = error; return true; });
    await assert.rejects(async_(doc), (error) => {
      assert.equal(error.constructor, thrown.constructor);
      assert.equal(error.kind, thrown.kind);
      assert.equal(error.txfxClass, thrown.txfxClass);
      assert.equal(error.message, thrown.message);
      return true;
    });
  }
});

// In a child with one libuv thread: several async hashes of the 36 MB log-heavy block started,
// then a file read and a gzip. Each callback appends its name as it runs; the order is the test.
// With hashes that held a libuv thread each (napi's AsyncTask), the read and the gzip queued behind
// every hash and finished after them.
const CHILD = `
const fs = require('node:fs');
const zlib = require('node:zlib');
const txfx = require(process.env.TXFX_ENTRY);
const body = fs.readFileSync(process.env.TXFX_BLOCK, 'utf8');
const order = [];
const hashes = [];
for (let i = 0; i < 4; i += 1) hashes.push(txfx.txEffectsTreeRootAsync(body).then((root) => { order.push('hash'); return root; }));
const fsDone = new Promise((resolve, reject) => fs.readFile(process.env.TXFX_SMALL, (error) => (error ? reject(error) : resolve(order.push('fs')))));
const zlibDone = new Promise((resolve, reject) => zlib.gzip(Buffer.alloc(1 << 16, 7), (error) => (error ? reject(error) : resolve(order.push('zlib')))));
Promise.all([...hashes, fsDone, zlibDone]).then((all) => {
  process.stdout.write(JSON.stringify({ order, roots: [...new Set(all.slice(0, 4))], backend: txfx.backend }));
});
`;

const threadless = txfx.backend === 'wasm' && 'the WASM engine has no threads: its async forms run on the calling thread, holding no libuv thread either';
if (threadless) console.warn(`SKIPPED on this engine: the libuv-pool check (${threadless})`);

test('async hashes hold no libuv thread: with UV_THREADPOOL_SIZE=1 a file read and a gzip finish first', { skip: threadless }, () => {
  const block = path.join(testdata, 'blocks', 'log-heavy-64.json');
  const out = execFileSync(process.execPath, ['-e', CHILD], {
    env: {
      ...process.env,
      UV_THREADPOOL_SIZE: '1',
      TXFX_BACKEND: 'native',
      TXFX_ENTRY: path.join(here, '..', 'index.js'),
      TXFX_BLOCK: block,
      TXFX_SMALL: path.join(testdata, 'blocks', 'small-1.json'),
    },
    maxBuffer: 1 << 20,
  });
  const { order, roots, backend } = JSON.parse(out);
  assert.equal(backend, 'native');
  assert.deepEqual(roots, [txfx.txEffectsTreeRoot(readFileSync(block, 'utf8'))], 'the four hashes agree with the synchronous one');
  assert.equal(order.length, 6, JSON.stringify(order));
  const firstHash = order.indexOf('hash');
  assert.ok(order.indexOf('fs') < firstHash && order.indexOf('zlib') < firstHash, `the file read and the gzip waited for a hash: ${JSON.stringify(order)}`);
});

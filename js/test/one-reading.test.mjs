// One reading, second round (issue 27), through the JavaScript API on the engine under test: what
// the caller gives is read as JSON.parse and Aztec's schemas read it, or refused with the
// package's own typed error; nothing is dropped or changed on the way in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';
import { chainOfBlock3 } from './vectors.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = process.env.TXFX_TESTDATA ?? path.join(here, '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');
const json = (name) => JSON.parse(read(name));
const three = json('aztec-fixtures.json').three_tx_block;
const chain = chainOfBlock3(read);
const small = json('effects/small.json');

const typeError = (kind) => (error) => error instanceof TypeError && (kind === undefined || error.kind === kind);
const rangeError = (kind) => (error) => error instanceof RangeError && (kind === undefined || error.kind === kind);

test('expectations that are null, an array or not a plain object are refused, never dropped', () => {
  const subject = { effect: small };
  assert.equal(txfx.verifyTx({ ...chain, subject, expected: { blockNumber: 3 } }).valid, true);
  for (const expected of [null, [], [3], new Date(), new Map([['blockNumber', 3]]), { blockNumber: null }, { blockHash: null }]) {
    assert.throws(() => txfx.verifyTx({ ...chain, subject, expected }), typeError('Argument'), JSON.stringify(expected));
    assert.throws(() => txfx.verifyTxEffectMembershipWitness(chain.witness, subject, three.root, expected, { protocol: 'azip-26' }), typeError('Argument'));
  }
});

test('values JSON.stringify would change are refused with the package\'s TypeError', () => {
  // Holes in a list of field elements, and in a document.
  assert.throws(() => txfx.poseidon2Hash(['0x1', , '0x2']), typeError('Argument')); // eslint-disable-line no-sparse-arrays
  const holed = { ...small, nullifiers: [small.nullifiers[0], , small.nullifiers[0]] }; // eslint-disable-line no-sparse-arrays
  assert.throws(() => txfx.txEffectLeaf(holed), typeError('Argument'));
  // A toJSON that returns undefined, and one nested.
  assert.throws(() => txfx.txEffectLeaf({ toJSON: () => undefined }), typeError('Argument'));
  assert.throws(() => txfx.txEffectLeaf({ ...small, transactionFee: { toJSON: () => small.transactionFee } }), typeError('Argument'));
  // Objects that are not parsed JSON (a Uint8Array is a document's bytes now: a DataView is not).
  for (const document of [new DataView(new Uint8Array([123, 125]).buffer), new Date(0), new Map(), new String(JSON.stringify(small)), new Set()]) { // eslint-disable-line no-new-wrappers
    assert.throws(() => txfx.txEffectLeaf(document), typeError('Argument'), Object.prototype.toString.call(document));
  }
  assert.throws(() => txfx.txEffectLeaf({ ...small, nullifiers: [Number.NaN] }), typeError('Argument'));
  assert.throws(() => txfx.txEffectLeaf({ ...small, revertCode: 1n }), typeError('Argument'));
  // The effect itself, parsed, reads as its text does.
  assert.deepEqual(txfx.txEffectLeaf(small), txfx.txEffectLeaf(JSON.stringify(small)));
});

test('an object given as the array of its values is refused, as z.object refuses it', () => {
  const asArray = (value) => Object.values(value);
  const byArray = typeError('Malformed/WrongType');
  assert.throws(() => txfx.txEffectLeaf(asArray(small)), byArray);
  assert.throws(() => txfx.txEffectsTreeRoot({ txEffects: [asArray(small)] }), byArray);
  const header = JSON.parse(chain.header);
  assert.throws(() => txfx.blockHeaderHash({ ...header, lastArchive: asArray(header.lastArchive) }), byArray);
  const witness = JSON.parse(chain.witness);
  const verdict = () => txfx.verifyTxEffectMembershipWitness(asArray(witness), { effect: small }, three.root);
  assert.throws(verdict, byArray);
});

test('a JSON number above 2^53 - 1 is refused, as text and parsed alike', () => {
  const text = chain.header.replace(/"timestamp":\s*"[0-9]+"/, '"timestamp":9007199254740993');
  assert.notEqual(text, chain.header, 'the header has a timestamp to change');
  assert.throws(() => txfx.blockHeaderHash(text), rangeError('Malformed/Number'));
  // JSON.parse reads another number (9007199254740992); that one is refused too, never hashed.
  assert.throws(() => txfx.blockHeaderHash(JSON.parse(text)), rangeError('Malformed/Number'));
  // As a decimal string, the schema's other form, it is read exactly.
  const exact = chain.header.replace(/"timestamp":\s*"[0-9]+"/, '"timestamp":"9007199254740993"');
  assert.match(txfx.blockHeaderHash(exact), /^0x[0-9a-f]{64}$/);
});

test('one document has one reading whatever reads it', () => {
  const both = { ...small, txEffects: [small] };
  assert.throws(() => txfx.txEffectLeaf(both), typeError('Ambiguous'));
  assert.throws(() => txfx.txEffectsTreeRoot(both), typeError('Ambiguous'));
  assert.throws(() => txfx.encodeBlobFields(both), typeError('Ambiguous'));
  assert.throws(() => txfx.txEffectsTreeRoot(small), (error) => error instanceof TypeError && /this is a tx effect, not a body/.test(error.message));
  const batch = [{ jsonrpc: '2.0', id: 1, result: JSON.parse(read('blocks/three-fixtures.json')) }];
  assert.throws(() => txfx.txEffectsTreeRoot(batch), typeError('Rpc/Batch'));
});

test('a document that contradicts itself outside a verification throws the refuted kind', () => {
  const header = JSON.parse(chain.header);
  const body = JSON.parse(read('blocks/three-fixtures.json'));
  const l2Block = { archive: { root: header.lastArchive.root, nextAvailableLeafIndex: 4 }, header, body, checkpointNumber: 3, indexWithinCheckpoint: 0 };
  assert.equal(txfx.txEffectsTreeRoot(l2Block), three.root);
  const forged = { ...l2Block, body: { txEffects: body.txEffects.slice(0, 2) } };
  assert.throws(() => txfx.txEffectsTreeRoot(forged), (error) =>
    error instanceof Error && !(error instanceof TypeError) && error.txfxClass === 'Refuted' && error.kind === 'BodyNotInHeader' && error.link === 'header');
});

test('messages quote at most a short head of an offending value', () => {
  const huge = '0x' + '1'.repeat(20_000_000);
  for (const effect of [{ ...small, nullifiers: [huge] }, { ...small, txHash: huge }]) {
    assert.throws(() => txfx.txEffectLeaf(effect), (error) => error instanceof TypeError && error.message.length < 400);
  }
});

test('the WASM engine recovers from a trap and from a refusal', () => {
  const require = createRequire(import.meta.url);
  const { createWasmEngine, ENGINE_INTERNALS } = require('../wasm.js');
  const bytes = readFileSync(path.join(here, '..', 'dist', 'txfx.wasm'));
  const engine = createWasmEngine(new WebAssembly.Module(bytes));
  const body = read('blocks/three-fixtures.json');
  const internals = engine[ENGINE_INTERNALS];
  assert.equal(engine.txEffectsTreeRoot(body), three.root);
  // A refusal leaves the instance as it was.
  assert.throws(() => engine.txEffectsTreeRoot('{'), (error) => error.class === 'Malformed' && typeof error.kind === 'string');
  assert.equal(engine.txEffectsTreeRoot(body), three.root);
  // A real trap: the dispatcher told to read its arguments from beyond the module's memory.
  const index = internals.exports().indexOf('txEffectsTreeRoot');
  assert.throws(() => internals.call(index, 0xfffffff0, 3), WebAssembly.RuntimeError);
  assert.equal(internals.restarts(), 1, 'the trapped instance was replaced');
  assert.equal(engine.txEffectsTreeRoot(body), three.root);
  assert.equal(engine.txEffectsTreeRoot(JSON.stringify(json('blocks/small-16.json'))), txfx.txEffectsTreeRoot(read('blocks/small-16.json')));
});

test('the WASM module aligns its buffers and refuses misaligned argument words', () => {
  const require = createRequire(import.meta.url);
  const { createWasmEngine, ENGINE_INTERNALS } = require('../wasm.js');
  const module = new WebAssembly.Module(readFileSync(path.join(here, '..', 'dist', 'txfx.wasm')));
  // Odd sizes in between, so that an allocator packing by size alone would hand out odd addresses.
  const raw = new WebAssembly.Instance(module, {}).exports;
  const buffers = [1, 3, 5, 7, 9, 100, 1001, 65_537].map((size) => [raw.txfx_alloc(size), size]);
  for (const [pointer, size] of buffers) assert.equal(pointer % 8, 0, `txfx_alloc(${size}) gave ${pointer}`);
  for (const [pointer, size] of buffers) raw.txfx_free(pointer, size);
  // The same valid words (the document, and no options) at an aligned address and
  // one 2 bytes past it: the first call answers (status 0), the second is refused as the
  // engine's fault (status 2), not read (wasm loads need no alignment, so only the check refuses).
  const text = new TextEncoder().encode(read('blocks/three-fixtures.json'));
  const base = raw.txfx_alloc(text.length + 64);
  new Uint8Array(raw.memory.buffer, base, text.length).set(text);
  // The module's last output (a result or a refusal), as text.
  const output = () => new TextDecoder().decode(new Uint8Array(raw.memory.buffer, raw.txfx_output_ptr(), raw.txfx_output_len()));
  raw.txfx_exports();
  const table = JSON.parse(output());
  const rootIndex = table.findIndex(({ name }) => name === 'txEffectsTreeRoot');
  const wordsAt = (offset) => {
    const view = new DataView(raw.memory.buffer);
    const at = base + ((text.length + 7) & ~7) + offset;
    [1, base, text.length, 0, 0, 0].forEach((word, i) => view.setUint32(at + 4 * i, word, true));
    return at;
  };
  assert.equal(raw.txfx_call(rootIndex, wordsAt(0), 6), 0, output());
  assert.equal(output(), three.root);
  assert.equal(raw.txfx_call(rootIndex, wordsAt(2), 6), 2);
  assert.match(output(), /not aligned/);
  // Through the engine: a refusal, not a trap.
  const engine = createWasmEngine(module);
  const internals = engine[ENGINE_INTERNALS];
  const index = internals.exports().indexOf('txEffectsTreeRoot');
  for (const misaligned of [2, 0x1001, 0x1003]) assert.equal(internals.call(index, misaligned, 3), 2);
  assert.equal(internals.restarts(), 0, 'a refusal is not a trap');
  assert.equal(engine.txEffectsTreeRoot(read('blocks/three-fixtures.json')), three.root);
});

test('the WASM engine passes each call in one arena, whatever the order of sizes and scripts', () => {
  const require = createRequire(import.meta.url);
  const { createWasmEngine, unpackTexts } = require('../wasm.js');
  const engine = createWasmEngine(new WebAssembly.Module(readFileSync(path.join(here, '..', 'dist', 'txfx.wasm'))));
  const reference = json('reference.json');
  const [permutation] = reference.poseidon2_permutation;
  const longest = reference.poseidon2_hash.reduce((a, b) => (b.inputs.length > a.inputs.length ? b : a));
  assert.ok(longest.inputs.length >= 4, 'a hash vector of several elements');
  const body = read('blocks/three-fixtures.json');
  // A document larger than the arena kept between calls, as text and as bytes (JSON's trailing
  // whitespace changes no reading).
  const large = body + ' '.repeat(100_000);
  for (let round = 0; round < 3; round += 1) {
    // The first call on a fresh engine outgrows its first arena (a list is one string, the
    // elements joined by ',', with its count; a permutation's outputs come back to back).
    assert.equal(engine.poseidon2Permutation(permutation.input.join(','), 4), permutation.output.join(''));
    assert.equal(engine.poseidon2Hash(longest.inputs.join(','), longest.inputs.length), longest.output);
    assert.equal(engine.txEffectsTreeRoot(large), three.root);
    assert.equal(engine.txEffectsTreeRoot(new TextEncoder().encode(large)), three.root);
    // Non-ASCII text after ASCII in the same list reaches the module as it was given.
    assert.throws(() => engine.poseidon2Hash('0x1,0x2,0x3é', 3), (error) => error.kind === 'InvalidDigit' && error.message.startsWith('inputs[2]:') && error.message.includes("'é'"));
    assert.equal(engine.txEffectsTreeRoot(body), three.root);
  }
  // The packed lists the module returns, non-ASCII and empty strings included.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const pack = (texts) => {
    const encoded = texts.map((text) => new TextEncoder().encode(text));
    const out = new Uint8Array(4 * (1 + texts.length) + encoded.reduce((sum, bytes) => sum + bytes.length, 0));
    const view = new DataView(out.buffer);
    view.setUint32(0, texts.length, true);
    let at = 4 * (1 + texts.length);
    encoded.forEach((bytes, i) => {
      view.setUint32(4 * (1 + i), bytes.length, true);
      out.set(bytes, at);
      at += bytes.length;
    });
    return out;
  };
  for (const texts of [[], [''], ['0x1', '', '0xab'], ['é', '', 'a😀b', 'x']]) {
    assert.deepEqual(unpackTexts(pack(texts), decoder), texts, JSON.stringify(texts));
  }
  const short = pack(['ab', 'c']);
  new DataView(short.buffer).setUint32(8, 0, true);
  assert.throws(() => unpackTexts(short, decoder), /1 bytes left over/);
});

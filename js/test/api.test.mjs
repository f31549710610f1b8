// The API's own contract in Node, on the engine under test (issue 29): every error txfx throws
// has a kind and the class its fault calls for, and starts at the caller's frame; the Node entry
// says when it falls back to the WASM engine; the engines take the verifications' arguments by
// name; every export is declared and documented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';
import { SOURCES, generated } from '../scripts/cjs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.join(here, '..');
const testdata = process.env.TXFX_TESTDATA ?? path.join(here, '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');
const body = read('blocks/three-fixtures.json');
const witness = read('chain/tx-witness-3-1.json');
const three = JSON.parse(read('aztec-fixtures.json')).three_tx_block;
const chain = {
  archiveRoot: read('chain/archive-root.txt').trim(),
  archiveWitness: read('chain/archive-witness-3.json'),
  header: read('chain/header-3.json'),
  witness,
  protocol: 'azip-26',
};
const thisFile = fileURLToPath(import.meta.url);

// Calls that fail, each in the JavaScript side's checks or in the engine, with the class the fault
// calls for; every one named, so that a failure says which.
const failing = [
  ['a field of no known form', () => txfx.poseidon2Hash([{}]), TypeError],
  ['a negative number', () => txfx.poseidon2Hash([-1]), RangeError],
  ['a decimal string >= p', () => txfx.poseidon2Hash([(2n ** 254n).toString()]), RangeError],
  ['a hex string >= p (the engine)', () => txfx.poseidon2Hash([`0x${(2n ** 255n).toString(16)}`]), RangeError],
  ['bad hex digits (the engine)', () => txfx.poseidon2Hash(['0xzz']), TypeError],
  ['a comma inside an element (the engine)', () => txfx.poseidon2Permutation(['0x1,0x2', '0x3', '0x4']), TypeError],
  ['a string separator', () => txfx.poseidon2HashWithSeparator(['0x1'], '7'), TypeError],
  ['a separator past u32', () => txfx.poseidon2HashWithSeparator(['0x1'], 2 ** 32), RangeError],
  ['an ambiguous bigint tx', () => txfx.txEffectMembershipWitness(body, 1n, 3), TypeError],
  ['an index past the block (the engine)', () => txfx.txEffectMembershipWitness(body, { index: 3 }, 3), RangeError],
  ['a block number as a string', () => txfx.txEffectLeaves(body, '3'), TypeError],
  ['a malformed sibling path', () => txfx.decodeSiblingPath('AAAAAQ=='), TypeError],
  ['a document that is not JSON (the engine)', () => txfx.txEffectsTreeRoot('{'), TypeError],
  ['a misspelt option', () => txfx.verifyTx({ ...chain, subject: { leaf: '0x1' }, expect: {} }), TypeError],
  ['an unknown protocol (the engine)', () => txfx.txEffectsTreeRoot(body, { protocol: 'v7' }), TypeError],
];
const failingAsync = [
  ['a document of no known form', () => txfx.txEffectsTreeRootAsync(42), TypeError],
  ['an ambiguous tx', () => txfx.txEffectMembershipWitnessAsync(body, '1', 3), TypeError],
  ['an index past the block (the engine)', () => txfx.txEffectMembershipWitnessAsync(body, { index: 3 }, 3), RangeError],
  ['a document that is not JSON (the engine)', () => txfx.txEffectLeavesAsync('{', 3), TypeError],
  ['options that are not an object', () => txfx.verifyTxFromNode(null), TypeError],
  ['a timeout that is no duration', () => txfx.verifyTxFromNode({ node: 'http://127.0.0.1:1', archiveRoot: three.root, txHash: '0x1', timeoutMs: -1 }), RangeError],
];

// The first `at` line of a stack: the frame the error is thrown to.
const topFrame = (error) => error.stack.split('\n').find((line) => /^\s+at /.test(line)) ?? '';

function check(name, error, Kind) {
  assert.ok(error instanceof Kind, `${name}: ${error} is not a ${Kind.name}`);
  if (Kind === TypeError) assert.equal(error.txfxClass, 'Malformed', name);
  if (Kind === RangeError) assert.equal(error.txfxClass, 'OutOfRange', name);
  assert.equal(typeof error.kind, 'string', `${name}: no kind`);
  assert.ok(error.kind.length > 0, name);
  const top = topFrame(error);
  const inside = SOURCES.map(generated).find((file) => top.includes(`/${file}:`));
  assert.ok(inside === undefined, `${name}: the stack starts inside ${inside}: ${top}`);
  assert.ok(top.includes(thisFile), `${name}: the stack does not start at the caller: ${top}`);
}

test('every error has a kind and its class, and its stack starts at the caller', () => {
  for (const [name, call, Kind] of failing) {
    let thrown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown, `${name}: did not throw`);
    check(name, thrown, Kind);
  }
});

test('every rejection has a kind and its class, and its stack starts at the caller', async () => {
  for (const [name, call, Kind] of failingAsync) {
    const promise = call();
    assert.ok(promise instanceof Promise, `${name}: threw instead of rejecting`);
    let thrown;
    try {
      await promise;
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown, `${name}: did not reject`);
    check(name, thrown, Kind);
  }
});

test('a list crosses into the engine as one string: an element holding a comma is refused, never read as two', () => {
  const refusedAsSplit = (error) => error instanceof TypeError && error.kind === 'InvalidDigit' && /splits at ','/.test(error.message);
  // Three elements that would join into four, four that would join into five, one into two.
  assert.throws(() => txfx.poseidon2Permutation(['0x1,0x2', '0x3', '0x4']), refusedAsSplit);
  assert.throws(() => txfx.poseidon2Permutation(['0x1', '0x2', '0x3', '0x4,0x5']), refusedAsSplit);
  assert.throws(() => txfx.poseidon2Hash(['0x1,0x2']), refusedAsSplit);
  assert.throws(() => txfx.poseidon2HashWithSeparator([',', '0x1'], 3), refusedAsSplit);
  // An empty element is still named by its index (the empty list and every vector's length are
  // vectors.test.mjs's).
  assert.throws(() => txfx.poseidon2Hash(['0x1', '']), (error) => error instanceof TypeError && error.message.startsWith('inputs[1]'));
});

test('an error the caller\'s own object throws passes unchanged', () => {
  const mine = new Error('mine');
  const fr = { toBigInt: () => { throw mine; } };
  assert.throws(() => txfx.poseidon2Hash([fr]), (error) => error === mine && error.kind === undefined);
});

test('verifyTx takes its documents by name: one misplaced is refused, never read as another', () => {
  const subject = { effect: JSON.parse(body).txEffects[1] };
  const verdict = txfx.verifyTx({ ...chain, subject });
  assert.equal(verdict.valid, true, JSON.stringify(verdict));
  assert.equal(verdict.blockNumber, 3);
  // The header where the witness goes, and the other way round.
  const swapped = () => txfx.verifyTx({ ...chain, header: chain.witness, witness: chain.header, subject });
  assert.throws(swapped, (error) => error instanceof TypeError && typeof error.kind === 'string');
  // Positional arguments are not a form of it.
  assert.throws(() => txfx.verifyTx(chain.archiveRoot, chain.archiveWitness, chain.header, chain.witness), (error) => error instanceof TypeError && error.kind === 'Argument');
});

// The engine under test, raw: the functions the API calls.
function rawEngine() {
  const require = createRequire(import.meta.url);
  if (txfx.backend === 'native') return require('../txfx.node');
  const { createWasmEngine } = require('../wasm.js');
  return createWasmEngine(new WebAssembly.Module(readFileSync(path.join(packageDir, 'dist', 'txfx.wasm'))));
}

test('an engine hands its failures across as properties: class, kind and link beside a message of text alone', () => {
  const engine = rawEngine();
  // A malformed document, a value out of range, and a refuted verification, each from the engine.
  const failures = [
    [() => engine.txEffectsTreeRoot('{'), 'Malformed', undefined],
    [() => engine.poseidon2Hash('0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001', 1), 'OutOfRange', undefined],
    [() => engine.verifyTxEffectMembershipWitness(JSON.stringify({ witness, subjectKind: 'leaf', subjectValue: '0x01', trustedRoot: three.root, protocol: 'azip-26' })), 'Refuted', 'string'],
  ];
  for (const [run, cls, link] of failures) {
    assert.throws(run, (error) => {
      assert.ok(error instanceof Error, cls);
      assert.equal(error.class, cls);
      assert.equal(typeof error.kind, 'string', cls);
      assert.equal(typeof error.link, link ?? 'undefined', `${cls}: link`);
      assert.ok(!/^\s*[{[]/.test(error.message), `${cls}: the message is text, not a record: ${error.message}`);
      return true;
    });
  }
  // Through the API each becomes its documented subclass of TxfxError (a refutation a verdict).
  assert.throws(() => txfx.txEffectsTreeRoot('{'), (error) => error instanceof txfx.MalformedError && error instanceof TypeError && error instanceof txfx.TxfxError && error.class === 'Malformed');
  assert.throws(() => txfx.poseidon2Hash([three.root, '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001']), (error) => error instanceof txfx.OutOfRangeError && error instanceof RangeError && error.kind === 'NotCanonical' && error.message.startsWith('inputs[1]: '));
  const refuted = txfx.verifyTxEffectMembershipWitness(witness, { leaf: '0x01' }, three.root, undefined, { protocol: 'azip-26' });
  assert.equal(refuted.valid, false);
  assert.equal(typeof refuted.link, 'string');
  assert.ok(!refuted.reason.startsWith('{'), refuted.reason);
});

test('in Node a walk\'s step runs off the event loop: the addon\'s nodeWalkStepAsync settles a promise', async (t) => {
  if (txfx.backend !== 'native') return t.skip('the WASM build has no threads: its walk steps on the calling thread');
  const engine = rawEngine();
  const pending = engine.nodeWalkStepAsync(4294967295, 200, '{}');
  assert.ok(pending instanceof Promise, 'a promise, returned before the step ran');
  await assert.rejects(pending, (error) => error.class === 'Malformed' && error.kind === 'UnknownWalk' && !error.message.startsWith('{'));
});

test('the engines take each verification\'s arguments by name: a missing or unknown one is refused', () => {
  const engine = rawEngine();
  const leaf = JSON.parse(read('aztec-fixtures.json')).three_tx_block.leaves[1];
  const calls = {
    verifyTx: { archiveRoot: chain.archiveRoot, archiveWitness: chain.archiveWitness, header: chain.header, witness, subjectKind: 'effect', subjectValue: JSON.stringify(JSON.parse(body).txEffects[1]), protocol: 'azip-26' },
    verifyTxEffectMembershipWitness: { witness, subjectKind: 'leaf', subjectValue: leaf, trustedRoot: three.root, protocol: 'azip-26' },
    verifyArchive: { archiveRoot: chain.archiveRoot, archiveWitness: chain.archiveWitness, header: chain.header, protocol: 'azip-26' },
  };
  // An engine's failure carries its class and kind as properties; its message is text alone.
  const refusal = (error) => error instanceof Error && error.class === 'Malformed' && error.kind === 'Argument' && !error.message.startsWith('{');
  for (const [name, args] of Object.entries(calls)) {
    const verdict = JSON.parse(engine[name](JSON.stringify(args)));
    assert.equal(verdict.valid, true, `${name}: ${JSON.stringify(verdict)}`);
    // protocol is optional everywhere; an archive's subject is its header or its block hash.
    for (const key of Object.keys(args).filter((k) => k !== 'protocol' && !(name === 'verifyArchive' && k === 'header'))) {
      const { [key]: _, ...missing } = args;
      assert.throws(() => engine[name](JSON.stringify(missing)), (error) => refusal(error) && error.message.includes(`${key}: required`), `${name} without ${key}`);
    }
    assert.throws(() => engine[name](JSON.stringify({ ...args, expect: '{}' })), (error) => refusal(error) && /unknown argument/.test(error.message), `${name} with a misspelt key`);
    assert.throws(() => engine[name](JSON.stringify({ ...args, protocol: 6 })), refusal, `${name} with a number for a string`);
    assert.throws(() => engine[name](JSON.stringify(Object.values(args))), refusal, `${name} with its arguments in a row`);
  }
});

// The package's files without the addon, in a scratch folder: what a platform without a build of
// it installs.
function packageWithout(addon) {
  const dir = mkdtempSync(path.join(tmpdir(), 'txfx-fallback-'));
  for (const file of ['index.js', ...SOURCES.map(generated)]) copyFileSync(path.join(packageDir, file), path.join(dir, file));
  mkdirSync(path.join(dir, 'dist'));
  copyFileSync(path.join(packageDir, 'dist', 'txfx.wasm'), path.join(dir, 'dist', 'txfx.wasm'));
  if (addon !== undefined) writeFileSync(path.join(dir, 'txfx.node'), addon);
  return dir;
}

function load(dir, backend) {
  const env = { ...process.env };
  delete env.TXFX_BACKEND;
  delete env.NODE_OPTIONS;
  if (backend !== undefined) env.TXFX_BACKEND = backend;
  const script = `const t = require('./index.js'); console.log(t.backend, t.poseidon2Hash([1, 2]));`;
  return spawnSync(process.execPath, ['-e', script], { cwd: dir, env, encoding: 'utf8' });
}

test('the Node entry warns once, saying why, when it falls back to the WASM engine', () => {
  const expected = txfx.poseidon2Hash(['0x1', '0x2']);
  for (const [what, addon, why] of [
    ['no addon', undefined, /not installed for this platform \(\w+-\w+\): no txfx\.node in the package and txfx-\w+-\w+(-\w+)? is not installed/],
    ['a broken addon', 'not a shared library', /did not load: .+/],
  ]) {
    const dir = packageWithout(addon);
    try {
      const auto = load(dir);
      assert.equal(auto.status, 0, `${what}: ${auto.stderr}`);
      assert.equal(auto.stdout.trim(), `wasm ${expected}`, what);
      const warnings = auto.stderr.split('\n').filter((line) => line.includes('TXFX_WASM_FALLBACK'));
      assert.equal(warnings.length, 1, `${what}: ${auto.stderr}`);
      assert.match(warnings[0], /running on the WASM engine/, what);
      assert.match(auto.stderr, why, what);
      // Asked for by name: no warning.
      const asked = load(dir, 'wasm');
      assert.equal(asked.status, 0, `${what}: ${asked.stderr}`);
      assert.equal(asked.stdout.trim(), `wasm ${expected}`, what);
      assert.ok(!asked.stderr.includes('TXFX_WASM_FALLBACK'), `${what}: ${asked.stderr}`);
      // Forced native: a loud failure of kind Load at import, not a fallback.
      const forced = spawnSync(process.execPath, ['-e', `try { require('./index.js') } catch (e) { console.log(e.kind, e.message) }`], { cwd: dir, env: { ...process.env, TXFX_BACKEND: 'native' }, encoding: 'utf8' });
      assert.match(forced.stdout, /^Load TXFX_BACKEND=native: /, what);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Where the addon loads, it runs, and nothing is said.
  if (txfx.backend === 'native') {
    const here = load(packageDir);
    assert.equal(here.status, 0, here.stderr);
    assert.equal(here.stdout.trim(), `native ${expected}`);
    assert.ok(!here.stderr.includes('TXFX_WASM_FALLBACK'), here.stderr);
  }
});

test('every export is declared in index.d.ts, with a doc comment', () => {
  const require = createRequire(import.meta.url);
  const runtime = Object.keys(require('../index.js')).sort();
  const declarations = readFileSync(path.join(packageDir, 'index.d.ts'), 'utf8');
  const lines = declarations.split('\n');
  const declared = [];
  const undocumented = [];
  lines.forEach((line, i) => {
    const match = line.match(/^export (?:declare )?(?:function|const|class|type|interface) (\w+)/);
    if (!match) return;
    if (/^export declare (?:function|const|class)/.test(line)) declared.push(match[1]);
    // A doc comment ends on the line before.
    if (!/\*\/\s*$/.test(lines[i - 1] ?? '')) undocumented.push(match[1]);
  });
  assert.deepEqual([...new Set(declared)].sort(), runtime, 'declared functions and constants are the exports');
  assert.deepEqual(undocumented, [], 'exports without a doc comment');
  // A function that throws says what it throws.
  for (const name of runtime.filter((n) => !['backend', 'init', 'initSync', 'verifyTxFromNode'].includes(n) && !n.endsWith('Async') && !n.endsWith('Error'))) {
    const at = declarations.indexOf(`export declare function ${name}(`);
    const doc = declarations.slice(declarations.lastIndexOf('/**', at), at);
    assert.match(doc, /@throws/, `${name}: no @throws`);
  }
});

// The page Chromium runs: the packed package, installed into an app and bundled by esbuild as an
// app bundles it (the `browser` export condition, the module as `txfx/txfx.wasm`), running the
// same vector cases Node runs (../vectors.mjs) and leaving its results on `window.__txfx` for
// run.mjs. `?init=sync` loads the module with initSync(bytes), anything else with init(url).
import * as txfx from 'txfx';
import wasmUrl from 'txfx/txfx.wasm';

import { FILES, vectorCases } from './vectors.mjs';

// node:assert/strict's methods that the cases use.
function fail(message, detail) {
  throw new Error(message ? `${message}: ${detail}` : detail);
}
function same(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && same(a[key], b[key]));
}
const show = (value) => (typeof value === 'bigint' ? `${value}n` : JSON.stringify(value));
const assert = {
  ok: (value, message) => value || fail(message, `not ok: ${show(value)}`),
  equal: (a, b, message) => Object.is(a, b) || fail(message, `${show(a)} !== ${show(b)}`),
  deepEqual: (a, b, message) => same(a, b) || fail(message, `${show(a)} differs from ${show(b)}`),
  match: (text, pattern, message) => pattern.test(text) || fail(message, `${show(text)} does not match ${pattern}`),
  throws(fn, Kind, message) {
    try {
      fn();
    } catch (error) {
      // A class is checked with instanceof, an arrow function (no prototype) as a validator, as
      // node:assert does.
      if (Kind && Kind.prototype === undefined) {
        if (Kind(error) !== true) fail(message, `threw ${error} (kind ${error && error.kind}), which the validator refuses`);
      } else if (Kind && !(error instanceof Kind)) {
        fail(message, `threw ${error}, not a ${Kind.name}`);
      }
      return;
    }
    fail(message, 'did not throw');
  },
};

async function main() {
  const mode = new URLSearchParams(location.search).get('init') === 'sync' ? 'sync' : 'async';
  const results = [];
  const record = async (name, run) => {
    try {
      await run();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: String((error && error.stack) || error) });
    }
  };
  await record('before init, a call throws and returns nothing', () =>
    assert.throws(() => txfx.poseidon2Hash(['0x1']), (error) => error instanceof Error && error.kind === 'NotInitialised'),
  );
  // The sibling-path decoder is JavaScript alone: it needs no engine. The path is the upstream
  // example's (testdata/aztec-fixtures.json, witness_json_example: 2 elements).
  await record('before init, decodeSiblingPath works', () =>
    assert.deepEqual(
      txfx.decodeSiblingPath('AAAAAi0MxiqJPUn3GYfWvduNXT8e/kx/AVy8j0t7KwQzGol4Io+nGMw9059xlFRFRzmhd63Xp+4qEnw5I/R6ayPWgRg='),
      ['0x2d0cc62a893d49f71987d6bddb8d5d3f1efe4c7f015cbc8f4b7b2b04331a8978', '0x228fa718cc3dd39f719454454739a177add7a7ee2a127c3923f47a6b23d68118'],
    ),
  );
  const texts = {};
  await Promise.all(
    FILES.map(async (name) => {
      const response = await fetch(`/testdata/${name}`);
      if (!response.ok) throw new Error(`/testdata/${name}: ${response.status}`);
      texts[name] = await response.text();
    }),
  );
  if (mode === 'sync') {
    const bytes = new Uint8Array(await (await fetch(wasmUrl)).arrayBuffer());
    await record('initSync(bytes) on the main thread', () => txfx.initSync(bytes));
  } else {
    // Two concurrent inits share one load.
    await record('init(url), twice at once', () => Promise.all([txfx.init(wasmUrl), txfx.init(wasmUrl)]));
  }
  await record('the engine is the WASM build', () => assert.equal(txfx.backend, 'wasm'));
  const read = (name) => {
    if (!(name in texts)) throw new Error(`${name} is not in FILES`);
    return texts[name];
  };
  for (const { name, run } of vectorCases(txfx, read, assert)) await record(name, run);
  await record('the async forms settle with the synchronous results', async () => {
    const body = read('blocks/three-fixtures.json');
    assert.equal(await txfx.txEffectsTreeRootAsync(body), txfx.txEffectsTreeRoot(body));
    let rejected;
    await txfx.txEffectsTreeRootAsync('{').catch((error) => {
      rejected = error;
    });
    assert.ok(rejected instanceof TypeError, 'a malformed body rejects with a TypeError');
  });
  const chain = new URLSearchParams(location.search).get('chain');
  if (chain) {
    // A wallet's page checking a node: the test chain's stub node and anvil, over fetch.
    const { node, l1, rollup, txs } = JSON.parse(chain);
    await record('verifyTxFromNode over fetch: a tx proven from a node and L1, a missing one refused', async () => {
      const verdict = await txfx.verifyTxFromNode({ node, l1Rpc: l1, rollup, txHash: txs['5'], network: 'canonical' });
      assert.equal(verdict.valid, true, JSON.stringify(verdict));
      assert.deepEqual([verdict.proves, verdict.blockNumber, verdict.finality], ['tx', 5, 'checkpointed']);
      const pending = await txfx.verifyTxFromNode({ node, l1Rpc: l1, rollup, txHash: txs['8'] });
      assert.deepEqual([pending.valid, pending.link], [false, 'l1'], JSON.stringify(pending));
    });
  }
  return { mode, userAgent: navigator.userAgent, results };
}

main().then(
  (report) => {
    window.__txfx = report;
  },
  (error) => {
    window.__txfx = { error: String((error && error.stack) || error), results: [] };
  },
);

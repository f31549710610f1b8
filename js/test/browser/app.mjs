// The page Chromium runs: the packed package, installed into an app and bundled by esbuild as an
// app bundles it (the `browser` export condition, the module as `txfx/txfx.wasm`), running the
// same vector cases Node runs (../vectors.mjs) and leaving its results on `window.__txfx` for
// run.mjs. `?init=sync` loads the module with initSync(bytes), anything else with init(url).
import * as txfx from 'txfx';
import * as worker from 'txfx/worker';
import wasmUrl from 'txfx/txfx.wasm';

import { FILES, vectorCases, workerCases } from './vectors.mjs';

// esbuild does not bundle `new Worker(new URL(...))`: run.mjs bundles txfx/worker-thread as an
// entry of its own, beside this one, and the page passes its URL.
const workerUrl = new URL('./txfx-worker.js', import.meta.url);

// A setTimeout ticker on the page's thread while `run` settles: how often it ran, and the longest
// gap between two of its turns (the end of the call counts as one).
async function ticking(run) {
  let ticks = 0;
  let last = performance.now();
  let longest = 0;
  let on = true;
  const tick = () => {
    if (!on) return;
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks += 1;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const started = performance.now();
  const value = await run();
  const ended = performance.now();
  on = false;
  longest = Math.max(longest, ended - last);
  return { value, ticks, longestGapMs: Math.round(longest), callMs: Math.round(ended - started) };
}

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
  // The sibling-path decoder is the engine's witness reader (one reading of a path), so it too
  // waits for init; after it, it reads the upstream example's path (testdata/aztec-fixtures.json,
  // witness_json_example: 2 elements).
  const examplePath = 'AAAAAi0MxiqJPUn3GYfWvduNXT8e/kx/AVy8j0t7KwQzGol4Io+nGMw9059xlFRFRzmhd63Xp+4qEnw5I/R6ayPWgRg=';
  await record('before init, decodeSiblingPath throws NotInitialised', () =>
    assert.throws(() => txfx.decodeSiblingPath(examplePath), (error) => error instanceof txfx.BackendError && error.kind === 'NotInitialised'),
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
    // A module not found says how to pass its URL, and leaves init free to try again.
    await record('init(url) of a missing module rejects with kind Load, naming init(url)', async () => {
      let error;
      await txfx.init('/no-such/txfx.wasm').catch((caught) => {
        error = caught;
      });
      assert.ok(error instanceof Error && error.kind === 'Load', `rejected with ${error}`);
      assert.match(error.message, /HTTP 404.*init\(url\)/);
      await txfx.init('/index.html').catch((caught) => {
        error = caught;
      });
      assert.match(error.message, /not a WebAssembly module.*init\(url\)/);
    });
    // Two concurrent inits share one load.
    await record('init(url), twice at once', () => Promise.all([txfx.init(wasmUrl), txfx.init(wasmUrl)]));
  }
  await record('the engine is the WASM build', () => assert.equal(txfx.backend, 'wasm'));
  await record('after init, decodeSiblingPath reads a path', () =>
    assert.deepEqual(txfx.decodeSiblingPath(examplePath), [
      '0x2d0cc62a893d49f71987d6bddb8d5d3f1efe4c7f015cbc8f4b7b2b04331a8978',
      '0x228fa718cc3dd39f719454454739a177add7a7ee2a127c3923f47a6b23d68118',
    ]),
  );
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
  const measures = {};
  if (mode === 'async') {
    await record('worker: before init, a call rejects with kind NotInitialised', async () => {
      assert.equal(worker.backend(), undefined);
      let error;
      await worker.txEffectsTreeRootAsync('[]').catch((caught) => {
        error = caught;
      });
      assert.ok(error instanceof Error && error.kind === 'NotInitialised', `rejected with ${error}`);
    });
    await record('worker: init(url, {workerUrl}), twice at once', async () => {
      await Promise.all([worker.init(wasmUrl, { workerUrl }), worker.init(wasmUrl, { workerUrl })]);
      assert.equal(worker.backend(), 'wasm');
    });
    for (const { name, run } of workerCases(worker, read, assert)) await record(name, run);
    await record('worker-thread: a stray message is dropped, and only the engine\'s own operations run', async () => {
      const raw = new Worker(workerUrl, { type: 'module' });
      const answers = new Map();
      raw.addEventListener('message', ({ data }) => answers.set(data.id, data));
      const settled = (id) => new Promise((resolve, reject) => {
        const started = Date.now();
        const look = () => (answers.has(id) ? resolve(answers.get(id)) : Date.now() - started > 20_000 ? reject(new Error(`no answer ${id}`)) : setTimeout(look, 10));
        look();
      });
      try {
        raw.postMessage({ id: 1, type: 'init', source: new URL(wasmUrl, location.href).href });
        assert.equal((await settled(1)).error, undefined);
        // A page's stray messages: no id to answer under, and the worker lives on.
        raw.postMessage(null);
        raw.postMessage('hello');
        for (const [id, name] of [[2, 'constructor'], [3, '__proto__'], [4, 'hasOwnProperty']]) {
          raw.postMessage({ id, type: 'call', name, args: [] });
          const answer = await settled(id);
          // The failure comes back as a record (class, kind, message), never as text to parse.
          assert.ok(answer.error?.class === 'Backend' && answer.error.message.includes('no engine operation'), `${name}: ${JSON.stringify(answer)}`);
        }
        raw.postMessage({ id: 5, type: 'call', name: 'txEffectsTreeRoot', args: ['[]'] });
        assert.equal(typeof (await settled(5)).value, 'string', 'an own operation still runs');
      } finally {
        raw.terminate();
      }
    });
    // A log-heavy block: on the page's thread (the main entry's …Async form, computed there) and
    // in the worker. The page's ticker must keep running while the worker hashes: a count, not a
    // timing threshold; the times are printed, not judged.
    // log-heavy-3 in the tests (0.6 s of hashing, many ticks); run.mjs --heavy log-heavy-64.json
    // for the README's figures.
    const heavyName = new URLSearchParams(location.search).get('heavy') ?? 'log-heavy-3.json';
    const heavy = await (await fetch(`/testdata/blocks/${heavyName}`)).text();
    await record(`worker: ${heavyName} hashes to the main thread's root while the page keeps ticking`, async () => {
      const onPage = await ticking(() => txfx.txEffectsTreeRootAsync(heavy));
      const inWorker = await ticking(() => worker.txEffectsTreeRootAsync(heavy));
      assert.equal(inWorker.value, onPage.value);
      assert.ok(inWorker.ticks > 0, 'the page did not tick while the worker hashed');
      measures[heavyName] = {
        mainThread: { longestGapMs: onPage.longestGapMs, callMs: onPage.callMs, ticks: onPage.ticks },
        worker: { longestGapMs: inWorker.longestGapMs, callMs: inWorker.callMs, ticks: inWorker.ticks },
      };
    });
    await record('worker: terminate rejects the call in flight and later calls with kind Terminated; init starts again', async () => {
      const inFlight = worker.txEffectsTreeRootAsync(heavy);
      worker.terminate();
      const kinds = [];
      await inFlight.catch((error) => kinds.push(error instanceof Error && error.kind));
      await worker.txEffectsTreeRootAsync('[]').catch((error) => kinds.push(error instanceof Error && error.kind));
      assert.deepEqual(kinds, ['Terminated', 'Terminated']);
      assert.equal(worker.backend(), undefined);
      await worker.init(wasmUrl, { workerUrl });
      assert.equal(await worker.txEffectsTreeRootAsync(read('blocks/three-fixtures.json')), JSON.parse(read('aztec-fixtures.json')).three_tx_block.root);
      worker.terminate();
    });
    await record('worker: a missing module or worker script rejects init with kind Load, naming the fix', async () => {
      const failure = async (...args) => {
        let error;
        await worker.init(...args).catch((caught) => {
          error = caught;
        });
        assert.ok(error instanceof Error && error.kind === 'Load', `init rejected with ${error}`);
        return error.message;
      };
      assert.match(await failure('/no-such/txfx.wasm', { workerUrl }), /HTTP 404.*init\(url\)/);
      assert.match(await failure(wasmUrl, { workerUrl: '/no-such/worker.js' }), /workerUrl/);
      let typeError;
      await worker.init(wasmUrl, { workerUrI: workerUrl }).catch((caught) => {
        typeError = caught;
      });
      assert.ok(typeError instanceof TypeError && typeError.kind === 'Argument', `a misspelt option: ${typeError}`);
      assert.equal(worker.backend(), undefined);
    });
  }
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
    await record('worker: verifyTxFromNode checks every answer in the worker, to the same verdict', async () => {
      await worker.init(wasmUrl, { workerUrl });
      try {
        const options = { node, l1Rpc: l1, rollup, txHash: txs['5'], network: 'canonical' };
        const verdict = await worker.verifyTxFromNode(options);
        assert.deepEqual(verdict, await txfx.verifyTxFromNode(options));
        assert.equal(verdict.valid, true, JSON.stringify(verdict));
        const pending = await worker.verifyTxFromNode({ node, l1Rpc: l1, rollup, txHash: txs['8'] });
        assert.deepEqual([pending.valid, pending.link], [false, 'l1'], JSON.stringify(pending));
        // An abort given before the call: nothing is sent.
        const aborted = new AbortController();
        aborted.abort();
        let error;
        await worker.verifyTxFromNode({ ...options, signal: aborted.signal, fetch: () => assert.fail('nothing is sent') }).catch((caught) => {
          error = caught;
        });
        assert.equal(error, aborted.signal.reason);
      } finally {
        worker.terminate();
      }
    });
  }
  return { mode, userAgent: navigator.userAgent, results, measures };
}

main().then(
  (report) => {
    window.__txfx = report;
  },
  (error) => {
    window.__txfx = { error: String((error && error.stack) || error), results: [] };
  },
);

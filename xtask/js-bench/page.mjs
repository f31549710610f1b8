// The Chromium page of `cargo xtask bench --js` (driven by browser.mjs): txfx's WASM build and
// bb.js's browser WASM (BarretenbergSync, the synchronous build Aztec's wallet hashes with, under
// @aztec/foundation) bundled by esbuild into one app, as an application ships them, and timed in
// the same page on the same workloads as the Node processes (workloads.mjs).
import * as txfx from 'txfx';
import wasmUrl from 'txfx/txfx.wasm';
import { BarretenbergSync, BackendType } from '@aztec/bb.js';
import { Fr } from '@aztec/foundation/curves/bn254';
import * as sync from '@aztec/foundation/crypto/sync';
import * as trees from '@aztec/foundation/trees';

import { bbOps, timedWorkloads, txfxOps } from './workloads.mjs';

const fetchText = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.text();
};

// Loads both engines and the workloads' inputs once; `run` then times one engine.
const ready = (async () => {
  const spec = JSON.parse(await fetchText('/export.json'));
  const bodies = {};
  await Promise.all(
    spec.commitment.map(async (c) => {
      bodies[`${c.profile}-${c.n}`] = await fetchText(`/testdata/blocks/${c.profile}-${c.n}.json`);
    }),
  );
  await txfx.init(wasmUrl);
  if (txfx.backend !== 'wasm') throw new Error(`txfx runs ${txfx.backend}, not its WASM build`);
  await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
  return {
    spec,
    ops: {
      wasm: txfxOps(txfx, spec, (c) => bodies[`${c.profile}-${c.n}`]),
      'bb-wasm': bbOps({ Fr, sync, trees }, spec),
    },
  };
})();

// `engine`: wasm or bb-wasm. Resolves to the records, each engine named `chromium-…`.
window.__bench = async (engine, quick) => {
  const { spec, ops } = await ready;
  const results = [];
  const name = `chromium-${engine}`;
  const record = (workload, label, n, stats) => results.push({ workload, name: label, engine: name, n, ...stats });
  // Chromium's clock is coarse here (no cross-origin isolation): a sample spans at least 20 ms.
  await timedWorkloads(ops[engine], spec, { engine: name, quick, record, minSampleMs: 20 });
  return results;
};
window.__benchReady = ready.then(
  () => 'ok',
  (error) => String((error && error.stack) || error),
);

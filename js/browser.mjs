// txfx for browsers (and any JavaScript runtime without the Node addon): the WASM build,
// single-threaded, no SharedArrayBuffer, no cross-origin isolation. The API is api.js's, the
// same as in Node; this file loads the module.
//
// Call `await init()` once before the first call: it fetches and compiles dist/txfx_wasm_bg.wasm,
// which it names with `new URL(..., import.meta.url)`, the form bundlers (webpack 5, Vite,
// Parcel, Rollup's URL plugins) see and copy. A bundler that does not (esbuild) gets the file
// from the export `txfx/txfx.wasm` and passes its URL: `init(url)`. `initSync(bytes)` compiles
// bytes you already have on the calling thread; browsers may refuse that on the main thread for a
// module this size (Chromium 156 allows it), so prefer `init` there. Before either finishes,
// every call throws; init twice is harmless.

import { createApi } from './api.js';
import * as wasm from './dist/txfx_wasm.mjs';

let ready = false;
let pending;

function engine() {
  if (!ready) throw new Error('txfx: the WASM engine is not initialised; call `await init()` (or `initSync(bytes)`) before the first call');
  return wasm;
}

export const backend = 'wasm';

export function init(input) {
  if (ready) return Promise.resolve();
  if (pending === undefined) {
    const source = input ?? new URL('./dist/txfx_wasm_bg.wasm', import.meta.url);
    pending = wasm.default({ module_or_path: source }).then(
      () => {
        ready = true;
      },
      (error) => {
        pending = undefined;
        throw new Error(`txfx: the WASM engine did not load: ${error && error.message ? error.message : error}`);
      },
    );
  }
  return pending;
}

export function initSync(bytes) {
  if (ready) return;
  if (bytes === undefined) throw new TypeError('initSync(bytes): give the module\'s bytes (or a WebAssembly.Module); `await init()` fetches them itself');
  wasm.initSync({ module: bytes });
  ready = true;
}

const api = createApi(engine);

export const {
  poseidon2Permutation,
  poseidon2Hash,
  poseidon2HashWithSeparator,
  txEffectCommitment,
  txEffectLeaf,
  txEffectsTreeRoot,
  txEffectLeaves,
  txEffectMembershipWitness,
  txEffectsTreeRootFromLeaves,
  txEffectMembershipWitnessFromLeaves,
  verifyTxEffectMembershipWitness,
  verifyTx,
  verifyArchive,
  blockHeaderHash,
  decodeCheckpoint,
  encodeBlobFields,
  txEffectCommitmentAsync,
  txEffectLeafAsync,
  txEffectsTreeRootAsync,
  txEffectLeavesAsync,
  txEffectMembershipWitnessAsync,
} = api;

export default { backend, init, initSync, ...api };

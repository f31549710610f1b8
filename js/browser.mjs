// txfx for browsers (and any JavaScript runtime without the Node addon): the WASM build,
// single-threaded, no SharedArrayBuffer, no cross-origin isolation. The API is api.mjs's, the
// same as in Node; this file loads the module.
//
// Call `await init()` once before the first call: it fetches and compiles dist/txfx.wasm,
// which it names with `new URL(..., import.meta.url)`, the form bundlers (webpack 5, Vite,
// Parcel, Rollup's URL plugins) see and copy. A bundler that does not (esbuild) gets the file
// from the export `txfx/txfx.wasm` and passes its URL: `init(url)`. `initSync(bytes)` compiles
// bytes you already have on the calling thread; browsers may refuse that on the main thread for a
// module this size (Chromium 156 allows it), so prefer `init` there. Before either finishes,
// every call throws; init twice is harmless.

import { createApi } from './api.mjs';
import { BackendError, MalformedError } from './errors.mjs';
import { compileWasm, createWasmEngine } from './wasm.mjs';

let engineReady;
let pending;

// An error of the loading itself, with a kind as every error of txfx has.
function loadError(Kind, message, kind) {
  return Kind === TypeError ? new MalformedError(message, kind) : new BackendError(message, kind);
}

function engine() {
  if (engineReady === undefined) throw loadError(Error, 'txfx: the WASM engine is not initialised; call `await init()` (or `initSync(bytes)`) before the first call', 'NotInitialised');
  return engineReady;
}

export const backend = 'wasm';

export function init(input) {
  if (engineReady !== undefined) return Promise.resolve();
  if (pending === undefined) {
    const source = input ?? new URL('./dist/txfx.wasm', import.meta.url);
    pending = compileWasm(source, globalThis.location && globalThis.location.href).then(
      (module) => {
        engineReady = createWasmEngine(module);
      },
      (error) => {
        pending = undefined;
        throw loadError(Error, `txfx: the WASM engine did not load: ${error && error.message ? error.message : error}`, 'Load');
      },
    );
  }
  return pending;
}

export function initSync(bytes) {
  if (engineReady !== undefined) return;
  if (bytes === undefined) throw loadError(TypeError, 'initSync(bytes): give the module\'s bytes (or a WebAssembly.Module); `await init()` fetches them itself', 'Argument');
  let module;
  try {
    module = bytes instanceof WebAssembly.Module ? bytes : new WebAssembly.Module(bytes);
  } catch (error) {
    throw loadError(Error, `txfx: the WASM engine did not load: ${error && error.message ? error.message : error}`, 'Load');
  }
  engineReady = createWasmEngine(module);
}

const api = createApi(engine);

export { TxfxError, MalformedError, OutOfRangeError, RefutedError, BackendError, TransportError } from './errors.mjs';

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
  verifyTxFromNode,
  decodeSiblingPath,
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

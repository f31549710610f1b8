'use strict';
// txfx for JavaScript in Node: Aztec's per-block tx-effects commitment (AZIP-26), its membership
// witnesses and their verification up to an archive root from L1, bit-exact with Aztec's
// TypeScript. Every call is synchronous and crosses into txfx once, for a whole tree, witness or
// verification. The API itself is api.js; this file picks the engine.
//
// Engine selection, as the Rust crates publish it: the native addon (txfx.node) where it loads,
// else the WASM build (single-threaded, compiled synchronously from dist/txfx.wasm).
// TXFX_BACKEND=native or wasm forces one and fails loudly, at import, if it cannot load.

const { createApi } = require('./api.js');
const { createWasmEngine } = require('./wasm.js');

// A failure to load an engine, thrown at import: an Error of kind `Load`, as every error of txfx
// carries a kind.
function loadError(message) {
  const error = new Error(message);
  error.kind = 'Load';
  error.txfxClass = 'Backend';
  return error;
}

function loadEngine() {
  const wanted = (typeof process !== 'undefined' && process.env && process.env.TXFX_BACKEND) || 'auto';
  if (wanted !== 'auto' && wanted !== 'native' && wanted !== 'wasm') {
    throw loadError(`TXFX_BACKEND=${wanted}: expected native, wasm or auto`);
  }
  let nativeFailure;
  if (wanted !== 'wasm') {
    try {
      return { engine: require('./txfx.node'), backend: 'native' };
    } catch (error) {
      nativeFailure = error.code === 'MODULE_NOT_FOUND'
        ? `the native addon (txfx.node) is not in this package for this platform (${process.platform}-${process.arch})`
        : `the native addon (txfx.node) did not load: ${error.message}`;
      if (wanted === 'native') throw loadError(`TXFX_BACKEND=native: ${nativeFailure}`);
    }
  }
  let loaded;
  try {
    const bytes = require('node:fs').readFileSync(require('node:path').join(__dirname, 'dist', 'txfx.wasm'));
    loaded = { engine: createWasmEngine(new WebAssembly.Module(bytes)), backend: 'wasm' };
  } catch (error) {
    const why = `the WASM engine (dist/txfx.wasm) did not load: ${error.message}`;
    throw loadError(wanted === 'wasm' ? `TXFX_BACKEND=wasm: ${why}` : `txfx: ${nativeFailure}; ${why}`);
  }
  // Asked for no engine and given the slower one: said once, with why, so that a missing or broken
  // addon is not mistaken for the package's speed. TXFX_BACKEND=wasm asks for it and hears nothing.
  if (nativeFailure !== undefined) {
    process.emitWarning(`txfx: running on the WASM engine: ${nativeFailure}. Set TXFX_BACKEND=wasm to choose it and silence this warning.`, { type: 'TxfxWarning', code: 'TXFX_WASM_FALLBACK' });
  }
  return loaded;
}

const { engine, backend } = loadEngine();

// In Node the engine is ready at import: both return at once (the browser entry compiles its
// module in them).
function init() {
  return Promise.resolve();
}

function initSync() {}

module.exports = { backend, init, initSync, ...createApi(() => engine) };

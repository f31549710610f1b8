'use strict';
// txfx for JavaScript in Node: Aztec's per-block tx-effects commitment (AZIP-26), its membership
// witnesses and their verification up to an archive root from L1, bit-exact with Aztec's
// TypeScript. Every call is synchronous and crosses into txfx once, for a whole tree, witness or
// verification. The API itself is api.js (generated from
// api.mjs by scripts/cjs.mjs); this file picks the engine.
//
// Engine selection, as the Rust crates publish it: the native addon where it loads, else the
// WASM build (single-threaded, compiled synchronously from dist/txfx.wasm), with a warning that
// says why. The addon is a build beside this file (txfx.node: the repository's own) or this
// platform's package (txfx-linux-x64-gnu, ...), which npm installs as an optional dependency.
// TXFX_BACKEND=native or wasm forces one and fails loudly, at import, if it cannot load.

const { createApi } = require('./api.js');
const { BackendError } = require('./errors.js');
const { createWasmEngine } = require('./wasm.js');

// A failure to load an engine, thrown at import: an Error of kind `Load`, as every error of txfx
// carries a kind.
function loadError(message) {
  return new BackendError(message, 'Load');
}

// Whether this Linux runs on musl (true), glibc (false), or cannot tell (undefined). As napi-rs's
// loaders do: the `ldd` script names its libc, which is cheap; else the process report's header,
// which carries glibc's version and no musl one (its network part, which can take seconds, is
// left out while it is made).
function isMusl() {
  try {
    const ldd = require('node:fs').readFileSync('/usr/bin/ldd', 'utf8');
    if (ldd.includes('musl')) return true;
    if (ldd.includes('GNU C Library') || ldd.includes('glibc')) return false;
  } catch {
    // No readable ldd: ask the report.
  }
  try {
    const report = process.report;
    const excluded = report.excludeNetwork;
    report.excludeNetwork = true;
    try {
      return !report.getReport().header.glibcVersionRuntime;
    } finally {
      report.excludeNetwork = excluded;
    }
  } catch {
    return undefined;
  }
}

// This platform's addon packages, by napi-rs's names (txfx-<platform>-<arch>[-<libc>]): both
// libcs' when the libc cannot be told.
function platformPackages() {
  const { platform, arch } = process;
  if (platform !== 'linux') return [`txfx-${platform}-${arch}`];
  const musl = isMusl();
  if (musl === undefined) return [`txfx-linux-${arch}-gnu`, `txfx-linux-${arch}-musl`];
  return [`txfx-linux-${arch}-${musl ? 'musl' : 'gnu'}`];
}

function loadAddon() {
  const failures = [];
  const local = require('node:path').join(__dirname, 'txfx.node');
  const hasLocal = require('node:fs').existsSync(local);
  if (hasLocal) {
    try {
      return require(local);
    } catch (error) {
      failures.push(`${local}: ${error.message}`);
    }
  }
  const missing = [];
  for (const name of platformPackages()) {
    try {
      return require(name);
    } catch (error) {
      if (error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(`'${name}'`)) missing.push(name);
      else failures.push(`${name}: ${error.message}`);
    }
  }
  if (failures.length === 0) {
    throw new Error(
      `not installed for this platform (${process.platform}-${process.arch}): no txfx.node in the package and ${missing.join(' nor ')} is not installed`,
    );
  }
  if (missing.length > 0) failures.push(`${missing.join(' nor ')} is not installed`);
  throw new Error(failures.join('; '));
}

// Said when this code no longer sits in txfx's package (a bundler copied it into a bundle), which
// is why neither the addon nor dist/txfx.wasm is found beside it: the fix, not just the symptom.
function bundled() {
  try {
    const manifest = require('node:path').join(__dirname, 'package.json');
    if (JSON.parse(require('node:fs').readFileSync(manifest, 'utf8')).name === 'txfx') return '';
  } catch {
    // No package.json of txfx's beside this code.
  }
  return `. txfx's Node entry runs from ${__dirname}, not from its package: it was bundled. Mark txfx external in your bundler (esbuild --external:txfx, webpack externals: { txfx: 'commonjs txfx' }, Vite ssr.external: ['txfx']) so that Node loads it from node_modules, where its addon and dist/txfx.wasm are`;
}

function loadEngine() {
  const wanted = (typeof process !== 'undefined' && process.env && process.env.TXFX_BACKEND) || 'auto';
  if (wanted !== 'auto' && wanted !== 'native' && wanted !== 'wasm') {
    throw loadError(`TXFX_BACKEND=${wanted}: expected native, wasm or auto`);
  }
  let nativeFailure;
  if (wanted !== 'wasm') {
    try {
      return { engine: loadAddon(), backend: 'native' };
    } catch (error) {
      nativeFailure = error.message.startsWith('not installed')
        ? `the native addon is ${error.message}`
        : `the native addon did not load: ${error.message}`;
      if (wanted === 'native') throw loadError(`TXFX_BACKEND=native: ${nativeFailure}`);
    }
  }
  let loaded;
  try {
    const bytes = require('node:fs').readFileSync(require('node:path').join(__dirname, 'dist', 'txfx.wasm'));
    loaded = { engine: createWasmEngine(new WebAssembly.Module(bytes)), backend: 'wasm' };
  } catch (error) {
    const why = `the WASM engine (dist/txfx.wasm) did not load: ${error.message}${bundled()}`;
    throw loadError(wanted === 'wasm' ? `TXFX_BACKEND=wasm: ${why}` : `txfx: ${nativeFailure}; ${why}`);
  }
  // Asked for no engine and given the slower one: said once (the module is loaded once), with
  // why, so that a missing or broken addon is not mistaken for the package's speed.
  // TXFX_BACKEND=wasm asks for it and hears nothing.
  if (nativeFailure !== undefined) {
    process.emitWarning(
      `txfx: running on the WASM engine, several times slower than the native addon: ${nativeFailure}. ` +
        'Set TXFX_BACKEND=wasm to choose it and silence this warning.',
      { type: 'TxfxWarning', code: 'TXFX_WASM_FALLBACK' },
    );
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

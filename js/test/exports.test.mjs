// One declaration of the package's exports: exports.json. The engines (the addon's keys, the WASM
// module's own export table), createApi's result, every entry (index.js, index.mjs, browser.mjs,
// worker.mjs) and the declarations (index.d.ts, worker.d.ts) must each list exactly what it says,
// so an export added in one place and not the others fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';

import { createApi } from '../api.mjs';
import { createWasmEngine, ENGINE_INTERNALS } from '../wasm.mjs';

const require = createRequire(import.meta.url);
const at = (name) => new URL(`../${name}`, import.meta.url);
const list = JSON.parse(readFileSync(at('exports.json'), 'utf8'));
const sorted = (names) => [...names].sort();

const API = sorted([...list.sync, ...list.async, ...list.helpers, ...list.errors]);
const ENTRY = sorted([...API, ...list.loader]);
const WORKER = sorted([...list.worker.loader, ...list.worker.helpers, ...list.errors, ...(list.worker.async === 'all' ? list.async : list.worker.async)]);

// The names a declaration file exports as values (functions and constants; types are not values).
function declared(file) {
  const text = readFileSync(at(file), 'utf8');
  const names = [...text.matchAll(/^export declare (?:function|const|let|class) (\w+)/gm)].map((match) => match[1]);
  // Values re-exported from the main entry's declarations (the error classes in worker.d.ts).
  for (const match of text.matchAll(/^export \{([^}]*)\} from '\.\/index\.js';/gm)) {
    names.push(...match[1].split(',').map((name) => name.trim()).filter(Boolean));
  }
  return sorted(new Set(names));
}

test('exports.json names each export once', () => {
  for (const names of [API, ENTRY, WORKER, list.engine.sync, list.engine.async]) {
    assert.equal(new Set(names).size, names.length, `a name listed twice in ${names}`);
  }
});

test('the addon exports the engine functions exports.json lists', (t) => {
  const addon = at('txfx.node');
  if (!existsSync(addon)) return t.skip('no js/txfx.node: run `cargo xtask js build`');
  assert.deepEqual(sorted(Object.keys(require('../txfx.node'))), sorted([...list.engine.sync, ...list.engine.async]));
});

test('the WASM module declares the engine operations exports.json lists (no async ones: no threads)', () => {
  const engine = createWasmEngine(new WebAssembly.Module(readFileSync(at('dist/txfx.wasm'))));
  assert.deepEqual(sorted(engine[ENGINE_INTERNALS].exports()), sorted(list.engine.sync));
});

test('createApi gives the API exports.json lists', () => {
  assert.deepEqual(sorted(Object.keys(createApi(() => ({})))), API);
});

test('each entry exports the API and its loader', async () => {
  assert.deepEqual(sorted(Object.keys(require('../index.js'))), ENTRY, 'index.js');
  for (const entry of ['index.mjs', 'browser.mjs']) {
    const module = await import(at(entry));
    assert.deepEqual(sorted(Object.keys(module).filter((name) => name !== 'default')), ENTRY, entry);
    assert.deepEqual(sorted(Object.keys(module.default)), ENTRY, `${entry}'s default export`);
  }
});

test('the worker entry exports its loader, the pure helpers and every …Async form', async () => {
  const module = await import(at('worker.mjs'));
  assert.deepEqual(sorted(Object.keys(module).filter((name) => name !== 'default')), WORKER);
  assert.deepEqual(sorted(Object.keys(module.default)), WORKER, "worker.mjs's default export");
});

test('every error is a TxfxError of its class, and the old TypeError and RangeError still hold', () => {
  const api = createApi(() => ({}));
  const cases = [
    [api.MalformedError, 'Malformed', TypeError],
    [api.OutOfRangeError, 'OutOfRange', RangeError],
    [api.RefutedError, 'Refuted', Error],
    [api.BackendError, 'Backend', Error],
    [api.TransportError, 'Transport', Error],
  ];
  for (const [Class, cls, Base] of cases) {
    const error = new Class('what went wrong', 'Some/Kind', cls === 'Refuted' ? 'header' : undefined);
    assert.ok(error instanceof Class && error instanceof Base && error instanceof api.TxfxError, cls);
    assert.deepEqual([error.class, error.txfxClass, error.kind, error.name], [cls, cls, 'Some/Kind', Class.name]);
    for (const [Other] of cases.filter(([other]) => other !== Class)) assert.ok(!(error instanceof Other), `${cls} is no ${Other.name}`);
  }
  assert.equal(new api.RefutedError('no', 'K', 'header').link, 'header');
  assert.ok(!(new TypeError('theirs') instanceof api.TxfxError), 'an error of the caller is not txfx\'s');
  assert.ok(!(null instanceof api.TxfxError));
});

test('the declarations declare exactly the exports', () => {
  assert.deepEqual(declared('index.d.ts'), ENTRY, 'index.d.ts');
  assert.deepEqual(declared('worker.d.ts'), WORKER, 'worker.d.ts');
});

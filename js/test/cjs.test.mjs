// The CommonJS api.js and wasm.js are generated from api.mjs and wasm.mjs (scripts/cjs.mjs):
// what `require` loads must be a regeneration of the sources as they are, and the transform must
// refuse a form it does not know rather than pass it through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { SOURCES, cjsOf, generated } from '../scripts/cjs.mjs';

const require = createRequire(import.meta.url);
const at = (name) => new URL(`../${name}`, import.meta.url);

test('the generated CommonJS files are fresh (equal to a regeneration of the ES modules)', () => {
  for (const source of SOURCES) {
    const expected = cjsOf(readFileSync(at(source), 'utf8'), source);
    assert.equal(readFileSync(at(generated(source)), 'utf8'), expected, `${generated(source)} is stale: run \`node scripts/cjs.mjs\``);
  }
});

test('each CommonJS module exports what its ES module does', async () => {
  for (const source of SOURCES) {
    const esm = await import(at(source));
    const cjs = require(`../${generated(source)}`);
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort(), source);
    for (const name of Object.keys(esm)) assert.equal(typeof cjs[name], typeof esm[name], `${source}: ${name}`);
  }
});

test('the transform converts its forms exactly and refuses any other', () => {
  const text = "import { a, b } from './x.mjs';\nexport function f() {\n  return a;\n}\nexport const c = 1;\nexport async function g() {}\n";
  assert.equal(
    cjsOf(text, 't.mjs'),
    "// Generated from t.mjs by scripts/cjs.mjs: do not edit (edit t.mjs).\n'use strict';\nconst { a, b } = require('./x.js');\nfunction f() {\n  return a;\n}\nconst c = 1;\nasync function g() {}\n\nmodule.exports = { f, c, g };\n",
  );
  for (const bad of ['export default 1;', "export * from './x.mjs';", 'export { f };', "import x from './x.mjs';", "import { a } from 'node:fs';", 'const u = import.meta.url;', 'export let x = 1;']) {
    assert.throws(() => cjsOf(`${bad}\nexport const y = 2;\n`, 't.mjs'), /converts only/, bad);
  }
});

// The package's entries export one API: Node's ES module entry and the browser entry list their
// names by hand (neither can spread another module's exports statically), so a name missing from
// either is caught here. The browser entry is only read, not run: it loads in a browser
// (xtask/js/browser.mjs runs it in Chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import * as esm from '../index.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../index.js');

test('the ES module entry exports what the CommonJS entry does', () => {
  const names = Object.keys(cjs).sort();
  assert.ok(names.length >= 20, `${names.length} exports`);
  assert.deepEqual(Object.keys(esm).filter((name) => name !== 'default').sort(), names);
  for (const name of names) assert.equal(esm[name], cjs[name], name);
});

test('the browser entry exports the same names', () => {
  const text = readFileSync(new URL('../browser.mjs', import.meta.url), 'utf8');
  const listed = new Set();
  for (const match of text.matchAll(/export (?:const|function) (\w+)/g)) listed.add(match[1]);
  // The error classes, re-exported from errors.mjs as they are.
  for (const match of text.matchAll(/export \{([^}]*)\} from '\.\/errors\.mjs';/g)) {
    for (const name of match[1].split(',').map((s) => s.trim()).filter(Boolean)) listed.add(name);
  }
  const destructured = text.match(/export const \{([^}]*)\} = api;/);
  assert.ok(destructured, 'browser.mjs exports the API by destructuring it');
  for (const name of destructured[1].split(',').map((s) => s.trim()).filter(Boolean)) listed.add(name);
  assert.deepEqual([...listed].sort(), Object.keys(cjs).sort());
});

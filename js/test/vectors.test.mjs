// The repository's vectors through the JavaScript API: Aztec's reference values (testdata/), the
// TypeScript 4.1.2 fixtures and the chain of block 3. Every expected value comes from testdata/,
// never from txfx. TXFX_TESTDATA points at the folder (default: the repository's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';
import { vectorCases } from './vectors.mjs';

const testdata = process.env.TXFX_TESTDATA ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');

test('the engine is named and ready', async () => {
  // The engine the run asked for (TXFX_BACKEND; the addon when it asked for none) is the one
  // that runs: a fallback here would test the other engine twice.
  assert.equal(txfx.backend, process.env.TXFX_BACKEND === 'wasm' ? 'wasm' : 'native');
  await txfx.init();
  txfx.initSync();
});

for (const { name, run } of vectorCases(txfx, read, assert)) test(name, run);

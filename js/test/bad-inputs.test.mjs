// The bad-input catalogue (testdata/bad-inputs/catalogue.json) through the JavaScript API: every
// entry is refused, by a TypeError or RangeError (malformed input, a value out of range) or, for
// a verification, a verdict {valid: false}; never accepted, and the process stays alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';

const testdata = process.env.TXFX_TESTDATA ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');
const catalogue = JSON.parse(read('bad-inputs/catalogue.json'));
const three = JSON.parse(read('aztec-fixtures.json')).three_tx_block;
const smallWitness = read('chain/tx-witness-3-1.json');
const archiveRoot = read('chain/archive-root.txt').trim();
const header = read('chain/header-3.json');

// The entry points of the JavaScript API that read what each catalogue entry is; entries for
// formats the API does not take (a block's bare blob fields, txfx's checkpoint JSON, stored
// leaves) are counted as not applicable.
// Each entry is read under the protocol it names.
const options = (e) => ({ protocol: e.protocol });
const entryPoints = {
  field: (e) => txfx.poseidon2Hash([e.input]),
  'effect-json': (e) => txfx.txEffectLeaf(e.input, options(e)),
  'body-json': (e) => txfx.txEffectsTreeRoot(e.input, options(e)),
  checkpoint: (e) => txfx.decodeCheckpoint(e.input, options(e)),
  'header-json': (e) => txfx.blockHeaderHash(e.input, options(e)),
  'archive-witness': (e) => txfx.verifyArchive({ archiveRoot, archiveWitness: e.input, header, protocol: e.protocol }),
  'category-proof': (e) => txfx.verifyTxEffectMembershipWitness(smallWitness, { categoryProof: e.input }, three.root, undefined, options(e)),
  'witness-json': (e) => txfx.verifyTxEffectMembershipWitness(e.input, { leaf: three.leaves_in_order?.[1] ?? '0x01' }, three.root, undefined, options(e)),
  verify: (e) => {
    const spec = e.verify;
    const subject = spec.effect ? { effect: read(spec.effect) } : { txHash: spec.txHash, categoriesHash: spec.categoriesHash };
    return txfx.verifyTxEffectMembershipWitness(e.input, subject, spec.root, undefined, options(e));
  },
};

// Refused by the library's strict TxEffect reader, but a document the API reads on purpose: its
// effect readers take the node's getTxEffect result (its `data`), as the CLI's do.
const readAsDocuments = new Set(['effect json: a getTxEffect result is not an effect']);

test('every applicable bad input is refused with an exception or a false verdict', () => {
  const cases = catalogue.cases;
  assert.ok(cases.length >= 150, `${cases.length} cases`);
  let refused = 0;
  const notApplicable = new Set();
  const accepted = [];
  for (const entry of cases) {
    const run = entryPoints[entry.entry];
    if (readAsDocuments.has(entry.name)) {
      assert.equal(run(entry).txHash, JSON.parse(entry.input).data.txHash, entry.name);
      continue;
    }
    if (!run) {
      notApplicable.add(entry.entry);
      continue;
    }
    let result;
    try {
      result = run(entry);
    } catch (error) {
      assert.ok(error instanceof TypeError || error instanceof RangeError || typeof error.kind === 'string', `${entry.name}: ${error}`);
      assert.ok(error.message.length > 0, entry.name);
      refused += 1;
      continue;
    }
    if (result && result.valid === false) {
      assert.equal(typeof result.reason, 'string', entry.name);
      refused += 1;
    } else {
      accepted.push(`${entry.name}: ${JSON.stringify(result).slice(0, 200)}`);
    }
  }
  assert.deepEqual(accepted, [], 'accepted bad inputs');
  assert.deepEqual([...notApplicable].sort(), ['blob', 'checkpoint-json', 'stored-leaves']);
  assert.ok(refused >= 140, `${refused} refused`);
});

test('a document longer than any valid one is refused before it is read', async () => {
  const huge = ' '.repeat(256 * 2 ** 20 + 1);
  assert.throws(() => txfx.txEffectsTreeRoot(huge), (error) => error instanceof RangeError && error.kind === 'TooMuch');
  await assert.rejects(txfx.txEffectsTreeRootAsync(huge), RangeError);
  // At the limit, the text is read (and refused for what it is: not JSON).
  assert.throws(() => txfx.txEffectsTreeRoot(' '.repeat(1024)), TypeError);
});

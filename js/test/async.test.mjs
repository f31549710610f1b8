// The …Async forms: the same results as the synchronous ones, refusals as rejections, and the
// work done off the event loop (the loop keeps turning while a log-heavy block is hashed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

import * as txfx from '../index.mjs';

const testdata = process.env.TXFX_TESTDATA ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'testdata');
const read = (name) => readFileSync(path.join(testdata, name), 'utf8');
const three = JSON.parse(read('aztec-fixtures.json')).three_tx_block;

test('the async forms give what the synchronous ones give', async () => {
  const body = read('blocks/three-fixtures.json');
  assert.equal(await txfx.txEffectsTreeRootAsync(body), three.root);
  assert.deepEqual(await txfx.txEffectLeavesAsync(body, 3), txfx.txEffectLeaves(body, 3));
  assert.deepEqual(await txfx.txEffectMembershipWitnessAsync(body, 2, 3), txfx.txEffectMembershipWitness(body, 2, 3));
  const effect = read('effects/small.json');
  assert.deepEqual(await txfx.txEffectLeafAsync(effect), txfx.txEffectLeaf(effect));
  assert.deepEqual(await txfx.txEffectCommitmentAsync(effect), txfx.txEffectCommitment(effect));
});

test('the async forms reject bad input with the same error types', async () => {
  await assert.rejects(txfx.txEffectsTreeRootAsync('{'), TypeError);
  await assert.rejects(txfx.txEffectsTreeRootAsync(42), TypeError);
  await assert.rejects(txfx.txEffectMembershipWitnessAsync(read('blocks/three-fixtures.json'), 3, 3), RangeError);
  await assert.rejects(txfx.txEffectLeavesAsync(read('blocks/three-fixtures.json'), -1), RangeError);
});

// The WASM engine has no threads: its async forms settle with a result computed on the calling
// thread, so there is no loop to keep turning. Said loudly, never passed silently.
const threadless = txfx.backend === 'wasm' && 'the WASM engine has no threads: its async forms run on the calling thread';
if (threadless) console.warn(`SKIPPED on this engine: the event-loop check (${threadless})`);

test('a log-heavy block is hashed off the event loop', { skip: threadless }, async () => {
  const body = read('blocks/log-heavy-64.json');
  const expected = txfx.txEffectsTreeRoot(body);
  // Each turn of the loop reschedules itself: a synchronous hash would let none run until it
  // returned; off the loop, the loop turns while the promise is pending.
  let turns = 0;
  let pending = true;
  const spin = () => {
    if (!pending) return;
    turns += 1;
    setImmediate(spin);
  };
  const root = txfx.txEffectsTreeRootAsync(body);
  setImmediate(spin);
  assert.equal(await root, expected);
  pending = false;
  assert.ok(turns > 0, 'the event loop did not turn while the block was hashed');
});

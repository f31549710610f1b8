// verifyTxFromNode: the node walk over fetch, against the test chain on loopback
// (`txfx-test-chain`: anvil with the stand-in rollup, and the stub v6 node), honest and lying,
// on the engine under test.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import * as txfx from '../index.mjs';

const binary = process.env.TXFX_TEST_CHAIN;
if (!binary) throw new Error('TXFX_TEST_CHAIN is not set: `cargo xtask js test` builds txfx-test-chain and sets it');

const running = [];
// Each chain stops when its standard input closes, and its anvil with it (the binary drops both
// before it exits); a signal would leave anvil running. A chain that has not gone in 10 s has its
// whole process group (it leads one: `detached`) killed.
after(() => Promise.all(running.map((child) => new Promise((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 10_000);
  child.once('exit', () => { clearTimeout(timer); resolve(); });
  child.stdin.end();
}))));

// Starts a test chain whose node lies as `lie` says; its URLs.
async function chain(lie = 'none') {
  const child = spawn(binary, [lie], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env, detached: true });
  running.push(child);
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`txfx-test-chain exited with ${code}`)));
  });
  return JSON.parse(line);
}

test('a tx is proven from a node and L1, and a lie is refused at its link', async () => {
  const honest = await chain();
  const verdict = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'] });
  assert.equal(verdict.valid, true, JSON.stringify(verdict));
  assert.equal(verdict.proves, 'tx');
  assert.equal(verdict.blockNumber, 4);
  assert.equal(verdict.finality, 'proven');
  assert.equal(verdict.anchor.checkpointNumber, 2);
  assert.equal(verdict.unverified.status, 'proven');
  // An element of block 1's tx, with expectations.
  const element = await txfx.verifyTxFromNode({
    node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['1'],
    category: 'nullifiers', element: '0x15', expected: { blockNumber: 1 }, network: 'canonical',
  });
  assert.equal(element.proves, 'element', JSON.stringify(element));
  // A network given by its genesis values (as `txfx networks` prints one): checked against L1's
  // archiveAt(0) like a built-in one.
  const canonical = { name: 'ours', protocol: 'v6', genesisArchiveRoot: '0x1e8df7d033f879c44fbdddbacf525017e2f35a5ea1f3c33d4d1f531735b9a110' };
  const ours = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], network: canonical });
  assert.equal(ours.valid, true, JSON.stringify(ours));
  const theirs = await txfx.verifyTxFromNode({
    node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'],
    network: { ...canonical, genesisArchiveRoot: '0x07' },
  });
  assert.deepEqual([theirs.valid, theirs.link], [false, 'l1'], JSON.stringify(theirs));
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], network: { ...canonical, genesisArchiveRoots: '0x07' } }),
    (error) => error instanceof TypeError && /genesisArchiveRoots/.test(error.message),
  );
  // The rollup found through a Registry, at the same L1 block; the verdict names both.
  const registered = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, registry: honest.registry, txHash: honest.txs['4'] });
  assert.equal(registered.valid, true, JSON.stringify(registered));
  assert.deepEqual(
    [registered.anchor.registry.toLowerCase(), registered.anchor.rollup.toLowerCase()],
    [honest.registry.toLowerCase(), honest.rollup.toLowerCase()],
  );
  // A network deployed on another L1 chain (mainnet's is chain 1, anvil's 31337) refutes the l1
  // link, whether its Registry or the rollup given is read.
  for (const anchor of [{}, { rollup: honest.rollup }]) {
    const elsewhere = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, txHash: honest.txs['4'], network: 'mainnet', ...anchor });
    assert.deepEqual([elsewhere.valid, elsewhere.link], [false, 'l1'], JSON.stringify(elsewhere));
    assert.match(elsewhere.reason, /chain/);
  }
  // Not on L1 yet.
  const pending = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['8'] });
  assert.deepEqual([pending.valid, pending.link], [false, 'l1']);
  // A node whose block response lies about its hash.
  const liar = await chain('block-response-hash');
  const refuted = await txfx.verifyTxFromNode({ node: liar.node, l1Rpc: liar.l1, rollup: liar.rollup, txHash: liar.txs['4'] });
  assert.deepEqual([refuted.valid, refuted.link], [false, 'header'], JSON.stringify(refuted));
  // A node whose archive witness is against a newer archive than L1's.
  const future = await chain('future-archive');
  const stale = await txfx.verifyTxFromNode({ node: future.node, l1Rpc: future.l1, rollup: future.rollup, txHash: future.txs['4'] });
  assert.deepEqual([stale.valid, stale.link], [false, 'archive'], JSON.stringify(stale));
});

test('transport and option failures are typed', async () => {
  // HTML with HTTP 200 is the node's fault, not the caller's: class Transport, the node named.
  const garbage = await chain('not-json');
  await assert.rejects(
    txfx.verifyTxFromNode({ node: garbage.node, l1Rpc: garbage.l1, rollup: garbage.rollup, txHash: garbage.txs['4'] }),
    (error) => error instanceof txfx.TransportError && error instanceof txfx.TxfxError && error.class === 'Transport'
      && !(error instanceof TypeError) && /not JSON/.test(error.message) && error.message.includes(garbage.node),
  );
  const honest = await chain();
  await assert.rejects(
    txfx.verifyTxFromNode({ node: 'http://127.0.0.1:9', l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], timeoutMs: 2000 }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'Transport/Connection',
  );
  const down = await chain('bad-gateway');
  await assert.rejects(
    txfx.verifyTxFromNode({ node: down.node, l1Rpc: down.l1, rollup: down.rollup, txHash: down.txs['4'] }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'Http' && /502/.test(error.message),
  );
  // A JSON-RPC error answer (HTTP 200) is the node's fault too; a failing witness method is not
  // even that: the body builds the witness.
  const failing = await chain('receipt-error');
  await assert.rejects(
    txfx.verifyTxFromNode({ node: failing.node, l1Rpc: failing.l1, rollup: failing.rollup, txHash: failing.txs['4'] }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'NodeError',
  );
  const lagging = await chain('witness-error');
  const built = await txfx.verifyTxFromNode({ node: lagging.node, l1Rpc: lagging.l1, rollup: lagging.rollup, txHash: lagging.txs['4'] });
  assert.deepEqual([built.valid, built.witnessSource, built.witnessFallback.code], [true, 'body', -32000], JSON.stringify(built));
  // A body past a checkpoint's blobs is refused before it is hashed.
  const huge = await chain('oversized-body');
  await assert.rejects(
    txfx.verifyTxFromNode({ node: huge.node, l1Rpc: huge.l1, rollup: huge.rollup, txHash: huge.txs['5'] }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'Oversized',
  );
  // An L1 node of another chain than the headers name refutes the l1 link.
  const other = await chain('other-l1-chain');
  const wrongChain = await txfx.verifyTxFromNode({ node: other.node, l1Rpc: other.l1, rollup: other.rollup, txHash: other.txs['4'] });
  assert.deepEqual([wrongChain.valid, wrongChain.link], [false, 'l1'], JSON.stringify(wrongChain));
  // At an L1 block hash the rollup's words are read by storage proof against the header's
  // state root, which the verdict names; a Registry there is refused before anything is sent.
  const rpc = async (method, params) => (await (await fetch(honest.l1, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()).result;
  const finalized = await rpc('eth_getBlockByNumber', ['finalized', false]);
  const proven = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], l1Block: finalized.hash });
  assert.deepEqual(
    [proven.valid, proven.anchor.l1Evidence, proven.anchor.l1StateRoot, proven.anchor.l1BlockHash, proven.l1Finalized],
    [true, 'storageProof', finalized.stateRoot, finalized.hash, false],
    JSON.stringify(proven),
  );
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, registry: honest.registry, txHash: honest.txs['4'], l1Block: finalized.hash, fetch: () => assert.fail('nothing is sent') }),
    (error) => error instanceof txfx.MalformedError && /storage proof/.test(error.message),
  );
  // A fetch that never answers and ignores its signal: the deadline holds anyway.
  const started = Date.now();
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], timeoutMs: 300, fetch: () => new Promise(() => {}) }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'Transport/Timeout',
  );
  assert.ok(Date.now() - started < 5_000, 'the deadline held');
  // The caller's signal ends the walk with its reason.
  const controller = new AbortController();
  const asked = txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: () => new Promise(() => {}), signal: controller.signal });
  controller.abort(new Error('the caller gave up'));
  await assert.rejects(asked, /the caller gave up/);
  // An abort in the same turn as the call: nothing is sent.
  let sent = 0;
  const counting = (...args) => {
    sent += 1;
    return fetch(...args);
  };
  const atOnce = new AbortController();
  const early = txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: counting, signal: atOnce.signal });
  atOnce.abort(new Error('given up at once'));
  await assert.rejects(early, /given up at once/);
  assert.equal(sent, 0, 'a request was sent after the abort');
  // Aborts at every point of a walk (while an answer is read or the engine checks it) end it with
  // the reason, and leave no walk behind: more walks than the engine holds at once, then one more.
  sent = 0;
  assert.equal((await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: counting })).valid, true);
  const requests = sent;
  assert.ok(requests >= 4, `an honest walk asked ${requests} requests`);
  for (let walk = 0; walk < 70; walk += 1) {
    const midway = new AbortController();
    let answered = 0;
    const aborting = async (...args) => {
      const response = await fetch(...args);
      answered += 1;
      if (answered === 1 + (walk % requests)) queueMicrotask(() => midway.abort(new Error(`given up after answer ${answered}`)));
      return response;
    };
    const outcome = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: aborting, signal: midway.signal }).then(
      (verdict) => ({ verdict }),
      (error) => ({ error }),
    );
    assert.match(String(outcome.error?.message), /given up after answer/, JSON.stringify(outcome.verdict));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after70 = await txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'] });
  assert.equal(after70.valid, true, JSON.stringify(after70));
  // A fetch whose status is no number, and an answer that declares more than its bound.
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: async () => ({ status: 'ok', headers: new Headers(), body: null }) }),
    (error) => error.txfxClass === 'Transport' && /no HTTP status/.test(error.message),
  );
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], fetch: async () => new Response('{}', { headers: { 'content-length': String(10 * 2 ** 30) } }) }),
    (error) => error.txfxClass === 'Transport' && error.kind === 'Transport/TooLarge',
  );
  // Secrets in a URL are never shown.
  await assert.rejects(
    txfx.verifyTxFromNode({ node: 'http://user:hunter2@127.0.0.1:9/v2/abcdefghijklmnopqrstuvwxyz?apikey=s3cret', archiveRoot: '0x01', txHash: honest.txs['4'], timeoutMs: 2000 }),
    (error) => error.txfxClass === 'Transport' && !/hunter2|abcdefghijklmnopqrstuvwxyz|s3cret/.test(`${error.message}${error.stack}`),
  );
  // Options: a deadline past any timer, a URL without a scheme, a network the walk cannot check.
  for (const timeoutMs of [0, -1, 2 ** 31, 1.5]) {
    await assert.rejects(
      txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], timeoutMs }),
      RangeError,
    );
  }
  // URLs by the walk's rule (the CLI's too): refused before anything is sent, secrets not shown.
  for (const [asked, kind] of [
    [{ node: '127.0.0.1:8080', archiveRoot: '0x01' }, 'Url/NoScheme'],
    [{ node: 'ftp://127.0.0.1:8080', archiveRoot: '0x01' }, 'Url/Scheme'],
    [{ node: honest.node, l1Rpc: 'http://:hunter2@', rollup: honest.rollup }, 'Url/NotAUrl'],
    [{ node: honest.node, l1Rpc: 'http://127.0.0.1:port', rollup: honest.rollup }, 'Url/NotAUrl'],
  ]) {
    await assert.rejects(
      txfx.verifyTxFromNode({ txHash: honest.txs['4'], fetch: () => assert.fail('nothing is sent'), ...asked }),
      (error) => error instanceof TypeError && error.kind === kind && !/hunter2/.test(error.message),
      JSON.stringify(asked),
    );
  }
  // A network that pins neither a genesis archive root nor an L1 deployment checks nothing.
  const nothing = { name: 'nothing', protocol: 'v6', genesisArchiveRoot: null, l1: null };
  await assert.rejects(
    txfx.verifyTxFromNode({ node: honest.node, l1Rpc: honest.l1, rollup: honest.rollup, txHash: honest.txs['4'], network: nothing }),
    (error) => error instanceof TypeError && /pins no genesis archive root/.test(error.message),
  );
  // No anchor, two anchors, an L1 contract without an L1 node: the engine's one rule refuses them.
  for (const [asked, words] of [
    [{}, /no anchor|give l1Rpc/],
    [{ l1Rpc: honest.l1 }, /give l1Rpc with rollup/],
    [{ l1Rpc: honest.l1, rollup: honest.rollup, registry: honest.registry }, /one of them/],
    [{ l1Rpc: honest.l1, rollup: honest.rollup, archiveRoot: '0x01' }, /one of them/],
    [{ rollup: honest.rollup }, /give l1Rpc/],
    [{ registry: honest.registry }, /give l1Rpc/],
    [{ l1Rpc: honest.l1, registry: '0x1234' }, /registry/],
    // An option the anchor would not use is refused, not dropped.
    [{ l1Rpc: honest.l1, archiveRoot: '0x01' }, /l1Rpc: the archive root is given/],
    [{ l1Rpc: honest.l1, archiveRoot: '0x01', network: 'mainnet' }, /l1Rpc: the archive root is given/],
    [{ archiveRoot: '0x01', l1Block: 'latest' }, /l1Block: the archive root is given/],
  ]) {
    await assert.rejects(
      txfx.verifyTxFromNode({ node: honest.node, txHash: honest.txs['4'], ...asked }),
      (error) => error instanceof TypeError && error instanceof txfx.TxfxError && words.test(error.message),
      JSON.stringify(asked),
    );
  }
  await assert.rejects(txfx.verifyTxFromNode({ node: honest.node, txHash: honest.txs['4'], archiveRoot: '0x01', nodes: 1 }), TypeError);
});

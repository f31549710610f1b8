// The L1 side end to end, on loopback, with real parts: starts anvil, deploys the stand-in rollup
// (testdata/l1/StandInRollup.json), proposes checkpoints 1..3, proves 2, and reads archiveAt /
// getProvenCheckpointNumber with eth_call at latest, safe, finalized, a block number and a block
// hash; then mines blocks to show how safe and finalized trail latest, and what a prune, a lie and
// a revert look like over JSON-RPC. Plain Node 20 (fetch), no Ethereum library.
//
// Usage: node xtask/l1/demo.mjs [EXTRA ANVIL FLAGS...]   e.g. --slots-in-an-epoch 1
// Tools from TXFX_L1_TOOLS (default target/l1/), see tools.mjs. Exits non-zero if a check fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ANVIL_TEST_FLAGS, calldata, root, rpc, startAnvil, word } from './tools.mjs';

const artifact = JSON.parse(readFileSync(join(root, 'testdata', 'l1', 'StandInRollup.json'), 'utf8'));
const real = JSON.parse(readFileSync(join(root, 'testdata', 'l1', 'rollup-abi.json'), 'utf8'));
const sel = (signature) => {
  const s = artifact.methodIdentifiers[signature];
  if (!s) throw new Error(`no ${signature} in StandInRollup.json`);
  // The views must have the real Rollup's selectors.
  if (real.selectors[signature] && real.selectors[signature] !== '0x' + s) {
    throw new Error(`${signature}: stand-in ${s}, Rollup ${real.selectors[signature]}`);
  }
  return s;
};

let failures = 0;
const check = (what, ok) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};
const hexNum = (h) => Number(BigInt(h));
const archiveOf = (n) => '0x' + (0xa0n * 256n ** 31n + BigInt(n)).toString(16).padStart(64, '0');
const GENESIS = '0x' + '11'.repeat(32);
const ZERO = '0x' + '00'.repeat(32);

const extra = process.argv.slice(2);
const anvil = await startAnvil(extra);
try {
  const { url } = anvil;
  console.log(`anvil ${[...ANVIL_TEST_FLAGS, ...extra].join(' ')}`);
  console.log(`  url ${url}; "Listening on" after ${anvil.timings.listeningMs.toFixed(0)} ms, ` +
    `first eth_chainId answer after ${anvil.timings.firstAnswerMs.toFixed(0)} ms`);
  console.log(`  eth_chainId ${await rpc(url, 'eth_chainId', [])}, web3_clientVersion ${await rpc(url, 'web3_clientVersion', [])}`);

  const [from] = await rpc(url, 'eth_accounts', []);
  console.log(`  first unlocked account ${from}`);

  const send = async (to, data) => {
    const hash = await rpc(url, 'eth_sendTransaction', [{ from, ...(to ? { to } : {}), data }]);
    // Auto-mining: the receipt is there at once; poll anyway, in case anvil runs with --block-time.
    for (let i = 0; i < 200; i++) {
      const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
      if (receipt) {
        if (receipt.status !== '0x1') throw new Error(`tx ${hash} failed: ${JSON.stringify(receipt)}`);
        return receipt;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no receipt for ${hash}`);
  };
  const call = (to, data, tag = 'latest', trace) => rpc(url, 'eth_call', [{ to, data }, tag], trace);
  const tips = async () => {
    const out = {};
    for (const t of ['latest', 'safe', 'finalized']) out[t] = hexNum((await rpc(url, 'eth_getBlockByNumber', [t, false])).number);
    return out;
  };

  // ---- Deploy: creation code followed by the constructor's argument (the genesis archive root).
  console.log('\n== deploy');
  const deploy = await send(null, artifact.bytecode + word(GENESIS));
  const rollup = deploy.contractAddress;
  const deployBlock = hexNum(deploy.blockNumber);
  console.log(`  StandInRollup at ${rollup}, block ${deployBlock}, gas ${hexNum(deploy.gasUsed)}`);
  check('deployed code is the committed deployedBytecode', (await rpc(url, 'eth_getCode', [rollup, 'latest'])) === artifact.deployedBytecode);

  // ---- propose 1..3, prove 2.
  console.log('\n== propose 1..3, prove 2');
  const blocks = {};
  for (const n of [1, 2, 3]) {
    const r = await send(rollup, calldata(sel('propose(uint256,bytes32)'), n, archiveOf(n)));
    blocks[`propose ${n}`] = hexNum(r.blockNumber);
    const topic0 = r.logs[0]?.topics[0];
    check(`propose(${n}) logs CheckpointProposed with the real topic`,
      topic0 === real.event_topics['CheckpointProposed(uint256,bytes32,bytes32[],bytes32,bytes32)'] &&
        r.logs[0].topics[1] === '0x' + word(n) && r.logs[0].topics[2] === archiveOf(n));
  }
  blocks['prove 2'] = hexNum((await send(rollup, calldata(sel('prove(uint256)'), 2))).blockNumber);
  console.log(`  blocks: ${JSON.stringify(blocks)}`);

  // ---- Reads at several block tags.
  console.log('\n== eth_call archiveAt(2), getProvenCheckpointNumber(), getPendingCheckpointNumber()');
  const archiveAt2 = calldata(sel('archiveAt(uint256)'), 2);
  const provenData = calldata(sel('getProvenCheckpointNumber()'));
  const pendingData = calldata(sel('getPendingCheckpointNumber()'));
  const read = async (tag) => {
    const r = {
      archiveAt2: await call(rollup, archiveAt2, tag),
      proven: await call(rollup, provenData, tag),
      pending: await call(rollup, pendingData, tag),
    };
    const show = (h) => (h === '0x' ? '0x (empty: no code at that block)' : h.length === 66 && BigInt(h) < 1000n ? String(BigInt(h)) : h);
    console.log(`  at ${JSON.stringify(tag)}: archiveAt(2)=${show(r.archiveAt2)} proven=${show(r.proven)} pending=${show(r.pending)}`);
    return r;
  };
  const now = await tips();
  console.log(`  tips ${JSON.stringify(now)}`);
  const latest = await read('latest');
  check('latest: archiveAt(2) is the proposed archive, proven 2, pending 3',
    latest.archiveAt2 === archiveOf(2) && BigInt(latest.proven) === 2n && BigInt(latest.pending) === 3n);
  check('archiveAt(0) is the genesis archive, archiveAt(4) (past pending) is zero, archive() is archiveAt(3)',
    (await call(rollup, calldata(sel('archiveAt(uint256)'), 0))) === GENESIS &&
      (await call(rollup, calldata(sel('archiveAt(uint256)'), 4))) === ZERO &&
      (await call(rollup, calldata(sel('archive()')))) === archiveOf(3));
  for (const tag of ['safe', 'finalized']) {
    const r = await read(tag);
    const same = JSON.stringify(r) === JSON.stringify(await read('0x' + now[tag].toString(16)));
    check(`"${tag}" reads the state of block ${now[tag]}` +
      (now[tag] < deployBlock ? ' (before the deployment: eth_call answers "0x")' : ''),
      same && (now[tag] >= deployBlock || r.archiveAt2 === '0x'));
  }
  const before = await read('0x' + (blocks['prove 2'] - 1).toString(16));
  check('the block before prove(2): archiveAt(2) set, proven 0', before.archiveAt2 === archiveOf(2) && BigInt(before.proven) === 0n);
  const proveBlock = await rpc(url, 'eth_getBlockByNumber', ['0x' + blocks['prove 2'].toString(16), false]);
  const byHash = await read({ blockHash: proveBlock.hash, requireCanonical: true });
  check('EIP-1898 {blockHash, requireCanonical}: the state after prove(2)', BigInt(byHash.proven) === 2n);

  console.log('\n== raw JSON-RPC (eth_call archiveAt(2) at latest; getProvenCheckpointNumber() at "finalized")');
  await call(rollup, archiveAt2, 'latest', (q, a) => console.log(`  --> ${q}\n  <-- ${a}`));
  await call(rollup, provenData, 'finalized', (q, a) => console.log(`  --> ${q}\n  <-- ${a}`));

  // ---- Finality on anvil.
  console.log('\n== mining: how safe and finalized trail latest');
  for (const n of [1, 8, 23, 32]) {
    await rpc(url, 'anvil_mine', ['0x' + n.toString(16)]);
    const t = await tips();
    console.log(`  anvil_mine ${n}: ${JSON.stringify(t)} (latest-safe ${t.latest - t.safe}, latest-finalized ${t.latest - t.finalized})`);
  }
  await rpc(url, 'evm_mine', []);
  console.log(`  evm_mine: ${JSON.stringify(await tips())}`);
  const fin = await read('finalized');
  const t = await tips();
  check(`finalized (block ${t.finalized}) now sees the state after prove(2)`, t.finalized < blocks['prove 2'] || (fin.archiveAt2 === archiveOf(2) && BigInt(fin.proven) === 2n));

  // ---- A prune, a lie, a revert, a call to no contract.
  console.log('\n== prune, lie, revert');
  await send(rollup, calldata(sel('prune()')));
  const afterPrune = await read('latest');
  check('prune(): pending back to proven (2); archiveAt(3) is zero again', BigInt(afterPrune.pending) === 2n &&
    (await call(rollup, calldata(sel('archiveAt(uint256)'), 3))) === ZERO);
  const lie = '0x' + 'ee'.repeat(32);
  await send(rollup, calldata(sel('setArchive(uint256,bytes32)'), 2, lie));
  check('setArchive(2, lie): latest answers the lie, an older block the original',
    (await call(rollup, archiveAt2)) === lie && (await call(rollup, archiveAt2, '0x' + blocks['prove 2'].toString(16))) === archiveOf(2));
  try {
    await call(rollup, calldata(sel('propose(uint256,bytes32)'), 9, lie), 'latest', (q, a) => console.log(`  --> ${q}\n  <-- ${a}`));
    check('propose(9) reverts', false);
  } catch (e) {
    check('propose(9) from the zero address reverts: a JSON-RPC error with the revert data', e.rpcError?.code === 3 && typeof e.rpcError.data === 'string');
  }
  const nobody = '0x' + '42'.repeat(20);
  const empty = await call(nobody, archiveAt2, 'latest', (q, a) => console.log(`  --> ${q}\n  <-- ${a}`));
  check('eth_call to an address with no code answers "0x", not an error', empty === '0x');
  const missing = await rpc(url, 'eth_getBlockByNumber', ['0xffff', false]);
  check('eth_getBlockByNumber past the tip answers null', missing === null);
  try {
    await call(rollup, archiveAt2, '0xffff', (q, a) => console.log(`  --> ${q}\n  <-- ${a}`));
    check('eth_call at a block past the tip is an error', false);
  } catch (e) {
    check('eth_call at a block past the tip is a JSON-RPC error', !!e.rpcError);
  }
} finally {
  await anvil.stop();
}
console.log(`\n${failures === 0 ? 'demo: all checks passed' : `demo: ${failures} check(s) FAILED`}`);
process.exit(failures === 0 ? 0 : 1);

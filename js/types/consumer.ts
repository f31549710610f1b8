// A TypeScript consumer of the packed package, type-checked with `tsc --strict` by
// `cargo xtask js test` after the tarball is installed: the declarations must describe what a
// user writes.
import * as txfx from 'txfx';
import type { Refutation, TxEffectMembershipWitness, Verdict } from 'txfx';

const body: string = '[]';
const root: string = txfx.txEffectsTreeRoot(body);
const fromBigint: string = txfx.poseidon2Hash([1n, '0x02', new Uint8Array(32)]);
const witness: TxEffectMembershipWitness = txfx.txEffectMembershipWitness(body, 0, 3);
const leafIndex: string = witness.leafIndex;

function describe(verdict: Verdict | Refutation): string {
  return verdict.valid ? `${verdict.proves} of block ${verdict.blockNumber ?? '?'}` : `${verdict.link}: ${verdict.reason}`;
}

const verdict = txfx.verifyTx({
  archiveRoot: 0n,
  archiveWitness: '{}',
  header: {},
  witness,
  subject: { txHash: '0x01', categoriesHash: '0x02' },
  expected: { blockNumber: 3 },
});

async function offLoop(): Promise<string> {
  const leaves = await txfx.txEffectLeavesAsync(body, 3);
  const served: txfx.TxEffectMembershipWitness = txfx.txEffectMembershipWitnessFromLeaves(leaves, 1);
  return txfx.txEffectsTreeRootFromLeaves([served.root, 1n, new Uint8Array(32)]);
}

export const used = [root, fromBigint, leafIndex, describe(verdict), offLoop, txfx.backend];

// A TypeScript consumer of the packed package, type-checked with `tsc --strict` by
// `cargo xtask js test` after the tarball is installed: the declarations must describe what a
// user writes.
import * as txfx from 'txfx';
import type { Refutation, TxEffectMembershipWitness, Verdict } from 'txfx';
// The module's URL as a bundler's file loader gives it (txfx.wasm.d.ts: no TS2307).
import wasmUrl from 'txfx/txfx.wasm';
import * as worker from 'txfx/worker';
import type { WorkerInitOptions } from 'txfx/worker';

const body: string = '[]';
const root: string = txfx.txEffectsTreeRoot(body);
const fromBigint: string = txfx.poseidon2Hash([1n, '0x02', new Uint8Array(32)]);
// What a TypeScript caller holds: foundation's Fr (toBigInt), a toBuffer object, safe integers,
// decimal strings.
class Fr {
  constructor(private readonly value: bigint) {}
  toBigInt(): bigint {
    return this.value;
  }
  toBuffer(): Uint8Array {
    return new Uint8Array(32);
  }
}
const fromHeld: string = txfx.poseidon2HashWithSeparator([new Fr(1n), { toBuffer: () => new Uint8Array(32) }, 3, '42'], 7);
const witness: TxEffectMembershipWitness = txfx.txEffectMembershipWitness(body, { index: 0 }, 3);
const byHash: TxEffectMembershipWitness = txfx.txEffectMembershipWitness(body, { txHash: new Fr(5n) }, 3);
const leafIndex: string = witness.leafIndex;
const path: string[] = txfx.decodeSiblingPath(witness.siblingPath);
function kindOf(error: unknown): string | undefined {
  return error instanceof Error ? (error as txfx.TxfxError).kind : undefined;
}

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
  const served: txfx.TxEffectMembershipWitness = txfx.txEffectMembershipWitnessFromLeaves(leaves, { index: 1 });
  return txfx.txEffectsTreeRootFromLeaves([served.root, 1n, new Uint8Array(32)]);
}

// The worker entry: the same inputs, promises back, its own loader.
async function inWorker(): Promise<string> {
  const options: WorkerInitOptions = { workerUrl: new URL('/txfx-worker.js', 'http://localhost') };
  await worker.init(wasmUrl, options);
  const running: 'wasm' | undefined = worker.backend();
  const leaves: txfx.StoredBlock = await worker.txEffectLeavesAsync(body, 3);
  const witness: TxEffectMembershipWitness = await worker.txEffectMembershipWitnessAsync(body, { txHash: new Fr(1n) }, 3);
  const elements: string[] = await worker.decodeSiblingPath(witness.siblingPath);
  worker.terminate();
  return `${running} ${leaves.txEffectsTreeRoot} ${elements.length} ${await worker.default.txEffectsTreeRootAsync(JSON.parse(body))}`;
}
const url: string = wasmUrl;
// @ts-expect-error workerUrl is a URL or its string
worker.init(undefined, { workerUrl: 1 });
// @ts-expect-error the worker entry has no synchronous hash
worker.txEffectsTreeRoot(body);
// @ts-expect-error a bigint tx could be an index or a hash: the types refuse it, as the API does
txfx.txEffectMembershipWitness(body, 1n, 3);
// @ts-expect-error a string separator
txfx.poseidon2HashWithSeparator([1n], '7');

export const used = [root, fromBigint, fromHeld, byHash, leafIndex, path, kindOf, describe(verdict), offLoop, txfx.backend, inWorker, url];

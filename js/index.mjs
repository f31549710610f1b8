// The ES module entry: the same engine as `require('txfx')` (one instance per process).
import { createRequire } from 'node:module';

const txfx = createRequire(import.meta.url)('./index.js');

export const {
  backend,
  init,
  initSync,
  poseidon2Permutation,
  poseidon2Hash,
  poseidon2HashWithSeparator,
  txEffectCommitment,
  txEffectLeaf,
  txEffectsTreeRoot,
  txEffectLeaves,
  txEffectMembershipWitness,
  verifyTxEffectMembershipWitness,
  verifyTx,
  verifyArchive,
  blockHeaderHash,
  decodeCheckpoint,
  encodeBlobFields,
  txEffectCommitmentAsync,
  txEffectLeafAsync,
  txEffectsTreeRootAsync,
  txEffectLeavesAsync,
  txEffectMembershipWitnessAsync,
} = txfx;
export default txfx;

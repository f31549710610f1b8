// The ES module entry for Node: the CommonJS module itself (one engine instance per process).
// Named exports are listed, since Node cannot see through index.js's spread.
import txfx from './index.js';

export default txfx;
export const {
  TxfxError,
  MalformedError,
  OutOfRangeError,
  RefutedError,
  BackendError,
  TransportError,
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
  txEffectsTreeRootFromLeaves,
  txEffectMembershipWitnessFromLeaves,
  verifyTxEffectMembershipWitness,
  verifyTx,
  verifyArchive,
  verifyTxFromNode,
  decodeSiblingPath,
  blockHeaderHash,
  decodeCheckpoint,
  encodeBlobFields,
  txEffectCommitmentAsync,
  txEffectLeafAsync,
  txEffectsTreeRootAsync,
  txEffectLeavesAsync,
  txEffectMembershipWitnessAsync,
} = txfx;

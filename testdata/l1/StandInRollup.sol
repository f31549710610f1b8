// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.30;

// StandInRollup: a test stand-in for Aztec's L1 Rollup contract. It has only the views txfx reads,
// with the exact selectors and return types of RollupAbi in the npm package @aztec/l1-artifacts 4.1.2
// (see rollup-abi.json), backed by storage in v6's layout (below) that an owner sets. It is for tests
// on a local node (anvil): no proofs, no attestations, no time rules.
//
// Semantics mirrored from AztecProtocol/aztec-packages @ 99ff034ebf1d196d0bf0b5b90b95353926bdcc1e:
// - l1-contracts/src/core/Rollup.sol `archiveAt`: returns `archives[n]` if `n <= pending`, else
//   `bytes32(0)`; `archive()`: `archives[pending]`; the two getters read the chain tips.
// - l1-contracts/src/core/libraries/rollup/STFLib.sol `initialize`: `archives[0]` is the genesis archive
//   root; `prune`: pending winds back to proven and no archive is deleted (a later proposal overwrites
//   it), emitting `PrunedPending(proven, pending)`.
// - l1-contracts/src/core/libraries/rollup/EpochProofLib.sol (as shipped in the npm package above): the
//   proven tip only moves forward (`if (end > proven) proven = end`).
// Events keep IRollupCore's signatures, so their topics are the real ones.
//
// Storage follows v6's layout, so that a storage proof (eth_getProof) of the stand-in reads as one
// of the real Rollup (txfx-ethereum's RollupWords), from the same commit:
// - l1-contracts/src/core/libraries/rollup/STFLib.sol: `STF_STORAGE_POSITION =
//   keccak256("aztec.stf.storage")`, and `getStorage()` puts the RollupStore there with
//   `storageStruct.slot := position`.
// - l1-contracts/src/core/interfaces/IRollup.sol: `struct RollupStore { CompressedChainTips tips;
//   mapping(uint256 checkpointNumber => bytes32 archive) archives; ... }`; the stand-in keeps these
//   two members (the others follow them, and the stand-in has no use for them).
// - l1-contracts/src/core/libraries/compressed-data/Tips.sol (read in its checkpoint-based form;
//   not stored at this commit in the index read): `type CompressedChainTips is uint256`, pending
//   `>> 128`, proven `& PROVEN_CHECKPOINT_NUMBER_MASK` (the low 128 bits), each set through
//   SafeCast's `toUint128`, which reverts past 128 bits (here: TipOverflow).

type CompressedChainTips is uint256;

struct RollupStore {
  CompressedChainTips tips;
  mapping(uint256 checkpointNumber => bytes32 archive) archives;
}

contract StandInRollup {
  event CheckpointProposed(
    uint256 indexed checkpointNumber,
    bytes32 indexed archive,
    bytes32[] versionedBlobHashes,
    bytes32 payloadDigest,
    bytes32 attestationsHash
  );
  event L2ProofVerified(uint256 indexed checkpointNumber, address indexed proverId);
  event PrunedPending(uint256 provenCheckpointNumber, uint256 pendingCheckpointNumber);

  error NotOwner(address caller);
  error NotNextCheckpoint(uint256 expected, uint256 given);
  error BeyondPending(uint256 pending, uint256 given);
  error TipOverflow(uint256 tip);

  bytes32 private constant STF_STORAGE_POSITION = keccak256("aztec.stf.storage");
  uint256 private constant PROVEN_CHECKPOINT_NUMBER_MASK = 0xffffffffffffffffffffffffffffffff;

  address public owner;

  constructor(bytes32 _genesisArchiveRoot) {
    owner = msg.sender;
    getStorage().archives[0] = _genesisArchiveRoot;
  }

  modifier onlyOwner() {
    if (msg.sender != owner) revert NotOwner(msg.sender);
    _;
  }

  // ---- The views txfx reads (IRollup's signatures) ----

  function archive() external view returns (bytes32) {
    return getStorage().archives[getPending()];
  }

  function archiveAt(uint256 _checkpointNumber) external view returns (bytes32) {
    return _checkpointNumber <= getPending() ? getStorage().archives[_checkpointNumber] : bytes32(0);
  }

  function getProvenCheckpointNumber() external view returns (uint256) {
    return getProven();
  }

  function getPendingCheckpointNumber() external view returns (uint256) {
    return getPending();
  }

  // ---- Owner-only setters for tests ----

  /// Appends checkpoint `pending + 1` with `_archive` and makes it the pending tip.
  function propose(uint256 _checkpointNumber, bytes32 _archive) external onlyOwner {
    uint256 pending = getPending();
    if (_checkpointNumber != pending + 1) revert NotNextCheckpoint(pending + 1, _checkpointNumber);
    getStorage().archives[_checkpointNumber] = _archive;
    setTipsWord(_checkpointNumber, getProven());
    emit CheckpointProposed(_checkpointNumber, _archive, new bytes32[](0), bytes32(0), bytes32(0));
  }

  /// Marks checkpoints up to `_checkpointNumber` (at most pending) proven; never moves proven back.
  function prove(uint256 _checkpointNumber) external onlyOwner {
    uint256 pending = getPending();
    if (_checkpointNumber > pending) revert BeyondPending(pending, _checkpointNumber);
    if (_checkpointNumber > getProven()) setTipsWord(pending, _checkpointNumber);
    emit L2ProofVerified(_checkpointNumber, msg.sender);
  }

  /// Winds pending back to proven, keeping the archives (a later proposal overwrites them).
  function prune() external onlyOwner {
    uint256 wasPending = getPending();
    uint256 proven = getProven();
    setTipsWord(proven, proven);
    emit PrunedPending(proven, wasPending);
  }

  /// Overwrites one stored archive without touching the tips: a reorg, or an L1 that lies.
  function setArchive(uint256 _checkpointNumber, bytes32 _archive) external onlyOwner {
    getStorage().archives[_checkpointNumber] = _archive;
  }

  /// Sets both tips as given, with no check but their width (states the real contract never
  /// reaches); a tip past 128 bits reverts with TipOverflow, as Tips.sol's toUint128 would.
  function setTips(uint256 _pending, uint256 _proven) external onlyOwner {
    setTipsWord(_pending, _proven);
  }

  // ---- v6's storage: the RollupStore at STF_STORAGE_POSITION, tips packed as Tips.sol packs them ----

  function getStorage() private pure returns (RollupStore storage storageStruct) {
    bytes32 position = STF_STORAGE_POSITION;
    assembly {
      storageStruct.slot := position
    }
  }

  function getPending() private view returns (uint256) {
    return CompressedChainTips.unwrap(getStorage().tips) >> 128;
  }

  function getProven() private view returns (uint256) {
    return CompressedChainTips.unwrap(getStorage().tips) & PROVEN_CHECKPOINT_NUMBER_MASK;
  }

  function setTipsWord(uint256 _pending, uint256 _proven) private {
    if (_pending > type(uint128).max) revert TipOverflow(_pending);
    if (_proven > type(uint128).max) revert TipOverflow(_proven);
    getStorage().tips = CompressedChainTips.wrap((_pending << 128) | _proven);
  }
}

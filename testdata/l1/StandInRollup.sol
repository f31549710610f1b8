// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.30;

// StandInRollup: a test stand-in for Aztec's L1 Rollup contract. It has only the views txfx reads,
// with the exact selectors and return types of RollupAbi in the npm package @aztec/l1-artifacts 4.1.2
// (see rollup-abi.json), backed by plain storage that an owner sets. It is for tests on a local node
// (anvil): no proofs, no attestations, no time rules.
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

  address public owner;

  mapping(uint256 checkpointNumber => bytes32 archive) private archives;
  uint256 private pending;
  uint256 private proven;

  constructor(bytes32 _genesisArchiveRoot) {
    owner = msg.sender;
    archives[0] = _genesisArchiveRoot;
  }

  modifier onlyOwner() {
    if (msg.sender != owner) revert NotOwner(msg.sender);
    _;
  }

  // ---- The views txfx reads (IRollup's signatures) ----

  function archive() external view returns (bytes32) {
    return archives[pending];
  }

  function archiveAt(uint256 _checkpointNumber) external view returns (bytes32) {
    return _checkpointNumber <= pending ? archives[_checkpointNumber] : bytes32(0);
  }

  function getProvenCheckpointNumber() external view returns (uint256) {
    return proven;
  }

  function getPendingCheckpointNumber() external view returns (uint256) {
    return pending;
  }

  // ---- Owner-only setters for tests ----

  /// Appends checkpoint `pending + 1` with `_archive` and makes it the pending tip.
  function propose(uint256 _checkpointNumber, bytes32 _archive) external onlyOwner {
    if (_checkpointNumber != pending + 1) revert NotNextCheckpoint(pending + 1, _checkpointNumber);
    archives[_checkpointNumber] = _archive;
    pending = _checkpointNumber;
    emit CheckpointProposed(_checkpointNumber, _archive, new bytes32[](0), bytes32(0), bytes32(0));
  }

  /// Marks checkpoints up to `_checkpointNumber` (at most pending) proven; never moves proven back.
  function prove(uint256 _checkpointNumber) external onlyOwner {
    if (_checkpointNumber > pending) revert BeyondPending(pending, _checkpointNumber);
    if (_checkpointNumber > proven) proven = _checkpointNumber;
    emit L2ProofVerified(_checkpointNumber, msg.sender);
  }

  /// Winds pending back to proven, keeping the archives (a later proposal overwrites them).
  function prune() external onlyOwner {
    uint256 wasPending = pending;
    pending = proven;
    emit PrunedPending(proven, wasPending);
  }

  /// Overwrites one stored archive without touching the tips: a reorg, or an L1 that lies.
  function setArchive(uint256 _checkpointNumber, bytes32 _archive) external onlyOwner {
    archives[_checkpointNumber] = _archive;
  }

  /// Sets both tips as given, with no check (states the real contract never reaches).
  function setTips(uint256 _pending, uint256 _proven) external onlyOwner {
    pending = _pending;
    proven = _proven;
  }
}

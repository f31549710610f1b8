// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.30;

// StandInRegistry: a test stand-in for Aztec's L1 Registry. It has only the view txfx reads,
// `getCanonicalRollup()`, with IRegistry's signature (AztecProtocol/aztec-packages
// l1-contracts/src/governance/interfaces/IRegistry.sol @ b61792c38104074ed29491dda88710d30772f4d2:
// `function getCanonicalRollup() external view returns (IHaveVersion);`, an address in the ABI),
// backed by one word an owner sets. `InstanceAdded` keeps IRegistry's signature, so its topic is
// the real one. For tests on a local node (anvil).
contract StandInRegistry {
  event InstanceAdded(address indexed instance, uint256 indexed version);

  error NotOwner(address caller);

  address private immutable owner;
  address private canonical;
  uint256 private versions;

  constructor() {
    owner = msg.sender;
  }

  // The Registry's `addRollup`: the rollup becomes the canonical one.
  function addRollup(address rollup) external {
    if (msg.sender != owner) revert NotOwner(msg.sender);
    canonical = rollup;
    versions += 1;
    emit InstanceAdded(rollup, versions);
  }

  function getCanonicalRollup() external view returns (address) {
    return canonical;
  }
}

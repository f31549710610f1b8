// The archive tree both chain scripts build: an append-only tree of `height` levels above its
// leaves (leaf i the hash of block i's header), empty leaves `zero`, over the node hash each
// protocol names (4.1.2: the plain Poseidon2 hash of the pair; v6: with the MERKLE_HASH
// separator). Written once, so that the two chains can differ only in that hash.
//
// `zeroLevels` (at least `height`) is how many levels of empty subtrees to compute: v6's script
// also reads the roots of its taller empty trees from them.
export function archiveTree(height, hashPair, zero, zeroLevels = height) {
  const zeros = [zero];
  for (let level = 0; level < Math.max(height, zeroLevels); level++) zeros.push(hashPair(zeros[level], zeros[level]));
  function levels(leaves) {
    const out = [leaves];
    for (let level = 0; level < height; level++) {
      const current = out[level];
      const next = [];
      for (let j = 0; j < current.length; j += 2) next.push(hashPair(current[j], current[j + 1] ?? zeros[level]));
      out.push(next);
    }
    return out;
  }
  return {
    zeros,
    root: (leaves) => levels(leaves)[height][0],
    // The siblings of leaf `index`, leaf level first.
    path(leaves, index) {
      const all = levels(leaves);
      const path = [];
      for (let level = 0; level < height; level++) path.push(all[level][(index >> level) ^ 1] ?? zeros[level]);
      return path;
    },
  };
}

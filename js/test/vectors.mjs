// The repository's vectors as cases any JavaScript runtime can run: Node's test runner
// (vectors.test.mjs, on both engines) and a page in Chromium (xtask/js/browser/, the WASM build
// bundled as an app bundles it) run this one list. Every expected value comes from testdata/,
// never from txfx.
//
// `read(name)` returns a testdata file's text (FILES lists every one a case reads, for a
// runtime that must fetch them first); `assert` is node:assert/strict or the page's equivalent
// (ok, equal, deepEqual, throws, match).


// TypeScript 4.1.2's fixtures are read under its rules.
const PRE = { protocol: 'pre-azip-26' };
export const FILES = [
  'reference.json',
  'aztec-fixtures.json',
  'blocks/three-fixtures.json',
  'blocks/three-fixtures.leaves.json',
  'chain/archive-root.txt',
  'chain/archive-witness-3.json',
  'chain/header-3.json',
  'chain/tx-witness-3-1.json',
  'typescript/effects.json',
  'typescript/bodies.json',
  'typescript/headers.json',
  'typescript/checkpoints.json',
];

const P = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

function bytesOfHex(hex) {
  const digits = hex.slice(2).padStart(64, '0');
  return Uint8Array.from({ length: 32 }, (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16));
}

export function vectorCases(txfx, read, assert) {
  const json = (name) => JSON.parse(read(name));
  const reference = json('reference.json');
  const fixtures = json('aztec-fixtures.json');
  const cases = [];
  const case_ = (name, run) => cases.push({ name, run });

  case_('poseidon2 permutation: every reference vector', () => {
    const cases = reference.poseidon2_permutation;
    assert.ok(cases.length > 0);
    for (const c of cases) assert.deepEqual(txfx.poseidon2Permutation(c.input), c.output, c.name);
  });

  case_('poseidon2 hash and hash with separator: every reference vector', () => {
    assert.ok(reference.poseidon2_hash.length > 0 && reference.poseidon2_hash_with_separator.length > 0);
    for (const c of reference.poseidon2_hash) assert.equal(txfx.poseidon2Hash(c.inputs), c.output, c.name);
    for (const c of reference.poseidon2_hash_with_separator) {
      assert.equal(txfx.poseidon2HashWithSeparator(c.inputs, c.separator), c.output, `${c.separator_name} ${c.name}`);
    }
  });

  case_('field elements as hex, bigint and 32-byte arrays hash alike', () => {
    const c = reference.poseidon2_hash.find((v) => v.inputs.length >= 2);
    const asBigint = c.inputs.map((hex) => BigInt(hex));
    const asBytes = c.inputs.map((hex) => bytesOfHex(hex));
    assert.equal(txfx.poseidon2Hash(asBigint), c.output);
    assert.equal(txfx.poseidon2Hash(asBytes), c.output);
  });

  case_('the upstream three-tx block: its root, leaves and witnesses', () => {
    const three = fixtures.three_tx_block;
    const body = read('blocks/three-fixtures.json');
    assert.equal(txfx.txEffectsTreeRoot(body), three.root);
    assert.equal(txfx.txEffectsTreeRoot(JSON.parse(body)), three.root, 'a parsed object reads alike');
    const stored = txfx.txEffectLeaves(body, 3);
    assert.equal(stored.txEffectsTreeRoot, three.root);
    assert.deepEqual(stored.txs.map((tx) => tx.leaf), three.leaves);
    const witness = txfx.txEffectMembershipWitness(body, 1, 3);
    const transcribed = json('chain/tx-witness-3-1.json');
    for (const key of Object.keys(transcribed)) assert.deepEqual(witness[key], transcribed[key], key);
    // By tx hash, the same witness as by index, where one tx has the hash; txs 1 and 2 share
    // theirs, which then selects neither (an index still does).
    assert.deepEqual(txfx.txEffectMembershipWitness(body, stored.txs[0].txHash, 3), txfx.txEffectMembershipWitness(body, 0, 3));
    const repeated = (error) => error instanceof TypeError && error.kind === 'TxLookup/Repeated' && /select the tx by its index/.test(error.message);
    assert.throws(() => txfx.txEffectMembershipWitness(body, stored.txs[1].txHash, 3), repeated);
    // Served from what a node keeps: the stored form, and the upstream bare leaves.
    assert.equal(txfx.txEffectsTreeRootFromLeaves(stored), three.root);
    assert.deepEqual(txfx.txEffectMembershipWitnessFromLeaves(stored, 1), witness);
    assert.throws(() => txfx.txEffectMembershipWitnessFromLeaves(stored, stored.txs[1].txHash), repeated);
    const bare = JSON.parse(read('blocks/three-fixtures.leaves.json'));
    assert.deepEqual(bare, three.leaves, 'the bare leaves file holds the upstream leaves');
    assert.equal(txfx.txEffectsTreeRootFromLeaves(bare), three.root);
    const fromBare = txfx.txEffectMembershipWitnessFromLeaves(bare, 1, 3);
    for (const key of ['root', 'leafIndex', 'siblingPath', 'blockNumber']) assert.deepEqual(fromBare[key], transcribed[key], `bare ${key}`);
    assert.equal(fromBare.categoriesHash, undefined, 'bare leaves carry no categories hash');
    // A stored form with a leaf changed is refused, not served.
    const forged = { ...stored, txs: stored.txs.map((tx, i) => (i === 0 ? { ...tx, leaf: stored.txs[1].leaf } : tx)) };
    assert.throws(() => txfx.txEffectsTreeRootFromLeaves(forged), Error);
  });

  case_('TypeScript 4.1.2 effects and bodies: blob fields as @aztec/blob-lib encodes them', () => {
    const effects = json('typescript/effects.json').effects;
    const bodies = json('typescript/bodies.json').bodies;
    assert.ok(effects.length > 0 && bodies.length > 0);
    for (const e of effects) {
      assert.deepEqual(txfx.encodeBlobFields(e.json, PRE), e.blobFields, e.name);
      const leaf = txfx.txEffectLeaf(e.json, PRE);
      assert.equal(leaf.txHash, JSON.parse(e.json).txHash, e.name);
    }
    for (const b of bodies) assert.deepEqual(txfx.encodeBlobFields(b.json, PRE), b.blobFields, b.name);
  });

  case_('TypeScript 4.1.2 headers: block hashes in both layouts', () => {
    const { headers, l2Block } = json('typescript/headers.json');
    assert.ok(headers.length > 0);
    for (const h of headers) {
      assert.equal(txfx.blockHeaderHash(h.json, 'pre-azip-26'), h.hash, `${h.name}, 22 fields`);
      assert.equal(txfx.blockHeaderHash(h.azip26.json, 'azip-26'), h.azip26.hash, `${h.name}, 23 fields`);
      assert.equal(txfx.blockHeaderHash(h.azip26.json), h.azip26.hash, `${h.name}: 23 fields, as v6 (the default) reads them`);
    }
    assert.equal(txfx.blockHeaderHash(l2Block.json, 'pre-azip-26'), l2Block.hash, 'an L2Block as TypeScript 4.1.2 prints it');
  });

  case_('TypeScript 4.1.2 checkpoints: decoded as @aztec/blob-lib decodes them', () => {
    const { checkpoints } = json('typescript/checkpoints.json');
    assert.ok(checkpoints.length > 0);
    for (const c of checkpoints) {
      const decoded = txfx.decodeCheckpoint(c.blobFields, PRE);
      assert.equal(decoded.blocks.length, c.decoded.blocks.length, c.name);
      decoded.blocks.forEach((block, i) => {
        const expected = c.decoded.blocks[i];
        for (const key of Object.keys(expected)) assert.deepEqual(block[key], expected[key], `${c.name} block ${i} ${key}`);
        assert.match(block.txEffectsTreeRoot, /^0x[0-9a-f]{64}$/);
      });
    }
  });

  case_('the chain of block 3: from the archive root L1 holds to tx 1', () => {
    const chain = {
      archiveRoot: read('chain/archive-root.txt').trim(),
      archiveWitness: read('chain/archive-witness-3.json'),
      header: read('chain/header-3.json'),
      witness: read('chain/tx-witness-3-1.json'),
      // The chain TypeScript 4.1.2 built, in the AZIP-26 reference layout.
      protocol: 'azip-26',
    };
    const body = JSON.parse(read('blocks/three-fixtures.json'));
    const effects = Array.isArray(body) ? body : body.txEffects;
    const effect = effects[1];
    const verdict = txfx.verifyTx({ ...chain, subject: { effect }, expected: { blockNumber: 3 } });
    assert.equal(verdict.valid, true);
    assert.equal(verdict.proves, 'tx');
    assert.equal(verdict.blockNumber, 3);
    assert.equal(verdict.archiveRoot, chain.archiveRoot);
    assert.equal(verdict.txHash, effect.txHash);
    assert.equal(verdict.leafIndex, '1');
    // Another block expected: refuted, not thrown.
    const refuted = txfx.verifyTx({ ...chain, subject: { effect }, expected: { blockNumber: 4 } });
    assert.equal(refuted.valid, false);
    assert.equal(typeof refuted.reason, 'string');
    // A tampered archive root breaks the archive link.
    const last = chain.archiveRoot.at(-1) === '0' ? '1' : '0';
    const tampered = txfx.verifyTx({ ...chain, archiveRoot: chain.archiveRoot.slice(0, -1) + last, subject: { txHash: effect.txHash } });
    assert.deepEqual([tampered.valid, tampered.link], [false, 'archive']);
    // A misspelt option is refused, never dropped with the check it carries.
    assert.throws(() => txfx.verifyTx({ ...chain, subject: { effect }, expect: { blockNumber: 4 } }), TypeError);
    assert.throws(() => txfx.verifyArchive({ archiveRoot: chain.archiveRoot, archiveWitness: chain.archiveWitness, header: chain.header, expect: {} }), TypeError);
    assert.throws(() => txfx.verifyTx({ ...chain, subject: { effect }, expected: { block: 4 } }), TypeError);
    // The archive alone names the block it proves.
    const archive = txfx.verifyArchive({ archiveRoot: chain.archiveRoot, archiveWitness: chain.archiveWitness, header: chain.header, protocol: 'azip-26' });
    assert.deepEqual([archive.valid, archive.proves, archive.blockNumber], [true, 'block', 3]);
  });

  case_('a witness against a trusted root names what it proved', () => {
    const three = fixtures.three_tx_block;
    const witness = read('chain/tx-witness-3-1.json');
    const stored = txfx.txEffectLeaves(read('blocks/three-fixtures.json'), 3);
    const tx = stored.txs[1];
    const AZIP = { protocol: 'azip-26' }; // the AZIP-26 witness form, without categoriesHash
    const verdict = txfx.verifyTxEffectMembershipWitness(witness, { txHash: tx.txHash, categoriesHash: tx.categoriesHash }, three.root, undefined, AZIP);
    assert.deepEqual([verdict.valid, verdict.proves, verdict.txHash, verdict.leaf], [true, 'tx', tx.txHash, tx.leaf]);
    assert.equal(verdict.blockNumber, undefined, 'a bare root vouches for no block number');
    const other = txfx.verifyTxEffectMembershipWitness(witness, { leaf: stored.txs[0].leaf }, three.root, undefined, AZIP);
    assert.equal(other.valid, false);
  });

  case_('values out of range are RangeErrors, malformed ones TypeErrors', () => {
    assert.throws(() => txfx.poseidon2Hash([P]), RangeError);
    assert.throws(() => txfx.poseidon2Hash([`0x${P.toString(16)}`]), RangeError);
    assert.throws(() => txfx.poseidon2Hash(['12']), TypeError);
    assert.throws(() => txfx.poseidon2Hash([new Uint8Array(31)]), RangeError);
    assert.throws(() => txfx.poseidon2Hash([1]), TypeError);
    assert.throws(() => txfx.poseidon2Permutation(['0x1', '0x2', '0x3']), RangeError);
    assert.throws(() => txfx.txEffectsTreeRoot('{'), TypeError);
    assert.throws(() => txfx.txEffectMembershipWitness(read('blocks/three-fixtures.json'), 3, 3), RangeError);
    assert.throws(() => txfx.txEffectLeaves(read('blocks/three-fixtures.json'), 2 ** 32), RangeError);
    assert.throws(() => txfx.verifyTx({ subject: { leaf: '0x1', txHash: '0x2' } }), TypeError);
    const error = (() => {
      try {
        txfx.txEffectsTreeRoot('{"txEffects": 1}');
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof TypeError);
    assert.equal(typeof error.kind, 'string');
    assert.match(error.message, /body/);
  });

  return cases;
}

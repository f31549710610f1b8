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

// Block 3's chain, from the archive root L1 holds to tx 1 (testdata/chain/): the chain TypeScript
// 4.1.2 built, in the AZIP-26 reference layout. `read` gives a testdata file's text.
export function chainOfBlock3(read) {
  return {
    archiveRoot: read('chain/archive-root.txt').trim(),
    archiveWitness: read('chain/archive-witness-3.json'),
    header: read('chain/header-3.json'),
    witness: read('chain/tx-witness-3-1.json'),
    protocol: 'azip-26',
  };
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
    const witness = txfx.txEffectMembershipWitness(body, { index: 1 }, 3);
    const transcribed = json('chain/tx-witness-3-1.json');
    for (const key of Object.keys(transcribed)) assert.deepEqual(witness[key], transcribed[key], key);
    // By tx hash, the same witness as by index, where one tx has the hash; txs 1 and 2 share
    // theirs, which then selects neither (an index still does).
    assert.deepEqual(txfx.txEffectMembershipWitness(body, { txHash: stored.txs[0].txHash }, 3), txfx.txEffectMembershipWitness(body, { index: 0 }, 3));
    const repeated = (error) => error instanceof TypeError && error.kind === 'TxLookup/Repeated' && /select the tx by its index/.test(error.message);
    assert.throws(() => txfx.txEffectMembershipWitness(body, { txHash: stored.txs[1].txHash }, 3), repeated);
    // Served from what a node keeps: the stored form, and the upstream bare leaves.
    assert.equal(txfx.txEffectsTreeRootFromLeaves(stored), three.root);
    assert.deepEqual(txfx.txEffectMembershipWitnessFromLeaves(stored, { index: 1 }), witness);
    assert.throws(() => txfx.txEffectMembershipWitnessFromLeaves(stored, { txHash: stored.txs[1].txHash }), repeated);
    const bare = JSON.parse(read('blocks/three-fixtures.leaves.json'));
    assert.deepEqual(bare, three.leaves, 'the bare leaves file holds the upstream leaves');
    assert.equal(txfx.txEffectsTreeRootFromLeaves(bare), three.root);
    const fromBare = txfx.txEffectMembershipWitnessFromLeaves(bare, { index: 1 }, 3);
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
    const chain = chainOfBlock3(read);
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
    assert.throws(() => txfx.poseidon2Hash(['12a']), TypeError);
    assert.throws(() => txfx.poseidon2Hash([new Uint8Array(31)]), RangeError);
    assert.throws(() => txfx.poseidon2Hash([1.5]), RangeError);
    assert.throws(() => txfx.poseidon2Hash([{}]), TypeError);
    assert.throws(() => txfx.poseidon2Permutation(['0x1', '0x2', '0x3']), RangeError);
    assert.throws(() => txfx.txEffectsTreeRoot('{'), TypeError);
    assert.throws(() => txfx.txEffectMembershipWitness(read('blocks/three-fixtures.json'), { index: 3 }, 3), RangeError);
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

  // ---- what a TypeScript caller holds (issue 29) ----

  // foundation's Fr as the API meets it: an object with toBigInt() and toBuffer(). A stand-in
  // class, so that a browser page needs no @aztec package; a test that calls only toBuffer()
  // gives an object with that method alone.
  class FrLike {
    constructor(value) {
      this.value = value;
    }
    toBigInt() {
      return this.value;
    }
    toBuffer() {
      return bytesOfHex(`0x${this.value.toString(16)}`);
    }
  }
  const asDecimal = (hex) => BigInt(hex).toString();
  const asSafeNumberOrDecimal = (hex) => (BigInt(hex) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(BigInt(hex)) : asDecimal(hex));

  case_('field elements as decimal strings, safe integers, Fr and toBuffer objects hash as their hex does', () => {
    const hashes = reference.poseidon2_hash;
    const small = hashes.filter((c) => c.inputs.length > 0 && c.inputs.every((x) => BigInt(x) <= 1n));
    assert.ok(small.length >= 2, 'reference vectors over 0 and 1');
    for (const c of hashes) {
      assert.equal(txfx.poseidon2Hash(c.inputs.map(asDecimal)), c.output, `decimal ${c.name}`);
      assert.equal(txfx.poseidon2Hash(c.inputs.map(asSafeNumberOrDecimal)), c.output, `numbers ${c.name}`);
      assert.equal(txfx.poseidon2Hash(c.inputs.map((x) => new FrLike(BigInt(x)))), c.output, `Fr ${c.name}`);
      assert.equal(txfx.poseidon2Hash(c.inputs.map((x) => ({ toBuffer: () => bytesOfHex(x) }))), c.output, `toBuffer ${c.name}`);
    }
    for (const c of small) assert.equal(txfx.poseidon2Hash(c.inputs.map((x) => Number(BigInt(x)))), c.output, `plain numbers ${c.name}`);
    const permutation = reference.poseidon2_permutation.find((c) => c.input.every((x) => BigInt(x) < 16n));
    assert.ok(permutation, 'a permutation vector over small values');
    assert.deepEqual(txfx.poseidon2Permutation(permutation.input.map((x) => Number(BigInt(x)))), permutation.output);
    for (const c of reference.poseidon2_hash_with_separator) {
      assert.equal(txfx.poseidon2HashWithSeparator(c.inputs.map((x) => new FrLike(BigInt(x))), c.separator), c.output, `${c.separator_name} ${c.name}`);
    }
    // Nothing the caller gave is changed.
    const given = reference.poseidon2_hash.find((c) => c.inputs.length >= 2);
    const inputs = [asDecimal(given.inputs[0]), bytesOfHex(given.inputs[1])];
    const before = [inputs[0], Array.from(inputs[1])];
    assert.equal(txfx.poseidon2Hash(inputs), given.output);
    assert.deepEqual([inputs[0], Array.from(inputs[1])], before, 'the inputs are as they were');
  });

  case_('a field element out of range or of no known form is refused, never reduced', () => {
    const kind = (Kind, name) => (error) => error instanceof Kind && error.kind === name && typeof error.txfxClass === 'string';
    for (const bad of [P, new FrLike(P), { toBuffer: () => bytesOfHex(`0x${P.toString(16)}`) }, P.toString(), `0x${P.toString(16)}`]) {
      assert.throws(() => txfx.poseidon2Hash([bad]), kind(RangeError, 'NotCanonical'), String(bad));
    }
    for (const bad of [-1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, -1n, new FrLike(-1n)]) {
      assert.throws(() => txfx.poseidon2Hash([bad]), kind(RangeError, 'Argument'), String(bad));
    }
    assert.throws(() => txfx.poseidon2Hash(['1'.repeat(79)]), kind(TypeError, 'TooManyDigits'));
    assert.throws(() => txfx.poseidon2Hash([{ toBuffer: () => new Uint8Array(33) }]), kind(RangeError, 'Argument'));
    for (const bad of [{}, null, undefined, true, new Date(0), { toBigInt: () => 1 }, { toBuffer: () => 'AA' }, [1]]) {
      assert.throws(() => txfx.poseidon2Hash([bad]), kind(TypeError, 'Argument'), String(bad));
    }
  });

  case_('a separator: a number of 32 bits; another type is a TypeError, another value a RangeError', () => {
    const kind = (Kind) => (error) => error instanceof Kind && error.kind === 'Argument';
    const c = reference.poseidon2_hash_with_separator[0];
    for (const bad of [String(c.separator), BigInt(c.separator), null, undefined, {}]) {
      assert.throws(() => txfx.poseidon2HashWithSeparator(c.inputs, bad), kind(TypeError), String(bad));
    }
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) {
      assert.throws(() => txfx.poseidon2HashWithSeparator(c.inputs, bad), kind(RangeError), String(bad));
    }
  });

  case_('a tx is selected by {index} or {txHash}; a bare value that could be either is refused', () => {
    const body = read('blocks/three-fixtures.json');
    const transcribed = json('chain/tx-witness-3-1.json');
    const stored = txfx.txEffectLeaves(body, 3);
    const hash0 = stored.txs[0].txHash;
    const byIndex0 = txfx.txEffectMembershipWitness(body, { index: 0 }, 3);
    assert.equal(byIndex0.siblingPath, fixtures.witness_json_example.json.siblingPath, 'tx 0 by index: the upstream example\'s path');
    for (const tx of [{ index: 1 }, { index: 1n }, 1]) {
      const witness = txfx.txEffectMembershipWitness(body, tx, 3);
      for (const key of Object.keys(transcribed)) assert.deepEqual(witness[key], transcribed[key], `${JSON.stringify(String(tx.index ?? tx))} ${key}`);
    }
    for (const tx of [{ txHash: hash0 }, { txHash: BigInt(hash0) }, { txHash: new FrLike(BigInt(hash0)) }, { txHash: asDecimal(hash0) }, { txHash: bytesOfHex(hash0) }, hash0]) {
      assert.deepEqual(txfx.txEffectMembershipWitness(body, tx, 3), byIndex0, 'by hash');
      assert.deepEqual(txfx.txEffectMembershipWitnessFromLeaves(stored, tx), byIndex0, 'from leaves by hash');
    }
    const ambiguous = (error) => error instanceof TypeError && error.kind === 'Argument' && /\{index/.test(error.message) && /\{txHash/.test(error.message);
    for (const tx of [1n, '1', BigInt(hash0), bytesOfHex(hash0), new FrLike(1n), null, undefined]) {
      assert.throws(() => txfx.txEffectMembershipWitness(body, tx, 3), ambiguous, String(tx));
      assert.throws(() => txfx.txEffectMembershipWitnessFromLeaves(stored, tx), ambiguous, String(tx));
    }
    const typed = (Kind) => (error) => error instanceof Kind && error.kind === 'Argument';
    for (const tx of [{}, { index: 1, txHash: hash0 }, { leaf: hash0 }, { index: '1' }, { txHash: {} }]) {
      assert.throws(() => txfx.txEffectMembershipWitness(body, tx, 3), typed(TypeError), JSON.stringify(tx));
    }
    // A hash's text is the engine's to read: one that is no field element is refused with its kind.
    assert.throws(() => txfx.txEffectMembershipWitness(body, { txHash: 'zz' }, 3), (error) => error instanceof TypeError && error.kind === 'InvalidDigit' && error.message.startsWith('tx.txHash: '));
    for (const tx of [{ index: -1 }, { index: 1.5 }, { index: -1n }, -1, 2 ** 53]) {
      assert.throws(() => txfx.txEffectMembershipWitness(body, tx, 3), typed(RangeError), String(tx.index ?? tx));
    }
  });

  case_('decodeSiblingPath: the upstream witnesses\' paths, and witnesses txfx serves for Aztec\'s trees', () => {
    const example = fixtures.witness_json_example;
    const three = fixtures.three_tx_block;
    const fromHex = example.siblingPath_hex.slice(8).match(/.{64}/g).map((digits) => `0x${digits}`);
    assert.deepEqual(txfx.decodeSiblingPath(example.json.siblingPath), fromHex, 'the example\'s bytes');
    assert.deepEqual(txfx.decodeSiblingPath(example.json.siblingPath), three.witnesses[0].siblingPath, 'tx 0 of the three-tx block');
    assert.deepEqual(txfx.decodeSiblingPath(json('chain/tx-witness-3-1.json').siblingPath), three.witnesses[1].siblingPath, 'tx 1');
    // Every witness of every tree @aztec/foundation built (reference.json), served by txfx from
    // the bare leaves and decoded: the path foundation gives.
    let checked = 0;
    for (const tree of reference.tx_effects_tree) {
      for (const w of tree.witnesses ?? []) {
        const served = txfx.txEffectMembershipWitnessFromLeaves(tree.leaves, { index: w.leaf_index }, 1);
        assert.deepEqual(txfx.decodeSiblingPath(served.siblingPath), w.sibling_path, `${tree.name} leaf ${w.leaf_index}`);
        assert.equal(served.leafIndex, String(w.index_at_depth), `${tree.name} leaf ${w.leaf_index} index`);
        checked += 1;
      }
    }
    assert.ok(checked >= 100, `${checked} witnesses`);
    assert.deepEqual(txfx.decodeSiblingPath('AAAAAA=='), [], 'an empty path (a one-tx block)');
  });

  case_('decodeSiblingPath refuses a malformed path with the kind txfx\'s reader gives', () => {
    const kind = (Kind, name) => (error) => error instanceof Kind && error.kind === name;
    const path = fixtures.witness_json_example.json.siblingPath;
    const cases = [
      [path.slice(0, -1), TypeError, 'NotBase64'], // padding cut
      [`${path.slice(0, -3)}B==`, TypeError, 'NotBase64'], // bits set past the last byte
      [` ${path.slice(1)}`, TypeError, 'NotBase64'],
      [path.replace(/\+/, '-'), TypeError, 'NotBase64'], // the URL alphabet
      ['', TypeError, 'SiblingPath/NoPrefix'],
      ['AAAA', TypeError, 'SiblingPath/NoPrefix'],
      ['AAAAgQ==', TypeError, 'SiblingPath/TooLong'], // 129 declared
      ['AAAAAQ==', TypeError, 'SiblingPath/Length'], // 1 declared, none there
      [`AAAAAw${path.slice(6)}`, TypeError, 'SiblingPath/Length'], // 3 declared, 2 there
      ['A'.repeat(5472), TypeError, 'SiblingPath/TooManyCharacters'],
    ];
    // An element equal to p.
    const pBytes = bytesOfHex(`0x${P.toString(16)}`);
    let binary = '\u0000\u0000\u0000\u0001';
    for (const byte of pBytes) binary += String.fromCharCode(byte);
    cases.push([btoa(binary), RangeError, 'Field/NotCanonical']);
    // The engine's reader refuses a witness carrying each path with the same class and kind.
    const witness = json('chain/tx-witness-3-1.json');
    const leaf = { leaf: fixtures.three_tx_block.leaves[1] };
    for (const [text, Kind, name] of cases) {
      assert.throws(() => txfx.decodeSiblingPath(text), kind(Kind, name), `${name}: ${text.slice(0, 24)}`);
      const read = () => txfx.verifyTxEffectMembershipWitness({ ...witness, siblingPath: text }, leaf, witness.root, undefined, { protocol: 'azip-26' });
      assert.throws(read, kind(Kind, name), `the engine, ${name}: ${text.slice(0, 24)}`);
    }
    for (const bad of [undefined, null, 42, new Uint8Array(4), { siblingPath: path }]) {
      assert.throws(() => txfx.decodeSiblingPath(bad), kind(TypeError, 'Argument'));
    }
  });

  return cases;
}

// The same vectors through txfx/worker (a browser's module worker): each `…Async` form settles
// with what testdata/ holds, and its refusals cross the thread with their class and kind.
// `rejects(promise, validator)` is node:assert's, awaited.
export function workerCases(worker, read, assert) {
  const json = (name) => JSON.parse(read(name));
  const fixtures = json('aztec-fixtures.json');
  const cases = [];
  const case_ = (name, run) => cases.push({ name, run });
  const rejects = async (promise, validate, message) => {
    let error;
    try {
      await promise;
    } catch (caught) {
      error = caught;
    }
    assert.ok(error !== undefined, `${message}: did not reject`);
    assert.ok(validate(error), `${message}: rejected with ${error} (kind ${error && error.kind}, class ${error && error.txfxClass})`);
  };
  const typed = (Kind, kind) => (error) => error instanceof Kind && (kind === undefined || error.kind === kind) && typeof error.txfxClass === 'string';

  case_('worker: the upstream three-tx block, its leaves and witness', async () => {
    const three = fixtures.three_tx_block;
    const body = read('blocks/three-fixtures.json');
    assert.equal(await worker.txEffectsTreeRootAsync(body), three.root);
    assert.equal(await worker.txEffectsTreeRootAsync(JSON.parse(body)), three.root, 'a parsed object reads alike');
    const stored = await worker.txEffectLeavesAsync(body, 3);
    assert.equal(stored.txEffectsTreeRoot, three.root);
    assert.deepEqual(stored.txs.map((tx) => tx.leaf), three.leaves);
    const witness = await worker.txEffectMembershipWitnessAsync(body, { index: 1 }, 3);
    const transcribed = json('chain/tx-witness-3-1.json');
    for (const key of Object.keys(transcribed)) assert.deepEqual(witness[key], transcribed[key], key);
    assert.deepEqual((await worker.decodeSiblingPath(witness.siblingPath)).length > 0, true);
  });

  case_('worker: TypeScript 4.1.2 effects, their leaves and commitments', async () => {
    const effects = json('typescript/effects.json').effects;
    assert.ok(effects.length > 0);
    for (const e of effects) {
      const leaf = await worker.txEffectLeafAsync(e.json, PRE);
      assert.equal(leaf.txHash, JSON.parse(e.json).txHash, e.name);
      const commitment = await worker.txEffectCommitmentAsync(e.json, PRE);
      assert.equal(commitment.leaf, leaf.leaf, e.name);
    }
  });

  case_('worker: refusals cross the thread with their class and kind', async () => {
    const body = read('blocks/three-fixtures.json');
    const stored = await worker.txEffectLeavesAsync(body, 3);
    await rejects(worker.txEffectsTreeRootAsync('{'), typed(TypeError), 'malformed JSON (the engine\'s)');
    await rejects(worker.txEffectsTreeRootAsync(42), typed(TypeError, 'Argument'), 'a number for a body (the calling thread\'s)');
    await rejects(worker.txEffectMembershipWitnessAsync(body, { index: 3 }, 3), typed(RangeError), 'an index past the block (the engine\'s)');
    await rejects(worker.txEffectMembershipWitnessAsync(body, { txHash: stored.txs[1].txHash }, 3), typed(TypeError, 'TxLookup/Repeated'), 'a hash two txs share');
    await rejects(worker.txEffectLeavesAsync(body, 2 ** 32), typed(RangeError, 'Argument'), 'a block number out of range');
    await rejects(worker.decodeSiblingPath('!'), typed(TypeError, 'NotBase64'), 'a path that is not base64 (the worker\'s reader)');
  });

  return cases;
}

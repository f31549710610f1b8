// The txfx API over an engine (the Node addon or the WASM build, which export the same functions
// of the Rust crate txfx-js-edge): each function converts its values in (convert.mjs), makes one
// call of the engine, and reads its answer; errors come out as errors.mjs's classes, from the
// caller's frame. Each entry (index.js for Node, browser.mjs for browsers, worker.mjs) builds it
// once with its engine.
//
// `engine()` returns the loaded engine, or throws if it is not ready (the browser build before
// `init`): a call never runs on a half-initialised module.

import { ERRORS, TxfxError, call, translate } from './errors.mjs';
import { createConvert } from './convert.mjs';
import { createWalk } from './walk.mjs';

export function createApi(engine) {
  const convert = createConvert(engine);
  const { typeError, rangeError, isPlainObject, describe, field, fields, documentText, namedCall, blockNumber, txSelector, protocol, readOptions, onlyKeys, expectations, subject } = convert;
  const verifyTxFromNode = createWalk(engine, convert);

  // A verification: the verdict the CLI prints, as an object; a refuted check is
  // {valid: false, link, reason}, never an exception.
  function verdict(fn, ...args) {
    try {
      return JSON.parse(fn(...args));
    } catch (error) {
      const out = translate(error);
      if (out.txfxClass === 'Refuted') return { valid: false, link: out.link ?? 'document', reason: out.message };
      throw out;
    }
  }

  // ---- the API ----

  // A list of field elements crosses into the engine as one string, the elements joined by ','
  // (no field element holds one), with their count beside it: one string to convert rather than
  // one per element, which cost the addon more than the permutation's own fixed cost. The engine
  // refuses a list that does not split back into its count (an element that held a ','). The
  // permutation's four outputs return back to back, 66 characters each.
  function poseidon2Permutation(state) {
    const texts = fields(state, 'state');
    const out = call(engine().poseidon2Permutation, texts.join(','), texts.length);
    return [out.slice(0, 66), out.slice(66, 132), out.slice(132, 198), out.slice(198, 264)];
  }

  function poseidon2Hash(inputs) {
    const texts = fields(inputs, 'inputs');
    return call(engine().poseidon2Hash, texts.join(','), texts.length);
  }

  function poseidon2HashWithSeparator(inputs, separator) {
    if (typeof separator !== 'number') throw typeError(`separator: expected a number (a u32 domain separator), got ${describe(separator)}`);
    if (!Number.isInteger(separator) || separator < 0 || separator > 0xffffffff) {
      throw rangeError(`separator: ${separator} is not a u32 domain separator (an integer from 0 to 2^32 - 1)`);
    }
    const texts = fields(inputs, 'inputs');
    return call(engine().poseidon2HashWithSeparator, texts.join(','), texts.length, separator);
  }

  function txEffectCommitment(effect, options) {
    return JSON.parse(call(engine().txEffectCommitment, documentText(effect, 'effect'), readOptions(options, 'txEffectCommitment')));
  }

  function txEffectLeaf(effect, options) {
    const { txHash, categoriesHash, leaf } = txEffectCommitment(effect, options);
    return { txHash, categoriesHash, leaf };
  }

  function txEffectsTreeRoot(body, options) {
    return call(engine().txEffectsTreeRoot, documentText(body, 'body'), readOptions(options, 'txEffectsTreeRoot'));
  }

  function txEffectLeaves(body, blockNumberGiven, options) {
    return JSON.parse(call(engine().txEffectLeaves, documentText(body, 'body'), blockNumber(blockNumberGiven, 'blockNumber'), readOptions(options, 'txEffectLeaves')));
  }

  function txEffectMembershipWitness(body, tx, blockNumberGiven, options) {
    return JSON.parse(call(engine().txEffectMembershipWitness, documentText(body, 'body'), txSelector(tx), blockNumber(blockNumberGiven, 'blockNumber'), readOptions(options, 'txEffectMembershipWitness')));
  }

  // Leaves a node keeps: the stored form txEffectLeaves returns (an object or its JSON text), or
  // bare leaves (an array of field elements).
  function leavesText(leaves) {
    return Array.isArray(leaves) ? JSON.stringify(fields(leaves, 'leaves')) : documentText(leaves, 'leaves');
  }

  function txEffectsTreeRootFromLeaves(leaves) {
    return call(engine().txEffectsTreeRootFromLeaves, leavesText(leaves));
  }

  function txEffectMembershipWitnessFromLeaves(leaves, tx, blockNumberGiven) {
    return JSON.parse(call(engine().txEffectMembershipWitnessFromLeaves, leavesText(leaves), txSelector(tx), blockNumber(blockNumberGiven, 'blockNumber')));
  }

  function verifyTxEffectMembershipWitness(witness, subjectGiven, trustedRoot, expected, options) {
    const [kind, value, categoriesHash] = subject(subjectGiven);
    // The engines take a verification's arguments by name, one JSON object (JSON.stringify drops
    // the keys left undefined): strings in a row could be passed in the wrong order and still read.
    return verdict(engine().verifyTxEffectMembershipWitness, namedCall({
      witness: documentText(witness, 'witness'),
      subjectKind: kind,
      subjectValue: value,
      categoriesHash,
      trustedRoot: field(trustedRoot, 'trustedRoot'),
      expected: expectations(expected),
      protocol: readOptions(options, 'verifyTxEffectMembershipWitness'),
    }));
  }

  function verifyTx(chain) {
    if (!isPlainObject(chain)) throw typeError('verifyTx: expected {archiveRoot, archiveWitness, header, witness, subject, expected?, protocol?}');
    onlyKeys(chain, ['archiveRoot', 'archiveWitness', 'header', 'witness', 'subject', 'expected', 'protocol'], 'verifyTx');
    const [kind, value, categoriesHash] = subject(chain.subject);
    // By name, as verifyTxEffectMembershipWitness passes its arguments.
    return verdict(engine().verifyTx, namedCall({
      archiveRoot: field(chain.archiveRoot, 'archiveRoot'),
      archiveWitness: documentText(chain.archiveWitness, 'archiveWitness'),
      header: documentText(chain.header, 'header'),
      witness: documentText(chain.witness, 'witness'),
      subjectKind: kind,
      subjectValue: value,
      categoriesHash,
      expected: expectations(chain.expected),
      protocol: protocol(chain.protocol),
    }));
  }

  function verifyArchive(archive) {
    if (!isPlainObject(archive)) throw typeError('verifyArchive: expected {archiveRoot, archiveWitness, header | blockHash, expected?, protocol?}');
    onlyKeys(archive, ['archiveRoot', 'archiveWitness', 'header', 'blockHash', 'expected', 'protocol'], 'verifyArchive');
    // By name, as verifyTxEffectMembershipWitness passes its arguments.
    return verdict(engine().verifyArchive, namedCall({
      archiveRoot: field(archive.archiveRoot, 'archiveRoot'),
      archiveWitness: documentText(archive.archiveWitness, 'archiveWitness'),
      header: archive.header === undefined ? undefined : documentText(archive.header, 'header'),
      blockHash: archive.blockHash === undefined ? undefined : field(archive.blockHash, 'blockHash'),
      expected: expectations(archive.expected),
      protocol: protocol(archive.protocol),
    }));
  }

  // The protocol as blockHeaderHash takes it: its name, or {protocol}.
  function headerProtocol(given) {
    return typeof given === 'string' ? protocol(given) : readOptions(given, 'blockHeaderHash');
  }

  function blockHeaderHash(header, options) {
    return call(engine().blockHeaderHash, documentText(header, 'header'), headerProtocol(options));
  }

  function decodeCheckpoint(blobFields, options) {
    const text = typeof blobFields === 'string' || blobFields instanceof Uint8Array ? documentText(blobFields, 'fields') : JSON.stringify(fields(blobFields, 'fields'));
    return JSON.parse(call(engine().decodeCheckpoint, text, readOptions(options, 'decodeCheckpoint')));
  }

  function encodeBlobFields(effectOrBody, options) {
    return call(engine().encodeBlobFields, documentText(effectOrBody, 'effectOrBody'), readOptions(options, 'encodeBlobFields'));
  }

  // ---- a witness's sibling path ----

  // A witness's `siblingPath` (foundation's SiblingPath as Aztec's JSON prints it: base64 of
  // uint32_be(n) then n 32-byte big-endian elements) as its elements, lowest level first, read by
  // the engine's witness reader, with its limits and error kinds.
  function decodeSiblingPath(text) {
    if (typeof text !== 'string') throw typeError(`siblingPath: expected base64 text (a witness's siblingPath), got ${describe(text)}`);
    return call(engine().decodeSiblingPath, text);
  }

  // ---- off the event loop: the Node addon runs the same work on txfx's background pool and settles a
  // promise; the WASM engine has no threads, so there the promise settles with the synchronous
  // call's result, computed on the calling thread after the current task ----

  async function offLoop(name, ...args) {
    const running = engine();
    try {
      if (typeof running[`${name}Async`] === 'function') return await running[`${name}Async`](...args);
      // The caller may reuse its buffer once the call returns: bytes are copied before the wait.
      args = args.map((arg) => (arg instanceof Uint8Array ? new Uint8Array(arg) : arg));
      await null;
      return running[name](...args);
    } catch (error) {
      throw translate(error);
    }
  }

  async function txEffectCommitmentAsync(effect, options) {
    return JSON.parse(await offLoop('txEffectCommitment', documentText(effect, 'effect'), readOptions(options, 'txEffectCommitmentAsync')));
  }

  async function txEffectLeafAsync(effect, options) {
    const { txHash, categoriesHash, leaf } = await txEffectCommitmentAsync(effect, options);
    return { txHash, categoriesHash, leaf };
  }

  async function txEffectsTreeRootAsync(body, options) {
    return offLoop('txEffectsTreeRoot', documentText(body, 'body'), readOptions(options, 'txEffectsTreeRootAsync'));
  }

  async function txEffectLeavesAsync(body, blockNumberGiven, options) {
    return JSON.parse(await offLoop('txEffectLeaves', documentText(body, 'body'), blockNumber(blockNumberGiven, 'blockNumber'), readOptions(options, 'txEffectLeavesAsync')));
  }

  async function txEffectMembershipWitnessAsync(body, tx, blockNumberGiven, options) {
    return JSON.parse(await offLoop('txEffectMembershipWitness', documentText(body, 'body'), txSelector(tx), blockNumber(blockNumberGiven, 'blockNumber'), readOptions(options, 'txEffectMembershipWitnessAsync')));
  }

  // ---- the exports: txfx's errors thrown from the caller's frame ----

  // An error of txfx's own (every one carries `txfxClass` and `kind`) is thrown with the stack of
  // the caller's call: no frame of this file's helpers on top. Another error (one the caller's own
  // `toBigInt` threw, say) passes unchanged.
  const captureStack = typeof Error.captureStackTrace === 'function' ? Error.captureStackTrace : undefined;
  const ours = (error) => error instanceof TxfxError;

  function exported(fn) {
    const wrapped = {
      [fn.name](...args) {
        try {
          return fn(...args);
        } catch (error) {
          if (captureStack && ours(error)) captureStack(error, wrapped);
          throw error;
        }
      },
    }[fn.name];
    return wrapped;
  }

  // The same for a promise: the caller's frames are taken at the call (after an await they are
  // gone) and given to an error of txfx's own that the promise rejects with.
  function exportedAsync(fn) {
    const wrapped = {
      [fn.name](...args) {
        const site = {};
        if (captureStack) captureStack(site, wrapped);
        return fn(...args).catch((error) => {
          if (captureStack && ours(error)) {
            const frames = String(site.stack).split('\n').slice(1).join('\n');
            error.stack = `${error.name}: ${error.message}\n${frames}`;
          }
          throw error;
        });
      },
    }[fn.name];
    return wrapped;
  }

  return {
    ...ERRORS,
    verifyTxFromNode: exportedAsync(verifyTxFromNode),
    poseidon2Permutation: exported(poseidon2Permutation),
    poseidon2Hash: exported(poseidon2Hash),
    poseidon2HashWithSeparator: exported(poseidon2HashWithSeparator),
    txEffectCommitment: exported(txEffectCommitment),
    txEffectLeaf: exported(txEffectLeaf),
    txEffectsTreeRoot: exported(txEffectsTreeRoot),
    txEffectLeaves: exported(txEffectLeaves),
    txEffectMembershipWitness: exported(txEffectMembershipWitness),
    txEffectsTreeRootFromLeaves: exported(txEffectsTreeRootFromLeaves),
    txEffectMembershipWitnessFromLeaves: exported(txEffectMembershipWitnessFromLeaves),
    verifyTxEffectMembershipWitness: exported(verifyTxEffectMembershipWitness),
    verifyTx: exported(verifyTx),
    verifyArchive: exported(verifyArchive),
    decodeSiblingPath: exported(decodeSiblingPath),
    blockHeaderHash: exported(blockHeaderHash),
    decodeCheckpoint: exported(decodeCheckpoint),
    encodeBlobFields: exported(encodeBlobFields),
    txEffectCommitmentAsync: exportedAsync(txEffectCommitmentAsync),
    txEffectLeafAsync: exportedAsync(txEffectLeafAsync),
    txEffectsTreeRootAsync: exportedAsync(txEffectsTreeRootAsync),
    txEffectLeavesAsync: exportedAsync(txEffectLeavesAsync),
    txEffectMembershipWitnessAsync: exportedAsync(txEffectMembershipWitnessAsync),
  };
}

// The txfx API over an engine (the Node addon or the WASM build, which export the same functions
// of the Rust crate txfx-js-edge): every conversion of values in, every translation of errors
// out. Each entry (index.js for Node, browser.mjs for browsers) builds it once with its engine.
//
// `engine()` returns the loaded engine, or throws if it is not ready (the browser build before
// `init`): a call never runs on a half-initialised module.

import { ENGINE_INTERNALS } from './wasm.mjs';

// ---- txfx's errors: one class per ErrorClass of txfx_documents::classify ----
//
// Each carries `kind` (the variant path, `Transport/Timeout`), `class` (`Malformed`,
// `OutOfRange`, `Refuted`, `Backend`, `Transport`; also as `txfxClass`, its older name) and, for
// a refutation, `link`. `instanceof TxfxError` is true of every one of them; MalformedError is a
// TypeError and OutOfRangeError a RangeError, as the API's errors always were.
const TXFX_ERROR = Symbol.for('txfx.error');

function marked(error, name, kind, cls, link) {
  Object.defineProperty(error, 'name', { value: name, configurable: true, writable: true });
  Object.defineProperty(error, TXFX_ERROR, { value: true });
  error.kind = kind;
  error.class = cls;
  error.txfxClass = cls;
  if (link !== undefined) error.link = link;
  return error;
}

// Any of txfx's errors (the test only: it is never thrown itself).
export const TxfxError = class TxfxError extends Error {
  static [Symbol.hasInstance](value) {
    return value !== null && typeof value === 'object' && value[TXFX_ERROR] === true;
  }
};

// The input is not what was asked for (exit 2 in the CLI).
export const MalformedError = class MalformedError extends TypeError {
  constructor(message, kind = 'Argument') {
    super(message);
    marked(this, 'MalformedError', kind, 'Malformed');
  }
};

// A value outside what is allowed (exit 2).
export const OutOfRangeError = class OutOfRangeError extends RangeError {
  constructor(message, kind = 'Argument') {
    super(message);
    marked(this, 'OutOfRangeError', kind, 'OutOfRange');
  }
};

// A check that failed where the API throws rather than returns {valid: false} (exit 1).
export const RefutedError = class RefutedError extends Error {
  constructor(message, kind, link) {
    super(message);
    marked(this, 'RefutedError', kind, 'Refuted', link);
  }
};

// The engine failed: a WASM trap, a worker gone (exit 3).
export const BackendError = class BackendError extends Error {
  constructor(message, kind) {
    super(message);
    marked(this, 'BackendError', kind, 'Backend');
  }
};

// A node or L1 endpoint gave no usable answer (exit 4).
export const TransportError = class TransportError extends Error {
  constructor(message, kind) {
    super(message);
    marked(this, 'TransportError', kind, 'Transport');
  }
};

// The error of class `cls` (an ErrorClass name), for an engine's failure.
export function txfxError(cls, message, kind, link) {
  switch (cls) {
    case 'Malformed': return new MalformedError(message, kind);
    case 'OutOfRange': return new OutOfRangeError(message, kind);
    case 'Refuted': return new RefutedError(message, kind, link);
    case 'Transport': return new TransportError(message, kind);
    default: return new BackendError(message, kind);
  }
}

export const ERRORS = { TxfxError, MalformedError, OutOfRangeError, RefutedError, BackendError, TransportError };

export function createApi(engine) {
  // ---- values in ----

  // A TypeError of the JavaScript side's own checks, with a kind as the engine's errors have.
  function typeError(message, kind = 'Argument') {
    return new MalformedError(message, kind);
  }

  function rangeError(message, kind = 'Argument') {
    return new OutOfRangeError(message, kind);
  }

  // A plain object: what JSON.parse makes (no class instance, no Map, no Date).
  function isPlainObject(value) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  function hexOfBytes(bytes) {
    let out = '0x';
    for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
    return out;
  }

  // A bigint or a safe integer as the decimal text of its value: every rule of a field element
  // (its digits, their count, 0 <= x < p) is the engine's, which reads decimal as decimal. A
  // negative value has no such text and is refused here, as a value that is no field element.
  function bigintField(value, what) {
    if (value < 0n) throw rangeError(`${what}: ${value} is negative; a field element is 0 <= x < p`);
    return value.toString();
  }

  function bytesField(value, what) {
    if (value.length !== 32) throw rangeError(`${what}: ${value.length} bytes; a field element is 32 (big-endian)`);
    return hexOfBytes(value);
  }

  // A field element as text the engine reads, from every form a TypeScript caller holds:
  // - a string is passed on as it is: 0x-hex, or decimal digits (read as decimal, as foundation's
  //   `Fr.fromString` and Aztec's JSON schemas read them); the engine checks it;
  // - a bigint, or a number that is a safe integer (Number.isSafeInteger, >= 0), as its decimal;
  // - a 32-byte big-endian Uint8Array (a Buffer), as 0x-hex;
  // - an object with `toBigInt()` (foundation's `Fr`) or else `toBuffer()` (32 bytes, big-endian).
  // No value is reduced mod p: the engine refuses one outside 0 <= x < p with a RangeError.
  function field(value, what) {
    if (typeof value === 'string') return value;
    if (typeof value === 'bigint') return bigintField(value, what);
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) {
        throw rangeError(`${what}: ${value} is not a safe non-negative integer; give a larger value as a bigint or a string`);
      }
      return String(value);
    }
    if (value instanceof Uint8Array) return bytesField(value, what);
    if (value !== null && typeof value === 'object') {
      if (typeof value.toBigInt === 'function') {
        const big = value.toBigInt();
        if (typeof big !== 'bigint') throw typeError(`${what}: ${describe(value)}'s toBigInt() gave ${describe(big)}, not a bigint`);
        return bigintField(big, what);
      }
      if (typeof value.toBuffer === 'function') {
        const bytes = value.toBuffer();
        if (!(bytes instanceof Uint8Array)) throw typeError(`${what}: ${describe(value)}'s toBuffer() gave ${describe(bytes)}, not bytes`);
        return bytesField(bytes, what);
      }
    }
    throw typeError(`${what}: expected a field element (0x-hex or decimal string, bigint, safe integer, 32-byte Uint8Array, or an object with toBigInt() or toBuffer() such as foundation's Fr), got ${describe(value)}`);
  }

  // A field element as canonical 0x-hex, where a document or a selector takes hex alone (an
  // expectation's hashes; a tx hash, whose decimal would read as an index): the engine reads the
  // text as every field element is read and writes it back as hex.
  function hexField(value, what) {
    return call(engine().fieldHex, what, field(value, what));
  }

  function fields(values, what) {
    if (!Array.isArray(values)) throw typeError(`${what}: expected an array of field elements, got ${describe(values)}`);
    const out = new Array(values.length);
    for (let i = 0; i < values.length; i += 1) {
      if (!(i in values)) throw typeError(`${what}[${i}]: a hole in the array; every element must be a field element`);
      const value = values[i];
      // A string, the common case, is passed on as `field` passes it, without building the
      // element's name for an error it cannot raise.
      out[i] = typeof value === 'string' ? value : field(value, `${what}[${i}]`);
    }
    return out;
  }

  // A document as JSON text: text is passed on as it is (txfx reads it as Aztec's TypeScript does,
  // refusing duplicate keys); a parsed document (what JSON.parse gives: plain objects, arrays,
  // strings, finite numbers, booleans, null) is serialized. Anything JSON.stringify would change
  // or drop (a Map, a Date, a class instance, a hole or undefined in an array, NaN, a bigint, a
  // toJSON method) is refused, so that txfx reads what the caller holds and nothing else.
  function documentText(value, what) {
    if (typeof value === 'string') return value;
    if (value instanceof Uint8Array) return documentBytes(value);
    if (value instanceof String) throw typeError(`${what}: a String object; pass the string itself (${what}.valueOf())`);
    if (value === null || typeof value !== 'object') {
      throw typeError(`${what}: expected JSON text or a parsed JSON document, got ${describe(value)}`);
    }
    if (!Array.isArray(value) && !isPlainObject(value)) {
      throw typeError(`${what}: ${describe(value)} is not a parsed JSON document (JSON text, or what JSON.parse gives)`);
    }
    let text;
    try {
      text = JSON.stringify(value, function plainOnly(key, converted) {
        const original = this[key];
        const where = key === '' ? what : `${what}: ${JSON.stringify(key)}`;
        if (Array.isArray(this) && !(key in this)) throw typeError(`${where}: a hole in an array`);
        if (original !== null && typeof original === 'object' && !Array.isArray(original) && !isPlainObject(original)) {
          throw typeError(`${where}: ${describe(original)} is not JSON (JSON.stringify would change it)`);
        }
        if (original !== null && typeof original === 'object' && typeof original.toJSON === 'function') {
          throw typeError(`${where}: an object with a toJSON method is not JSON`);
        }
        if (typeof original === 'number' && !Number.isFinite(original)) throw typeError(`${where}: ${original} is not a JSON number`);
        if (original === undefined && Array.isArray(this)) throw typeError(`${where}: undefined in an array is not JSON`);
        if (typeof original === 'bigint' || typeof original === 'function' || typeof original === 'symbol') {
          throw typeError(`${where}: a ${typeof original} is not JSON`);
        }
        return converted;
      });
    } catch (error) {
      if (error instanceof TypeError && error.kind !== undefined) throw error;
      throw typeError(`${what}: not serializable as JSON (${error.message})`);
    }
    if (typeof text !== 'string') throw typeError(`${what}: JSON.stringify gives no text for it`);
    return text;
  }

  // A document given as bytes (a Uint8Array or a Buffer of UTF-8 JSON) goes to the engine as
  // bytes, undecoded: the engine reads them as UTF-8 and refuses bytes that are not (kind NotUtf8,
  // naming the offset). A view over a SharedArrayBuffer is copied first, so that no other thread
  // can change the bytes while txfx reads them.
  function documentBytes(bytes) {
    return typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer ? new Uint8Array(bytes) : bytes;
  }

  // Bytes as UTF-8 text, for a document that travels inside a verification's named arguments.
  // The runtime's decoder makes the text; bytes it refuses go to the engine, whose refusal (kind
  // NotUtf8, naming the offset of the first bad byte) is every document's.
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  function utf8Text(bytes, what) {
    try {
      return utf8.decode(bytes);
    } catch {
      return call(engine().utf8Text, what, bytes);
    }
  }

  // A verification's named arguments as one JSON object: a document given as bytes goes as its
  // text (read from the holder: a Buffer's toJSON has already replaced `value`).
  function namedCall(args) {
    return JSON.stringify(args, function bytesAsText(key, value) {
      return this[key] instanceof Uint8Array ? utf8Text(this[key], key) : value;
    });
  }

  function blockNumber(value, what) {
    if (value === undefined) return undefined;
    if (typeof value === 'bigint') {
      if (value < 0n || value > 0xffffffffn) throw rangeError(`${what}: ${value} is not a block number (an integer from 0 to 2^32 - 1)`);
      value = Number(value);
    }
    if (typeof value !== 'number') throw typeError(`${what}: expected a number, got ${describe(value)}`);
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw rangeError(`${what}: ${value} is not a block number (an integer from 0 to 2^32 - 1)`);
    }
    return value;
  }

  // Which tx of a block: {index} (its position in the block) or {txHash}. Two bare forms remain,
  // deprecated, because each can mean one thing only: a number is an index, a 0x-hex string a
  // hash. Any other bare value (a bigint, decimal digits, bytes, an Fr) could be read either way
  // and is refused. The engine reads decimal digits as an index and 0x-hex as a hash.
  function txSelector(tx) {
    if (isPlainObject(tx)) {
      const keys = Object.keys(tx).filter((key) => tx[key] !== undefined);
      if (keys.length !== 1 || (keys[0] !== 'index' && keys[0] !== 'txHash')) {
        throw typeError(`tx: give {index} or {txHash}, one of them; got keys ${JSON.stringify(keys)}`);
      }
      if (keys[0] === 'index') return txIndex(tx.index, 'tx.index');
      return hexField(tx.txHash, 'tx.txHash');
    }
    if (typeof tx === 'number') return txIndex(tx, 'tx');
    if (typeof tx === 'string' && tx.startsWith('0x')) return tx;
    throw typeError(`tx: ${describe(tx)} could be an index or a hash; write {index: n} or {txHash: h}`);
  }

  function txIndex(value, what) {
    if (typeof value === 'bigint') {
      if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw rangeError(`${what}: ${value} is not a tx index`);
      return value.toString();
    }
    if (typeof value !== 'number') throw typeError(`${what}: expected a number, got ${describe(value)}`);
    if (!Number.isSafeInteger(value) || value < 0) throw rangeError(`${what}: ${value} is not a tx index (a safe integer >= 0)`);
    return String(value);
  }

  // A protocol's name: "v6" (the default, Aztec as deployed), "azip-26" or "pre-azip-26".
  function protocol(value) {
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw typeError(`protocol: expected "v6", "azip-26" or "pre-azip-26", got ${describe(value)}`);
    return value;
  }

  // The options a document-reading call takes: {protocol?}.
  function readOptions(options, what) {
    if (options === undefined) return undefined;
    if (!isPlainObject(options)) throw typeError(`${what}: options are a plain object {protocol?}, got ${describe(options)}`);
    onlyKeys(options, ['protocol'], `${what} options`);
    return protocol(options.protocol);
  }

  // An options object whose keys must all be known: a misspelt key (`expect` for `expected`) would
  // otherwise drop a check the caller believes is made.
  function onlyKeys(value, known, what) {
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) throw typeError(`${what}.${key}: unknown; expected ${known.join(', ')}`);
    }
  }

  // The caller's expectations: a plain object whose keys are all known and none null (a null, an
  // array or an instance would otherwise read as "expect nothing" and drop a check).
  function expectations(expected) {
    if (expected === undefined) return undefined;
    if (!isPlainObject(expected)) throw typeError(`expected: a plain object {blockNumber?, blockHash?, txHash?}, got ${describe(expected)}`);
    onlyKeys(expected, ['blockNumber', 'blockHash', 'txHash'], 'expected');
    for (const key of Object.keys(expected)) {
      if (expected[key] === null) throw typeError(`expected.${key}: null; leave the key out to expect nothing of it`);
    }
    // JSON.stringify drops the keys left undefined.
    return JSON.stringify({
      blockNumber: blockNumber(expected.blockNumber, 'expected.blockNumber'),
      blockHash: expected.blockHash === undefined ? undefined : hexField(expected.blockHash, 'expected.blockHash'),
      txHash: expected.txHash === undefined ? undefined : hexField(expected.txHash, 'expected.txHash'),
    });
  }

  // The subject of a verification: exactly one of {leaf}, {txHash, categoriesHash?}, {effect},
  // {categoryProof}.
  function subject(value) {
    if (value === null || typeof value !== 'object') {
      throw typeError(`subject: expected {leaf}, {txHash, categoriesHash?}, {effect} or {categoryProof}, got ${describe(value)}`);
    }
    const keys = Object.keys(value).filter((key) => value[key] !== undefined);
    const main = keys.filter((key) => key !== 'categoriesHash');
    if (main.length !== 1 || (keys.includes('categoriesHash') && main[0] !== 'txHash')) {
      throw typeError(`subject: give exactly one of leaf, txHash (with categoriesHash if you have it), effect or categoryProof; got keys ${JSON.stringify(keys)}`);
    }
    const kind = main[0];
    switch (kind) {
      case 'leaf':
        return [kind, field(value.leaf, 'subject.leaf'), undefined];
      case 'txHash':
        return [kind, field(value.txHash, 'subject.txHash'), value.categoriesHash === undefined ? undefined : field(value.categoriesHash, 'subject.categoriesHash')];
      case 'effect':
        return [kind, documentText(value.effect, 'subject.effect'), undefined];
      case 'categoryProof':
        return [kind, documentText(value.categoryProof, 'subject.categoryProof'), undefined];
      default:
        throw typeError(`subject.${kind}: unknown; expected leaf, txHash, effect or categoryProof`);
    }
  }

  function describe(value) {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    if (value instanceof Uint8Array) return `a ${value.length}-byte Uint8Array`;
    if (typeof value === 'object') {
      const name = value.constructor && value.constructor.name;
      return name && name !== 'Object' ? `a ${name}` : 'an object';
    }
    return `a ${typeof value}`;
  }

  // ---- errors out ----

  // An engine throws an Error whose `class`, `kind` and (for a refutation) `link` are properties
  // beside a message that is human text only (the addon builds it so, js/wasm.mjs from the
  // module's failure record, txfx/worker from the record the worker posts). Here it becomes the
  // documented subclass of TxfxError: Malformed input a MalformedError (a TypeError), a value out
  // of range an OutOfRangeError (a RangeError), and so on. Any other error passes unchanged.
  function translate(error) {
    if (error instanceof TxfxError) return error;
    if (error instanceof Error && typeof error.class === 'string' && typeof error.kind === 'string') {
      return txfxError(error.class, error.message, error.kind, typeof error.link === 'string' ? error.link : undefined);
    }
    return error;
  }

  function call(fn, ...args) {
    try {
      return fn(...args);
    } catch (error) {
      throw translate(error);
    }
  }

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

  // ---- from a node and L1: the node walk (txfx-walk, in the engine) over the runtime's fetch ----

  // An endpoint URL as it may be shown: no userinfo, no query values, no key-like path segment
  // (the engine's, which is the Rust client's and the CLI's `redact_url`: hosted providers put
  // keys there).
  function redactUrl(url) {
    return call(engine().redactUrl, String(url));
  }

  // An Error of class Transport: the endpoint gave no usable answer (the CLI's exit 4). Its kind
  // is the walk's (`Transport/Timeout`, `Transport/TooLarge`, ...).
  function transportError(where, problem, message) {
    return new TransportError(`${where}: ${message}`, `Transport/${problem}`);
  }

  // `promise`, or a rejection once the deadline passes or the caller aborts, whichever is first:
  // the deadline holds on every await whatever the runtime's fetch does with its signal.
  function bounded(promise, deadline, signal, onLate) {
    let timer;
    let onAbort;
    const late = new Promise((_, reject) => {
      timer = setTimeout(() => reject(onLate('Timeout')), Math.max(0, deadline - Date.now()));
      if (signal) {
        onAbort = () => reject(signal.reason ?? onLate('Aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    return Promise.race([promise, late]).finally(() => {
      clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
    });
  }

  // POST body as JSON to url; the status and the text, read up to maxBytes and no further,
  // before the deadline. Redirects are refused: an answer must come from the URL given. The
  // status is the walk's to judge.
  async function post(fetchFn, url, request, deadline, timeoutMs, signal) {
    const where = `${request.target === 'node' ? 'node' : 'L1'} at ${redactUrl(url)}`;
    const maxBytes = request.maxBytes;
    // The runtime's own words may quote the URL: never with its secrets.
    const shown = redactUrl(url);
    const fail = (problem, message) => transportError(where, problem, String(message).split(url).join(shown));
    const late = (problem) => fail(problem, problem === 'Timeout' ? `no answer within the walk's ${timeoutMs} ms` : 'aborted by the caller');
    if (deadline - Date.now() <= 0) throw late('Timeout');
    const controller = new AbortController();
    const stop = () => controller.abort();
    if (signal) signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, Math.max(0, deadline - Date.now()));
    let reader;
    try {
      let response;
      try {
        response = await bounded(fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.body, redirect: 'error', signal: controller.signal }), deadline, signal, late);
      } catch (error) {
        if (error?.txfxClass === 'Transport' || (signal?.aborted && error === signal.reason)) throw error;
        throw fail('Connection', controller.signal.aborted ? 'the request was cut off' : `${error?.message ?? error}${error?.cause ? ` (${error.cause.message ?? error.cause})` : ''}`);
      }
      const status = response?.status;
      if (!Number.isInteger(status) || status < 100 || status > 999) {
        response?.body?.cancel?.().catch(() => {});
        throw fail('Connection', `the fetch gave no HTTP status (${describe(status)})`);
      }
      const declared = Number(response.headers?.get?.('content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.body?.cancel?.().catch(() => {});
        throw fail('TooLarge', `the answer declares ${declared} bytes, more than the ${maxBytes} a valid answer to it takes`);
      }
      const chunks = [];
      let received = 0;
      if (response.body) {
        reader = response.body.getReader();
        for (;;) {
          let part;
          try {
            part = await bounded(reader.read(), deadline, signal, late);
          } catch (error) {
            if (error?.txfxClass === 'Transport' || (signal?.aborted && error === signal.reason)) throw error;
            throw fail('Connection', error?.message ?? String(error));
          }
          if (part.done) break;
          received += part.value.length;
          if (received > maxBytes) throw fail('TooLarge', `the answer is longer than ${maxBytes} bytes, the most a valid answer to it takes; reading stopped there`);
          chunks.push(part.value);
        }
        reader = undefined;
      }
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      let text;
      try {
        // A byte-order mark stays in the text, where the engine refuses it as the CLI does.
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        throw fail('NotText', 'the answer is not UTF-8 text');
      }
      return { status, text };
    } finally {
      clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', stop);
      // A refused or late answer's body is cancelled, never left pending.
      if (reader) reader.cancel().catch(() => {});
      controller.abort();
    }
  }

  const WALK_KEYS = ['node', 'l1Rpc', 'rollup', 'l1Block', 'archiveRoot', 'txHash', 'category', 'element', 'role', 'expected', 'network', 'genesisArchiveRoot', 'namespace', 'timeoutMs', 'fetch', 'signal'];

  // The walk's deadline as the engine takes it: a number's decimal text (so that NaN cannot
  // become JSON's null, which would read as "the default"); the engine holds it to the walk's
  // limits.
  function walkTimeout(value) {
    if (value === undefined) return undefined;
    if (typeof value !== 'number') throw rangeError(`timeoutMs: ${describe(value)} is not a number of milliseconds`);
    return String(value);
  }

  // The engine a walk started on, and whether it is still the same instance: a WASM engine that
  // trapped was replaced, and its walks went with it (a walk id of the old instance must never
  // reach a new walk of another caller).
  const instanceOf = (running) => running[ENGINE_INTERNALS]?.restarts?.() ?? 0;

  // Proves a tx from an Aztec v6 node's and an L1 node's answers: the CLI's
  // `txfx verify tx --node`. Resolves with the verdict, or {valid: false, link, reason} when a
  // node lies or the tx cannot be proven yet; rejects with a TypeError for bad options and an
  // Error of class "Transport" when an endpoint gives no usable answer.
  async function verifyTxFromNode(options) {
    if (!isPlainObject(options)) throw typeError('verifyTxFromNode: expected {node, txHash, l1Rpc, rollup | archiveRoot, ...}');
    onlyKeys(options, WALK_KEYS, 'verifyTxFromNode');
    const url = (value, what) => {
      if (typeof value !== 'string' || !/^https?:\/\/[^/?#]/i.test(value)) throw typeError(`${what}: expected an http(s) URL, got ${typeof value === 'string' ? JSON.stringify(redactUrl(value)) : describe(value)}`);
      return value;
    };
    const node = url(options.node, 'node');
    if ((options.rollup === undefined) === (options.archiveRoot === undefined)) {
      throw typeError('verifyTxFromNode: give rollup (with l1Rpc) or archiveRoot, one of them');
    }
    const l1 = options.rollup === undefined ? undefined : url(options.l1Rpc, 'l1Rpc');
    const fetchFn = options.fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw typeError('verifyTxFromNode: no fetch in this runtime: pass options.fetch');
    const signal = options.signal;
    if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
      throw typeError(`signal: expected an AbortSignal, got ${describe(signal)}`);
    }
    const text = (value, what) => (value === undefined ? undefined : typeof value === 'string' ? value : (() => { throw typeError(`${what}: expected a string, got ${describe(value)}`); })());
    const params = {
      txHash: field(options.txHash, 'txHash'),
      rollup: text(options.rollup, 'rollup'),
      l1Block: options.l1Block === undefined ? undefined : String(options.l1Block),
      archiveRoot: options.archiveRoot === undefined ? undefined : field(options.archiveRoot, 'archiveRoot'),
      category: text(options.category, 'category'),
      element: options.element === undefined ? undefined : field(options.element, 'element'),
      role: text(options.role, 'role'),
      expected: options.expected === undefined ? undefined : JSON.parse(expectations(options.expected)),
      // A built-in network's name, or a network's genesis values as `txfx networks` prints one.
      network: options.network !== null && typeof options.network === 'object' && !Array.isArray(options.network)
        ? options.network
        : text(options.network, 'network'),
      genesisArchiveRoot: options.genesisArchiveRoot === undefined ? undefined : field(options.genesisArchiveRoot, 'genesisArchiveRoot'),
      namespace: text(options.namespace, 'namespace'),
      timeoutMs: walkTimeout(options.timeoutMs),
    };
    if (signal?.aborted) throw signal.reason;
    const running = engine();
    const instance = instanceOf(running);
    const started = JSON.parse(call(running.nodeWalkStart, JSON.stringify(params)));
    let done = false;
    try {
      // The walk's deadline, as the engine read it from the options (its default if none).
      const { timeoutMs } = started;
      const deadline = Date.now() + timeoutMs;
      let request = started.request;
      for (;;) {
        const answer = await post(fetchFn, request.target === 'node' ? node : l1, request, deadline, timeoutMs, signal);
        if (instanceOf(running) !== instance) {
          done = true;
          throw new BackendError('verifyTxFromNode: the WASM engine was restarted after a trap, and the walk went with it; ask again', 'WalkLost');
        }
        let next;
        try {
          next = JSON.parse(running.nodeWalkStep(started.walk, answer.status, answer.text));
        } catch (error) {
          done = true;
          const out = translate(error);
          if (out.txfxClass === 'Refuted') return { valid: false, link: out.link ?? 'document', reason: out.message };
          if (out.txfxClass === 'Transport') out.message = `${request.target === 'node' ? 'node' : 'L1'} at ${redactUrl(request.target === 'node' ? node : l1)}: ${out.message}`;
          throw out;
        }
        if (next.verdict) {
          done = true;
          return next.verdict;
        }
        request = next.request;
      }
    } finally {
      if (!done && instanceOf(running) === instance) running.nodeWalkDrop(started.walk);
    }
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

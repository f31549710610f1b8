// The API's values in: every form a TypeScript caller holds (field elements, documents, a tx
// selector, options) written as the text the engine reads. Nothing here restates a rule of the
// engine's: what has a textual form is passed on for the engine to judge, and what is refused
// here has none (a negative bigint, a Map where a document goes, an unknown option's key).
//
// `createConvert(engine)` gives the converters over an engine (`engine()` returns the loaded
// one): a few ask it (a field element as hex, bytes that are not UTF-8).
import { MalformedError, OutOfRangeError, call } from './errors.mjs';

export function createConvert(engine) {
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
    // A bigint (an Fr's too) is written as hex directly, and 0x-hex text passes as given: the
    // engine checks both where they are read. Only decimal text needs the engine's reading, which
    // txfx/worker's calling thread, whose engine is in the worker, cannot make synchronously.
    const big = typeof value === 'bigint' ? value : value !== null && typeof value === 'object' && typeof value.toBigInt === 'function' ? value.toBigInt() : undefined;
    if (typeof big === 'bigint') {
      if (big < 0n) throw rangeError(`${what}: ${big} is negative; a field element is 0 <= x < p`);
      return `0x${big.toString(16)}`;
    }
    const text = field(value, what);
    return text.startsWith('0x') ? text : call(engine().fieldHex, what, text);
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

  return { typeError, rangeError, isPlainObject, describe, field, fields, hexField, documentText, namedCall, blockNumber, txSelector, protocol, readOptions, onlyKeys, expectations, subject };
}

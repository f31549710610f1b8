'use strict';
// The txfx API over an engine (the Node addon or the WASM build, which export the same functions
// of the Rust crate txfx-js-edge): every conversion of values in, every translation of errors
// out. Each entry (index.js for Node, browser.mjs for browsers) builds it once with its engine.
//
// `engine()` returns the loaded engine, or throws if it is not ready (the browser build before
// `init`): a call never runs on a half-initialised module.

function createApi(engine) {
  const FIELD_MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

  // ---- values in ----

  // A TypeError of the JavaScript side's own checks, with a kind as the engine's errors have.
  function typeError(message, kind = 'Argument') {
    const error = new TypeError(message);
    error.kind = kind;
    error.txfxClass = 'Malformed';
    return error;
  }

  function rangeError(message, kind = 'Argument') {
    const error = new RangeError(message);
    error.kind = kind;
    error.txfxClass = 'OutOfRange';
    return error;
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

  // A field element as 0x-hex: a string is passed on (txfx checks its digits and its range), a
  // bigint or a 32-byte big-endian Uint8Array is checked here.
  function field(value, what) {
    if (typeof value === 'string') return value;
    if (typeof value === 'bigint') {
      if (value < 0n || value >= FIELD_MODULUS) {
        throw rangeError(`${what}: ${value} is not a field element (0 <= x < p)`);
      }
      return `0x${value.toString(16).padStart(64, '0')}`;
    }
    if (value instanceof Uint8Array) {
      if (value.length !== 32) throw rangeError(`${what}: ${value.length} bytes; a field element is 32 (big-endian)`);
      return hexOfBytes(value);
    }
    throw typeError(`${what}: expected a 0x-hex string, a bigint or a 32-byte Uint8Array, got ${describe(value)}`);
  }

  function fields(values, what) {
    if (!Array.isArray(values)) throw typeError(`${what}: expected an array of field elements, got ${describe(values)}`);
    const out = new Array(values.length);
    for (let i = 0; i < values.length; i += 1) {
      if (!(i in values)) throw typeError(`${what}[${i}]: a hole in the array; every element must be a field element`);
      out[i] = field(values[i], `${what}[${i}]`);
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

  function txSelector(tx) {
    if (typeof tx === 'number') {
      if (!Number.isSafeInteger(tx) || tx < 0) throw rangeError(`tx: ${tx} is not a tx index`);
      return String(tx);
    }
    if (typeof tx === 'string' && /^[0-9]+$/.test(tx)) return tx;
    return field(tx, 'tx');
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
      blockHash: expected.blockHash === undefined ? undefined : field(expected.blockHash, 'expected.blockHash'),
      txHash: expected.txHash === undefined ? undefined : field(expected.txHash, 'expected.txHash'),
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

  // The engine throws an Error whose message is {"class", "kind", "message", "link"?}: Malformed
  // input becomes a TypeError, a value out of range a RangeError, a backend failure an Error; each
  // carries `kind` (txfx's error kind) and `txfxClass`.
  function translate(error) {
    let info;
    try {
      info = JSON.parse(error.message);
    } catch {
      return error;
    }
    if (info === null || typeof info !== 'object' || typeof info.class !== 'string') return error;
    const Kind = info.class === 'Malformed' ? TypeError : info.class === 'OutOfRange' ? RangeError : Error;
    const out = new Kind(info.message);
    out.kind = info.kind;
    out.txfxClass = info.class;
    if (info.link !== undefined) out.link = info.link;
    return out;
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

  function poseidon2Permutation(state) {
    return call(engine().poseidon2Permutation, fields(state, 'state'));
  }

  function poseidon2Hash(inputs) {
    return call(engine().poseidon2Hash, fields(inputs, 'inputs'));
  }

  function poseidon2HashWithSeparator(inputs, separator) {
    if (!Number.isInteger(separator) || separator < 0 || separator > 0xffffffff) {
      throw rangeError(`separator: ${separator} is not a u32 domain separator`);
    }
    return call(engine().poseidon2HashWithSeparator, fields(inputs, 'inputs'), separator);
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
    return verdict(engine().verifyTxEffectMembershipWitness, documentText(witness, 'witness'), kind, value, categoriesHash, field(trustedRoot, 'trustedRoot'), expectations(expected), readOptions(options, 'verifyTxEffectMembershipWitness'));
  }

  function verifyTx(chain) {
    if (!isPlainObject(chain)) throw typeError('verifyTx: expected {archiveRoot, archiveWitness, header, witness, subject, expected?, protocol?}');
    onlyKeys(chain, ['archiveRoot', 'archiveWitness', 'header', 'witness', 'subject', 'expected', 'protocol'], 'verifyTx');
    const [kind, value, categoriesHash] = subject(chain.subject);
    // The engine takes the chain's arguments by name, one JSON object (JSON.stringify drops the
    // keys left undefined): nine strings in a row could be passed in the wrong order and still read.
    return verdict(engine().verifyTx, JSON.stringify({
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
    return verdict(
      engine().verifyArchive,
      field(archive.archiveRoot, 'archiveRoot'),
      documentText(archive.archiveWitness, 'archiveWitness'),
      archive.header === undefined ? undefined : documentText(archive.header, 'header'),
      archive.blockHash === undefined ? undefined : field(archive.blockHash, 'blockHash'),
      expectations(archive.expected),
      protocol(archive.protocol),
    );
  }

  // The protocol as blockHeaderHash takes it: its name, or {protocol}.
  function headerProtocol(given) {
    return typeof given === 'string' ? protocol(given) : readOptions(given, 'blockHeaderHash');
  }

  function blockHeaderHash(header, options) {
    return call(engine().blockHeaderHash, documentText(header, 'header'), headerProtocol(options));
  }

  function decodeCheckpoint(blobFields, options) {
    const text = typeof blobFields === 'string' ? blobFields : JSON.stringify(fields(blobFields, 'fields'));
    return JSON.parse(call(engine().decodeCheckpoint, text, readOptions(options, 'decodeCheckpoint')));
  }

  function encodeBlobFields(effectOrBody, options) {
    return call(engine().encodeBlobFields, documentText(effectOrBody, 'effectOrBody'), readOptions(options, 'encodeBlobFields'));
  }

  // ---- off the event loop: the Node addon runs the same work on txfx's background pool and settles a
  // promise; the WASM engine has no threads, so there the promise settles with the synchronous
  // call's result, computed on the calling thread after the current task ----

  async function offLoop(name, ...args) {
    const running = engine();
    try {
      if (typeof running[`${name}Async`] === 'function') return await running[`${name}Async`](...args);
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

  // POST body as JSON to url; the status and the text, read up to maxBytes and no further,
  // before the deadline. Redirects are refused: an answer must come from the URL given.
  async function post(fetchFn, url, body, deadline, maxBytes, target) {
    const transport = (message) => {
      const error = new Error(`${target} at ${url}: ${message}`);
      error.kind = 'Transport';
      error.txfxClass = 'Transport';
      return error;
    };
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw transport('no answer within the walk\'s deadline');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), remaining);
    try {
      let response;
      try {
        response = await fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, redirect: 'error', signal: controller.signal });
      } catch (error) {
        throw transport(controller.signal.aborted ? 'no answer within the walk\'s deadline' : `${error.message}${error.cause ? ` (${error.cause.message ?? error.cause})` : ''}`);
      }
      const length = Number(response.headers.get('content-length'));
      if (Number.isFinite(length) && length > maxBytes) throw transport(`the answer is longer than ${maxBytes} bytes`);
      const chunks = [];
      let received = 0;
      if (response.body) {
        const reader = response.body.getReader();
        for (;;) {
          let part;
          try {
            part = await reader.read();
          } catch (error) {
            throw transport(controller.signal.aborted ? 'no answer within the walk\'s deadline' : error.message);
          }
          if (part.done) break;
          received += part.value.length;
          if (received > maxBytes) {
            controller.abort();
            throw transport(`the answer is longer than ${maxBytes} bytes; reading stopped there`);
          }
          chunks.push(part.value);
        }
      }
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      let text;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw transport('the answer is not UTF-8 text');
      }
      return { status: response.status, text };
    } finally {
      clearTimeout(timer);
    }
  }

  const WALK_KEYS = ['node', 'l1Rpc', 'rollup', 'l1Block', 'archiveRoot', 'txHash', 'category', 'element', 'role', 'expected', 'network', 'genesisArchiveRoot', 'namespace', 'timeoutMs', 'maxAnswerBytes', 'fetch'];

  // Proves a tx from an Aztec v6 node's and an L1 node's answers: the CLI's
  // `txfx verify tx --node`. Resolves with the verdict, or {valid: false, link, reason} when a
  // node lies or the tx cannot be proven yet; rejects with a TypeError for bad options and an
  // Error of kind "Transport" when an endpoint gives no usable answer.
  async function verifyTxFromNode(options) {
    if (!isPlainObject(options)) throw typeError('verifyTxFromNode: expected {node, txHash, l1Rpc, rollup | archiveRoot, ...}');
    onlyKeys(options, WALK_KEYS, 'verifyTxFromNode');
    const url = (value, what) => {
      if (typeof value !== 'string' || !/^https?:\/\//.test(value)) throw typeError(`${what}: expected an http(s) URL, got ${describe(value)}`);
      return value;
    };
    const node = url(options.node, 'node');
    if ((options.rollup === undefined) === (options.archiveRoot === undefined)) {
      throw typeError('verifyTxFromNode: give rollup (with l1Rpc) or archiveRoot, one of them');
    }
    const l1 = options.rollup === undefined ? undefined : url(options.l1Rpc, 'l1Rpc');
    const fetchFn = options.fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw typeError('verifyTxFromNode: no fetch in this runtime: pass options.fetch');
    const timeoutMs = options.timeoutMs ?? 60_000;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw rangeError(`timeoutMs: ${timeoutMs} is not a positive number of milliseconds`);
    const maxBytes = options.maxAnswerBytes ?? 256 * 1024 * 1024;
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw rangeError(`maxAnswerBytes: ${maxBytes} is not a positive number of bytes`);
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
    };
    const running = engine();
    const started = JSON.parse(call(running.nodeWalkStart, JSON.stringify(params)));
    const deadline = Date.now() + timeoutMs;
    let done = false;
    try {
      let request = started.request;
      for (let asked = 0; asked < 20; asked += 1) {
        const target = request.target === 'node' ? 'node' : 'L1';
        const answer = await post(fetchFn, request.target === 'node' ? node : l1, request.body, deadline, maxBytes, target);
        let next;
        try {
          next = JSON.parse(running.nodeWalkStep(started.walk, answer.status, answer.text));
        } catch (error) {
          done = true;
          const out = translate(error);
          if (out.txfxClass === 'Refuted') return { valid: false, link: out.link ?? 'document', reason: out.message };
          throw out;
        }
        if (next.verdict) {
          done = true;
          return next.verdict;
        }
        request = next.request;
      }
      const error = new Error('verifyTxFromNode: the walk asked more than 20 requests');
      error.kind = 'Transport';
      throw error;
    } finally {
      if (!done) running.nodeWalkDrop(started.walk);
    }
  }

  return {
    verifyTxFromNode,
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
    blockHeaderHash,
    decodeCheckpoint,
    encodeBlobFields,
    txEffectCommitmentAsync,
    txEffectLeafAsync,
    txEffectsTreeRootAsync,
    txEffectLeavesAsync,
    txEffectMembershipWitnessAsync,
  };
}

module.exports = { createApi };

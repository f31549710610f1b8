// The node walk's driver: `verifyTxFromNode` runs txfx-walk (held by the engine) over the
// runtime's `fetch`, moving each request and its answer, within the walk's deadline on every
// await and the byte bound of each request's answer, honouring an AbortSignal, refusing
// redirects. What to ask, how much to read and what an answer proves are the walk's.
//
// `createWalk(engine, convert)` gives `verifyTxFromNode` over an engine and the API's converters.
import { BackendError, TransportError, call, translate } from './errors.mjs';
import { ENGINE_INTERNALS } from './wasm.mjs';

export function createWalk(engine, convert) {
  const { typeError, isPlainObject, describe, field, expectations, onlyKeys, rangeError } = convert;

  // ---- from a node and L1: the node walk (txfx-walk, in the engine) over the runtime's fetch ----

  // Engine operation `name` on `running`: its `…Async` form where the engine has one (the
  // addon's pool for a step; every operation of txfx/worker, whose engine is another thread's),
  // else the synchronous one. Either way a promise, rejecting with the documented classes.
  async function op(running, name, ...args) {
    const asynchronous = running[`${name}Async`];
    try {
      return typeof asynchronous === 'function' ? await asynchronous(...args) : call(running[name], ...args);
    } catch (error) {
      throw translate(error);
    }
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
      // An abort that came before this await is as good as one during it.
      if (signal?.aborted) return reject(signal.reason ?? onLate('Aborted'));
      timer = setTimeout(() => reject(onLate('Timeout')), Math.max(0, deadline - Date.now()));
      if (signal) {
        onAbort = () => reject(signal.reason ?? onLate('Aborted'));
        signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    // `late` first: when both have settled (an abort that errored the fetch's stream as well), the
    // caller's abort is what the walk ends with.
    return Promise.race([late, promise]).finally(() => {
      clearTimeout(timer);
      if (signal) signal.removeEventListener('abort', onAbort);
    });
  }

  // POST body as JSON to url (shown as `shown`, its redacted form); the status and the text,
  // read up to maxBytes and no further, before the deadline. Redirects are refused: an answer
  // must come from the URL given. The status is the walk's to judge.
  async function post(fetchFn, { url, shown, where }, request, deadline, timeoutMs, signal) {
    const maxBytes = request.maxBytes;
    // The runtime's own words may quote the URL: never with its secrets.
    const fail = (problem, message) => transportError(where, problem, String(message).split(url).join(shown));
    const late = (problem) => fail(problem, problem === 'Timeout' ? `no answer within the walk's ${timeoutMs} ms` : 'aborted by the caller');
    // Nothing is sent once the caller has aborted or the deadline has passed.
    if (signal?.aborted) throw signal.reason ?? late('Aborted');
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
        if (signal?.aborted) throw signal.reason ?? late('Aborted');
        if (error?.txfxClass === 'Transport') throw error;
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
            // The caller's abort also errors the stream: the abort is what happened.
            if (signal?.aborted) throw signal.reason ?? late('Aborted');
            if (error?.txfxClass === 'Transport') throw error;
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

  const WALK_KEYS = ['node', 'l1Rpc', 'rollup', 'registry', 'l1Block', 'archiveRoot', 'txHash', 'category', 'element', 'role', 'expected', 'network', 'genesisArchiveRoot', 'namespace', 'timeoutMs', 'fetch', 'signal'];

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
    // A URL is a string; whether it is an http(s) URL with a host is the engine's rule.
    const url = (value, what) => {
      if (typeof value !== 'string') throw typeError(`${what}: expected an http(s) URL, got ${describe(value)}`);
      return value;
    };
    const node = url(options.node, 'node');
    // Which anchor follows from rollup, registry, archiveRoot and network is the engine's rule.
    const l1 = options.l1Rpc === undefined ? undefined : url(options.l1Rpc, 'l1Rpc');
    const fetchFn = options.fetch ?? globalThis.fetch;
    if (typeof fetchFn !== 'function') throw typeError('verifyTxFromNode: no fetch in this runtime: pass options.fetch');
    const signal = options.signal;
    if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
      throw typeError(`signal: expected an AbortSignal, got ${describe(signal)}`);
    }
    const text = (value, what) => (value === undefined ? undefined : typeof value === 'string' ? value : (() => { throw typeError(`${what}: expected a string, got ${describe(value)}`); })());
    const params = {
      txHash: field(options.txHash, 'txHash'),
      node,
      l1Rpc: l1,
      rollup: text(options.rollup, 'rollup'),
      registry: text(options.registry, 'registry'),
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
    // Each endpoint as its messages name it, redacted once (by the engine's rule: the Rust
    // client's and the CLI's `redact_url`, since hosted providers put keys in URLs).
    const endpoint = async (url, who) => {
      if (url === undefined) return undefined;
      const shown = await op(running, 'redactUrl', url);
      return { url, shown, where: `${who} at ${shown}` };
    };
    const endpoints = { node: await endpoint(node, 'node'), l1: await endpoint(l1, 'L1') };
    const started = JSON.parse(await op(running, 'nodeWalkStart', JSON.stringify(params)));
    // The step in flight, until it settles. A step abandoned to a deadline or an abort still
    // runs to its end in the engine (on the addon's pool, or in the worker): the walk is dropped
    // once it settles, so no slot leaks.
    let stepping;
    let done = false;
    try {
      // The walk's deadline, as the engine read it from the options (its default if none).
      const { timeoutMs } = started;
      const deadline = Date.now() + timeoutMs;
      let request = started.request;
      for (;;) {
        const to = request.target === 'node' ? endpoints.node : endpoints.l1;
        const answer = await post(fetchFn, to, request, deadline, timeoutMs, signal);
        if (instanceOf(running) !== instance) {
          done = true;
          throw new BackendError('verifyTxFromNode: the WASM engine was restarted after a trap, and the walk went with it; ask again', 'WalkLost');
        }
        let next;
        stepping = op(running, 'nodeWalkStep', started.walk, answer.status, answer.text).finally(() => {
          stepping = undefined;
        });
        try {
          // The addon hashes the answer on its background pool and txfx/worker in its worker;
          // the main entry's WASM build has no threads and steps on the calling thread.
          next = JSON.parse(await bounded(stepping, deadline, signal, (problem) => transportError(
            'verifyTxFromNode',
            problem,
            problem === 'Timeout' ? `the walk's ${timeoutMs} ms passed while the engine checked an answer` : 'aborted by the caller',
          )));
        } catch (error) {
          // Given up on (the deadline, an abort) while the engine still steps: dropped once it ends.
          if (stepping !== undefined) throw error;
          done = true;
          if (error?.txfxClass === 'Refuted') return { valid: false, link: error.link ?? 'document', reason: error.message };
          if (error?.txfxClass === 'Transport') error.message = `${to.where}: ${error.message}`;
          throw error;
        }
        if (next.verdict) {
          done = true;
          return next.verdict;
        }
        request = next.request;
      }
    } finally {
      if (!done && instanceOf(running) === instance) {
        const drop = () => op(running, 'nodeWalkDrop', started.walk).catch(() => {});
        if (stepping === undefined) drop();
        else stepping.then(drop, drop);
      }
    }
  }

  return verifyTxFromNode;
}

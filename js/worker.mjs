// txfx/worker: the WASM engine in a module worker, for browsers, so that the page's thread never
// runs a hash. The caller's values are converted here (api.mjs, the same conversion and the same
// errors as every entry); the work crosses to worker-thread.mjs and its answer or its error comes
// back as a promise: a TypeError, RangeError or Error with `kind` and `txfxClass`.
//
//   import { init, txEffectsTreeRootAsync } from 'txfx/worker';
//   await init();                      // starts the worker and loads the module there
//   const root = await txEffectsTreeRootAsync(body);
//
// `init(input?, { workerUrl? })`: `input` is what the main entry's init takes (the module's URL,
// a Request, a Response, its bytes or a WebAssembly.Module; by default dist/txfx.wasm beside
// this file). The worker is `new Worker(new URL('./worker-thread.mjs', import.meta.url),
// {type: 'module'})`, the form Vite and webpack 5 bundle; with esbuild (which does not) bundle
// `txfx/worker-thread` as an entry of its own and pass its URL as `workerUrl`.
// `verifyTxFromNode(options)` is the main entry's, with the walk held and each answer checked in
// the worker; the page's `fetch` (or options.fetch) sends.
// `terminate()` stops the worker: pending calls reject with kind `Terminated`, and so does every
// call until the next `init`. Calls before `init` has resolved reject with kind `NotInitialised`;
// a worker or module that does not load rejects `init` with kind `Load`.
import { createApi } from './api.mjs';
import { BackendError, MalformedError, txfxError } from './errors.mjs';

export { TxfxError, MalformedError, OutOfRangeError, RefutedError, BackendError, TransportError } from './errors.mjs';

let worker;
let starting;
let ready = false;
let terminated = false;
let nextId = 1;
const waiting = new Map();

function failure(message, kind) {
  return new BackendError(message, kind);
}

function argumentError(message) {
  return new MalformedError(message, 'Argument');
}

// Posts a message to the worker; settles with its answer.
function ask(message, transfer) {
  return new Promise((resolve, reject) => {
    // terminate() while init was reading its input: nothing to post to.
    if (worker === undefined) throw failure('txfx/worker: the worker was terminated', 'Terminated');
    const id = nextId;
    nextId += 1;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ ...message, id }, transfer ?? []);
  });
}

function answer({ data }) {
  const call = waiting.get(data.id);
  if (call === undefined) return;
  waiting.delete(data.id);
  // The failure record the worker posted: its class, kind and link, as the engine threw them.
  if (data.error !== undefined) {
    const { class: cls, kind, message, link } = data.error ?? {};
    call.reject(txfxError(String(cls), String(message), String(kind), link === undefined ? undefined : String(link)));
  }
  else call.resolve(data.value);
}

function stop(error) {
  if (worker !== undefined) worker.terminate();
  worker = undefined;
  starting = undefined;
  ready = false;
  for (const call of waiting.values()) call.reject(error);
  waiting.clear();
}

// The engine api.mjs runs over: every `…Async` operation is a message to the worker.
const remote = new Proxy(
  {},
  {
    get: (_, key) => (typeof key === 'string' && key.endsWith('Async') ? (...args) => ask({ type: 'call', name: key.slice(0, -'Async'.length), args }) : undefined),
  },
);

function engine() {
  if (ready) return remote;
  if (terminated) throw failure('txfx/worker: the worker was terminated; call `await init()` again to start a new one', 'Terminated');
  throw failure('txfx/worker: the worker is not initialised; call `await init()` before the first call', 'NotInitialised');
}

// What the worker is given to load: what it can be posted (a URL as an absolute string, bytes,
// a WebAssembly.Module); a Request or Response is read here, without blocking.
async function source(input) {
  if (input instanceof WebAssembly.Module || input instanceof ArrayBuffer || ArrayBuffer.isView(input)) return input;
  if (input instanceof Response) return new Uint8Array(await input.arrayBuffer());
  if (input instanceof Request) return source(await fetch(input));
  return new URL(String(input), globalThis.location && globalThis.location.href).href;
}

function start(options) {
  if (typeof Worker !== 'function') {
    throw failure('txfx/worker: this runtime has no Worker; txfx/worker is for browsers (in Node, import txfx: its …Async forms run on the addon\'s pool)', 'Load');
  }
  if (options.workerUrl !== undefined) return { spawned: new Worker(options.workerUrl, { type: 'module' }), url: String(options.workerUrl) };
  try {
    // The form Vite and webpack 5 recognise and bundle as a worker of its own.
    return { spawned: new Worker(new URL('./worker-thread.mjs', import.meta.url), { type: 'module' }), url: "txfx's worker-thread.mjs" };
  } catch (error) {
    if (!error || error.name !== 'SecurityError') throw error;
    // Loaded from another origin (a CDN): a worker's script must be same-origin, but a module
    // worker from a blob may import the script from there (the CDN serves it with CORS).
    const url = String(import.meta.url).replace(/[^/]*$/, 'worker-thread.mjs');
    const blob = new Blob([`import ${JSON.stringify(url)};\n`], { type: 'text/javascript' });
    return { spawned: new Worker(URL.createObjectURL(blob), { type: 'module' }), url };
  }
}

export function init(input, options) {
  if (starting !== undefined) return starting;
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    return Promise.reject(argumentError('init: options are {workerUrl?}'));
  }
  const given = options ?? {};
  for (const key of Object.keys(given)) {
    if (key !== 'workerUrl') return Promise.reject(argumentError(`init options.${key}: unknown; expected workerUrl`));
  }
  if (given.workerUrl !== undefined && typeof given.workerUrl !== 'string' && !(given.workerUrl instanceof URL)) {
    return Promise.reject(argumentError('init options.workerUrl: expected a URL or its string'));
  }
  const loading = (async () => {
    const { spawned, url } = start(given);
    worker = spawned;
    worker.addEventListener('message', answer);
    // A worker script that does not load (a 404, or a bundler that did not copy it) or throws.
    const broke = new Promise((_, reject) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        const said = event.message ? `: ${event.message}` : '';
        const error = failure(
          `txfx/worker: the worker ${url} did not start or stopped${said}; serve txfx's worker-thread.mjs (the export txfx/worker-thread, bundled as its own entry if your bundler does not) and pass its URL: init(wasmUrl, { workerUrl })`,
          ready ? 'Terminated' : 'Load',
        );
        if (ready) terminated = true;
        stop(error);
        reject(error);
      });
    });
    broke.catch(() => {});
    const wasm = input ?? new URL('./dist/txfx.wasm', import.meta.url);
    try {
      // The worker's own refusal of the module is said as a failure to load it; a worker that
      // broke or was terminated meanwhile says so itself.
      const loaded = ask({ type: 'init', source: await source(wasm) }).catch((error) => {
        throw error.kind === 'Terminated' ? error : failure(`txfx/worker: the WASM engine did not load: ${error.message}`, 'Load');
      });
      await Promise.race([loaded, broke]);
    } catch (error) {
      const out = error.kind === 'Load' || error.kind === 'Terminated' ? error : failure(`txfx/worker: the WASM engine did not load: ${error.message}`, 'Load');
      stop(out);
      throw out;
    }
    ready = true;
    terminated = false;
  })();
  starting = loading;
  loading.catch(() => {
    if (starting === loading) starting = undefined;
  });
  return loading;
}

export function terminate() {
  if (worker === undefined && starting === undefined) return;
  terminated = true;
  stop(failure('txfx/worker: the worker was terminated while the call ran', 'Terminated'));
}

export function backend() {
  return ready ? 'wasm' : undefined;
}

const api = createApi(engine);

// A witness's `siblingPath` as its elements, read in the worker by the engine's witness reader
// (the one reading of a path there is): a promise, since the engine is the worker's.
export async function decodeSiblingPath(text) {
  if (typeof text !== 'string') throw argumentError(`siblingPath: expected base64 text (a witness's siblingPath), got ${text === null ? 'null' : typeof text}`);
  engine();
  return ask({ type: 'call', name: 'decodeSiblingPath', args: [text] });
}

export const {
  txEffectCommitmentAsync,
  txEffectLeafAsync,
  txEffectsTreeRootAsync,
  txEffectLeavesAsync,
  txEffectMembershipWitnessAsync,
} = api;

// The node walk (the main entry's `verifyTxFromNode`): the page's fetch moves the requests and
// answers; the worker holds the walk and checks every answer, so a 9 MB block is hashed off the
// page's thread.
export const { verifyTxFromNode } = api;

export default {
  TxfxError: api.TxfxError,
  MalformedError,
  OutOfRangeError: api.OutOfRangeError,
  RefutedError: api.RefutedError,
  BackendError,
  TransportError: api.TransportError,
  init,
  terminate,
  backend,
  decodeSiblingPath,
  verifyTxFromNode,
  txEffectCommitmentAsync,
  txEffectLeafAsync,
  txEffectsTreeRootAsync,
  txEffectLeavesAsync,
  txEffectMembershipWitnessAsync,
};

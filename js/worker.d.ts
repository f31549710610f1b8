// txfx/worker: the WASM engine in a module worker (browsers), so that no hash runs on the page's
// thread. The values go in as the main entry takes them, converted on the calling thread; the
// work and its errors come back as promises.
// The signatures are the main entry's (one declaration each); only their documentation differs.
import type * as Main from './index.js';


/** Where `init` finds the worker's script. */
export interface WorkerInitOptions {
  /**
   * The URL of txfx's `worker-thread.mjs` (the export `txfx/worker-thread`), for a bundler that
   * does not bundle `new Worker(new URL('./worker-thread.mjs', import.meta.url))` (esbuild: bundle
   * `txfx/worker-thread` as an entry of its own and pass its output's URL). Vite and webpack 5
   * need none.
   */
  workerUrl?: string | URL;
}

/**
 * Starts the module worker and loads the WASM engine in it, from `input` (the module's URL, a
 * Request, a Response, its bytes or a compiled module; by default the package's `dist/txfx.wasm`,
 * named so that bundlers copy it). Once is enough: a second call returns the first one's promise.
 * @throws {TypeError} (a rejection) options that are not `{workerUrl?}` (kind `Argument`).
 * @throws {Error} (a rejection) of kind `Load`: no Worker in this runtime, a worker script that
 *   does not start, or a module that is not found or not WebAssembly (the message says how to pass
 *   `init(url)` or `workerUrl`).
 */
export declare function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
  options?: WorkerInitOptions,
): Promise<void>;
/**
 * Stops the worker. Calls in flight reject with an `Error` of kind `Terminated`, as does every
 * call until `init` is called again.
 */
export declare function terminate(): void;
/** `'wasm'` while a worker is ready (after `init` resolved, before `terminate`); else undefined. */
export declare function backend(): 'wasm' | undefined;
/**
 * The elements of a witness's `siblingPath`, lowest level first (as the main entry's), read by
 * the engine in the worker: a promise, after `init`.
 * Rejects with a TypeError: not standard padded base64 (kind `NotBase64`) or a wrong length
 * prefix (kinds `SiblingPath/…`); a RangeError: an element >= p (kind `Field/NotCanonical`).
 */
export declare function decodeSiblingPath(siblingPath: string): Promise<Main.Hex[]>;
/**
 * `verifyTxFromNode`, the main entry's node walk, with the walk held and every answer checked in
 * the worker (the page's thread only fetches). Resolves and rejects as the main entry's does, or
 * rejects with kind `NotInitialised` before `init`, `Terminated` after `terminate`.
 */
export declare const verifyTxFromNode: typeof Main.verifyTxFromNode;
/**
 * `txEffectCommitment`, computed in the worker. Rejects as the synchronous form throws
 * (`TypeError`, `RangeError`, with `kind`), or with kind `NotInitialised` before `init`,
 * `Terminated` after `terminate`.
 */
export declare const txEffectCommitmentAsync: typeof Main.txEffectCommitmentAsync;
/** `txEffectLeaf`, computed in the worker; rejects as `txEffectCommitmentAsync` does. */
export declare const txEffectLeafAsync: typeof Main.txEffectLeafAsync;
/** `txEffectsTreeRoot`, computed in the worker; rejects as `txEffectCommitmentAsync` does. */
export declare const txEffectsTreeRootAsync: typeof Main.txEffectsTreeRootAsync;
/** `txEffectLeaves`, computed in the worker; rejects as `txEffectCommitmentAsync` does. */
export declare const txEffectLeavesAsync: typeof Main.txEffectLeavesAsync;
/** `txEffectMembershipWitness`, computed in the worker; rejects as `txEffectCommitmentAsync` does. */
export declare const txEffectMembershipWitnessAsync: typeof Main.txEffectMembershipWitnessAsync;

declare const worker: {
  init: typeof init;
  terminate: typeof terminate;
  backend: typeof backend;
  decodeSiblingPath: typeof decodeSiblingPath;
  verifyTxFromNode: typeof verifyTxFromNode;
  txEffectCommitmentAsync: typeof txEffectCommitmentAsync;
  txEffectLeafAsync: typeof txEffectLeafAsync;
  txEffectsTreeRootAsync: typeof txEffectsTreeRootAsync;
  txEffectLeavesAsync: typeof txEffectLeavesAsync;
  txEffectMembershipWitnessAsync: typeof txEffectMembershipWitnessAsync;
};
export default worker;

/** txfx's error classes, the main entry's (one declaration each). */
export { TxfxError, MalformedError, OutOfRangeError, RefutedError, BackendError, TransportError } from './index.js';

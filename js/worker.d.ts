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
 * The elements of a witness's `siblingPath`, lowest level first (as the main entry's): pure
 * JavaScript on the calling thread, usable before `init`.
 * @throws {TypeError} not standard padded base64 (kind `NotBase64`) or a wrong length prefix
 *   (kinds `SiblingPath/…`).
 * @throws {RangeError} an element >= p (kind `Field/NotCanonical`).
 */
export declare const decodeSiblingPath: typeof Main.decodeSiblingPath;
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
  txEffectCommitmentAsync: typeof txEffectCommitmentAsync;
  txEffectLeafAsync: typeof txEffectLeafAsync;
  txEffectsTreeRootAsync: typeof txEffectsTreeRootAsync;
  txEffectLeavesAsync: typeof txEffectLeavesAsync;
  txEffectMembershipWitnessAsync: typeof txEffectMembershipWitnessAsync;
};
export default worker;

/** Any of txfx's errors: `error instanceof TxfxError` is true of each class below. */
export declare class TxfxError extends Error {
  /** The error's class: `Malformed`, `OutOfRange`, `Refuted`, `Backend` or `Transport`. */
  class: 'Malformed' | 'OutOfRange' | 'Refuted' | 'Backend' | 'Transport';
  /** The same, under its older name. */
  txfxClass: 'Malformed' | 'OutOfRange' | 'Refuted' | 'Backend' | 'Transport';
  /** The variant path of the error, e.g. `Transport/Timeout`, `Malformed/BadDigit`. */
  kind: string;
  /** For a refutation: the link of the chain that broke. */
  link?: string;
}
/** The input is not what was asked for (the CLI's exit 2); a `TypeError`. */
export declare class MalformedError extends TypeError {
  constructor(message: string, kind?: string);
  class: 'Malformed';
  txfxClass: 'Malformed';
  kind: string;
}
/** A value outside what is allowed (exit 2); a `RangeError`. */
export declare class OutOfRangeError extends RangeError {
  constructor(message: string, kind?: string);
  class: 'OutOfRange';
  txfxClass: 'OutOfRange';
  kind: string;
}
/** A check that failed where the API throws instead of returning `{valid: false}` (exit 1). */
export declare class RefutedError extends Error {
  constructor(message: string, kind: string, link?: string);
  class: 'Refuted';
  txfxClass: 'Refuted';
  kind: string;
  link?: string;
}
/** The engine failed: a WASM trap, a worker gone, a module that did not load (exit 3). */
export declare class BackendError extends Error {
  constructor(message: string, kind: string);
  class: 'Backend';
  txfxClass: 'Backend';
  kind: string;
}
/** A node or L1 endpoint gave no usable answer (exit 4). */
export declare class TransportError extends Error {
  constructor(message: string, kind: string);
  class: 'Transport';
  txfxClass: 'Transport';
  kind: string;
}

// txfx's errors in JavaScript: one class per ErrorClass of txfx_documents::classify, and the
// translation of an engine's failure (its class, kind and link, handed across as values) into
// the documented class. Every entry and module of the package takes its errors from here.

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

// An engine throws an Error whose `class`, `kind` and (for a refutation) `link` are properties
// beside a message that is human text only (the addon builds it so, js/wasm.mjs from the
// module's failure record, txfx/worker from the record the worker posts). Here it becomes the
// documented subclass of TxfxError: Malformed input a MalformedError (a TypeError), a value out
// of range an OutOfRangeError (a RangeError), and so on. Any other error passes unchanged.
export function translate(error) {
  if (error instanceof TxfxError) return error;
  if (error instanceof Error && typeof error.class === 'string' && typeof error.kind === 'string') {
    return txfxError(error.class, error.message, error.kind, typeof error.link === 'string' ? error.link : undefined);
  }
  return error;
}

export function call(fn, ...args) {
  try {
    return fn(...args);
  } catch (error) {
    throw translate(error);
  }
}

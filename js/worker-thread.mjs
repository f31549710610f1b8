// The module worker behind txfx/worker (worker.mjs starts it): the WASM engine on its own thread.
// It takes two messages, each answered once with the same `id`:
//   {id, type: 'init', source}  source: the module's URL (absolute), bytes or a WebAssembly.Module
//                                -> {id} when the engine is ready, {id, error} if it did not load
//   {id, type: 'call', name, args}  an engine operation (worker.mjs converts the caller's values
//                                first) -> {id, value} or {id, error}
// `error` is the failure as a record, {class, kind, message, link?} (a structured clone keeps an
// Error's message but not its properties), from which worker.mjs builds the documented subclass
// of TxfxError, as the main-thread entry does.
import { compileWasm, createWasmEngine } from './wasm.mjs';

let engine;

// The failure record of `error`: the engine's class, kind and link as it threw them; anything
// else (a module that did not load, a message this worker does not know) a Backend failure of
// `kind`.
function failureRecord(error, kind) {
  const message = error && error.message !== undefined ? String(error.message) : String(error);
  if (error instanceof Error && typeof error.class === 'string' && typeof error.kind === 'string') {
    return typeof error.link === 'string' ? { class: error.class, kind: error.kind, message, link: error.link } : { class: error.class, kind: error.kind, message };
  }
  return { class: 'Backend', kind, message };
}

// A message that is not an object with a numeric id is not one of worker.mjs's: dropped, since
// there is no id to answer it under (a page's stray postMessage must not kill the worker).
self.addEventListener('message', async ({ data }) => {
  if (data === null || typeof data !== 'object' || !Number.isSafeInteger(data.id)) return;
  const { id, type } = data;
  if (type === 'init') {
    try {
      engine = createWasmEngine(await compileWasm(data.source, self.location.href));
      self.postMessage({ id });
    } catch (error) {
      self.postMessage({ id, error: failureRecord(error, 'Load') });
    }
    return;
  }
  try {
    if (engine === undefined) throw new Error('the worker has no engine yet');
    if (type !== 'call') throw new Error(`no message type ${String(type)}`);
    // Only the engine's own operations: a name such as "constructor" or "__proto__" reaches
    // Object.prototype through a plain lookup.
    const name = data.name;
    const operation = typeof name === 'string' && Object.prototype.hasOwnProperty.call(engine, name) ? engine[name] : undefined;
    if (typeof operation !== 'function') throw new Error(`no engine operation ${String(name)}`);
    if (!Array.isArray(data.args)) throw new Error(`${name}: its arguments are no list`);
    self.postMessage({ id, value: operation(...data.args) });
  } catch (error) {
    self.postMessage({ id, error: failureRecord(error, 'Worker') });
  }
});

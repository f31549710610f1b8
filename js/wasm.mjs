// The WASM engine over a compiled module (dist/txfx.wasm, from the Rust crate txfx-js-wasm):
// one function per entry of the export table the module itself declares, each encoding its
// arguments into the module's memory, calling its one dispatcher and decoding the result. The
// module imports nothing, so it can be instantiated again at any time: when a call traps (a
// WebAssembly.RuntimeError: an allocation that fails, say), the instance is dropped with all the
// memory it held and the next call runs on a fresh one, never on a broken one.
//
// The ABI is described in js/wasm/src/lib.rs.

export const ENGINE_INTERNALS = Symbol('txfx wasm engine internals');

const KIND = { absent: 0, text: 1, number: 2, texts: 3, bytes: 4 };
const STATUS = { text: 0, texts: 1, thrown: 2 };

export function createWasmEngine(module) {
  if (!(module instanceof WebAssembly.Module)) throw new TypeError('createWasmEngine: expected a compiled WebAssembly.Module');
  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let wasm;
  let restarts = 0;

  function start() {
    wasm = new WebAssembly.Instance(module, {}).exports;
  }

  function bytes(pointer, length) {
    return new Uint8Array(wasm.memory.buffer, pointer, length);
  }

  function output() {
    return decoder.decode(bytes(wasm.txfx_output_ptr(), wasm.txfx_output_len()));
  }

  // A string in the module's memory: one byte per UTF-16 unit first (ASCII, the common case),
  // three when it does not fit.
  function writeText(text, buffers) {
    let capacity = Math.max(text.length, 1);
    let pointer = wasm.txfx_alloc(capacity);
    let { read, written } = encoder.encodeInto(text, bytes(pointer, capacity));
    if (read < text.length) {
      wasm.txfx_free(pointer, capacity);
      capacity = 3 * text.length;
      pointer = wasm.txfx_alloc(capacity);
      ({ written } = encoder.encodeInto(text, bytes(pointer, capacity)));
    }
    buffers.push([pointer, capacity]);
    return [pointer, written];
  }

  // A document's bytes in the module's memory, copied as they are: the module reads them as UTF-8.
  function writeBytes(value, buffers) {
    const capacity = Math.max(value.length, 1);
    const pointer = wasm.txfx_alloc(capacity);
    bytes(pointer, value.length).set(value);
    buffers.push([pointer, capacity]);
    return [pointer, value.length];
  }

  function invoke(index, params, args) {
    const buffers = [];
    const instance = wasm;
    try {
      const words = [];
      params.forEach((param, i) => {
        const value = args[i];
        if ((value === undefined || value === null) && param.endsWith('?')) {
          words.push(KIND.absent, 0, 0);
        } else if (value instanceof Uint8Array && param.startsWith('text') && param !== 'texts') {
          words.push(KIND.bytes, ...writeBytes(value, buffers));
        } else if (param.startsWith('text') && param !== 'texts') {
          words.push(KIND.text, ...writeText(String(value), buffers));
        } else if (param === 'texts') {
          const pairs = value.flatMap((text) => writeText(String(text), buffers));
          const capacity = 4 * Math.max(pairs.length, 1);
          const pointer = wasm.txfx_alloc(capacity);
          buffers.push([pointer, capacity]);
          new Uint32Array(wasm.memory.buffer, pointer, pairs.length).set(pairs);
          words.push(KIND.texts, pointer, value.length);
        } else {
          words.push(KIND.number, value >>> 0, 0);
        }
      });
      const capacity = 4 * Math.max(words.length, 1);
      const pointer = wasm.txfx_alloc(capacity);
      buffers.push([pointer, capacity]);
      new Uint32Array(wasm.memory.buffer, pointer, words.length).set(words);
      const status = wasm.txfx_call(index, pointer, words.length);
      const text = output();
      if (status === STATUS.thrown) throw new Error(text);
      return status === STATUS.texts ? JSON.parse(text) : text;
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        restart();
        throw new Error(JSON.stringify({
          class: 'Backend',
          kind: 'Trap',
          message: `the WASM engine trapped (${error.message}); it has been restarted, and the next call runs on a fresh instance`,
        }));
      }
      throw error;
    } finally {
      // The buffers of a call that trapped went with its instance: none is freed on the new one.
      if (wasm === instance) {
        for (const [pointer, capacity] of buffers) wasm.txfx_free(pointer, capacity);
      }
    }
  }

  // Drops the broken instance (and the buffers it held, which go with its memory).
  function restart() {
    restarts += 1;
    start();
  }

  start();
  wasm.txfx_exports();
  const table = JSON.parse(output());
  const engine = {};
  table.forEach(({ name, params }, index) => {
    engine[name] = (...args) => invoke(index, params, args);
  });
  // For tests: the raw dispatcher (to make the instance trap) and how often it was restarted.
  engine[ENGINE_INTERNALS] = {
    call: (index, words, count) => {
      try {
        return wasm.txfx_call(index, words, count);
      } catch (error) {
        if (error instanceof WebAssembly.RuntimeError) restart();
        throw error;
      }
    },
    restarts: () => restarts,
    exports: () => table.map(({ name }) => name),
  };
  return engine;
}

// ---- loading: the compiled module from what a browser entry's `init` was given ----

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

// How to give `init` the module, said by every loading failure that means "not found here".
const HOW_TO_SERVE =
  "serve txfx's dist/txfx.wasm (the package export txfx/txfx.wasm) and pass its URL: init(url); with esbuild, `import wasmUrl from 'txfx/txfx.wasm'` (--loader:.wasm=file), elsewhere copy the file beside your app and init('/txfx.wasm')";

function notWasm(bytes, where) {
  const head = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, Math.min(bytes.byteLength, 16));
  if (WASM_MAGIC.every((byte, i) => head[i] === byte)) return undefined;
  const text = Array.from(head, (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
  return new Error(`${where} is not a WebAssembly module (it starts ${JSON.stringify(text)}, not "\\0asm"; a server answering every path with its index page does this): ${HOW_TO_SERVE}`);
}

// A WebAssembly.Module from a URL (or its string, resolved against `base`), a Request, a
// Response, the module's bytes, or a WebAssembly.Module; an Error naming the fix when what is
// found is not the module (an HTTP error, an HTML page).
export async function compileWasm(input, base) {
  if (input instanceof WebAssembly.Module) return input;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    const wrong = notWasm(input, 'the bytes given');
    if (wrong) throw wrong;
    return WebAssembly.compile(input);
  }
  let response;
  if (typeof Response !== 'undefined' && input instanceof Response) {
    response = input;
  } else {
    const url = typeof Request !== 'undefined' && input instanceof Request ? input : new URL(String(input), base);
    try {
      response = await fetch(url);
    } catch (error) {
      throw new Error(`fetching ${url.url ?? url} failed (${error && error.message ? error.message : error}): ${HOW_TO_SERVE}`);
    }
  }
  const where = `${response.url || 'the response'}`;
  if (!response.ok) throw new Error(`fetching ${where} gave HTTP ${response.status}: ${HOW_TO_SERVE}`);
  // Streaming compilation needs the application/wasm type; any server's bytes compile otherwise.
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type') === 'application/wasm') {
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (error) {
      throw new Error(`${where} (application/wasm) did not compile (${error && error.message ? error.message : error}): ${HOW_TO_SERVE}`);
    }
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const wrong = notWasm(bytes, `${where} (${response.headers.get('content-type') || 'no content-type'})`);
  if (wrong) throw wrong;
  return WebAssembly.compile(bytes);
}

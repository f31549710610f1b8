// The WASM engine over a compiled module (dist/txfx.wasm, from the Rust crate txfx-js-wasm):
// one function per entry of the export table the module itself declares, each encoding its
// arguments into the module's memory, calling its one dispatcher and decoding the result. The
// module imports nothing, so it can be instantiated again at any time: when a call traps (a
// WebAssembly.RuntimeError: an allocation that fails, say), the instance is dropped with all the
// memory it held and the next call runs on a fresh one, never on a broken one.
//
// The ABI is described in js/wasm/src/lib.rs.

export const ENGINE_INTERNALS = Symbol('txfx wasm engine internals');

const KIND = { absent: 0, text: 1, number: 2, bytes: 4 };
const STATUS = { text: 0, texts: 1, thrown: 2 };

// An engine's failure as every engine throws it: an Error whose message is human text, with the
// failure's `class`, `kind` and (for a refutation) `link` as properties, which api.mjs turns into
// the documented subclass of TxfxError. `record` is the module's failure record
// ([class, kind, message, link?], js/wasm/src/lib.rs).
export function engineFailure([cls, kind, message, link]) {
  const error = new Error(message);
  error.class = cls;
  error.kind = kind;
  if (link !== undefined) error.link = link;
  return error;
}

// A list of strings as the module packs it (js/wasm/src/lib.rs): the count and the byte lengths
// as little-endian u32s, then the strings' UTF-8. Decoded as one string and sliced by the lengths
// when every byte is one character (ASCII, what the lists carry: field elements), else string by
// string. `decoder` is a fatal UTF-8 TextDecoder.
export function unpackTexts(packed, decoder) {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const count = view.getUint32(0, true);
  const lengths = new Array(count);
  for (let i = 0; i < count; i += 1) lengths[i] = view.getUint32(4 * (1 + i), true);
  const body = packed.subarray(4 * (1 + count));
  const text = decoder.decode(body);
  const ascii = text.length === body.length;
  const texts = new Array(count);
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    const end = at + lengths[i];
    texts[i] = ascii ? text.slice(at, end) : decoder.decode(body.subarray(at, end));
    at = end;
  }
  if (at !== body.length) throw new Error(`a packed list of ${count} strings with ${body.length - at} bytes left over`);
  return texts;
}

export function createWasmEngine(module) {
  if (!(module instanceof WebAssembly.Module)) throw new TypeError('createWasmEngine: expected a compiled WebAssembly.Module');
  const encoder = new TextEncoder();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let wasm;
  let restarts = 0;

  // The call's arena: one buffer in the module's memory holding everything a call passes (the
  // strings, the lists' [pointer, length] pairs, the argument words), so that a call crosses into
  // the module for its one allocation at most, not one per string. A small arena is kept for the
  // next call; one a large document needed is freed after its call.
  const KEEP_ARENA = 1 << 16;
  let arena = 0;
  let arenaCapacity = 0;

  function start() {
    wasm = new WebAssembly.Instance(module, {}).exports;
    arena = 0;
    arenaCapacity = 0;
  }

  function bytes(pointer, length) {
    return new Uint8Array(wasm.memory.buffer, pointer, length);
  }

  function outputBytes() {
    return bytes(wasm.txfx_output_ptr(), wasm.txfx_output_len());
  }

  function output() {
    return decoder.decode(outputBytes());
  }

  // Room for `more` bytes after the arena's first `used`: a larger arena when it is full, the
  // bytes written so far copied into it (every pointer into the arena is an offset until the
  // call's words are written, so nothing points at the old one).
  function reserve(used, more) {
    if (arenaCapacity > 0 && used + more <= arenaCapacity) return;
    const capacity = Math.max(2 * arenaCapacity, used + more, 256);
    const pointer = wasm.txfx_alloc(capacity);
    if (used > 0) new Uint8Array(wasm.memory.buffer).copyWithin(pointer, arena, arena + used);
    if (arenaCapacity > 0) wasm.txfx_free(arena, arenaCapacity);
    arena = pointer;
    arenaCapacity = capacity;
  }

  // A string into the arena at `used`: one byte per UTF-16 unit first (ASCII, the common case),
  // three when it does not fit; its length in bytes.
  function writeText(text, used) {
    reserve(used, text.length);
    const { read, written } = encoder.encodeInto(text, bytes(arena + used, arenaCapacity - used));
    if (read === text.length) return written;
    reserve(used, 3 * text.length);
    return encoder.encodeInto(text, bytes(arena + used, arenaCapacity - used)).written;
  }

  function invoke(index, params, args) {
    const instance = wasm;
    try {
      // The strings and documents first, at offsets into the arena; then the words, with the
      // offsets made pointers once the arena can no longer move.
      const words = [];
      let used = 0;
      params.forEach((param, i) => {
        const value = args[i];
        if ((value === undefined || value === null) && param.endsWith('?')) {
          words.push(KIND.absent, 0, 0);
        } else if (value instanceof Uint8Array && param.startsWith('text')) {
          reserve(used, value.length);
          bytes(arena + used, value.length).set(value);
          words.push(KIND.bytes, used, value.length);
          used += value.length;
        } else if (param.startsWith('text')) {
          const written = writeText(String(value), used);
          words.push(KIND.text, used, written);
          used += written;
        } else {
          words.push(KIND.number, value >>> 0, 0);
        }
      });
      used = (used + 3) & ~3;
      reserve(used, 4 * words.length);
      const memory = new Uint32Array(wasm.memory.buffer, arena + used, words.length);
      const wordsAt = arena + used;
      for (let w = 0; w < words.length; w += 3) {
        const kind = words[w];
        memory[w] = kind;
        memory[w + 1] = kind === KIND.text || kind === KIND.bytes ? arena + words[w + 1] : words[w + 1];
        memory[w + 2] = words[w + 2];
      }
      const status = wasm.txfx_call(index, wordsAt, words.length);
      if (status === STATUS.thrown) throw engineFailure(unpackTexts(outputBytes(), decoder));
      return status === STATUS.texts ? unpackTexts(outputBytes(), decoder) : output();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        restart();
        throw engineFailure(['Backend', 'Trap', `the WASM engine trapped (${error.message}); it has been restarted, and the next call runs on a fresh instance`]);
      }
      throw error;
    } finally {
      // An arena a large call needed is not kept (one that trapped went with its instance).
      if (wasm === instance && arenaCapacity > KEEP_ARENA) {
        wasm.txfx_free(arena, arenaCapacity);
        arena = 0;
        arenaCapacity = 0;
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

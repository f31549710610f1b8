// `import wasmUrl from 'txfx/txfx.wasm'`: what a bundler's file loader gives for the module (its
// URL, as esbuild's `--loader:.wasm=file`, Vite's `?url` handling and webpack's asset modules
// give it), to pass to `init(wasmUrl)`.

/** The URL the bundler serves txfx's WebAssembly module at. */
declare const wasmUrl: string;
export default wasmUrl;

// The app as esbuild bundles it: esbuild does not follow new URL(..., import.meta.url), so the
// module's URL comes from the export txfx/txfx.wasm (--loader:.wasm=file) and the worker's
// thread is bundled as an entry of its own (txfx/worker-thread, out: txfx-worker.js).
import * as txfx from 'txfx';
import * as worker from 'txfx/worker';
import wasmUrl from 'txfx/txfx.wasm';

import { check } from './checks.mjs';

check(txfx, worker, { wasmUrl, workerUrl: new URL('./txfx-worker.js', import.meta.url) });

// What @aztec/foundation and bb.js expect of Node in a browser bundle, injected by esbuild
// (browser.mjs), as Aztec's own browser apps provide it with node polyfills: `Buffer` (the
// `buffer` package, which the reference installs) and a minimal `process`.
import { Buffer } from 'buffer';

export { Buffer };
export const process = { env: {}, versions: {}, argv: [], browser: true, nextTick: (f, ...args) => queueMicrotask(() => f(...args)) };

// The ES module entry: the CommonJS module itself, whose named exports Node reads from its
// `module.exports = { ... }` (one list of exports, one engine instance per process).
export * from './index.js';
export { default } from './index.js';

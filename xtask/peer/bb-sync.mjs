// bb.js's synchronous singleton on one backend, checked, for the benchmarks that time the
// reference (`bench --peer`'s bench.mjs, `bench --js`'s bench.mjs and cold.mjs; xtask copies this
// file beside each).
//
// `bbSyncOn(bb, type, loadSync)` sets the singleton on `type`, then loads foundation's crypto/sync
// module (`loadSync()`, the caller's dynamic import of it, which resolves from the caller's
// node_modules) and returns it. The order matters: that module's top level awaits
// `BarretenbergSync.initSingleton()` with no options, which in Node picks native barretenberg over
// shared memory wherever its bb binary is installed, and the singleton keeps the first backend it
// gets, so an `initSingleton({ backend: Wasm })` after the import returns the native one. (Until
// December 2026 both benchmarks imported foundation first, and their "WASM" rows in Node timed
// native barretenberg.) A singleton on another backend than `type` is refused.
const CLASS_OF = { Wasm: 'BarretenbergWasmSyncBackend', NativeSharedMemory: 'BarretenbergNativeShmSyncBackend' };

export async function bbSyncOn({ BarretenbergSync, BackendType }, type, loadSync) {
  const expected = Object.entries(CLASS_OF).find(([name]) => BackendType[name] === type)?.[1];
  if (!expected) throw new Error(`bbSyncOn: no synchronous backend ${type}`);
  await BarretenbergSync.initSingleton({ backend: type });
  const sync = await loadSync();
  const runs = BarretenbergSync.getSingleton().backend?.constructor?.name ?? 'an unknown backend';
  if (runs !== expected) throw new Error(`bb.js's synchronous singleton runs ${runs}, not ${expected} (${type})`);
  return sync;
}

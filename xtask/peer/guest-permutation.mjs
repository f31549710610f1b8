// The WASM guest's permutation against bb.js's WASM `poseidon2Permutation`, side by side in one
// Node process (issue 30's measurement; not part of `cargo xtask bench`).
//
//   cargo xtask bench --peer ...   # or any run that installs @aztec/bb.js under target/peer/
//   cp xtask/peer/guest-permutation.mjs target/peer/
//   node target/peer/guest-permutation.mjs NAME=GUEST.wasm [NAME=GUEST.wasm ...]
//
// Each guest module is instantiated through its ABI (`txfx_scratch`, `txfx_permute`, 32-byte
// big-endian words; backend-wasm/guest-src/lib.rs) and timed two ways: a 64-state batch per call
// and one state per call (64 calls), each including the copy of the words in and out. bb.js is
// timed one state per call (its API has no batch), through BarretenbergSync on its WASM backend.
// Every engine's outputs are checked equal before timing. Samples round-robin across engines so
// they share the machine's noise; the report is the median µs per permutation, by the wall clock
// and by the process's CPU time (on a shared machine the latter leaves out other processes' time).
//
// bb.js is called here with its inputs as views into one buffer, which costs more than a user's call:
// through `@aztec/foundation`'s `poseidon2Permutation` (as `bench --js` calls it) the same bb.js
// WASM took 21.7-22 µs where this script measured 34.2 µs (AMD EPYC Zen 4, December 2026). Compare
// the guest with bb.js through `bench --js`, not through this script's bb.js row.

import { BarretenbergSync, BackendType } from '@aztec/bb.js';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const P = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const STATES = 64;
const SAMPLES = Number(process.env.SAMPLES ?? 21);

// Deterministic canonical inputs (SplitMix-like on BigInt), plus edge values.
let seed = 0x7478_6678n;
const next = () => {
  seed = (seed + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = seed;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return z ^ (z >> 31n);
};
const element = () => ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;
const words = Array.from({ length: 4 * STATES }, (_, i) => (i < 4 ? 0n : i < 8 ? P - 1n : element()));
const be = (x) => {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
};
const input = new Uint8Array(32 * words.length);
words.forEach((w, i) => input.set(be(w), 32 * i));

const hex = (bytes) => Buffer.from(bytes).toString('hex');

function guest(path) {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(path)), {});
  const { memory, txfx_scratch: scratch, txfx_permute: permute } = instance.exports;
  const ptr = scratch(input.length);
  const run = (offset, n, out) => {
    const bytes = 128 * n;
    new Uint8Array(memory.buffer, ptr, bytes).set(input.subarray(offset, offset + bytes));
    if (permute(n) !== 0) throw new Error(`${path}: txfx_permute failed`);
    out.set(new Uint8Array(memory.buffer, ptr, bytes), offset);
  };
  return {
    batch(out) {
      run(0, STATES, out);
    },
    single(out) {
      for (let s = 0; s < STATES; s++) run(128 * s, 1, out);
    },
  };
}

const engines = process.argv.slice(2).map((arg) => {
  const [name, path] = arg.split('=');
  return { name, ...guest(path) };
});

await BarretenbergSync.initSingleton({ backend: BackendType.Wasm });
const api = BarretenbergSync.getSingleton();
const bbSingle = (out) => {
  for (let s = 0; s < STATES; s++) {
    const inputs = [0, 1, 2, 3].map((i) => input.subarray(128 * s + 32 * i, 128 * s + 32 * (i + 1)));
    const { outputs } = api.poseidon2Permutation({ inputs });
    outputs.forEach((o, i) => out.set(o, 128 * s + 32 * i));
  }
};

// Outputs agree before any timing.
const reference = new Uint8Array(input.length);
bbSingle(reference);
for (const e of engines) {
  for (const mode of ['batch', 'single']) {
    const out = new Uint8Array(input.length);
    e[mode](out);
    if (hex(out) !== hex(reference)) throw new Error(`${e.name} ${mode}: outputs differ from bb.js`);
  }
}
console.log(`outputs: ${engines.map((e) => e.name).join(', ')} and bb.js agree on ${STATES} states (first: ${hex(reference.subarray(0, 32))})`);

const cases = [
  ...engines.flatMap((e) => [
    { name: `${e.name} batch ${STATES}`, f: e.batch, reps: 4 },
    { name: `${e.name} one per call`, f: e.single, reps: 4 },
  ]),
  { name: 'bb.js wasm one per call', f: bbSingle, reps: 4 },
];
const scratchOut = new Uint8Array(input.length);
for (const c of cases) {
  c.times = [];
  c.cpu = [];
  for (let w = 0; w < 3; w++) for (let r = 0; r < c.reps; r++) c.f(scratchOut); // warm-up (JIT tiers)
}
for (let s = 0; s < SAMPLES; s++) {
  for (const c of cases) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < c.reps; r++) c.f(scratchOut);
    const cpu = process.cpuUsage(cpu0);
    c.times.push(((performance.now() - t0) * 1000) / (c.reps * STATES));
    c.cpu.push((cpu.user + cpu.system) / (c.reps * STATES));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`node ${process.version}, ${SAMPLES} samples of ${4 * STATES} permutations each, µs per permutation`);
console.log('(wall clock, and this process\'s CPU time, which leaves out time other processes took the core):');
for (const c of cases) {
  const [t, u] = [c.times, c.cpu];
  console.log(
    `  ${c.name.padEnd(28)} wall median ${median(t).toFixed(2)} min ${Math.min(...t).toFixed(2)} | cpu median ${median(u).toFixed(2)} min ${Math.min(...u).toFixed(2)}`,
  );
}
process.exit(0);

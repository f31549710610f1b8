// The per-call overhead of the package's JavaScript edge, measured by hand (not a test: it prints
// figures and asserts nothing about time). For each engine Node can load here (the native addon,
// js/txfx.node, and the WASM build, js/dist/txfx.wasm), it times cheap calls whose own work is
// small next to the crossing: `poseidon2Hash` of 2 field elements, `txEffectLeaf` of a tiny
// effect, and a refused `poseidon2Hash` (the error path: an element >= p). Each is run for
// several rounds of many iterations, and the median ns per call of the rounds is printed.
//
//   node js/scripts/bench-calls.mjs [--rounds N] [--iterations N] [--json]
//
// Each engine runs in a child process of its own (TXFX_BACKEND forces it), so that one engine's
// allocations and JIT state do not colour the other's figures.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const js = path.join(here, '..');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}

const ROUNDS = option('--rounds', 7);
const ITERATIONS = option('--iterations', 20000);

// The tiny effect: the first tx of the repository's three-tx block.
function tinyEffect() {
  const body = JSON.parse(readFileSync(path.join(js, '..', 'testdata', 'blocks', 'three-fixtures.json'), 'utf8'));
  const effects = body.txEffects ?? body;
  return JSON.stringify(effects[0]);
}

// One engine's figures, in this process (the child's side).
async function measure() {
  const { createRequire } = await import('node:module');
  const txfx = createRequire(import.meta.url)('../index.js');
  const effect = tinyEffect();
  const inputs = ['0x01', '0x02'];
  const tooLarge = ['0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001', '0x02'];
  const cases = {
    'poseidon2Hash(2 fields)': () => txfx.poseidon2Hash(inputs),
    'txEffectLeaf(tiny effect)': () => txfx.txEffectLeaf(effect),
    'poseidon2Hash refused (>= p)': () => {
      try {
        txfx.poseidon2Hash(tooLarge);
      } catch (error) {
        return error;
      }
      throw new Error('bench-calls: the refused case was not refused');
    },
  };
  const out = {};
  for (const [name, run] of Object.entries(cases)) {
    // The call's cost stays the same per iteration, so a few hundred warm the JIT up.
    for (let i = 0; i < 2000; i += 1) run();
    const rounds = [];
    // The refused case allocates an error with a stack per call: fewer iterations suffice.
    const iterations = name.includes('refused') ? Math.ceil(ITERATIONS / 4) : ITERATIONS;
    for (let round = 0; round < ROUNDS; round += 1) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i += 1) run();
      rounds.push(Number(process.hrtime.bigint() - start) / iterations);
    }
    rounds.sort((a, b) => a - b);
    out[name] = { medianNs: Math.round(rounds[Math.floor(rounds.length / 2)]), minNs: Math.round(rounds[0]), maxNs: Math.round(rounds[rounds.length - 1]), iterations, rounds: ROUNDS };
  }
  return { backend: txfx.backend, cases: out };
}

if (process.env.TXFX_BENCH_CHILD === '1') {
  process.stdout.write(JSON.stringify(await measure()));
} else {
  const results = [];
  for (const backend of ['native', 'wasm']) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      env: { ...process.env, TXFX_BACKEND: backend, TXFX_BENCH_CHILD: '1' },
      encoding: 'utf8',
    });
    if (child.status !== 0) {
      console.error(`bench-calls: the ${backend} engine did not run: ${child.stderr.trim()}`);
      continue;
    }
    results.push(JSON.parse(child.stdout));
  }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results, null, 2));
  } else {
    console.log(`median ns/call over ${ROUNDS} rounds (min..max of the rounds)`);
    for (const { backend, cases } of results) {
      for (const [name, { medianNs, minNs, maxNs, iterations }] of Object.entries(cases)) {
        console.log(`${backend.padEnd(7)} ${name.padEnd(30)} ${String(medianNs).padStart(8)} ns  (${minNs}..${maxNs}, ${iterations} calls a round)`);
      }
    }
  }
}

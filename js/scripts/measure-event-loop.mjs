// What an async hash costs the event loop, measured (figures, not a test: nothing here asserts a
// time). For a big block (testdata/blocks/log-heavy-64.json, 36 MB, by default):
//
// 1. the synchronous part of an async call, on the loop, from the call to its return, with the
//    document as a string, a Uint8Array and a Buffer (the median of several calls);
// 2. the event loop's delay (perf_hooks.monitorEventLoopDelay, p50/p99/max) while four async
//    hashes run;
// 3. with four async hashes running, how long a small fs.readFile and a 64 KiB zlib.gzip take,
//    from their start to their callback;
// each in a child process with libuv's default pool (4 threads) and with UV_THREADPOOL_SIZE=1.
//
//   node js/scripts/measure-event-loop.mjs [--entry path/to/index.js] [--block path.json] [--runs n]
//
// `--entry` picks the package to measure (another checkout's js/index.js, to compare); the engine
// is the one it loads (TXFX_BACKEND as usual). Forms an entry does not take (bytes, before they
// were accepted) are reported as "refused".
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
};
const entry = path.resolve(option('--entry', path.join(here, '..', 'index.js')));
const block = path.resolve(option('--block', path.join(here, '..', '..', 'testdata', 'blocks', 'log-heavy-64.json')));
const runs = Number(option('--runs', '5'));
const CONCURRENT = 4;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (value) => (typeof value === 'number' ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : value);

async function child() {
  const fs = await import('node:fs');
  const zlib = await import('node:zlib');
  const { monitorEventLoopDelay, performance } = await import('node:perf_hooks');
  const txfx = createRequire(import.meta.url)(entry);
  const text = fs.readFileSync(block, 'utf8');
  const buffer = fs.readFileSync(block);
  const forms = { string: () => text, Uint8Array: () => new Uint8Array(buffer), Buffer: () => buffer };
  const expected = txfx.txEffectsTreeRoot(text);

  // 1. The synchronous part of one call, on the loop; then the whole hash, for scale.
  const onLoop = {};
  for (const [form, make] of Object.entries(forms)) {
    const times = [];
    let refused;
    for (let i = 0; i < runs; i += 1) {
      const doc = make();
      const start = performance.now();
      let pending;
      try {
        pending = txfx.txEffectsTreeRootAsync(doc);
      } catch (error) {
        refused = error;
      }
      times.push(performance.now() - start);
      try {
        if ((await pending) !== expected) throw new Error(`${form}: a wrong root`);
      } catch (error) {
        refused = error;
        break;
      }
    }
    onLoop[form] = refused ? `refused (${refused.constructor.name}: ${refused.message.slice(0, 60)})` : median(times);
  }
  const whole = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await txfx.txEffectsTreeRootAsync(text);
    whole.push(performance.now() - start);
  }

  // 2 and 3. Four hashes at once; the loop's delay meanwhile, and a read and a gzip started just
  // after them.
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const small = path.join(path.dirname(block), 'small-1.json');
  const io = { fs: [], zlib: [], hashes: [] };
  for (let i = 0; i < runs; i += 1) {
    histogram.enable();
    const start = performance.now();
    const hashes = Array.from({ length: CONCURRENT }, () => txfx.txEffectsTreeRootAsync(text));
    const started = performance.now();
    const read = new Promise((resolve, reject) => fs.readFile(small, (error) => (error ? reject(error) : resolve(performance.now() - started))));
    const gzip = new Promise((resolve, reject) => zlib.gzip(Buffer.alloc(1 << 16, 7), (error) => (error ? reject(error) : resolve(performance.now() - started))));
    const [roots, readMs, gzipMs] = await Promise.all([Promise.all(hashes), read, gzip]);
    if (roots.some((root) => root !== expected)) throw new Error('a wrong root');
    io.hashes.push(performance.now() - start);
    io.fs.push(readMs);
    io.zlib.push(gzipMs);
    histogram.disable();
  }
  process.stdout.write(JSON.stringify({
    backend: txfx.backend,
    uvThreads: process.env.UV_THREADPOOL_SIZE ?? 'default (4)',
    onLoop,
    oneHash: median(whole),
    delay: { p50: histogram.percentile(50) / 1e6, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 },
    fourHashes: median(io.hashes),
    fs: median(io.fs),
    zlib: median(io.zlib),
  }));
}

function parent() {
  console.log(`entry ${entry}\nblock ${block} (${(require_size(block) / 1e6).toFixed(1)} MB), ${runs} runs each, medians\n`);
  for (const uv of [undefined, '1']) {
    const env = { ...process.env };
    if (uv === undefined) delete env.UV_THREADPOOL_SIZE;
    else env.UV_THREADPOOL_SIZE = uv;
    const out = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', ...argv], { env, maxBuffer: 1 << 20 }));
    console.log(`UV_THREADPOOL_SIZE=${out.uvThreads}, engine ${out.backend}`);
    for (const [form, value] of Object.entries(out.onLoop)) console.log(`  on the loop, one async call, ${form.padEnd(10)} ${ms(value)}`);
    console.log(`  one async hash, start to settle       ${ms(out.oneHash)}`);
    console.log(`  ${CONCURRENT} async hashes at once, to the last  ${ms(out.fourHashes)}`);
    console.log(`  event-loop delay meanwhile            p50 ${ms(out.delay.p50)}, p99 ${ms(out.delay.p99)}, max ${ms(out.delay.max)}`);
    console.log(`  fs.readFile meanwhile                 ${ms(out.fs)}`);
    console.log(`  zlib.gzip (64 KiB) meanwhile          ${ms(out.zlib)}\n`);
  }
}

function require_size(file) {
  return createRequire(import.meta.url)('node:fs').statSync(file).size;
}

if (argv.includes('--child')) await child();
else parent();

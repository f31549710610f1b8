// The relaxed-SIMD product against the WASM guest's 29-bit product, per product per lane, both
// from one module (src/lib.rs), in Node and in headless Chromium in the same run (issue 30's
// measurement; README.md beside this file):
//
//   node measure.mjs MODULE.wasm [SAMPLES]
//
// runs Node (a child with --experimental-wasm-relaxed-simd, which Node 20 needs), then Chromium
// (`chromium --headless --dump-dom` of a page holding this file's `measure` and the module, which
// writes its result into the DOM), then Node again, then Chromium again; prints each run's
// medians. `measure` checks the relaxed product's known answers before it times anything.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function measure(bytes, samples) {
  const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
  if (exports.relaxed_self_test() !== 1) return { error: 'relaxed_madd is not fused here: known answers differ' };
  if (exports.simd29_self_test() !== 1) return { error: 'the simd128 29-bit product differs from the guest product' };
  // Products per round and per lane-vector: throughput = 8 independent vectors, latency = 1 chain.
  const cases = [
    { name: 'relaxed throughput', run: exports.relaxed_mul_independent, products: 16 },
    { name: 'relaxed latency', run: exports.relaxed_mul_chain, products: 2 },
    { name: 'simd128 29-bit throughput', run: exports.simd29_mul_independent, products: 16 },
    { name: 'simd128 29-bit latency', run: exports.simd29_mul_chain, products: 2 },
    { name: 'i64 29-bit throughput', run: exports.limbs29_mul_independent, products: 8 },
    { name: 'i64 29-bit latency', run: exports.limbs29_mul_chain, products: 1 },
  ];
  // About 20 ms a sample (performance.now is coarse in a page that is not cross-origin isolated).
  for (const c of cases) {
    c.rounds = 64;
    for (;;) {
      const t = performance.now();
      c.run(1, c.rounds);
      if (performance.now() - t > 20) break;
      c.rounds *= 2;
    }
    c.ns = [];
  }
  // Samples round-robin, so that every case shares the machine's noise.
  for (let s = 0; s < samples; s++) {
    for (const c of cases) {
      const t = performance.now();
      c.run(s + 2, c.rounds);
      c.ns.push(((performance.now() - t) * 1e6) / (c.rounds * c.products));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return Object.fromEntries(cases.map((c) => [c.name, +median(c.ns).toFixed(1)]));
}

function node(module, samples) {
  const child = spawnSync(
    process.execPath,
    ['--experimental-wasm-relaxed-simd', fileURLToPath(import.meta.url), '--child', module, String(samples)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`node child: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

function chromium(module, samples) {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-relaxed-'));
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const fn = source.slice(source.indexOf('export function measure'), source.indexOf('\nfunction node(')).replace('export ', '');
  const b64 = readFileSync(module).toString('base64');
  const page = join(dir, 'page.html');
  // A classic script in the body: it runs before the load event, so --dump-dom waits for it.
  writeFileSync(
    page,
    `<!doctype html><html><body><pre id="out"></pre><script>
${fn}
const bytes = Uint8Array.from(atob('${b64}'), (c) => c.charCodeAt(0));
let result;
try { result = measure(bytes, ${samples}); } catch (e) { result = { error: String(e) }; }
result.browser = navigator.userAgent.match(/Chrome\\/[0-9.]+/)?.[0];
document.getElementById('out').textContent = 'RESULT' + JSON.stringify(result) + 'END';
</script></body></html>`,
  );
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', `--user-data-dir=${join(dir, 'profile')}`, '--dump-dom', `file://${page}`];
  const child = spawnSync('chromium', args, { encoding: 'utf8', timeout: 600_000 });
  const match = /RESULT(.*)END/.exec(child.stdout ?? '');
  if (!match) throw new Error(`chromium: no result (${child.stderr?.slice(-500)})`);
  return JSON.parse(match[1].replaceAll('&quot;', '"'));
}

if (process.argv[2] === '--child') {
  const result = measure(readFileSync(process.argv[3]), Number(process.argv[4]));
  result.node = process.version;
  process.stdout.write(JSON.stringify(result));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [module, samples = '21'] = process.argv.slice(2);
  for (let pass = 0; pass < 2; pass++) {
    console.log(JSON.stringify(node(module, Number(samples))));
    console.log(JSON.stringify(chromium(module, Number(samples))));
  }
}

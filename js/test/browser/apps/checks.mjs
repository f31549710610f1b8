// What every app of bundlers.mjs checks in Chromium, however txfx reached the page (Vite, webpack,
// esbuild, an import map, a CDN's URL layout): the main entry loads its module and hashes the
// upstream three-tx block to the root testdata/ holds, txfx/worker does the same in its worker,
// and a refusal keeps its class and kind on both. The report is left on `window.__txfx`.
export async function check(txfx, worker, { wasmUrl, workerUrl } = {}) {
  const results = [];
  const record = async (name, run) => {
    try {
      await run();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: String((error && error.stack) || error) });
    }
  };
  const fail = (message) => {
    throw new Error(message);
  };
  const text = async (name) => {
    const response = await fetch(`/testdata/${name}`);
    if (!response.ok) fail(`/testdata/${name}: HTTP ${response.status}`);
    return response.text();
  };
  try {
    const body = await text('blocks/three-fixtures.json');
    const expected = JSON.parse(await text('aztec-fixtures.json')).three_tx_block.root;
    const refusal = (error) => error instanceof TypeError && typeof error.kind === 'string' && error.txfxClass === 'Malformed';
    await record('main thread: init() and the three-tx block\'s root', async () => {
      await txfx.init(wasmUrl);
      const root = txfx.txEffectsTreeRoot(body);
      if (root !== expected) fail(`root ${root}, expected ${expected}`);
    });
    await record('main thread: a malformed body is a TypeError with a kind', () => {
      try {
        txfx.txEffectsTreeRoot('{');
      } catch (error) {
        if (!refusal(error)) fail(`threw ${error} (kind ${error && error.kind})`);
        return;
      }
      fail('did not throw');
    });
    await record('worker: init() and the three-tx block\'s root', async () => {
      await worker.init(wasmUrl, workerUrl === undefined ? undefined : { workerUrl });
      const root = await worker.txEffectsTreeRootAsync(body);
      if (root !== expected) fail(`root ${root}, expected ${expected}`);
      if (worker.backend() !== 'wasm') fail(`backend() ${worker.backend()}`);
    });
    await record('worker: a malformed body rejects with a TypeError with a kind', async () => {
      const error = await worker.txEffectsTreeRootAsync('{').then(() => fail('did not reject'), (caught) => caught);
      if (!refusal(error)) fail(`rejected with ${error} (kind ${error && error.kind})`);
    });
    worker.terminate();
    window.__txfx = { results };
  } catch (error) {
    window.__txfx = { results, error: String((error && error.stack) || error) };
  }
}

// What the browser tests (run.mjs) and the Chromium benchmark (xtask/js-bench/browser.mjs) share:
// a static server on localhost and the flags headless Chromium runs with here.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

// Serves `files(pathname)`: an absolute path, or null (403, outside what may be served) on
// 127.0.0.1, with `headers` on every answer (a CDN's CORS header, say); resolves to
// `{ origin, close }`.
export async function serve(files, headers = {}) {
  const server = createServer(async (request, response) => {
    const file = files(new URL(request.url, 'http://localhost').pathname);
    if (file === null) return response.writeHead(403, headers).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { ...headers, 'content-type': TYPES[path.extname(file)] ?? 'text/plain' }).end(body);
    } catch {
      response.writeHead(404, headers).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

// `name` (URL-decoded) under `base`, or null if it leaves `base`.
export function within(base, name) {
  const file = path.resolve(base, decodeURIComponent(name));
  return file.startsWith(path.resolve(base) + path.sep) ? file : null;
}

// As the machine's notes say: without the background-networking flags Chromium keeps dialling
// Google's hosts, which this closed network refuses.
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

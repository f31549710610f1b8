// Shared helpers for the L1 scripts in xtask/l1/ (plain Node 20, no Ethereum library).
//
// The npm tools (xtask/l1/package.json: solc-js, @noble/hashes, anvil) are installed outside the
// tree, by default under target/l1/ (TXFX_L1_TOOLS overrides it):
//   mkdir -p target/l1 && cp xtask/l1/package.json xtask/l1/package-lock.json target/l1/
//   npm ci --prefix target/l1 --ignore-scripts --no-audit --no-fund
// ANVIL overrides the anvil binary's path.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The workspace root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where xtask/l1/package.json's packages are installed. */
export const toolsDir = process.env.TXFX_L1_TOOLS ? resolve(process.env.TXFX_L1_TOOLS) : join(root, 'target', 'l1');

function missing(what) {
  return new Error(
    `${what} is not installed under ${toolsDir} (set TXFX_L1_TOOLS, or run: mkdir -p target/l1 && ` +
      'cp xtask/l1/package.json xtask/l1/package-lock.json target/l1/ && ' +
      'npm ci --prefix target/l1 --ignore-scripts --no-audit --no-fund)',
  );
}

/** `require` of a CommonJS package installed in the tools folder (solc). */
export function requireTool(name) {
  if (!existsSync(join(toolsDir, 'node_modules', name))) throw missing(name);
  return createRequire(join(toolsDir, 'package.json'))(name);
}

/** `import` of a file inside an ES-module package installed in the tools folder (@noble/hashes). */
export async function importTool(name, file) {
  const path = join(toolsDir, 'node_modules', name, file);
  if (!existsSync(path)) throw missing(name);
  return import(pathToFileURL(path).href);
}

/** The anvil binary from @foundry-rs/anvil-linux-amd64 (the package's `bin/anvil`). */
export function anvilPath() {
  const path = process.env.ANVIL ?? join(toolsDir, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
  if (!existsSync(path)) throw missing('@foundry-rs/anvil-linux-amd64');
  return path;
}

/** The flags the tests start anvil with (see testdata/l1/README.md). */
export const ANVIL_TEST_FLAGS = ['--host', '127.0.0.1', '--port', '0', '--hardfork', 'prague', '--chain-id', '31337'];

/**
 * Starts anvil on 127.0.0.1 with an OS-chosen port, reads the port from its `Listening on` line
 * and waits until `eth_chainId` answers. Resolves to { url, port, child, timings, stop }.
 */
export async function startAnvil(extra = [], { timeoutMs = 20_000 } = {}) {
  const t0 = performance.now();
  const child = spawn(anvilPath(), [...ANVIL_TEST_FLAGS, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  // Never outlive the script, even when it dies on an uncaught error or a closed stdout.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  const stop = () =>
    new Promise((done) => {
      process.removeListener('exit', reap);
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  try {
    const port = await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`anvil printed no "Listening on" line in ${timeoutMs} ms:\n${log}`)), timeoutMs);
      const read = (chunk) => {
        log += chunk;
        const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(log);
        if (m) {
          clearTimeout(timer);
          ok(Number(m[1]));
        }
      };
      child.stdout.setEncoding('utf8').on('data', read);
      child.stderr.setEncoding('utf8').on('data', read);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`anvil exited (${code ?? signal}) before listening:\n${log}`));
      });
    });
    const listening = performance.now();
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await rpc(url, 'eth_chainId', []);
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const answering = performance.now();
    // Keep draining the pipes so anvil never blocks on a full stdout.
    child.stdout.resume();
    child.stderr.resume();
    return { url, port, child, stop, timings: { listeningMs: listening - t0, firstAnswerMs: answering - t0 } };
  } catch (e) {
    await stop();
    throw e;
  }
}

let nextId = 1;

/** One JSON-RPC call; returns `result`, throws on a JSON-RPC error. `trace` gets the raw bodies. */
export async function rpc(url, method, params, trace) {
  const request = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request });
  const text = await response.text();
  if (trace) trace(request, text);
  const body = JSON.parse(text);
  if (body.error) {
    const err = new Error(`${method}: ${JSON.stringify(body.error)}`);
    err.rpcError = body.error;
    throw err;
  }
  return body.result;
}

/** ABI word for an unsigned integer (number or bigint) or a 0x-prefixed bytes32. */
export function word(v) {
  if (typeof v === 'string') {
    const hex = v.replace(/^0x/, '');
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`not a bytes32: ${v}`);
    return hex.toLowerCase();
  }
  const n = BigInt(v);
  if (n < 0n || n >= 1n << 256n) throw new Error(`not a uint256: ${v}`);
  return n.toString(16).padStart(64, '0');
}

/** Calldata: 4-byte selector (hex, no 0x) then the ABI words of static arguments. */
export function calldata(selector, ...args) {
  return '0x' + selector.replace(/^0x/, '') + args.map(word).join('');
}

// `npm pack` / `npm publish` of the main package run this first. The main package holds the API
// and the WASM engine; the native addons ship in the per-platform packages (npm/<platform>/,
// built by `cargo xtask js platforms`), which npm installs as optional dependencies where they fit.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const missing = ['dist/txfx.wasm', 'LICENSE-MIT', 'LICENSE-APACHE'].filter((file) => !existsSync(join(root, file)));
if (missing.length > 0) {
  console.error(`txfx prepack: refusing to pack: missing ${missing.join(', ')}; run \`cargo xtask js build --release\``);
  process.exit(1);
}

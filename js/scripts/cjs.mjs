// The CommonJS modules index.js (Node's `require`) loads, generated from the ES module sources:
// each of SOURCES, x.mjs -> x.js (api.mjs -> api.js, wasm.mjs -> wasm.js, ...). The sources are the only ones edited; the generated
// files are gitignored and shipped (package.json `files`). `prepack`, `pretest` and
// `cargo xtask js build` run it; js/test/cjs.test.mjs checks the files are fresh.
//
// No bundler: an exact transform of the few forms the sources use, refusing any other, so that
// what runs under `require` is the source line for line:
//   export function NAME(          -> function NAME(          (NAME exported)
//   export async function NAME(    -> async function NAME(
//   export const NAME =            -> const NAME =
//   import { A, B } from './x.mjs'; -> const { A, B } = require('./x.js');
// and `module.exports = { ...the names }` at the end. Any other `import`/`export` statement, and
// `import.meta`, is an error.
//
// node scripts/cjs.mjs           writes the files
// node scripts/cjs.mjs --check   exits 1, naming them, if a generated file is missing or stale
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const SOURCES = ['errors.mjs', 'convert.mjs', 'walk.mjs', 'api.mjs', 'wasm.mjs'];

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// The CommonJS text of the ES module `text` (named `name`, for the header and errors).
export function cjsOf(text, name) {
  const names = [];
  const lines = text.split('\n').map((line, index) => {
    const where = `${name}:${index + 1}`;
    let match;
    if ((match = /^export (async function|function|const) ([A-Za-z_$][\w$]*)\b(.*)$/.exec(line))) {
      names.push(match[2]);
      return `${match[1]} ${match[2]}${match[3]}`;
    }
    if ((match = /^import \{([\w$,\s]+)\} from '(\.\/[\w-]+)\.mjs';$/.exec(line))) {
      return `const {${match[1]}} = require('${match[2]}.js');`;
    }
    if (/^\s*(import|export)\b/.test(line) || /\bimport\.meta\b/.test(line)) {
      throw new Error(`${where}: scripts/cjs.mjs converts only \`export function|async function|const NAME\` and \`import { ... } from './x.mjs';\`; got: ${line.trim()}`);
    }
    return line;
  });
  if (names.length === 0) throw new Error(`${name}: exports nothing`);
  const header = `// Generated from ${name} by scripts/cjs.mjs: do not edit (edit ${name}).\n'use strict';\n`;
  return `${header}${lines.join('\n').replace(/\n*$/, '\n')}\nmodule.exports = { ${names.join(', ')} };\n`;
}

export function generated(source) {
  return source.replace(/\.mjs$/, '.js');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const source of SOURCES) {
    const text = cjsOf(readFileSync(path.join(root, source), 'utf8'), source);
    const target = path.join(root, generated(source));
    if (check) {
      if (!existsSync(target) || readFileSync(target, 'utf8') !== text) stale.push(generated(source));
    } else if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
      writeFileSync(target, text);
    }
  }
  if (stale.length > 0) {
    console.error(`txfx: ${stale.join(', ')} ${stale.length === 1 ? 'is' : 'are'} missing or stale: run \`node scripts/cjs.mjs\` (npm's pretest and prepack do)`);
    process.exit(1);
  }
}

// Refuses to pack an addon that is not a release build: `node check-addon.mjs <file.node>`.
// A platform package's `prepack` runs it (`npm pack`, `npm publish`), and so does
// `cargo xtask js platforms`. The published addon is the `addon` profile's build (stripped, LTO):
// a dev build carries debug info and symbols (12 MB and more, against about 2 MB stripped).
// TXFX_PACK_DEV=1 lets the repository's own tests pack a dev build; never for a published package.
import { readFileSync, existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The names of an ELF file's sections (64-bit little-endian: every Linux addon we build).
export function elfSections(bytes) {
  if (bytes.length < 64 || bytes.readUInt32BE(0) !== 0x7f454c46) return null;
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error('not a 64-bit little-endian ELF file');
  const shoff = Number(bytes.readBigUInt64LE(0x28));
  const shentsize = bytes.readUInt16LE(0x3a);
  const shnum = bytes.readUInt16LE(0x3c);
  const shstrndx = bytes.readUInt16LE(0x3e);
  if (shoff + shnum * shentsize > bytes.length || shstrndx >= shnum) throw new Error('truncated ELF section table');
  const header = (index) => shoff + index * shentsize;
  const strings = Number(bytes.readBigUInt64LE(header(shstrndx) + 0x18));
  const names = [];
  for (let index = 0; index < shnum; index += 1) {
    const start = strings + bytes.readUInt32LE(header(index));
    names.push(bytes.toString('latin1', start, bytes.indexOf(0, start)));
  }
  return names;
}

// What is wrong with the addon at `path` for a published package (an empty list: nothing).
export function addonProblems(path) {
  if (!existsSync(path)) return [`${path} is missing: run \`cargo xtask js platforms\``];
  const sections = elfSections(readFileSync(path));
  if (sections === null) return [`${path} is not an ELF file: this check knows only the Linux builds`];
  const problems = [];
  const debug = sections.filter((name) => name.startsWith('.debug_'));
  if (debug.length > 0) problems.push(`${path} carries debug info (${debug.join(', ')}): a dev build`);
  if (sections.includes('.symtab')) problems.push(`${path} is not stripped (it has .symtab)`);
  return problems;
}

const [file] = process.argv.slice(2);
// Run as a script (not imported): compared through the real path, as import.meta.url resolves
// symbolic links and process.argv[1] does not.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  if (!file) {
    console.error('usage: node check-addon.mjs <file.node>');
    process.exit(2);
  }
  const problems = process.env.TXFX_PACK_DEV === '1' ? [] : addonProblems(file);
  if (problems.length > 0) {
    console.error(`txfx: refusing to pack ${file}, not a release build (\`cargo xtask js platforms\` makes one)\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
}

// A Node script that uses txfx, for bundlers.mjs to bundle with esbuild: bundled with txfx inside,
// txfx must fail at load saying to mark it external; with txfx external, it hashes the block.
const txfx = require('txfx');

const body = require('node:fs').readFileSync(process.argv[2], 'utf8');
console.log(`root ${txfx.txEffectsTreeRoot(body)} (${txfx.backend})`);

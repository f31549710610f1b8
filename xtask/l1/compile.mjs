// Compiles the stand-in contracts testdata/l1/StandInRollup.sol and StandInRegistry.sol with solc-js
// (pinned in xtask/l1/package.json) and writes testdata/l1/<Contract>.json for each. The output is a
// pure function of the source and the settings below, so a re-run gives the same bytes.
//
// Usage: node xtask/l1/compile.mjs            write the JSON files
//        node xtask/l1/compile.mjs --check    exit 1 unless each committed JSON is what it would write
// Tools from TXFX_L1_TOOLS (default target/l1/), see tools.mjs.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { requireTool, root } from './tools.mjs';

const SOLC_VERSION = '0.8.30+commit.73712a01.Emscripten.clang';
const CONTRACTS = ['StandInRollup', 'StandInRegistry'];
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'prague',
  metadata: { bytecodeHash: 'ipfs' },
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.methodIdentifiers'] },
  },
};

const dir = join(root, 'testdata', 'l1');

const solc = requireTool('solc');
if (solc.version() !== SOLC_VERSION) {
  throw new Error(`solc-js is ${solc.version()}, expected ${SOLC_VERSION} (npm solc@0.8.30)`);
}

let failed = false;
for (const CONTRACT of CONTRACTS) {
  const SOURCE_NAME = `${CONTRACT}.sol`;
  const sourcePath = join(dir, SOURCE_NAME);
  const outPath = join(dir, `${CONTRACT}.json`);
  const source = readFileSync(sourcePath, 'utf8');
  const input = { language: 'Solidity', sources: { [SOURCE_NAME]: { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const problems = (output.errors ?? []).filter((e) => e.severity === 'error' || e.type === 'Warning');
  if (problems.length) {
    throw new Error(problems.map((e) => e.formattedMessage).join('\n'));
  }
  const c = output.contracts[SOURCE_NAME][CONTRACT];

  const artifact = {
    contract: CONTRACT,
    source: `testdata/l1/${SOURCE_NAME}`,
    source_sha256: createHash('sha256').update(source).digest('hex'),
    compiler: {
      name: 'solc-js',
      npm: 'solc@0.8.30',
      version: solc.version(),
      settings: SETTINGS,
      source_name: SOURCE_NAME,
    },
    abi: c.abi,
    methodIdentifiers: c.evm.methodIdentifiers,
    bytecode: '0x' + c.evm.bytecode.object,
    deployedBytecode: '0x' + c.evm.deployedBytecode.object,
  };
  const text = JSON.stringify(artifact, null, 2) + '\n';

  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(outPath, 'utf8');
    } catch {}
    if (committed !== text) {
      console.error(`${outPath} is not what ${SOURCE_NAME} compiles to: run node xtask/l1/compile.mjs`);
      failed = true;
    } else {
      console.log(`l1: ${CONTRACT}.json matches ${SOURCE_NAME} (solc ${solc.version()})`);
    }
  } else {
    writeFileSync(outPath, text);
    console.log(`l1: wrote ${outPath} (${(artifact.deployedBytecode.length - 2) / 2} bytes deployed)`);
  }
}
if (failed) process.exit(1);

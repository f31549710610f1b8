// The reference's cost of the chain steps txfx's verify_chain performs (header hash, 30 archive
// nodes, a leaf and 2 tree nodes), for comparison with membership/benches/chain.rs. Run from
// target/peer/ (installed by `cargo xtask bench --peer`): node chain.mjs wasm|shm
import { BackendType, BarretenbergSync } from '@aztec/bb.js';
const backend = process.argv[2] === 'shm' ? BackendType.NativeSharedMemory : BackendType.Wasm;
await BarretenbergSync.initSingleton({ backend });
const { poseidon2Hash, poseidon2HashWithSeparator } = await import('@aztec/foundation/crypto/sync');
const { Fr } = await import('@aztec/foundation/curves/bn254');
const fields = Array.from({ length: 23 }, (_, i) => new Fr(BigInt(i + 1) * 0x1234567n));
const path = Array.from({ length: 30 }, (_, i) => new Fr(BigInt(i + 7) * 0x9876543n));
const tree = [new Fr(11n), new Fr(12n)];
function chain() {
  let node = poseidon2HashWithSeparator(fields, 4195546849); // header hash
  for (const s of path) node = poseidon2Hash([node, s]); // archive path
  let leaf = poseidon2HashWithSeparator([new Fr(0x1234n), new Fr(99n)], 1186802524); // leaf
  for (const s of tree) leaf = poseidon2HashWithSeparator([leaf, s], 2908237871); // tree path
  return [node, leaf];
}
for (let i = 0; i < 200; i++) chain();
const times = [];
for (let i = 0; i < 400; i++) { const t = process.hrtime.bigint(); chain(); times.push(Number(process.hrtime.bigint() - t) / 1000); }
times.sort((a, b) => a - b);
console.log(`${process.argv[2] ?? 'wasm'}: median ${times[200].toFixed(1)} µs per chain (header hash + 30 archive nodes + leaf + 2 tree nodes)`);
process.exit(0);

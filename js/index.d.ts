// Types of the txfx npm package (see README.md). Field elements go in as 0x-hex strings, bigints
// or 32-byte big-endian Uint8Arrays, and come out as 0x-hex strings. Documents go in as JSON
// text or as parsed objects, in every shape the txfx CLI reads. Invalid input throws a TypeError
// (malformed) or a RangeError (a value out of range) carrying `kind`, txfx's error kind.

/** A BN254 scalar field element. */
export type FieldInput = string | bigint | Uint8Array;
/** A document: JSON text, or the parsed value. */
export type DocumentInput = string | object;
/** 0x-hex, 64 digits. */
export type Hex = string;

/** Which engine runs: the native addon, or the WASM build (browsers; Node without the addon). */
export declare const backend: 'native' | 'wasm';
/**
 * Loads the engine. In Node it is ready at import and this resolves at once. In a browser, call
 * it once before the first call: it fetches and compiles the module from `input` (a URL, a
 * Response, the bytes or a compiled module), by default the package's own file, named so that
 * bundlers copy it; calls before it settles throw.
 */
export declare function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<void>;
/**
 * Loads the engine on the calling thread from bytes already at hand (or a compiled module). In
 * Node it returns at once. Browsers may refuse to compile large modules synchronously on the main
 * thread; Chromium 156 accepts this one (0.76 MB).
 */
export declare function initSync(bytes?: BufferSource | WebAssembly.Module): void;

export declare function poseidon2Permutation(state: readonly FieldInput[]): Hex[];
export declare function poseidon2Hash(inputs: readonly FieldInput[]): Hex;
export declare function poseidon2HashWithSeparator(inputs: readonly FieldInput[], separator: number): Hex;

export interface TxEffectCommitment {
  txHash: Hex;
  txStartMarker: Hex;
  categoryHashes: Hex[];
  categoriesHash: Hex;
  leaf: Hex;
  numBlobFields: number;
}
export declare function txEffectCommitment(effect: DocumentInput): TxEffectCommitment;
export declare function txEffectLeaf(effect: DocumentInput): { txHash: Hex; categoriesHash: Hex; leaf: Hex };

/** A body, an L2Block (its body checked against its header) or an array of effects. */
export declare function txEffectsTreeRoot(body: DocumentInput): Hex;

export interface StoredBlock {
  blockNumber: number;
  txEffectsTreeRoot: Hex;
  txs: { txHash: Hex; categoriesHash: Hex; leaf: Hex }[];
}
export declare function txEffectLeaves(body: DocumentInput, blockNumber?: number): StoredBlock;

/** The node's `getTxEffectMembershipWitness` JSON. */
export interface TxEffectMembershipWitness {
  blockNumber: number;
  root: Hex;
  categoriesHash?: Hex;
  leafIndex: string;
  siblingPath: string;
}
/** `tx`: the tx's index in the block, or its hash. */
export declare function txEffectMembershipWitness(
  body: DocumentInput,
  tx: number | FieldInput,
  blockNumber?: number,
): TxEffectMembershipWitness;

/**
 * Leaves a node keeps: the stored form `txEffectLeaves` returns (every leaf and the root are
 * checked before use), or bare leaves.
 */
export type Leaves = StoredBlock | string | readonly FieldInput[];
/** The root over stored or bare leaves. */
export declare function txEffectsTreeRootFromLeaves(leaves: Leaves): Hex;
/**
 * The witness of one tx served from leaves: by index or tx hash from the stored form (which
 * carries `categoriesHash`), by index from bare leaves (`blockNumber` then required).
 */
export declare function txEffectMembershipWitnessFromLeaves(
  leaves: Leaves,
  tx: number | FieldInput,
  blockNumber?: number,
): TxEffectMembershipWitness;

export type Subject =
  | { leaf: FieldInput }
  | { txHash: FieldInput; categoriesHash?: FieldInput }
  | { effect: DocumentInput }
  | { categoryProof: DocumentInput };

export interface Expected {
  blockNumber?: number;
  blockHash?: FieldInput;
  txHash?: FieldInput;
}

/** What a verification authenticated (docs/spec.md §12.8); a fact is present only when proven. */
export interface Verdict {
  valid: true;
  proves: 'block' | 'leaf' | 'tx' | 'category' | 'element';
  archiveRoot?: Hex;
  blockNumber?: number;
  blockHash?: Hex;
  txEffectsTreeRoot?: Hex;
  txHash?: Hex;
  categoriesHash?: Hex;
  leaf?: Hex;
  leafIndex?: string;
  pathLength?: number;
  category?: string;
  categoryHash?: Hex;
  element?: { role: string; index: number; value: Hex; [place: string]: unknown };
  /** Claims of the inputs that nothing checked. */
  unverified?: Record<string, unknown>;
}
/** A check that failed: the link of the chain it broke, and why. */
export interface Refutation {
  valid: false;
  link: string;
  reason: string;
}

export declare function verifyTxEffectMembershipWitness(
  witness: DocumentInput,
  subject: Subject,
  trustedRoot: FieldInput,
  expected?: Expected,
): Verdict | Refutation;

export declare function verifyTx(chain: {
  archiveRoot: FieldInput;
  archiveWitness: DocumentInput;
  header: DocumentInput;
  witness: DocumentInput;
  subject: Subject;
  expected?: Expected;
  protocol?: 'azip-26' | 'pre-azip-26';
}): Verdict | Refutation;

export declare function verifyArchive(archive: {
  archiveRoot: FieldInput;
  archiveWitness: DocumentInput;
  header?: DocumentInput;
  blockHash?: FieldInput;
  expected?: Expected;
  protocol?: 'azip-26' | 'pre-azip-26';
}): Verdict | Refutation;

export declare function blockHeaderHash(header: DocumentInput, protocol?: 'azip-26' | 'pre-azip-26'): Hex;
/** A checkpoint's blob fields (an array, or its JSON text), decoded as `txfx checkpoint decode` prints it. */
export declare function decodeCheckpoint(fields: readonly FieldInput[] | string): { blocks: object[]; [key: string]: unknown };
export declare function encodeBlobFields(effectOrBody: DocumentInput): Hex[];

// Off the event loop (Node): the same results, computed on txfx's background pool. Bad input
// rejects with the same TypeError or RangeError the synchronous form throws.
export declare function txEffectCommitmentAsync(effect: DocumentInput): Promise<TxEffectCommitment>;
export declare function txEffectLeafAsync(effect: DocumentInput): Promise<{ txHash: Hex; categoriesHash: Hex; leaf: Hex }>;
export declare function txEffectsTreeRootAsync(body: DocumentInput): Promise<Hex>;
export declare function txEffectLeavesAsync(body: DocumentInput, blockNumber?: number): Promise<StoredBlock>;
export declare function txEffectMembershipWitnessAsync(
  body: DocumentInput,
  tx: number | FieldInput,
  blockNumber?: number,
): Promise<TxEffectMembershipWitness>;

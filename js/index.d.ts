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
/**
 * The protocol whose rules documents are read under: `v6` (the default: Aztec v6 as deployed on
 * mainnet and testnet), `azip-26` (the AZIP's reference pin: Aztec 4.1.2's rules with the
 * 23-field header) or `pre-azip-26` (Aztec 4.1.2).
 */
export type Protocol = 'v6' | 'azip-26' | 'pre-azip-26';
/** Options of a call that reads documents. */
export interface ReadOptions {
  protocol?: Protocol;
}

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
export declare function txEffectCommitment(effect: DocumentInput, options?: ReadOptions): TxEffectCommitment;
export declare function txEffectLeaf(effect: DocumentInput, options?: ReadOptions): { txHash: Hex; categoriesHash: Hex; leaf: Hex };

/** A body, a block (its body and claims checked against its header) or an array of effects. */
export declare function txEffectsTreeRoot(body: DocumentInput, options?: ReadOptions): Hex;

export interface StoredBlock {
  blockNumber: number;
  txEffectsTreeRoot: Hex;
  txs: { txHash: Hex; categoriesHash: Hex; leaf: Hex }[];
}
export declare function txEffectLeaves(body: DocumentInput, blockNumber?: number, options?: ReadOptions): StoredBlock;

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
  options?: ReadOptions,
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
  /** The protocol whose rules the documents were read and hashed under. */
  protocol?: Protocol;
  archiveRoot?: Hex;
  blockNumber?: number;
  blockHash?: Hex;
  /** A node answer's slot, checked against the authenticated header. */
  slotNumber?: number | string;
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
  options?: ReadOptions,
): Verdict | Refutation;

export declare function verifyTx(chain: {
  archiveRoot: FieldInput;
  archiveWitness: DocumentInput;
  header: DocumentInput;
  witness: DocumentInput;
  subject: Subject;
  expected?: Expected;
  protocol?: Protocol;
}): Verdict | Refutation;

/** A network's genesis values, as `txfx networks` prints them (protocol `v6` for a node walk). */
export interface NetworkGenesis {
  name: string;
  protocol: Protocol;
  genesisArchiveRoot: Hex;
  genesisBlockHeaderHash?: Hex | null;
  source?: string;
}

/** What a node walk proved (`verifyTxFromNode`): the chain's verdict, its anchor and finality. */
export interface NodeVerdict extends Verdict {
  anchor: {
    checkpointNumber: number;
    referenceBlock: number;
    rollup?: string;
    l1BlockTag?: string;
    l1BlockNumber?: number | string;
    l1BlockHash?: Hex;
    provenCheckpointNumber?: number | string;
    pendingCheckpointNumber?: number | string;
  };
  /** `proven` or `checkpointed` (from L1), or `given` (an archive root the caller gave). */
  finality: 'proven' | 'checkpointed' | 'given';
  /** Whether L1 was read at its `finalized` block. */
  l1Finalized: boolean;
  /** Where the tx-effects witness came from: the node, or the block's body. */
  witnessSource: 'node' | 'body';
  /** The tx's index in its block, checked against the authenticated body. */
  txIndexInBlock?: number;
}

/**
 * Proves a tx from an Aztec v6 node's and an L1 node's answers, over `fetch` (Node 18+ and
 * browsers): the receipt, the block, the witnesses, and the rollup's archive for the block's
 * checkpoint, every link checked (the CLI's `txfx verify tx --node`). Resolves with the verdict,
 * or a refutation when the node lies or the tx cannot be proven yet; rejects with a `TypeError`
 * for bad options and an `Error` of `kind` `"Transport"` when an endpoint gives no usable answer
 * (unreachable, past `timeoutMs`, longer than `maxAnswerBytes`, a redirect).
 */
export declare function verifyTxFromNode(options: {
  /** The Aztec node's JSON-RPC URL. */
  node: string;
  txHash: FieldInput;
  /** The L1 node's JSON-RPC URL, with `rollup`. */
  l1Rpc?: string;
  /** The rollup contract's address. */
  rollup?: string;
  /** `finalized` (default), `safe`, `latest` or a block number. */
  l1Block?: 'finalized' | 'safe' | 'latest' | number;
  /** An archive root to trust instead of L1's. */
  archiveRoot?: FieldInput;
  /** One category (and with `element`, one element) to prove instead of the tx. */
  category?: string;
  element?: FieldInput;
  role?: string;
  expected?: Expected;
  /**
   * A network whose genesis archive root L1's `archiveAt(0)` must be: a built-in one's name
   * (`canonical`, `testnet`), or its genesis values as `txfx networks` prints one.
   */
  network?: string | NetworkGenesis;
  genesisArchiveRoot?: FieldInput;
  /** `aztec` or `node`; by default `aztec_`, then `node_`. */
  namespace?: 'aztec' | 'node';
  /** The whole walk's deadline, 60 000 by default. */
  timeoutMs?: number;
  /** The most bytes one answer may have, 256 MiB by default. */
  maxAnswerBytes?: number;
  /** The fetch to use, `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}): Promise<NodeVerdict | Refutation>;

export declare function verifyArchive(archive: {
  archiveRoot: FieldInput;
  archiveWitness: DocumentInput;
  header?: DocumentInput;
  blockHash?: FieldInput;
  expected?: Expected;
  protocol?: Protocol;
}): Verdict | Refutation;

export declare function blockHeaderHash(header: DocumentInput, options?: Protocol | ReadOptions): Hex;
/** A checkpoint's blob fields (an array, or its JSON text), decoded as `txfx checkpoint decode` prints it. */
export declare function decodeCheckpoint(fields: readonly FieldInput[] | string, options?: ReadOptions): { blocks: object[]; [key: string]: unknown };
export declare function encodeBlobFields(effectOrBody: DocumentInput, options?: ReadOptions): Hex[];

// Off the event loop (Node): the same results, computed on txfx's background pool. Bad input
// rejects with the same TypeError or RangeError the synchronous form throws.
export declare function txEffectCommitmentAsync(effect: DocumentInput, options?: ReadOptions): Promise<TxEffectCommitment>;
export declare function txEffectLeafAsync(effect: DocumentInput, options?: ReadOptions): Promise<{ txHash: Hex; categoriesHash: Hex; leaf: Hex }>;
export declare function txEffectsTreeRootAsync(body: DocumentInput, options?: ReadOptions): Promise<Hex>;
export declare function txEffectLeavesAsync(body: DocumentInput, blockNumber?: number, options?: ReadOptions): Promise<StoredBlock>;
export declare function txEffectMembershipWitnessAsync(
  body: DocumentInput,
  tx: number | FieldInput,
  blockNumber?: number,
  options?: ReadOptions,
): Promise<TxEffectMembershipWitness>;

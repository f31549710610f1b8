// Types of the txfx npm package (see README.md). Field elements go in as every form a TypeScript
// caller holds (FieldInput) and come out as 0x-hex strings. Documents go in as JSON text, its
// UTF-8 bytes, or parsed objects, in every shape the txfx CLI reads. Every error txfx throws is a TxfxError: a
// TypeError for malformed input (a wrong type, a bad digit, a document of the wrong shape), a
// RangeError for a value out of range, an Error otherwise; each carries `kind`.

/** An object that gives its value as a bigint: foundation's `Fr` (`@aztec/foundation/curves/bn254`). */
export interface ToBigInt {
  toBigInt(): bigint;
}
/** An object that gives its value as 32 big-endian bytes (a `Buffer`), as foundation's types do. */
export interface ToBuffer {
  toBuffer(): Uint8Array;
}
/**
 * A BN254 scalar field element, 0 <= x < p, as a TypeScript caller holds one:
 * - a string: `0x` + 1 to 64 hex digits (either case), or decimal digits (read as decimal, as
 *   foundation's `Fr.fromString` and Aztec's JSON schemas read them; at most 78 digits);
 * - a `bigint`, or a `number` that is a safe integer (`Number.isSafeInteger`, >= 0);
 * - a 32-byte big-endian `Uint8Array` (or `Buffer`);
 * - an object with `toBigInt()` (foundation's `Fr`), else one with `toBuffer()` (32 bytes).
 *
 * Nothing is reduced mod p: a value outside [0, p) is a `RangeError` (kind `NotCanonical` when it
 * is p or more), a number that is negative, fractional or past 2^53 - 1 a `RangeError`, anything
 * else a `TypeError`.
 */
export type FieldInput = string | bigint | number | Uint8Array | ToBigInt | ToBuffer;
/**
 * A document: JSON text, its bytes (UTF-8 JSON in a `Uint8Array` or a `Buffer`, passed to the
 * engine undecoded; bytes that are not UTF-8 are a `TypeError` of kind `NotUtf8` naming the offset
 * of the first bad byte), or the parsed value. An `…Async` call copies the bytes before it returns:
 * the buffer may be reused at once.
 */
export type DocumentInput = string | Uint8Array | object;
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

/**
 * The class of every error txfx throws (its own checks' and its engine's): `TypeError` for
 * malformed input, `RangeError` for a value out of range, `Error` for anything else (a backend
 * failure, a transport failure, an engine that did not load). The stack starts at the caller's
 * call.
 */
export interface TxfxError extends Error {
  /**
   * txfx's error kind: the error's variant path, as the CLI and the bad-input catalogue name it
   * (`NotCanonical`, `Malformed/WrongType`, `SiblingPath/Length`, `TxLookup/Repeated`); `Argument`
   * for an argument of the wrong type or range that the JavaScript side refuses, `NotUtf8` for a
   * document's bytes that are not UTF-8, `Transport`, `Load`, `NotInitialised`; for an `…Async`
   * call, `Panic` (a bug in txfx, caught) and `WorkerGone` (its background pool could not run it).
   */
  kind: string;
  /** `Malformed` (a TypeError), `OutOfRange` (a RangeError), `Refuted`, `Backend`, `Transport`. */
  txfxClass: 'Malformed' | 'OutOfRange' | 'Refuted' | 'Backend' | 'Transport';
  /** For a refuted check outside a verification: the link of the chain it broke. */
  link?: string;
}

/**
 * Which engine runs: the native addon, or the WASM build (browsers; Node without the addon, where
 * the import warns once, `TXFX_WASM_FALLBACK`, unless `TXFX_BACKEND=wasm` asked for it).
 */
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

/**
 * The Poseidon2 permutation (t = 4) of a 4-element state: foundation's `poseidon2Permutation`
 * (`@aztec/foundation/crypto/sync`), barretenberg's `poseidon2Permutation`.
 * @throws {TypeError} a state that is not an array, or an element that is not a field element.
 * @throws {RangeError} a state of other than 4 elements (kind `StateLength`), an element out of range.
 */
export declare function poseidon2Permutation(state: readonly FieldInput[]): Hex[];
/**
 * The Poseidon2 sponge over `inputs`: foundation's `poseidon2Hash` (its sync and async forms,
 * over bb.js), the Noir circuits' `poseidon2_hash`.
 * @throws {TypeError} `inputs` not an array, or an element that is not a field element.
 * @throws {RangeError} an element out of range.
 */
export declare function poseidon2Hash(inputs: readonly FieldInput[]): Hex;
/**
 * The sponge over `[separator, ...inputs]`: foundation's `poseidon2HashWithSeparator`, the
 * circuits' `poseidon2_hash_with_separator`.
 * @param separator a u32 domain separator (`DomainSeparator.*` of `@aztec/constants`), a number.
 * @throws {TypeError} a separator that is not a number; inputs as `poseidon2Hash`.
 * @throws {RangeError} a separator that is not an integer from 0 to 2^32 - 1; inputs as `poseidon2Hash`.
 */
export declare function poseidon2HashWithSeparator(inputs: readonly FieldInput[], separator: number): Hex;

/** What `txEffectCommitment` computes for one tx effect (`txfx effect hash` prints the same). */
export interface TxEffectCommitment {
  txHash: Hex;
  txStartMarker: Hex;
  categoryHashes: Hex[];
  categoriesHash: Hex;
  leaf: Hex;
  numBlobFields: number;
}
/**
 * One tx effect's commitment: its tx start marker, the seven category hashes, the categories
 * hash and its leaf in the block's tx-effects tree (AZIP-26; `computeTxEffectsTreeLeaf(txHash,
 * categoriesHash)` of stdlib's `tx_effect_membership.ts`), and how many blob fields it takes
 * (`TxEffect.toBlobFields().length`).
 * @param effect a `TxEffect` as `jsonStringify` prints it, or the node's `getTxEffect` answer.
 * @throws {TypeError} a document that is not a tx effect (kind names where and why).
 * @throws {RangeError} a value out of range (a field element >= p, more items than allowed).
 */
export declare function txEffectCommitment(effect: DocumentInput, options?: ReadOptions): TxEffectCommitment;
/**
 * The tx hash, categories hash and leaf of one tx effect: `txEffectCommitment`, trimmed.
 * @throws {TypeError} as `txEffectCommitment`.
 * @throws {RangeError} as `txEffectCommitment`.
 */
export declare function txEffectLeaf(effect: DocumentInput, options?: ReadOptions): { txHash: Hex; categoriesHash: Hex; leaf: Hex };

/**
 * A block's `txEffectsTreeRoot` (the header field of AZIP-26): the unbalanced tree over its txs'
 * leaves, as foundation's `computeUnbalancedMerkleTreeRoot` folds it with the tx-effects tree's
 * node hash. `body` is a `Body`, an `L2Block` (its body and claims checked against its header) or
 * an array of effects.
 * @throws {TypeError} a document that is not a body.
 * @throws {RangeError} a value out of range.
 * @throws {TxfxError} kind `BodyNotInHeader` (class `Refuted`): an `L2Block` whose header does not commit to its body.
 */
export declare function txEffectsTreeRoot(body: DocumentInput, options?: ReadOptions): Hex;

/** The stored form of a block: what a node keeps to serve witnesses without the effects. */
export interface StoredBlock {
  blockNumber: number;
  txEffectsTreeRoot: Hex;
  txs: { txHash: Hex; categoriesHash: Hex; leaf: Hex }[];
}
/**
 * The stored form of a block (what a node keeps to serve witnesses without the effects): per tx
 * its hash, categories hash and leaf, with the root and the block number.
 * @param blockNumber required unless the document carries it (an `L2Block`); checked against it if both.
 * @throws {TypeError} as `txEffectsTreeRoot`, or a block number that is not a number.
 * @throws {RangeError} a block number outside 0..2^32 - 1.
 */
export declare function txEffectLeaves(body: DocumentInput, blockNumber?: number, options?: ReadOptions): StoredBlock;

/** The node's `getTxEffectMembershipWitness` JSON (stdlib's `TxEffectMembershipWitness`, `jsonStringify`ed). */
export interface TxEffectMembershipWitness {
  blockNumber: number;
  root: Hex;
  categoriesHash?: Hex;
  /** The leaf's index at its own level of the tree (not the tx's index in the block), in decimal. */
  leafIndex: string;
  /** foundation's `SiblingPath`, serialized: base64; `decodeSiblingPath` gives its elements. */
  siblingPath: string;
}

/**
 * Which tx of a block: `{index}` (its position in the block, 0-based) or `{txHash}`.
 *
 * Deprecated shorthands, each with one meaning: a `number` is an index, a `0x`-hex string a hash.
 * Any other bare value (a `bigint`, decimal digits, bytes, an `Fr`) could mean either and is a
 * `TypeError`: write `{index}` or `{txHash}`.
 */
export type TxSelector =
  | { index: number | bigint }
  | { txHash: FieldInput }
  | number
  | `0x${string}`;

/**
 * The membership witness of one tx in its block's tx-effects tree, as the node's
 * `getTxEffectMembershipWitness` prints it (`UnbalancedMerkleTreeCalculator.getSiblingPathByLeafIndex`
 * in foundation's trees, serialized as `SiblingPath`).
 * @throws {TypeError} as `txEffectsTreeRoot`; a `tx` that is not a `TxSelector`; a hash two txs share (kind `TxLookup/Repeated`: select by index).
 * @throws {RangeError} an index past the block's txs; a block number out of range.
 */
export declare function txEffectMembershipWitness(
  body: DocumentInput,
  tx: TxSelector,
  blockNumber?: number,
  options?: ReadOptions,
): TxEffectMembershipWitness;

/**
 * The elements of a witness's `siblingPath`, lowest level first: foundation's
 * `SiblingPath.fromBuffer(buffer).toBufferArray()` over the base64 Aztec's JSON prints
 * (`uint32_be(n)` then n 32-byte big-endian elements), read by the engine's witness reader, with
 * its limits and error kinds. In a browser, after `init`.
 * @throws {TypeError} not a string; not standard padded base64 (kind `NotBase64`); a length prefix
 *   missing, over 128 or not matching the bytes (kinds `SiblingPath/NoPrefix`, `SiblingPath/TooLong`,
 *   `SiblingPath/Length`, `SiblingPath/TooManyCharacters`).
 * @throws {RangeError} an element >= p (kind `Field/NotCanonical`).
 */
export declare function decodeSiblingPath(siblingPath: string): Hex[];

/**
 * Leaves a node keeps: the stored form `txEffectLeaves` returns (every leaf and the root are
 * checked before use), or bare leaves.
 */
export type Leaves = StoredBlock | string | readonly FieldInput[];
/**
 * The tx-effects tree's root over stored or bare leaves (foundation's
 * `computeUnbalancedMerkleTreeRoot` with the tree's node hash).
 * @throws {TypeError} leaves that are not the stored form or an array of field elements.
 * @throws {RangeError} a leaf out of range.
 * @throws {TxfxError} class `Refuted`: a stored form whose leaves or root do not hold together.
 */
export declare function txEffectsTreeRootFromLeaves(leaves: Leaves): Hex;
/**
 * The witness of one tx served from leaves: by index or tx hash from the stored form (which
 * carries `categoriesHash`), by index from bare leaves (`blockNumber` then required).
 * @throws {TypeError} as `txEffectsTreeRootFromLeaves`, or a `tx` that is not a `TxSelector`.
 * @throws {RangeError} an index past the leaves; a block number out of range.
 */
export declare function txEffectMembershipWitnessFromLeaves(
  leaves: Leaves,
  tx: TxSelector,
  blockNumber?: number,
): TxEffectMembershipWitness;

/**
 * What a verification proves is in the tree: a bare leaf, a tx (its hash, with its categories
 * hash if you have it), a whole tx effect (its leaf recomputed), or a category proof.
 */
export type Subject =
  | { leaf: FieldInput }
  | { txHash: FieldInput; categoriesHash?: FieldInput }
  | { effect: DocumentInput }
  | { categoryProof: DocumentInput };

/** Facts the verdict must name, or the check is refuted: a key left out expects nothing. */
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

/**
 * Verifies a tx-effects witness against a `txEffectsTreeRoot` the caller trusts: the leaf
 * recomputed from the subject (`computeTxEffectsTreeLeaf`), folded up the sibling path as
 * foundation's `computeRootFromSiblingPath` does with the tree's node hash, and compared.
 * @returns the verdict, or a `Refutation` (never an exception) when a check fails.
 * @throws {TypeError} a witness, subject or expectation of the wrong shape.
 * @throws {RangeError} a value out of range.
 */
export declare function verifyTxEffectMembershipWitness(
  witness: DocumentInput,
  subject: Subject,
  trustedRoot: FieldInput,
  expected?: Expected,
  options?: ReadOptions,
): Verdict | Refutation;

/**
 * Verifies the whole chain from an archive root the caller trusts (L1's `archiveAt`) to one tx:
 * the block's archive witness, its header (its hash, `BlockHeader.hash()`), and the tx-effects
 * witness under the header's `txEffectsTreeRoot`. Every document is named, none positional.
 * @returns the verdict, or a `Refutation` naming the link that broke (`archive`, `header`, `witness`, `tx`).
 * @throws {TypeError} an unknown key (a misspelt one would drop its check), a document of the wrong shape.
 * @throws {RangeError} a value out of range.
 */
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
  /** The root L1's `archiveAt(0)` must be; `null` where no source pins it (then `l1` is due). */
  genesisArchiveRoot: Hex | null;
  genesisBlockHeaderHash?: Hex | null;
  source?: string;
  /** Where the network lives on L1: its chain (checked against `eth_chainId`) and Registry. */
  l1?: { chainId: number; registry: string; source: string } | null;
}

/** What a node walk proved (`verifyTxFromNode`): the chain's verdict, its anchor and finality. */
export interface NodeVerdict extends Verdict {
  anchor: {
    checkpointNumber: number;
    referenceBlock: number;
    rollup?: string;
    /** The Registry the rollup was found through (`registry`, or the network's). */
    registry?: string;
    l1BlockTag?: string;
    l1BlockNumber?: number | string;
    l1BlockHash?: Hex;
    /** What the rollup's words rest on: the L1 node's eth_call answers, or storage proofs. */
    l1Evidence?: 'eth_call' | 'storageProof';
    /** The state root of the header the storage proofs were checked against. */
    l1StateRoot?: Hex;
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
 * or `RangeError` for bad options, the signal's reason when `signal` aborts, and an `Error` of
 * `txfxClass` `"Transport"` when an endpoint gives no usable answer (unreachable, past
 * `timeoutMs`, longer than a valid answer can be, an HTTP error, an error answer, HTML, a
 * redirect).
 */
export declare function verifyTxFromNode(options: {
  /** The Aztec node's JSON-RPC URL. */
  node: string;
  txHash: FieldInput;
  /** The L1 node's JSON-RPC URL: the anchor is read from it unless `archiveRoot` is given. */
  l1Rpc?: string;
  /** The rollup contract's address. */
  rollup?: string;
  /**
   * A Registry contract: the rollup is the one it names canonical (`getCanonicalRollup()`) at
   * the L1 block. A `network` deployed on L1 (`mainnet`, `testnet`) names its own.
   */
  registry?: string;
  /** `finalized` (default), `safe`, `latest` or a block number. */
  /**
   * The L1 block to read the rollup at: a tag, a number, or a block hash (`0x` and 64 hex
   * digits). At a hash the L1 node is trusted for nothing: its header must hash to it and the
   * rollup's words are read by storage proof (`eth_getProof`) against its state root
   * (`anchor.l1Evidence: 'storageProof'`); a Registry is refused there.
   */
  l1Block?: 'finalized' | 'safe' | 'latest' | number | Hex;
  /** An archive root to trust instead of L1's. */
  archiveRoot?: FieldInput;
  /** One category (and with `element`, one element) to prove instead of the tx. */
  category?: string;
  element?: FieldInput;
  role?: string;
  expected?: Expected;
  /**
   * A network to check the chain against: a built-in one's name (`canonical`, `testnet`,
   * `mainnet`), or its values as `txfx networks` prints one. Its genesis archive root is what
   * L1's `archiveAt(0)` must be; its L1 deployment's chain is what the L1 node's must be, and
   * its Registry names the rollup when neither `rollup` nor `registry` is given.
   */
  network?: string | NetworkGenesis;
  genesisArchiveRoot?: FieldInput;
  /** `aztec` or `node`; by default `aztec_`, then `node_`. */
  namespace?: 'aztec' | 'node';
  /** The whole walk's deadline, 60 000 by default, at most 3 600 000 (an hour). */
  timeoutMs?: number;
  /** Ends the walk when it aborts, rejecting with its reason. */
  signal?: AbortSignal;
  /** The fetch to use, `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}): Promise<NodeVerdict | Refutation>;

/**
 * Verifies that a block (its header, or its block hash) is in the archive tree under a root the
 * caller trusts: foundation's `MembershipWitness` folded with `computeRootFromSiblingPath`.
 * @returns the verdict, or a `Refutation`.
 * @throws {TypeError} an unknown key, neither or both of `header` and `blockHash`, a document of the wrong shape.
 * @throws {RangeError} a value out of range.
 */
export declare function verifyArchive(archive: {
  archiveRoot: FieldInput;
  archiveWitness: DocumentInput;
  header?: DocumentInput;
  blockHash?: FieldInput;
  expected?: Expected;
  protocol?: Protocol;
}): Verdict | Refutation;

/**
 * A block's hash: stdlib's `BlockHeader.hash()` (`L2Block.hash()` for an `L2Block`, its body
 * checked against its header), in the protocol's header layout.
 * @param options the protocol, by name or as `{protocol}`.
 * @throws {TypeError} a document that is not a header; a layout the protocol does not have.
 * @throws {RangeError} a value out of range.
 */
export declare function blockHeaderHash(header: DocumentInput, options?: Protocol | ReadOptions): Hex;
/**
 * A checkpoint's blob fields (an array, or its JSON text or bytes) decoded into its blocks, each with its
 * `txEffectsTreeRoot`, as `txfx checkpoint decode` prints it: `@aztec/blob-lib`'s
 * `decodeCheckpointBlobData`.
 * @throws {TypeError} fields that are not a checkpoint.
 * @throws {RangeError} a field out of range.
 */
export declare function decodeCheckpoint(fields: readonly FieldInput[] | string | Uint8Array, options?: ReadOptions): { blocks: object[]; [key: string]: unknown };
/**
 * The blob fields of an effect (stdlib's `TxEffect.toBlobFields()`) or of a body (every effect's,
 * back to back).
 * @throws {TypeError} a document that is neither.
 * @throws {RangeError} a value out of range.
 */
export declare function encodeBlobFields(effectOrBody: DocumentInput, options?: ReadOptions): Hex[];

// Off the event loop (Node): the same results, computed on txfx's background pool, which settles
// the promise; no thread of libuv's pool (fs, DNS, zlib) waits for it. Bad input rejects with the
// same TypeError or RangeError the synchronous form throws.

/** `txEffectCommitment` off the event loop (Node's addon); rejects as it throws. */
export declare function txEffectCommitmentAsync(effect: DocumentInput, options?: ReadOptions): Promise<TxEffectCommitment>;
/** `txEffectLeaf` off the event loop (Node's addon); rejects as it throws. */
export declare function txEffectLeafAsync(effect: DocumentInput, options?: ReadOptions): Promise<{ txHash: Hex; categoriesHash: Hex; leaf: Hex }>;
/** `txEffectsTreeRoot` off the event loop (Node's addon); rejects as it throws. */
export declare function txEffectsTreeRootAsync(body: DocumentInput, options?: ReadOptions): Promise<Hex>;
/** `txEffectLeaves` off the event loop (Node's addon); rejects as it throws. */
export declare function txEffectLeavesAsync(body: DocumentInput, blockNumber?: number, options?: ReadOptions): Promise<StoredBlock>;
/** `txEffectMembershipWitness` off the event loop (Node's addon); rejects as it throws. */
export declare function txEffectMembershipWitnessAsync(
  body: DocumentInput,
  tx: TxSelector,
  blockNumber?: number,
  options?: ReadOptions,
): Promise<TxEffectMembershipWitness>;

/** Any of txfx's errors: `error instanceof TxfxError` is true of each class below. */
export declare class TxfxError extends Error {
  /** The error's class: `Malformed`, `OutOfRange`, `Refuted`, `Backend` or `Transport`. */
  class: 'Malformed' | 'OutOfRange' | 'Refuted' | 'Backend' | 'Transport';
  /** The same, under its older name. */
  txfxClass: 'Malformed' | 'OutOfRange' | 'Refuted' | 'Backend' | 'Transport';
  /** The variant path of the error, e.g. `Transport/Timeout`, `Malformed/BadDigit`. */
  kind: string;
  /** For a refutation: the link of the chain that broke. */
  link?: string;
}
/** The input is not what was asked for (the CLI's exit 2); a `TypeError`. */
export declare class MalformedError extends TypeError {
  constructor(message: string, kind?: string);
  class: 'Malformed';
  txfxClass: 'Malformed';
  kind: string;
}
/** A value outside what is allowed (exit 2); a `RangeError`. */
export declare class OutOfRangeError extends RangeError {
  constructor(message: string, kind?: string);
  class: 'OutOfRange';
  txfxClass: 'OutOfRange';
  kind: string;
}
/** A check that failed where the API throws instead of returning `{valid: false}` (exit 1). */
export declare class RefutedError extends Error {
  constructor(message: string, kind: string, link?: string);
  class: 'Refuted';
  txfxClass: 'Refuted';
  kind: string;
  link?: string;
}
/** The engine failed: a WASM trap, a worker gone, a module that did not load (exit 3). */
export declare class BackendError extends Error {
  constructor(message: string, kind: string);
  class: 'Backend';
  txfxClass: 'Backend';
  kind: string;
}
/** A node or L1 endpoint gave no usable answer (exit 4). */
export declare class TransportError extends Error {
  constructor(message: string, kind: string);
  class: 'Transport';
  txfxClass: 'Transport';
  kind: string;
}

//! Every JSON format txfx reads and prints, in one place: tx effects and bodies, checkpoints,
//! block headers, tx-effects witnesses, archive witnesses, stored blocks and category proofs.
//!
//! Each reader takes one shape and reads it the one way Aztec's TypeScript 4.1.2 reads it
//! (docs/spec.md §12.1–§12.7, §12.9); each printer gives TypeScript's exact shape, or txfx's own
//! for its own formats. Telling shapes apart (a `getTxEffect` result around an effect, an
//! `L2Block` around a body or a header, a JSON-RPC response around any node result) is
//! [`crate::read`]'s job, which calls these readers for the shape it finds.
//!
//! A reader takes its document as text or as an already parsed value (`&str`, `&String` or
//! `&serde_json::Value`, through [`JsonInput`]) and reads both the same way; the value form is
//! what the JavaScript bindings pass. Every reader fails with the one [`JsonError`], whose
//! [`JsonError::Malformed`] says where (path, line, column) and what. It lives in a leaf module
//! (`error.rs`, which imports no format), as do the field readers every format shares
//! (`fields.rs`), so that no format file imports from this one.
//!
//! Every printer gives a [`Json`], whose objects keep their keys in the shape's order whatever
//! serde_json's features (txfx does not turn on its `preserve_order`: [`Json`]'s docs).
//!
//! The protocol crates below (`txfx-tx-effects`, `txfx-membership`) know no JSON: this module owns
//! every rule of how their values look as text.

pub(crate) mod archive;
mod checkpoint;
pub(crate) mod effect;
mod error;
pub(crate) mod fault;
pub(crate) mod fields;
pub(crate) mod header;
mod network;
pub(crate) mod node_answer;
mod ordered;
pub(crate) mod proof;
pub mod rpc;
pub(crate) mod scan;
pub(crate) mod stored;
pub(crate) mod wire;
pub(crate) mod witness;

pub use archive::archive_witness_to_json;
pub use checkpoint::{ParsedCheckpoint, checkpoint_to_json};
pub use effect::{body_to_json, effect_to_json};
pub use error::{JsonError, MAX_SIBLING_PATH_LENGTH, SiblingPathError};
pub use fault::{JsonType, Malformation, Malformed, NumberProblem, QUOTE_CHARS, Quoted};
pub use header::{eip55_case_holds, header_to_json};
pub use network::network_to_json;
pub use node_answer::{MAX_COMMITTEE_SIZE, MAX_DEBUG_LOG_FIELDS};
pub use ordered::{Json, Object};
pub use proof::category_proof_to_json;
pub use scan::MAX_DEPTH;
pub use stored::stored_block_to_json;
pub use wire::{JsonInput, MAX_SAFE_INTEGER, safe_number};
pub use witness::{sibling_path_from_base64, witness_to_json};

// The format-level readers: each reads one exact shape (no shape told apart, no JSON-RPC envelope
// around it) and is the layer `crate::read` is built on. They stay public for txfx's own
// differential tests and benches (txfx-suite, txfx-bench) and are hidden from the docs, so that
// `crate::read` is the one documented way in.
#[doc(hidden)]
pub use archive::archive_witness_from_json;
#[doc(hidden)]
pub use checkpoint::checkpoint_from_json;
#[doc(hidden)]
pub use effect::{body_from_json, effect_from_json};
#[doc(hidden)]
pub use header::header_from_json;
#[doc(hidden)]
pub use network::network_from_json;
#[doc(hidden)]
pub use proof::category_proof_from_json;
#[doc(hidden)]
pub use stored::stored_block_from_json;
#[doc(hidden)]
pub use witness::witness_from_json;

pub(crate) use archive::archive_witness_from_text;
pub(crate) use network::read_network;

pub(crate) use fields::{fields, hex_field};

//! The edge both engines of the `txfx` npm package share: the Node addon (`js/native`, napi-rs)
//! and the WASM build (`js/wasm`, one import-free dispatcher) each export these functions unchanged, converting
//! nothing but their own binding's strings and errors. Each function calls
//! `txfx_documents::ops`, the layer the CLI calls, so the three front ends cannot drift, and the
//! two engines cannot differ in anything but the hasher they pass.
//!
//! The edge protocol, shared with `js/api.mjs` (which is all a user sees):
//! - field elements arrive as text, `0x`-hex or decimal digits (the JavaScript side passes
//!   strings on and writes a `bigint` in decimal; [`field_hex`] gives hex back where a document
//!   takes hex alone), and leave as `0x`-hex strings. A list of them (a permutation's state, a
//!   hash's inputs) crosses as one string, the elements joined by `,`, with their count beside it
//!   ([`split_fields`]): one string to convert, where one per element cost the addon more than
//!   the permutation's fixed cost. A permutation's four outputs leave as one string of 264
//!   characters, four elements of 66 back to back ([`poseidon2_permutation_joined`]);
//! - documents arrive as JSON text (the JavaScript side serializes parsed objects) or as the
//!   caller's bytes of UTF-8 JSON ([`Arg::Bytes`], read by [`utf8`]: bytes that are not UTF-8 are
//!   refused with kind `NotUtf8`, naming the offset of the first bad byte), and objects leave as
//!   JSON text, parsed on the JavaScript side;
//! - the verifications (`verifyTx`, `verifyTxEffectMembershipWitness`, `verifyArchive`) take
//!   their arguments by name, as one JSON object of strings, never as strings in a row;
//! - a failure is a [`Thrown`]: its class (`Malformed`, `OutOfRange`, `Refuted`, `Backend`,
//!   `Transport`: `txfx_documents::classify::ErrorClass`), its kind, a human message and, for a
//!   refuted verification, its link, handed across as four values (never as JSON to be parsed):
//!   the class decides which subclass of `TxfxError` `js/api.mjs` throws, or that a refuted
//!   verification becomes its verdict object.
//!
//! The modules: `thrown` (the failure and the engines' shared machinery), `fields` (field elements
//! and Poseidon2), `documents` (the document functions and the verifications' named arguments),
//! `walks` (the node walks held between the driver's calls) and `table` (the export table, the
//! one declaration of what the engines export).

mod documents;
mod fields;
mod table;
mod thrown;
mod walks;

#[cfg(test)]
mod tests;

pub use documents::*;
pub use fields::*;
pub use table::*;
pub use thrown::*;
pub use walks::*;

//! What one walk may ask and read: the limits every driver reads from here, and the bound on
//! each answer, sized by what a valid v6 answer to the request can need.
//!
//! A driver (the Rust client, the npm package's `fetch` loop) gives the whole walk one deadline
//! ([`WalkLimits::default_timeout`] unless its caller sets another, at most
//! [`WalkLimits::max_timeout`]) and stops reading an answer at its request's
//! [`crate::Request::max_answer_bytes`]. The walk counts its own requests and refuses to send
//! more than [`WalkLimits::max_requests`].
//!
//! The byte bounds are counted from the protocol's limits, never from a number a node gave: a
//! field element as v6 prints it takes 69 bytes (`"0x` and 64 digits, a quote and a comma) and
//! at most 82 inside the object of its category (a public data write's `leafSlot` and `value`),
//! and a tx effect's keys and scalars at most 300 bytes, which is less than four fields' share of
//! [`BYTES_PER_FIELD`], the fewest fields a tx takes in the blob; so an answer that carries `n`
//! fields is at most `ENVELOPE_BYTES + n * BYTES_PER_FIELD` bytes long when a v6 node prints it.

use std::time::Duration;

use txfx_documents::txfx_membership::txfx_tx_effects::checkpoint::MAX_CHECKPOINT_BLOB_FIELDS;
use txfx_documents::txfx_membership::txfx_tx_effects::limits::MAX_TX_BLOB_DATA_SIZE_IN_FIELDS;

/// The limits of one walk (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WalkLimits {
    /// The most requests one walk sends: the receipt (twice with the namespace fallback), the
    /// effect, the block, two to L1, ten windows of `getBlockData`, the archive witness, and room
    /// to spare. The walk refuses to send more.
    pub max_requests: usize,
    /// The whole walk's deadline when the caller gives none.
    pub default_timeout: Duration,
    /// The longest deadline a driver accepts: an hour, far past any honest walk, and below
    /// every timer's range (JavaScript's `setTimeout` takes at most 2^31 − 1 ms).
    pub max_timeout: Duration,
    /// The most bytes any one answer may have (a body's bound, the largest).
    pub max_answer_bytes: u64,
}

/// The limits every walk keeps.
pub const LIMITS: WalkLimits = WalkLimits {
    max_requests: 20,
    default_timeout: Duration::from_secs(60),
    max_timeout: Duration::from_secs(3600),
    max_answer_bytes: BODY_ANSWER_BYTES,
};

/// The most bytes a field element takes in a v6 answer, with its share of the keys around it
/// (module docs).
pub const BYTES_PER_FIELD: u64 = 128;

/// The most bytes of an answer beside the fields it carries: the JSON-RPC envelope, a block
/// header, archive and hash, a block response's `l1` publish info and a committee's
/// `attestations`, a receipt's scalars and `debugLogs` entries' keys.
pub const ENVELOPE_BYTES: u64 = 64 * 1024;

/// `getBlock` with its body: one block's blob data, at most a checkpoint's six blobs.
const BODY_ANSWER_BYTES: u64 = ENVELOPE_BYTES + MAX_CHECKPOINT_BLOB_FIELDS as u64 * BYTES_PER_FIELD;

/// `getTxReceipt` with its effect, or `getTxEffect`: one tx's blob data at most.
const EFFECT_ANSWER_BYTES: u64 = ENVELOPE_BYTES + MAX_TX_BLOB_DATA_SIZE_IN_FIELDS as u64 * BYTES_PER_FIELD;

/// An answer of a bounded size: a header, a witness of at most 64 siblings, a call's word.
const SMALL_ANSWER_BYTES: u64 = ENVELOPE_BYTES;

/// `eth_getBlockByNumber(tag, false)`: an L1 block with its txs' hashes. At a 100 M gas limit a
/// block holds at most 4,762 txs of 21,000 gas, 70 bytes each as hashes; 2 MiB is half again.
const L1_BLOCK_ANSWER_BYTES: u64 = 2 * 1024 * 1024;

/// What a request's answer may be, by the kind of its calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnswerSize {
    /// A receipt with its effect, or an effect.
    Effect,
    /// A block with its body.
    Body,
    /// An L1 block's head.
    L1Block,
    /// Anything else: a header, a witness, a call's word, a chain id.
    Small,
}

impl AnswerSize {
    /// The most bytes one answer of this kind takes.
    pub(crate) fn bytes(self) -> u64 {
        match self {
            Self::Effect => EFFECT_ANSWER_BYTES,
            Self::Body => BODY_ANSWER_BYTES,
            Self::L1Block => L1_BLOCK_ANSWER_BYTES,
            Self::Small => SMALL_ANSWER_BYTES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_is_the_largest_answer_and_every_bound_fits_a_timer() {
        for size in [AnswerSize::Effect, AnswerSize::L1Block, AnswerSize::Small] {
            assert!(size.bytes() < LIMITS.max_answer_bytes, "{size:?}");
        }
        assert_eq!(AnswerSize::Body.bytes(), LIMITS.max_answer_bytes);
        assert!(LIMITS.max_timeout.as_millis() < (1u128 << 31));
        assert!(LIMITS.default_timeout <= LIMITS.max_timeout);
    }
}

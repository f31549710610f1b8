//! Deterministic synthetic blocks in the three shapes the benchmarks and examples use.
//!
//! - [`Profile::Sparse`]: tx hash, fee, one nullifier, nothing else.
//! - [`Profile::SmallCategories`]: 2 note hashes, 2 nullifiers, 1 L2-to-L1 message, 2 public-data
//!   writes, 1 private log of 8 fields, 1 public log of 8 fields.
//! - [`Profile::LogHeavy`]: 64 private logs of 16 fields, public logs filling the 4096-field
//!   payload, a 3023-field contract-class log.
//!
//! Values are small distinct integers derived from (tx, category, position), so blocks are
//! reproducible, every effect is legal, and no two txs share a hash.

use txfx_poseidon::Fr;

use crate::limits::{
    CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH, MAX_PRIVATE_LOGS_PER_TX,
    PRIVATE_LOG_SIZE_IN_FIELDS, PUBLIC_LOG_HEADER_LENGTH,
};
use crate::model::{
    Body, ContractClassLog, PrivateLog, PublicDataWrite, PublicLog, TxEffect, TxEffectError, TxEffectFields,
};

/// A block shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Tx hash, fee and one nullifier.
    Sparse,
    /// A few items in every category.
    SmallCategories,
    /// Every log category full.
    LogHeavy,
}

impl Profile {
    /// All three.
    pub const ALL: [Self; 3] = [Self::Sparse, Self::SmallCategories, Self::LogHeavy];

    /// The profile's name: `sparse`, `small`, `log-heavy`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sparse => "sparse",
            Self::SmallCategories => "small",
            Self::LogHeavy => "log-heavy",
        }
    }
}

crate::names::parsed_by_name!(
    /// A name that is no profile's.
    Profile,
    UnknownProfile,
    "unknown profile {name:?}: expected sparse, small or log-heavy"
);

/// A distinct nonzero value for (tx, category, position).
fn value(tx: usize, category: u64, position: usize) -> Fr {
    Fr::from(((tx as u64 + 1) << 40) | (category << 24) | (position as u64 + 1))
}

fn values(tx: usize, category: u64, count: usize) -> Vec<Fr> {
    (0..count).map(|position| value(tx, category, position)).collect()
}

/// The effect of tx `tx` of a block of this profile.
///
/// # Errors
/// Never for the three profiles; the result goes through [`TxEffect::new`] like any input.
pub fn effect(profile: Profile, tx: usize) -> Result<TxEffect, TxEffectError> {
    let mut fields = TxEffectFields {
        tx_hash: value(tx, 0, 0),
        transaction_fee: Fr::from(1_000 + tx as u64),
        nullifiers: values(tx, 2, 1),
        ..TxEffectFields::default()
    };
    match profile {
        Profile::Sparse => {}
        Profile::SmallCategories => {
            fields.note_hashes = values(tx, 1, 2);
            fields.nullifiers = values(tx, 2, 2);
            fields.l2_to_l1_msgs = values(tx, 3, 1);
            fields.public_data_writes = (0..2)
                .map(|i| PublicDataWrite { leaf_slot: value(tx, 4, 2 * i), value: value(tx, 4, 2 * i + 1) })
                .collect();
            fields.private_logs = vec![PrivateLog { fields: values(tx, 5, 8), padding: Vec::new() }];
            fields.public_logs =
                vec![PublicLog { contract_address: value(tx, 6, 999), fields: values(tx, 6, 8) }];
        }
        Profile::LogHeavy => {
            fields.private_logs = (0..MAX_PRIVATE_LOGS_PER_TX)
                .map(|log| PrivateLog {
                    fields: (0..PRIVATE_LOG_SIZE_IN_FIELDS)
                        .map(|i| value(tx, 5, log * PRIVATE_LOG_SIZE_IN_FIELDS + i))
                        .collect(),
                    padding: Vec::new(),
                })
                .collect();
            // Four public logs whose headers and fields fill the flat payload exactly.
            let per_log = FLAT_PUBLIC_LOGS_PAYLOAD_LENGTH / 4 - PUBLIC_LOG_HEADER_LENGTH;
            fields.public_logs = (0..4)
                .map(|log| PublicLog {
                    contract_address: value(tx, 6, 100_000 + log),
                    fields: (0..per_log).map(|i| value(tx, 6, log * per_log + i)).collect(),
                })
                .collect();
            fields.contract_class_logs = vec![ContractClassLog {
                contract_address: value(tx, 7, 100_000),
                fields: values(tx, 7, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS),
            }];
        }
    }
    TxEffect::new(fields)
}

/// A block of `txs` effects of this profile.
///
/// # Errors
/// As [`effect`].
pub fn block(profile: Profile, txs: usize) -> Result<Body, TxEffectError> {
    (0..txs).map(|tx| effect(profile, tx)).collect::<Result<Vec<_>, _>>().map(Body::new)
}

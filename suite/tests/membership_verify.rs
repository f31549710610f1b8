//! Verification: every witness of blocks of 1..=40 txs verifies, every single tampering is caught
//! with the right error, and malformed witnesses are refused before hashing.

// Test code: a failed expectation is a failed test.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use txfx_membership::{
    BlockWitnesses, TrustedRoot, TxClaim, TxEffectMembershipWitness, TxLookupError, VerifyError,
    build_witness_from_leaves, verify_effect, verify_leaf, verify_tx,
};
use txfx_poseidon::{Fr, Sequential};
use txfx_tx_effects::synthetic::{Profile, block};
use txfx_tx_effects::tree::{MAX_PATH_LENGTH, PathError};
use txfx_tx_effects::{BlockNumber, Body, PrivateLog, TxEffect};

fn trusted(root: Fr) -> TrustedRoot {
    TrustedRoot::from_authenticated_header(root)
}

fn leaves(n: u64) -> Vec<Fr> {
    (0..n).map(|i| Fr::from(i * 1_000_003 + 17)).collect()
}

#[test]
fn every_witness_verifies_and_every_tampering_is_caught() {
    for n in 1..=40u64 {
        let block = BlockWitnesses::from_leaves(&Sequential, leaves(n), BlockNumber::new(1)).unwrap();
        let root = block.root();
        for (index, leaf) in leaves(n).into_iter().enumerate() {
            let w = block.witness(index).unwrap();
            verify_leaf(&Sequential, leaf, &w, trusted(root)).unwrap();
            assert!(matches!(
                verify_leaf(&Sequential, leaf, &w, trusted(root + Fr::from(1u64))),
                Err(VerifyError::RootMismatch { .. })
            ));
            assert!(
                verify_leaf(&Sequential, leaf + Fr::from(1u64), &w, trusted(root)).is_err(),
                "n {n} tx {index}: other leaf"
            );
            for step in 0..w.sibling_path.len() {
                let mut flipped = w.clone();
                flipped.leaf_index ^= 1 << step;
                assert!(
                    verify_leaf(&Sequential, leaf, &flipped, trusted(root)).is_err(),
                    "n {n} tx {index}: side {step}"
                );
                let mut replaced = w.clone();
                replaced.sibling_path[step] += Fr::from(1u64);
                assert!(
                    verify_leaf(&Sequential, leaf, &replaced, trusted(root)).is_err(),
                    "n {n} tx {index}: sibling {step}"
                );
            }
            // Dropping or adding a level is a different claim and fails too.
            if let Some((_, shorter)) = w.sibling_path.split_last() {
                let dropped = TxEffectMembershipWitness {
                    sibling_path: shorter.to_vec(),
                    leaf_index: w.leaf_index & ((1 << shorter.len()) - 1),
                    ..w.clone()
                };
                assert!(verify_leaf(&Sequential, leaf, &dropped, trusted(root)).is_err());
            }
        }
        assert_eq!(block.witness(n as usize).unwrap_err().index, n as usize);
    }
}

#[test]
fn malformed_witnesses_are_refused_before_hashing() {
    let leaf = Fr::from(5u64);
    let long = TxEffectMembershipWitness {
        block_number: BlockNumber::new(1),
        root: leaf,
        categories_hash: None,
        leaf_index: 0,
        sibling_path: vec![Fr::from(1u64); MAX_PATH_LENGTH + 1],
    };
    assert_eq!(
        verify_leaf(&Sequential, leaf, &long, trusted(leaf)),
        Err(VerifyError::Path(PathError::TooLong { length: 17, max: 16 }))
    );
    // leafIndex bits above the path: TypeScript ignores them; txfx refuses them.
    let w = build_witness_from_leaves(&Sequential, leaves(3), 2, BlockNumber::new(1)).unwrap();
    assert_eq!((w.leaf_index, w.sibling_path.len()), (1, 1));
    let high = TxEffectMembershipWitness { leaf_index: w.leaf_index | 0b10, ..w.clone() };
    assert_eq!(
        verify_leaf(&Sequential, leaves(3)[2], &high, trusted(w.root)),
        Err(VerifyError::Path(PathError::LeafIndexOutOfRange { leaf_index: 3, path_length: 1 }))
    );
    let top = TxEffectMembershipWitness { leaf_index: u64::MAX, ..w.clone() };
    assert!(matches!(
        verify_leaf(&Sequential, leaves(3)[2], &top, trusted(w.root)),
        Err(VerifyError::Path(PathError::LeafIndexOutOfRange { .. }))
    ));
    // A verification names what it proved, and only that: a bare leaf names no tx.
    let proven = verify_leaf(&Sequential, leaves(3)[2], &w, trusted(w.root)).unwrap();
    assert_eq!((proven.tx_hash, proven.categories_hash), (None, None));
    assert_eq!((proven.leaf, proven.leaf_index, proven.path_length), (leaves(3)[2], 1, 1));
    // No categories hash anywhere: verifying from a tx hash is impossible, and says so.
    assert_eq!(
        verify_tx(
            &Sequential,
            TxClaim { tx_hash: Fr::from(1u64), categories_hash: None },
            &w,
            trusted(w.root)
        ),
        Err(VerifyError::MissingCategoriesHash)
    );
}

#[test]
fn verification_from_effects() {
    let body = block(Profile::SmallCategories, 6).unwrap();
    let block_witnesses = BlockWitnesses::from_body(&Sequential, &body, BlockNumber::new(9)).unwrap();
    let root = block_witnesses.root();
    for (index, effect) in body.tx_effects.iter().enumerate() {
        let w = block_witnesses.witness(index).unwrap();
        let proven = verify_effect(&Sequential, effect, &w, trusted(root)).unwrap();
        assert_eq!((proven.tx_hash, proven.categories_hash), (Some(effect.tx_hash), w.categories_hash));
        // A categories hash the caller gives must be the witness's.
        let claim = TxClaim { tx_hash: effect.tx_hash, categories_hash: Some(Fr::from(5u64)) };
        assert!(matches!(
            verify_tx(&Sequential, claim, &w, trusted(root)),
            Err(VerifyError::CategoriesHashMismatch { .. })
        ));
        let other = &body.tx_effects[(index + 1) % body.len()];
        assert!(matches!(
            verify_effect(&Sequential, other, &w, trusted(root)),
            Err(VerifyError::CategoriesHashMismatch { .. })
        ));
        // Without the witness's categories hash, another effect fails on the root instead.
        let bare = TxEffectMembershipWitness { categories_hash: None, ..w.clone() };
        assert!(matches!(
            verify_effect(&Sequential, other, &bare, trusted(root)),
            Err(VerifyError::RootMismatch { .. })
        ));
        assert_eq!(block_witnesses.witness_for_tx_hash(effect.tx_hash).unwrap(), w);
    }
    // Private-log fields past a log's emitted length are in no commitment: refused, never covered.
    let mut padded = body.tx_effects[0].clone().into_fields();
    padded.private_logs[0] =
        PrivateLog { padding: vec![Fr::from(0u64), Fr::from(9u64)], ..padded.private_logs[0].clone() };
    let padded = TxEffect::new(padded).unwrap();
    assert_eq!(
        verify_effect(&Sequential, &padded, &block_witnesses.witness(0).unwrap(), trusted(root)),
        Err(VerifyError::UncommittedFields { log: 0, position: 9 })
    );
    assert_eq!(
        block_witnesses.witness_for_tx_hash(Fr::from(3u64)),
        Err(TxLookupError::Unknown { tx_hash: Fr::from(3u64) })
    );
    // A block that repeats a tx hash: the hash selects no tx, an index still does.
    let twice = Body::new(vec![body.tx_effects[0].clone(), body.tx_effects[0].clone()]);
    let twice_witnesses = BlockWitnesses::from_body(&Sequential, &twice, BlockNumber::new(1)).unwrap();
    let repeated = body.tx_effects[0].tx_hash;
    assert_eq!(
        twice_witnesses.witness_for_tx_hash(repeated),
        Err(TxLookupError::Repeated { tx_hash: repeated, first: 0, second: 1 })
    );
    assert!(twice_witnesses.witness(1).is_ok());
    // Bare leaves carry no tx hashes: asking by one says so.
    let leaves = BlockWitnesses::from_leaves(&Sequential, vec![Fr::from(5u64)], BlockNumber::new(1)).unwrap();
    assert_eq!(leaves.witness_for_tx_hash(repeated), Err(TxLookupError::NoTxHashes));
    let empty = BlockWitnesses::from_leaves(&Sequential, vec![], BlockNumber::new(1)).unwrap();
    assert_eq!(
        empty.witness(0).unwrap_err().to_string(),
        "tx index 0 is out of bounds for a block with 0 txs"
    );
}

//! The command line's shared vocabulary: value parsers (field elements, block numbers, names
//! parsed with their types' `FromStr`) and the argument groups several commands take.

use clap::Args;
use txfx_documents::{Expected, Subject, TxSelector};
use txfx_poseidon::Fr;
use txfx_poseidon::field::{parse_fr, parse_fr_hex};
use txfx_tx_effects::BlockNumber;

use crate::io::{Failure, Input};

/// A field element argument, `0x`-hex or decimal (Poseidon2 inputs).
pub fn field(name: &str, text: &str) -> Result<Fr, Failure> {
    parse_fr(text).map_err(|e| Failure::Input(format!("{name} {text:?}: {e}")))
}

/// A `0x`-hex field element argument (roots, hashes, leaves).
pub fn hex(name: &str, text: &str) -> Result<Fr, Failure> {
    parse_fr_hex(text).map_err(|e| Failure::Input(format!("{name} {text:?}: {e}")))
}

/// clap's parser for any type with `FromStr`: the type's own error is the message.
pub fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

/// `--block-number`, `--block-hash`, `--tx-hash`: what a verification must find.
#[derive(Args, Clone)]
pub struct ExpectArgs {
    /// The block the verdict must be about (fails, exit 1, on another).
    #[arg(long, value_parser = parsed::<BlockNumber>)]
    pub block_number: Option<BlockNumber>,
    /// The block hash the verdict must name (fails, exit 1, on another).
    #[arg(long)]
    pub block_hash: Option<String>,
}

impl ExpectArgs {
    /// The expectations, with `tx_hash` when the subject is not itself a tx hash.
    pub fn expected(&self, tx_hash: Option<Fr>) -> Result<Expected, Failure> {
        Ok(Expected::default()
            .with_block_number(self.block_number)
            .with_block_hash(self.block_hash.as_deref().map(|h| hex("--block-hash", h)).transpose()?)
            .with_tx_hash(tx_hash))
    }
}

/// What a witness is checked for: a tx hash, an effect or a category proof (`witness verify`
/// also takes a leaf instead). Which combinations make sense is checked when they are read.
#[derive(Args, Clone)]
#[group(id = "subject", multiple = true)]
pub struct SubjectArgs {
    /// The tx hash; the leaf is rebuilt with --categories-hash or the witness's. Beside
    /// --effect or --category-proof, the tx hash they must have. With `verify tx --node`, give
    /// it again for more txs (--tx-hash A --tx-hash B): one verdict line per tx, in order.
    #[arg(long, value_name = "TX_HASH", action = clap::ArgAction::Append)]
    pub tx_hash: Vec<String>,
    /// The categories hash (with --tx-hash alone).
    #[arg(long, requires = "tx_hash")]
    pub categories_hash: Option<String>,
    /// The tx effect JSON (the node's getTxEffect result or receipt too); the leaf is recomputed
    /// from it.
    #[arg(long, conflicts_with = "category_proof")]
    pub effect: Option<String>,
    /// A category proof JSON (`txfx category prove`).
    #[arg(long)]
    pub category_proof: Option<String>,
}

/// The documents a subject reads, kept alive while it is checked.
pub struct SubjectInputs {
    effect: Option<Input>,
    proof: Option<Input>,
    tx_hash: Option<Fr>,
    categories_hash: Option<Fr>,
}

impl SubjectArgs {
    /// Reads the subject's documents.
    pub fn read(&self) -> Result<SubjectInputs, Failure> {
        let categories_hash =
            self.categories_hash.as_deref().map(|c| hex("--categories-hash", c)).transpose()?;
        if categories_hash.is_some() && (self.effect.is_some() || self.category_proof.is_some()) {
            return Err(Failure::Input(
                "--categories-hash goes with --tx-hash alone: an effect or a proof gives its own".into(),
            ));
        }
        Ok(SubjectInputs {
            effect: self.effect.as_deref().map(Input::read).transpose()?,
            proof: self.category_proof.as_deref().map(Input::read).transpose()?,
            tx_hash: match self.tx_hash.as_slice() {
                [] => None,
                [tx_hash] => Some(hex("--tx-hash", tx_hash)?),
                _ => {
                    return Err(Failure::Input(
                        "--tx-hash: one tx here (several only with `verify tx --node`)".into(),
                    ));
                }
            },
            categories_hash,
        })
    }
}

impl SubjectInputs {
    /// The subject, and the tx hash it must have when `--tx-hash` sits beside an effect or a
    /// proof.
    pub fn subject(&self) -> Result<(Subject<'_>, Option<Fr>), Failure> {
        match (&self.effect, &self.proof, self.tx_hash) {
            (Some(effect), _, expected) => Ok((Subject::Effect(effect.doc()), expected)),
            (None, Some(proof), expected) => Ok((Subject::CategoryProof(proof.doc()), expected)),
            (None, None, Some(tx_hash)) => {
                Ok((Subject::Tx { tx_hash, categories_hash: self.categories_hash }, None))
            }
            (None, None, None) => Err(Failure::Input("give --tx-hash, --effect or --category-proof".into())),
        }
    }
}

/// `--tx`: an index in the block or a `0x` tx hash.
pub fn tx(text: &str) -> Result<TxSelector, Failure> {
    text.parse().map_err(|e: txfx_documents::DocumentError| Failure::Input(format!("--tx: {e}")))
}

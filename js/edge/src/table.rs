//! The export table: every function the engines export, its JavaScript name and its parameters,
//! declared once ([`EXPORTS`]), and the one dispatcher the WASM build calls ([`call`]).

use txfx_documents::classify::ErrorClass;
use txfx_documents::json::{Json, Object};
use txfx_poseidon::HashBackend;

use crate::*;

/// One argument of an export, as an engine hands it over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<'a> {
    /// An optional argument left out (`undefined` or `null` on the JavaScript side).
    Absent,
    /// A string: a field element, a name, or a document's JSON text.
    Text(&'a str),
    /// A document's bytes (UTF-8 JSON), as the caller gave them: read by [`utf8`].
    Bytes(&'a [u8]),
    /// An unsigned 32-bit number (a block number, a separator).
    Number(u32),
}

/// What an export returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returned {
    /// A string: a field element, or a document's JSON text.
    Text(String),
    /// A list of field elements.
    Texts(Vec<String>),
}

/// The kind of one parameter of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// A string.
    Text,
    /// A string, or absent.
    OptionalText,
    /// An unsigned 32-bit number.
    Number,
    /// An unsigned 32-bit number, or absent.
    OptionalNumber,
}

impl Param {
    /// The name the engines' JavaScript side reads (`text`, `text?`, `u32`, `u32?`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::OptionalText => "text?",
            Self::Number => "u32",
            Self::OptionalNumber => "u32?",
        }
    }
}

/// One function the engines export: its JavaScript name, its parameters, and what runs it.
pub struct Export {
    /// The name (`txEffectsTreeRoot`).
    pub name: &'static str,
    /// Its parameters, in order.
    pub params: &'static [Param],
    run: fn(&dyn HashBackend, &Args<'_, '_>) -> Result<Returned>,
}

/// An export's arguments, checked against its parameters.
pub struct Args<'a, 'b>(&'b [Arg<'a>]);

impl<'a> Args<'a, '_> {
    fn missing(index: usize) -> Thrown {
        Thrown::new(ErrorClass::Malformed, "Arguments", &format!("argument {index}: of the wrong kind"))
    }

    fn text(&self, index: usize) -> Result<&'a str> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(text),
            _ => Err(Self::missing(index)),
        }
    }

    /// A document: its text, or its bytes read as UTF-8 (`what` names it in a refusal).
    fn document(&self, index: usize, what: &str) -> Result<&'a str> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(text),
            Some(Arg::Bytes(bytes)) => utf8(what, bytes),
            _ => Err(Self::missing(index)),
        }
    }

    fn optional_text(&self, index: usize) -> Result<Option<&'a str>> {
        match self.0.get(index) {
            Some(Arg::Text(text)) => Ok(Some(text)),
            Some(Arg::Absent) => Ok(None),
            _ => Err(Self::missing(index)),
        }
    }

    fn number(&self, index: usize) -> Result<u32> {
        match self.0.get(index) {
            Some(Arg::Number(number)) => Ok(*number),
            _ => Err(Self::missing(index)),
        }
    }

    fn optional_number(&self, index: usize) -> Result<Option<u32>> {
        match self.0.get(index) {
            Some(Arg::Number(number)) => Ok(Some(*number)),
            Some(Arg::Absent) => Ok(None),
            _ => Err(Self::missing(index)),
        }
    }
}

use Param::{Number, OptionalNumber, OptionalText, Text};

fn text(value: Result<String>) -> Result<Returned> {
    value.map(Returned::Text)
}

/// Every export of the npm package's engines, declared once: the WASM engine exports this table
/// and one dispatcher, and its JavaScript side builds a function per entry from it.
pub const EXPORTS: &[Export] = &[
    Export {
        name: "poseidon2Permutation",
        params: &[Text, Number],
        run: |_, a| text(poseidon2_permutation_joined(a.text(0)?, a.number(1)?)),
    },
    Export {
        name: "poseidon2Hash",
        params: &[Text, Number],
        run: |_, a| text(poseidon2_hash_joined(a.text(0)?, a.number(1)?)),
    },
    Export {
        name: "poseidon2HashWithSeparator",
        params: &[Text, Number, Number],
        run: |_, a| text(poseidon2_hash_with_separator_joined(a.text(0)?, a.number(1)?, a.number(2)?)),
    },
    Export {
        name: "txEffectCommitment",
        params: &[Text, OptionalText],
        run: |h, a| text(tx_effect_commitment(h, a.document(0, "effect")?, a.optional_text(1)?)),
    },
    Export {
        name: "txEffectsTreeRoot",
        params: &[Text, OptionalText],
        run: |h, a| text(tx_effects_tree_root(h, a.document(0, "body")?, a.optional_text(1)?)),
    },
    Export {
        name: "txEffectLeaves",
        params: &[Text, OptionalNumber, OptionalText],
        run: |h, a| {
            text(tx_effect_leaves(h, a.document(0, "body")?, a.optional_number(1)?, a.optional_text(2)?))
        },
    },
    Export {
        name: "txEffectMembershipWitness",
        params: &[Text, Text, OptionalNumber, OptionalText],
        run: |h, a| {
            text(tx_effect_membership_witness(
                h,
                a.document(0, "body")?,
                a.text(1)?,
                a.optional_number(2)?,
                a.optional_text(3)?,
            ))
        },
    },
    Export {
        name: "txEffectsTreeRootFromLeaves",
        params: &[Text],
        run: |h, a| text(tx_effects_tree_root_from_leaves(h, a.document(0, "leaves")?)),
    },
    Export {
        name: "txEffectMembershipWitnessFromLeaves",
        params: &[Text, Text, OptionalNumber],
        run: |h, a| {
            text(tx_effect_membership_witness_from_leaves(
                h,
                a.document(0, "leaves")?,
                a.text(1)?,
                a.optional_number(2)?,
            ))
        },
    },
    Export {
        name: "verifyTxEffectMembershipWitness",
        params: &[Text],
        run: |h, a| text(verify_tx_effect_membership_witness_named(h, a.text(0)?)),
    },
    Export { name: "verifyTx", params: &[Text], run: |h, a| text(verify_tx_named(h, a.text(0)?)) },
    Export { name: "verifyArchive", params: &[Text], run: |h, a| text(verify_archive_named(h, a.text(0)?)) },
    Export {
        name: "blockHeaderHash",
        params: &[Text, OptionalText],
        run: |h, a| text(block_header_hash(h, a.document(0, "header")?, a.optional_text(1)?)),
    },
    Export {
        name: "decodeCheckpoint",
        params: &[Text, OptionalText],
        run: |h, a| text(decode_checkpoint(h, a.document(0, "fields")?, a.optional_text(1)?)),
    },
    Export { name: "nodeWalkStart", params: &[Text], run: |_, a| text(node_walk_start(a.text(0)?)) },
    Export {
        name: "nodeWalkStep",
        params: &[Number, Number, Text],
        run: |h, a| text(node_walk_step(h, a.number(0)?, a.number(1)?, a.text(2)?)),
    },
    Export {
        name: "nodeWalkDrop",
        params: &[Number],
        run: |_, a| Ok(Returned::Text(node_walk_drop(a.number(0)?))),
    },
    Export {
        name: "decodeSiblingPath",
        params: &[Text],
        run: |_, a| decode_sibling_path(a.text(0)?).map(Returned::Texts),
    },
    Export { name: "fieldHex", params: &[Text, Text], run: |_, a| text(field_hex(a.text(0)?, a.text(1)?)) },
    Export { name: "redactUrl", params: &[Text], run: |_, a| Ok(Returned::Text(redact_url(a.text(0)?))) },
    Export {
        name: "utf8Text",
        params: &[Text, Text],
        run: |_, a| {
            let what = a.text(0)?;
            text(a.document(1, what).map(str::to_owned))
        },
    },
    Export {
        name: "encodeBlobFields",
        params: &[Text, OptionalText],
        run: |h, a| {
            encode_blob_fields(h, a.document(0, "effectOrBody")?, a.optional_text(1)?).map(Returned::Texts)
        },
    },
];

/// Runs export `index` of [`EXPORTS`] with `args`, checked against its parameters first.
///
/// # Errors
/// An unknown export, arguments of the wrong number or kind, or whatever the export reports.
pub fn call(hasher: &dyn HashBackend, index: usize, args: &[Arg<'_>]) -> Result<Returned> {
    let export = EXPORTS
        .get(index)
        .ok_or_else(|| Thrown::new(ErrorClass::Malformed, "Arguments", &format!("no export {index}")))?;
    if args.len() != export.params.len() {
        return Err(Thrown::new(
            ErrorClass::Malformed,
            "Arguments",
            &format!("{}: {} arguments, {} given", export.name, export.params.len(), args.len()),
        ));
    }
    (export.run)(hasher, &Args(args))
}

/// [`EXPORTS`] as JSON, `[{"name", "params": ["text", "u32?", ...]}]`, in order: what an
/// engine's JavaScript side builds its functions from.
pub fn exports_json() -> String {
    EXPORTS
        .iter()
        .map(|export| {
            Object::new()
                .with("name", export.name)
                .with("params", export.params.iter().map(|p| p.name()).collect::<Json>())
        })
        .collect::<Json>()
        .to_string()
}

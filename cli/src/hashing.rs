//! `txfx poseidon2` and `txfx effect`: hashes of field elements and of one tx effect.

use clap::Subcommand;
use txfx_documents::json::{Object, effect_to_json};
use txfx_documents::ops::{Context, commitment_json, effect_commitment};
use txfx_documents::read;
use txfx_poseidon::field::fr_to_hex;
use txfx_poseidon::{DomainSeparator, HashBackend, HashBackendExt, State};

use crate::args::field;
use crate::io::{Failure, Input, answer, emit, print_json};

/// `txfx poseidon2`.
#[derive(Subcommand)]
pub enum Poseidon2Command {
    /// Permute a 4-lane state; prints the 4 output lanes.
    Permute {
        /// Four field elements (0x-hex or decimal).
        #[arg(num_args = 4, required = true, allow_hyphen_values = true)]
        lanes: Vec<String>,
    },
    /// poseidon2_hash, or poseidon2_hash_with_separator with --separator.
    Hash {
        /// A u32 domain separator (decimal or 0x-hex).
        #[arg(long, value_parser = parse_separator)]
        separator: Option<DomainSeparator>,
        /// The inputs (0x-hex or decimal).
        #[arg(allow_hyphen_values = true)]
        inputs: Vec<String>,
    },
}

fn parse_separator(text: &str) -> Result<DomainSeparator, String> {
    let value = match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse::<u32>(),
    };
    value.map(DomainSeparator::new).map_err(|_| format!("{text:?} is not a u32 separator"))
}

/// `txfx effect`.
#[derive(Subcommand)]
pub enum EffectCommand {
    /// Tx hash, marker, category hashes, categories hash, leaf and blob length of one effect.
    Hash {
        /// A JSON file with one tx effect (or a node's getTxEffect result), or - for stdin.
        file: String,
    },
    /// Print one effect as Aztec's TypeScript prints it (after every check txfx makes).
    Print {
        /// A JSON file with one tx effect (or a node's getTxEffect result), or - for stdin.
        file: String,
        /// One line, TypeScript's exact bytes (jsonStringify), instead of indented JSON.
        #[arg(long)]
        compact: bool,
    },
}

/// `txfx poseidon2`: bare, one `0x`-hex per line; with `--json`, `{"state": [4 lanes]}` or
/// `{"hash"}`.
pub fn poseidon2(backend: &dyn HashBackend, command: Poseidon2Command, json: bool) -> Result<(), Failure> {
    let fields = |values: &[String], name: &str| {
        values
            .iter()
            .enumerate()
            .map(|(i, text)| field(&format!("{name} {i}"), text))
            .collect::<Result<Vec<_>, _>>()
    };
    match command {
        Poseidon2Command::Permute { lanes } => {
            let state: State = fields(&lanes, "lane")?
                .try_into()
                .map_err(|_| Failure::Input("permute takes exactly 4 lanes".into()))?;
            let mut states = [state];
            backend.permute_batch(&mut states)?;
            let lanes: Vec<String> = states.iter().flatten().map(fr_to_hex).collect();
            answer(json, || lanes.join("\n"), || Object::new().with("state", lanes.clone()).into())?;
        }
        Poseidon2Command::Hash { separator, inputs } => {
            let values = fields(&inputs, "input")?;
            let hash = match separator {
                Some(separator) => backend.hash_with_separator(&values, separator)?,
                None => backend.hash(&values)?,
            };
            let hash = fr_to_hex(&hash);
            answer(json, || hash.clone(), || Object::new().with("hash", hash.as_str()).into())?;
        }
    }
    Ok(())
}

pub fn effect(cx: Context<'_>, command: EffectCommand) -> Result<(), Failure> {
    match command {
        EffectCommand::Print { file, compact } => {
            let input = Input::read(&file)?;
            let json = effect_to_json(&read::effect(input.doc(), cx.protocol)?.effect);
            if compact { emit(&json.to_string()) } else { print_json(&json) }
        }
        EffectCommand::Hash { file } => {
            let input = Input::read(&file)?;
            let (document, commitment) = effect_commitment(cx, input.doc())?;
            print_json(&commitment_json(&document, &commitment))
        }
    }
}

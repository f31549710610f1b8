//! Backend selection for txfx programs: native where available, WASM otherwise, as bb.js does.
//!
//! Precedence: an explicit choice (an argument to [`select_backend`], the CLI's `--backend`)
//! first, then the `TXFX_BACKEND` environment variable (`native`, `wasm` or `auto`), then `auto`.
//! `auto` picks native and falls back to WASM only if native cannot run. Any other value is an
//! error, never a silent default, and a forced backend that cannot start is an error, never a
//! silent fallback.
//!
//! ```
//! use txfx_cli::{BackendChoice, select_backend};
//! use txfx_poseidon::Hasher;
//! let backend = select_backend(Some(BackendChoice::Native), None)?;
//! assert_eq!(backend.name(), "native");
//! assert!(BackendChoice::parse("gpu").is_err());
//! # Ok::<(), txfx_cli::SelectError>(())
//! ```

use txfx_backend_native::NativeBackend;
use txfx_backend_wasm::WasmBackend;
use txfx_poseidon::{BackendError, DomainSeparator, Fr, HashJob, Hasher, Offload, State};

/// The environment variable that chooses a backend when no explicit choice is made.
pub const BACKEND_ENV: &str = "TXFX_BACKEND";

/// A requested backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// The in-process native backend.
    Native,
    /// The WASM fallback.
    Wasm,
    /// Native if it can run, else WASM.
    Auto,
}

impl BackendChoice {
    /// Parses `native`, `wasm` or `auto`.
    ///
    /// # Errors
    /// [`SelectError::UnknownBackend`] for anything else.
    pub fn parse(text: &str) -> Result<Self, SelectError> {
        match text {
            "native" => Ok(Self::Native),
            "wasm" => Ok(Self::Wasm),
            "auto" => Ok(Self::Auto),
            other => Err(SelectError::UnknownBackend { value: other.to_owned() }),
        }
    }
}

/// Why no backend was selected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// A choice that names no backend.
    #[error("unknown backend {value:?}: expected native, wasm or auto")]
    UnknownBackend {
        /// What was given.
        value: String,
    },
    /// `TXFX_BACKEND` names no backend.
    #[error("{BACKEND_ENV}={value:?} is not a backend: expected native, wasm or auto")]
    BadEnvironment {
        /// The variable's value.
        value: String,
    },
    /// The requested backend cannot start.
    #[error("the {backend} backend cannot start: {reason}")]
    Unavailable {
        /// The backend.
        backend: &'static str,
        /// Why.
        reason: String,
    },
}

/// How the backend in use was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChosenBy {
    /// An explicit choice.
    Explicit,
    /// `TXFX_BACKEND`.
    Environment,
    /// The default policy.
    Default,
}

/// One of txfx's backends, chosen at run time.
#[derive(Debug, Clone)]
pub enum AnyBackend {
    /// Native.
    Native(NativeBackend),
    /// WASM.
    Wasm(WasmBackend),
}

impl AnyBackend {
    fn inner(&self) -> &dyn Hasher {
        match self {
            Self::Native(native) => native,
            Self::Wasm(wasm) => wasm,
        }
    }
}

impl Hasher for AnyBackend {
    fn name(&self) -> &'static str {
        self.inner().name()
    }
    fn permute_many(&self, states: &mut [State]) -> Result<(), BackendError> {
        self.inner().permute_many(states)
    }
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, BackendError> {
        self.inner().hash(inputs)
    }
    fn hash_with_separator(&self, inputs: &[Fr], separator: DomainSeparator) -> Result<Fr, BackendError> {
        self.inner().hash_with_separator(inputs, separator)
    }
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        self.inner().hash_batch(jobs)
    }
    fn hash_nodes(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        self.inner().hash_nodes(separator, pairs)
    }
    fn offload(&self) -> Option<&dyn Offload> {
        self.inner().offload()
    }
}

/// Whether the native backend can run here. It is plain Rust compiled for this machine, so it
/// always can; the check exists so that `auto` follows the same policy as bb.js should a build
/// ever lack it.
fn native_available() -> Result<NativeBackend, String> {
    Ok(NativeBackend::new())
}

fn start(choice: BackendChoice) -> Result<AnyBackend, SelectError> {
    match choice {
        BackendChoice::Native => native_available()
            .map(AnyBackend::Native)
            .map_err(|reason| SelectError::Unavailable { backend: "native", reason }),
        BackendChoice::Wasm => WasmBackend::new()
            .map(AnyBackend::Wasm)
            .map_err(|error| SelectError::Unavailable { backend: "wasm", reason: error.reason }),
        BackendChoice::Auto => match native_available() {
            Ok(native) => Ok(AnyBackend::Native(native)),
            Err(_) => start(BackendChoice::Wasm),
        },
    }
}

/// Selects a backend: `explicit` first, then `environment` (the value of `TXFX_BACKEND`, which
/// [`select_backend_from_env`] reads), then `auto`.
///
/// # Errors
/// [`SelectError`] for an unknown name or a requested backend that cannot start.
pub fn select_backend(
    explicit: Option<BackendChoice>,
    environment: Option<&str>,
) -> Result<AnyBackend, SelectError> {
    Ok(select_backend_with_reason(explicit, environment)?.0)
}

/// [`select_backend`], also saying how the backend was chosen.
///
/// # Errors
/// As [`select_backend`].
pub fn select_backend_with_reason(
    explicit: Option<BackendChoice>,
    environment: Option<&str>,
) -> Result<(AnyBackend, ChosenBy), SelectError> {
    let (choice, by) = match (explicit, environment) {
        (Some(choice), _) => (choice, ChosenBy::Explicit),
        (None, Some(value)) => (
            BackendChoice::parse(value)
                .map_err(|_| SelectError::BadEnvironment { value: value.to_owned() })?,
            ChosenBy::Environment,
        ),
        (None, None) => (BackendChoice::Auto, ChosenBy::Default),
    };
    Ok((start(choice)?, by))
}

/// [`select_backend_with_reason`] with `TXFX_BACKEND` read from the environment.
///
/// # Errors
/// As [`select_backend`]; a `TXFX_BACKEND` that is not valid Unicode is [`SelectError::BadEnvironment`].
pub fn select_backend_from_env(
    explicit: Option<BackendChoice>,
) -> Result<(AnyBackend, ChosenBy), SelectError> {
    let environment = match std::env::var(BACKEND_ENV) {
        Ok(value) => Some(value),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(value)) => {
            return Err(SelectError::BadEnvironment { value: value.to_string_lossy().into_owned() });
        }
    };
    select_backend_with_reason(explicit, environment.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_beats_environment_beats_default() {
        let (b, by) = select_backend_with_reason(Some(BackendChoice::Wasm), Some("native")).unwrap();
        assert_eq!((b.name(), by), ("wasm", ChosenBy::Explicit));
        let (b, by) = select_backend_with_reason(None, Some("wasm")).unwrap();
        assert_eq!((b.name(), by), ("wasm", ChosenBy::Environment));
        let (b, by) = select_backend_with_reason(None, Some("native")).unwrap();
        assert_eq!((b.name(), by), ("native", ChosenBy::Environment));
        let (b, by) = select_backend_with_reason(None, Some("auto")).unwrap();
        assert_eq!((b.name(), by), ("native", ChosenBy::Environment));
        let (b, by) = select_backend_with_reason(None, None).unwrap();
        assert_eq!((b.name(), by), ("native", ChosenBy::Default));
    }

    #[test]
    fn unknown_names_are_errors_not_defaults() {
        assert_eq!(
            select_backend(None, Some("NATIVE")).unwrap_err(),
            SelectError::BadEnvironment { value: "NATIVE".into() }
        );
        assert_eq!(
            select_backend(None, Some("")).unwrap_err(),
            SelectError::BadEnvironment { value: String::new() }
        );
        assert_eq!(BackendChoice::parse("bb"), Err(SelectError::UnknownBackend { value: "bb".into() }));
        // An explicit choice wins even over a bad environment value.
        assert_eq!(select_backend(Some(BackendChoice::Native), Some("junk")).unwrap().name(), "native");
    }
}

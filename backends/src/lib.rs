#![doc = include_str!("../README.md")]

/// txfx-poseidon, re-exported: the backend traits the selected backend implements, `Fr`, the field
/// codec.
pub use txfx_poseidon;

use async_trait::async_trait;
pub use txfx_backend_native::{AsyncNativeBackend, NativeBackend};
#[cfg(feature = "wasm")]
pub use txfx_backend_wasm::{AsyncWasmBackend, WasmBackend};
use txfx_poseidon::{AsyncHashBackend, BackendError, DomainSeparator, Fr, HashBackend, HashJob, State};

/// The environment variable that chooses a backend when no explicit choice is made.
pub const BACKEND_ENV: &str = "TXFX_BACKEND";

/// A requested backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// The in-process native backend.
    Native,
    /// The WASM fallback.
    Wasm,
    /// The default policy: native (see the crate docs).
    Auto,
}

/// Parses `native`, `wasm` or `auto` (exactly; no other spelling); anything else is
/// [`SelectError::UnknownBackend`].
impl std::str::FromStr for BackendChoice {
    type Err = SelectError;
    fn from_str(text: &str) -> Result<Self, SelectError> {
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
#[non_exhaustive]
pub enum SelectError {
    /// A choice that names no backend.
    #[error("unknown backend {value:?}: expected native, wasm or auto")]
    UnknownBackend {
        /// What was given.
        value: String,
    },
    /// `TXFX_BACKEND` names no backend (or is not Unicode).
    #[error("{BACKEND_ENV}={value:?} is not a backend: expected native, wasm or auto")]
    BadEnvironment {
        /// The variable's value (lossily decoded if it was not Unicode).
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
#[non_exhaustive]
pub enum AnyBackend {
    /// Native.
    Native(NativeBackend),
    /// WASM.
    #[cfg(feature = "wasm")]
    Wasm(WasmBackend),
}

impl AnyBackend {
    fn inner(&self) -> &dyn HashBackend {
        match self {
            Self::Native(native) => native,
            #[cfg(feature = "wasm")]
            Self::Wasm(wasm) => wasm,
        }
    }

    /// This backend's own async policy, the reference's for both: batches off the caller's
    /// thread, on the process's one background pool (`txfx_poseidon::pool`), tree levels on the
    /// caller's thread ([`NativeBackend::asynchronous`], [`WasmBackend::asynchronous`]).
    pub fn asynchronous(&self) -> AnyAsyncBackend {
        match self {
            Self::Native(native) => AnyAsyncBackend::Native(native.asynchronous()),
            #[cfg(feature = "wasm")]
            Self::Wasm(wasm) => AnyAsyncBackend::Wasm(wasm.asynchronous()),
        }
    }
}

/// The synchronous face forwards the four [`HashBackend`] methods; the async policy is not a
/// method here to forward, it is [`AnyBackend::asynchronous`].
impl HashBackend for AnyBackend {
    fn name(&self) -> &'static str {
        self.inner().name()
    }
    fn permute_batch(&self, states: &mut [State]) -> Result<(), BackendError> {
        self.inner().permute_batch(states)
    }
    fn hash_batch(&self, jobs: &[HashJob]) -> Result<Vec<Fr>, BackendError> {
        self.inner().hash_batch(jobs)
    }
    fn hash_level(&self, separator: DomainSeparator, pairs: &[[Fr; 2]]) -> Result<Vec<Fr>, BackendError> {
        self.inner().hash_level(separator, pairs)
    }
}

/// [`AnyBackend`] for async callers, each backend with its own policy.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum AnyAsyncBackend {
    /// Native: batches on the background pool, tree levels on the caller's thread.
    Native(AsyncNativeBackend),
    /// WASM: batches on the background pool, tree levels on the caller's thread.
    #[cfg(feature = "wasm")]
    Wasm(AsyncWasmBackend),
}

impl AnyAsyncBackend {
    fn inner(&self) -> &dyn AsyncHashBackend {
        match self {
            Self::Native(native) => native,
            #[cfg(feature = "wasm")]
            Self::Wasm(wasm) => wasm,
        }
    }
}

#[async_trait]
impl AsyncHashBackend for AnyAsyncBackend {
    fn backend_name(&self) -> &'static str {
        self.inner().backend_name()
    }

    fn levels(&self) -> &dyn HashBackend {
        self.inner().levels()
    }

    async fn hash_batch_async(&self, jobs: Vec<HashJob>) -> Result<Vec<Fr>, BackendError> {
        self.inner().hash_batch_async(jobs).await
    }
}

#[cfg(feature = "wasm")]
fn wasm() -> Result<AnyBackend, SelectError> {
    WasmBackend::new()
        .map(AnyBackend::Wasm)
        .map_err(|error| SelectError::Unavailable { backend: "wasm", reason: error.reason })
}

#[cfg(not(feature = "wasm"))]
fn wasm() -> Result<AnyBackend, SelectError> {
    Err(SelectError::Unavailable {
        backend: "wasm",
        reason: "txfx-backends was built without its `wasm` feature".to_owned(),
    })
}

/// Starts exactly `choice` (`auto` is native, see the crate docs). Never reads the environment.
///
/// # Errors
/// [`SelectError::Unavailable`] if the WASM backend cannot start (or was not built in).
pub fn select_backend(choice: BackendChoice) -> Result<AnyBackend, SelectError> {
    match choice {
        BackendChoice::Native | BackendChoice::Auto => Ok(AnyBackend::Native(NativeBackend::new())),
        BackendChoice::Wasm => wasm(),
    }
}

/// The choice the policy makes from an explicit choice and the value of `TXFX_BACKEND`, without
/// starting anything or reading the environment itself.
///
/// # Errors
/// [`SelectError::BadEnvironment`] if `environment` is used and names no backend.
pub fn resolve_choice(
    explicit: Option<BackendChoice>,
    environment: Option<&str>,
) -> Result<(BackendChoice, ChosenBy), SelectError> {
    match (explicit, environment) {
        (Some(choice), _) => Ok((choice, ChosenBy::Explicit)),
        (None, Some(value)) => value
            .parse::<BackendChoice>()
            .map(|choice| (choice, ChosenBy::Environment))
            .map_err(|_| SelectError::BadEnvironment { value: value.to_owned() }),
        (None, None) => Ok((BackendChoice::Auto, ChosenBy::Default)),
    }
}

/// A started backend and how it was chosen.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The backend.
    pub backend: AnyBackend,
    /// How it was chosen.
    pub chosen_by: ChosenBy,
}

/// The whole policy: `explicit` if given, else `TXFX_BACKEND` read from the environment, else
/// `auto`.
///
/// # Errors
/// [`SelectError`] for a bad `TXFX_BACKEND` (not Unicode, or no backend's name) when it is
/// used, or a backend that cannot start.
pub fn select_backend_from_env(explicit: Option<BackendChoice>) -> Result<Selection, SelectError> {
    let environment = match std::env::var(BACKEND_ENV) {
        Ok(value) => Some(value),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(value)) if explicit.is_none() => {
            return Err(SelectError::BadEnvironment { value: value.to_string_lossy().into_owned() });
        }
        Err(std::env::VarError::NotUnicode(_)) => None,
    };
    let (choice, chosen_by) = resolve_choice(explicit, environment.as_deref())?;
    Ok(Selection { backend: select_backend(choice)?, chosen_by })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_beats_environment_beats_default() {
        assert_eq!(
            resolve_choice(Some(BackendChoice::Wasm), Some("native")).unwrap(),
            (BackendChoice::Wasm, ChosenBy::Explicit)
        );
        assert_eq!(resolve_choice(None, Some("wasm")).unwrap(), (BackendChoice::Wasm, ChosenBy::Environment));
        assert_eq!(resolve_choice(None, Some("auto")).unwrap(), (BackendChoice::Auto, ChosenBy::Environment));
        assert_eq!(resolve_choice(None, None).unwrap(), (BackendChoice::Auto, ChosenBy::Default));
        assert_eq!(select_backend(BackendChoice::Auto).unwrap().name(), "native");
    }

    #[test]
    fn unknown_names_are_errors_not_defaults() {
        assert_eq!(
            resolve_choice(None, Some("NATIVE")).unwrap_err(),
            SelectError::BadEnvironment { value: "NATIVE".into() }
        );
        assert_eq!(
            resolve_choice(None, Some("")).unwrap_err(),
            SelectError::BadEnvironment { value: String::new() }
        );
        assert_eq!("bb".parse::<BackendChoice>(), Err(SelectError::UnknownBackend { value: "bb".into() }));
        // An explicit choice wins even over a bad environment value.
        assert_eq!(
            resolve_choice(Some(BackendChoice::Native), Some("junk")).unwrap().0,
            BackendChoice::Native
        );
    }

    #[test]
    fn each_backend_keeps_its_async_policy_through_the_wrapper() {
        let AnyAsyncBackend::Native(native) = select_backend(BackendChoice::Native).unwrap().asynchronous()
        else {
            panic!("native selected, another async backend returned");
        };
        // The forwarding bug this type replaces: levels must stay on the caller's thread.
        assert_eq!(native.level_backend().parallel_threshold(), usize::MAX);
        let any = AnyAsyncBackend::Native(native);
        assert_eq!(any.levels().name(), "native");
    }

    #[cfg(feature = "wasm")]
    #[test]
    fn wasm_is_selected_when_forced() {
        let wasm = select_backend(BackendChoice::Wasm).unwrap();
        assert_eq!(wasm.name(), "wasm");
        assert!(matches!(wasm.asynchronous(), AnyAsyncBackend::Wasm(_)));
    }
}

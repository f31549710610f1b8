//! A failure as the edge hands it to an engine ([`Thrown`]: class, kind, message, link), and the
//! machinery every engine shares around one: UTF-8 of a document's bytes, a panic caught, a promise
//! settled exactly once.

use txfx_documents::DocumentError;
use txfx_documents::classify::{Classify, ErrorClass};

/// A failure, as the JavaScript side receives it: its class, its kind, a human message and, for
/// a refutation, the link that did not hold. Each binding hands the four across as they are (the
/// addon as the properties of the `Error` it throws, the WASM build as a packed record in its
/// output buffer), never as text to be parsed, and `js/api.mjs` builds the documented subclass of
/// `TxfxError` from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thrown {
    class: ErrorClass,
    kind: String,
    message: String,
    link: Option<String>,
}

impl Thrown {
    pub(crate) fn new(class: ErrorClass, kind: &str, message: &str) -> Self {
        Self { class, kind: kind.to_owned(), message: message.to_owned(), link: None }
    }

    /// A refutation: a check that did not hold at `link`, class `Refuted`.
    pub(crate) fn refuted(kind: String, message: String, link: &str) -> Self {
        Self { class: ErrorClass::Refuted, kind, message, link: Some(link.to_owned()) }
    }

    /// A failure of the binding's own machinery (a pool it hands work to, say), class `Backend`:
    /// no document or value of the caller's is at fault.
    pub fn backend(kind: &str, message: &str) -> Self {
        Self::new(ErrorClass::Backend, kind, message)
    }

    /// The failure's class.
    pub fn class(&self) -> ErrorClass {
        self.class
    }

    /// The class's name, as the JavaScript errors' `class` property gives it (`Malformed`, ...).
    pub fn class_name(&self) -> &'static str {
        self.class.name()
    }

    /// The kind: txfx's variant path (`NotCanonical`, `Transport/Timeout`, ...).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The human message (no structure of its own: the class, kind and link are beside it).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The link a refutation names (`archive`, `header`, `witness`, ...), only for class `Refuted`.
    pub fn link(&self) -> Option<&str> {
        self.link.as_deref()
    }
}

impl std::fmt::Display for Thrown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}/{})", self.message, self.class_name(), self.kind)
    }
}

impl From<DocumentError> for Thrown {
    fn from(error: DocumentError) -> Self {
        let message = error.to_string();
        Self::document(&error, message)
    }
}

impl Thrown {
    /// `error`'s class, kind and link, with `message`.
    pub(crate) fn document(error: &DocumentError, message: String) -> Self {
        match error.link() {
            Some(link) => Self::refuted(error.kind(), message, link),
            None => Self::new(error.class(), &error.kind(), &message),
        }
    }
}

/// What every edge function returns.
pub type Result<T> = std::result::Result<T, Thrown>;

/// A document the caller gave as bytes, as text: the bytes themselves when they are UTF-8 (no
/// copy), else a `Malformed` failure of kind `NotUtf8` naming the offset of the first byte that
/// does not begin or continue a UTF-8 sequence (a sequence cut short at the end counts from its
/// first byte), as `std::str::from_utf8`'s `valid_up_to` gives it.
///
/// # Errors
/// Bytes that are not UTF-8.
pub fn utf8<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|error| {
        let at = error.valid_up_to();
        let byte = bytes.get(at).map_or_else(String::new, |byte| format!(" (0x{byte:02x})"));
        Thrown::new(
            ErrorClass::Malformed,
            "NotUtf8",
            &format!(
                "{what}: not UTF-8: the byte at offset {at}{byte} does not begin or continue a UTF-8 sequence"
            ),
        )
    })
}

/// `work`'s result, or, should it panic, a `Backend` failure of kind `Panic` with the panic's
/// message: what an engine running work on a thread of its own reports, where a panic must
/// neither cross into JavaScript nor end the process (rayon aborts on a panic it catches).
///
/// # Errors
/// `work`'s own, or `Panic`.
pub fn caught<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    // The work's state is dropped with it: nothing it touched is read after a panic.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Err(Thrown::backend("Panic", &format!("txfx panicked: {message}")))
    })
}

/// The one settling of a promise an engine hands to another thread: [`Settle::with`] settles it
/// with a result; dropped unsettled (a pool that drops the task without running it), it settles
/// with a `Backend` failure of kind `WorkerGone`, so that no promise is left pending for ever.
pub struct Settle<F: FnOnce(Result<String>)>(Option<F>);

impl<F: FnOnce(Result<String>)> Settle<F> {
    /// Settles through `settle`, once.
    pub fn new(settle: F) -> Self {
        Self(Some(settle))
    }

    /// Settles with `result`.
    pub fn with(mut self, result: Result<String>) {
        if let Some(settle) = self.0.take() {
            settle(result);
        }
    }
}

impl<F: FnOnce(Result<String>)> Drop for Settle<F> {
    fn drop(&mut self) {
        if let Some(settle) = self.0.take() {
            settle(Err(Thrown::backend(
                "WorkerGone",
                "txfx's background pool dropped an async call without running it",
            )));
        }
    }
}

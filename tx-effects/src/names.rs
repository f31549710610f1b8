//! Enums read from their names: one definition of the exact-name parse and its error.
//!
//! Categories, element roles, protocols and synthetic profiles are each named on the command
//! line, in JSON documents and in error messages by one spelling, `name()`. Each enum lists its
//! values in `ALL`; this macro gives it the `FromStr` that accepts exactly one of those names (no
//! other spelling, no case folding), the error for a name that is none of them, and the `Display`
//! that prints the name back, so that the parse and the print cannot disagree.

/// Defines `$error` (a name that is none of `$enum::ALL`'s, with `$message` as its text), the
/// `FromStr` of `$enum` that reads exactly one of `$enum::name`'s names, and its `Display`.
macro_rules! parsed_by_name {
    ($(#[$doc:meta])* $enum:ident, $error:ident, $message:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        #[error($message)]
        pub struct $error {
            /// The name given.
            pub name: String,
        }

        /// Parses the enum's `name()` (exactly; no other spelling).
        impl core::str::FromStr for $enum {
            type Err = $error;
            fn from_str(name: &str) -> Result<Self, $error> {
                Self::ALL.into_iter().find(|value| value.name() == name).ok_or_else(|| $error { name: name.to_owned() })
            }
        }

        impl core::fmt::Display for $enum {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use parsed_by_name;

//! `--timeout`'s value: a duration with its unit (`250ms`, `1.5s`, `90s`, `2m`), or a bare number
//! of seconds, bounded by [`Timeout::MAX`].
//!
//! A small parser of our own rather than a crate: four spellings, exact decimal arithmetic in
//! milliseconds (`1.5s` is 1500 ms, never a float rounded), and a refusal for every value that
//! cannot be used (zero, negative, finer than a millisecond, above the maximum, garbage) before
//! any request is sent.

use std::time::Duration;

/// A walk's deadline, from 1 ms to [`Timeout::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeout(Duration);

/// A `--timeout` value that is no usable duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadTimeout {
    /// No number, or a number not written as digits with an optional fraction.
    NotADuration {
        /// What was given.
        given: String,
    },
    /// A unit other than `ms`, `s` and `m`.
    Unit {
        /// The unit given.
        unit: String,
    },
    /// Zero, which would end every walk before its first request.
    Zero,
    /// A part of a millisecond (`0.5ms`, `1.0001s`).
    FinerThanAMillisecond,
    /// More than [`Timeout::MAX`].
    TooLong {
        /// The most accepted.
        max: Duration,
    },
}

impl std::fmt::Display for BadTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotADuration { given } => write!(
                f,
                "{given:?} is not a duration: give seconds (90), or a number and a unit (250ms, 1.5s, 2m)"
            ),
            Self::Unit { unit } => write!(f, "unknown unit {unit:?}: ms, s or m"),
            Self::Zero => write!(f, "a zero timeout would end the walk before it starts"),
            Self::FinerThanAMillisecond => write!(f, "finer than a millisecond"),
            Self::TooLong { max } => write!(f, "more than the maximum of {}", Timeout(*max)),
        }
    }
}

impl std::error::Error for BadTimeout {}

/// The longest text read as a duration: `3600000ms` and `0.001s` fit many times over, and a
/// longer string of digits is refused before it is multiplied.
const MAX_TEXT_LEN: usize = 24;

impl Timeout {
    /// The longest walk `--timeout` allows: the walk's own longest deadline (one hour,
    /// `txfx_walk::LIMITS`), which every driver reads from there.
    pub const MAX: Duration = txfx_walk::LIMITS.max_timeout;

    /// The deadline.
    pub fn get(self) -> Duration {
        self.0
    }
}

impl std::str::FromStr for Timeout {
    type Err = BadTimeout;

    fn from_str(text: &str) -> Result<Self, BadTimeout> {
        let not_a_duration = || BadTimeout::NotADuration { given: text.to_owned() };
        if text.len() > MAX_TEXT_LEN {
            return Err(not_a_duration());
        }
        let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let millis_per_unit: u128 = match unit {
            "" | "s" => 1000,
            "ms" => 1,
            "m" => 60_000,
            unit if !number.is_empty() && unit.bytes().all(|b| b.is_ascii_alphabetic()) => {
                return Err(BadTimeout::Unit { unit: unit.to_owned() });
            }
            _ => return Err(not_a_duration()),
        };
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        // `.5` and `5.` are refused with garbage: one spelling per number.
        if whole.is_empty() || (number.contains('.') && fraction.is_empty()) || !digits(fraction) {
            return Err(not_a_duration());
        }
        let scale = 10u128.pow(u32::try_from(fraction.len()).map_err(|_| not_a_duration())?);
        let whole: u128 = whole.parse().map_err(|_| not_a_duration())?;
        let fraction: u128 =
            if fraction.is_empty() { 0 } else { fraction.parse().map_err(|_| not_a_duration())? };
        // The text is at most MAX_TEXT_LEN characters: none of these products overflows a u128.
        let scaled = (whole * scale + fraction) * millis_per_unit;
        if !scaled.is_multiple_of(scale) {
            return Err(BadTimeout::FinerThanAMillisecond);
        }
        let millis = scaled / scale;
        if millis == 0 {
            return Err(BadTimeout::Zero);
        }
        if millis > Self::MAX.as_millis() {
            return Err(BadTimeout::TooLong { max: Self::MAX });
        }
        let millis = u64::try_from(millis).map_err(|_| BadTimeout::TooLong { max: Self::MAX })?;
        Ok(Self(Duration::from_millis(millis)))
    }
}

/// Whole seconds as `90s`, anything else as `1500ms`: a spelling the parser reads back.
impl std::fmt::Display for Timeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let millis = self.0.as_millis();
        if millis.is_multiple_of(1000) { write!(f, "{}s", millis / 1000) } else { write!(f, "{millis}ms") }
    }
}

#[cfg(test)]
mod tests {
    use super::{BadTimeout, Timeout};
    use std::time::Duration;

    fn parse(text: &str) -> Result<Duration, BadTimeout> {
        text.parse::<Timeout>().map(Timeout::get)
    }

    #[test]
    fn every_spelling_reads_exactly() {
        let ms = Duration::from_millis;
        for (text, expected) in [
            ("250ms", ms(250)),
            ("1.5s", ms(1500)),
            ("90s", ms(90_000)),
            ("2m", ms(120_000)),
            ("60", ms(60_000)),
            ("0.001s", ms(1)),
            ("0.25", ms(250)),
            ("1.25m", ms(75_000)),
            ("1ms", ms(1)),
            ("3600s", ms(3_600_000)),
            ("60m", ms(3_600_000)),
            ("3600000ms", ms(3_600_000)),
            ("007s", ms(7000)),
        ] {
            assert_eq!(parse(text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn unusable_values_are_refused_with_their_reason() {
        assert_eq!(parse("0"), Err(BadTimeout::Zero));
        assert_eq!(parse("0ms"), Err(BadTimeout::Zero));
        assert_eq!(parse("0.000s"), Err(BadTimeout::Zero));
        assert_eq!(parse("0.5ms"), Err(BadTimeout::FinerThanAMillisecond));
        assert_eq!(parse("1.0001s"), Err(BadTimeout::FinerThanAMillisecond));
        assert_eq!(parse("3601s"), Err(BadTimeout::TooLong { max: Timeout::MAX }));
        assert_eq!(parse("3600.001"), Err(BadTimeout::TooLong { max: Timeout::MAX }));
        assert_eq!(parse("61m"), Err(BadTimeout::TooLong { max: Timeout::MAX }));
        assert_eq!(parse("18446744073709551615"), Err(BadTimeout::TooLong { max: Timeout::MAX }));
        assert_eq!(parse("5h"), Err(BadTimeout::Unit { unit: "h".into() }));
        assert_eq!(parse("2min"), Err(BadTimeout::Unit { unit: "min".into() }));
        for garbage in [
            "",
            "-1",
            "-5s",
            "s",
            "ms",
            ".5",
            "5.",
            "1.2.3",
            "5 s",
            "1s5",
            "1e3",
            "+5",
            "abc",
            "１",
            "99999999999999999999999999",
        ] {
            assert!(
                matches!(parse(garbage), Err(BadTimeout::NotADuration { .. })),
                "{garbage:?}: {:?}",
                parse(garbage)
            );
        }
    }

    #[test]
    fn it_prints_a_spelling_it_reads_back() {
        for text in ["250ms", "1500ms", "90s", "3600s"] {
            let timeout: Timeout = text.parse().expect("a duration");
            assert_eq!(timeout.to_string(), text);
            assert_eq!(timeout.to_string().parse::<Timeout>(), Ok(timeout));
        }
    }
}

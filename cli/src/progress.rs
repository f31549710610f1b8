//! Progress on stderr for long work: reading and checking a large document, hashing a large body,
//! a `--jsonl` backfill, a node walk. Drawn only when stderr is a terminal and `--quiet` is not
//! given; otherwise nothing here exists (no bar, no ticker thread) and every call is a no-op, so
//! output to pipes and files, and every test, is as it was.
//!
//! The bar is created hidden and drawn from the first long step on: work on an input smaller than
//! [`LARGE`] takes well under half a second and shows nothing. The libraries know nothing of it:
//! a library call is one step, with a spinner that a ticker thread (the terminal case only) keeps
//! turning while it runs.

use std::borrow::Cow;
use std::io::{IsTerminal, Read};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs of at least this many bytes show progress: reading, checking and hashing 4 MiB of a
/// body takes about 0.4 s (a 36 MB block, 3.8 s).
pub const LARGE: u64 = 4 << 20;

/// The one bar of the process, when stderr is a terminal.
struct Progress {
    bar: ProgressBar,
    shown: AtomicBool,
}

static PROGRESS: OnceLock<Progress> = OnceLock::new();

/// Turns progress on when stderr is a terminal and the user did not ask for quiet. Called once,
/// before any work.
pub fn enable(quiet: bool) {
    if !quiet && std::io::stderr().is_terminal() {
        let _ = PROGRESS.set(Progress { bar: ProgressBar::hidden(), shown: AtomicBool::new(false) });
    }
}

/// The bar, once drawn.
fn shown() -> Option<&'static ProgressBar> {
    PROGRESS.get().filter(|p| p.shown.load(Ordering::Relaxed)).map(|p| &p.bar)
}

/// Sets the bar up with `set_up`, then draws it from now on.
fn show(set_up: impl FnOnce(&ProgressBar)) {
    if let Some(progress) = PROGRESS.get() {
        set_up(&progress.bar);
        if !progress.shown.swap(true, Ordering::Relaxed) {
            progress.bar.set_draw_target(ProgressDrawTarget::stderr());
            progress.bar.enable_steady_tick(Duration::from_millis(120));
        }
    }
}

fn style(template: &str) -> ProgressStyle {
    // The templates are constants below; a bad one would fall back to the plain spinner.
    ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner())
}

const SPINNER: &str = "{spinner} {msg} ({elapsed})";
const BYTES: &str = "{spinner} {msg} {bytes}/{total_bytes} ({elapsed})";
const BYTES_UNKNOWN: &str = "{spinner} {msg} {bytes} ({elapsed})";
const COUNT: &str = "{spinner} {msg} {pos}/{len} ({elapsed})";

/// A long step begins (a node walk): drawn now, whatever its input.
pub fn step(message: impl Into<Cow<'static, str>>) {
    show(|bar| {
        bar.set_style(style(SPINNER));
        bar.set_message(message);
    });
}

/// The next step of work already shown (a large input's checking, then its hashing); nothing
/// when the work so far was small.
pub fn then(message: impl Into<Cow<'static, str>>) {
    if let Some(bar) = shown() {
        bar.set_style(style(SPINNER));
        bar.set_message(message);
    }
}

/// A new message for the bar as it is (a `--jsonl` run's lines answered so far).
pub fn message(message: impl Into<Cow<'static, str>>) {
    if let Some(bar) = shown() {
        bar.set_message(message);
    }
}

/// Counted work of `total` items (`block generate`'s txs), drawn when `large`.
pub fn count(message: impl Into<Cow<'static, str>>, total: u64, large: bool) {
    if large {
        show(|bar| {
            bar.set_style(style(COUNT));
            bar.set_length(total);
            bar.set_position(0);
            bar.set_message(message);
        });
    }
}

/// One more item of counted work done.
pub fn inc() {
    if let Some(bar) = shown() {
        bar.inc(1);
    }
}

/// Runs `write` (output to stdout) with the bar cleared, so a terminal showing both keeps them
/// apart; then draws the bar again.
pub fn suspend<R>(write: impl FnOnce() -> R) -> R {
    match shown() {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// The work is over: the bar is cleared from the terminal (before the answer's last line is
/// flushed or a failure is reported).
pub fn finish() {
    if let Some(bar) = shown() {
        bar.finish_and_clear();
    }
}

/// A reader that draws how much of `name` it has read, once the input proves large: its size,
/// when known, is at least [`LARGE`], or that much has been read (stdin, a pipe).
pub struct Reading<R> {
    inner: R,
    name: String,
    total: Option<u64>,
    done: u64,
    drawn: bool,
}

impl<R: Read> Reading<R> {
    /// Wraps `inner`, the input `name` of `total` bytes when known. Nothing is drawn unless
    /// progress is on.
    pub fn new(inner: R, name: &str, total: Option<u64>) -> Self {
        Self { inner, name: name.to_owned(), total, done: 0, drawn: false }
    }

    fn advance(&mut self, read: usize) {
        if PROGRESS.get().is_none() {
            return;
        }
        self.done = self.done.saturating_add(read as u64);
        let large = self.total.is_some_and(|total| total >= LARGE) || self.done >= LARGE;
        if !self.drawn && large {
            show(|bar| {
                match self.total {
                    Some(total) => {
                        bar.set_style(style(BYTES));
                        bar.set_length(total);
                    }
                    None => {
                        bar.set_style(style(BYTES_UNKNOWN));
                        bar.unset_length();
                    }
                }
                bar.set_position(self.done);
                bar.set_message(format!("reading {}", self.name));
            });
            self.drawn = true;
        }
        if self.drawn
            && let Some(bar) = shown()
        {
            bar.set_position(self.done);
        }
    }
}

impl<R: Read> Read for Reading<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.advance(read);
        Ok(read)
    }
}

//! The WASM engine of the `txfx` npm package: the edge's export table ([`txfx_js_edge::EXPORTS`])
//! behind one dispatcher, called with txfx's own single-threaded hasher. No threads, no
//! SharedArrayBuffer, and no imports at all: the module is plain WebAssembly, so its JavaScript
//! side (`js/wasm.js`) can instantiate it again at any time. That is how the engine survives a
//! trap (an allocation that fails, say): the instance is dropped with everything it held, and a
//! fresh one serves the next call.
//!
//! The ABI, for `js/wasm.js` (all numbers are wasm32 `i32`s):
//! - `txfx_alloc(capacity) -> ptr` and `txfx_free(ptr, capacity)`: buffers the caller fills
//!   (UTF-8 text) and frees after the call. `js/wasm.js` fills one per call, an arena holding the
//!   argument words and every string, and keeps a small one for the next call;
//!   the module only reads what the words point at, wherever it is;
//! - `txfx_call(export, words, count) -> status`: runs export `export` of the table with the
//!   arguments described by `count` words at `words`, three a piece: `[0, 0, 0]` an absent
//!   argument, `[1, ptr, len]` a string, `[2, value, 0]` a number, `[4, ptr, len]` a document's
//!   bytes as the caller gave them (UTF-8 JSON, read and refused, `NotUtf8`, by the edge: the
//!   JavaScript side decodes nothing). A list of field elements is a string and a number (the
//!   edge's list form: joined by `,`, with the count), not a kind of its own. The status is 0 for
//!   a string result, 1 for a list of strings, 2 for a failure. A list is packed, not JSON (a
//!   checkpoint's blob fields): its count `n`, then `n` byte lengths, all little-endian `u32`s,
//!   then the `n` strings' UTF-8 back to back. A failure is such a list too, a record of three or
//!   four strings: its class, its kind, its message and, for a refutation, its link
//!   (`failure_record`); no text of it is parsed;
//! - `txfx_output_ptr()` and `txfx_output_len()`: the last call's result or failure, as UTF-8,
//!   valid until the next call;
//! - `txfx_exports() -> len`: the export table as JSON (`txfx_js_edge::exports_json`), in the
//!   output buffer.

// The exported C ABI reads the caller's buffers by raw pointer: the one use of `unsafe` here,
// bounded by the ABI above (every pointer comes from `txfx_alloc`, with its length).
#![allow(unsafe_code)]

use std::cell::RefCell;

use txfx_js_edge::{self as edge, Arg, Returned, Thrown};
use txfx_poseidon::Sequential;

thread_local! {
    /// The last call's output.
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn set_output(bytes: Vec<u8>) -> usize {
    let len = bytes.len();
    OUTPUT.with(|output| *output.borrow_mut() = bytes);
    len
}

/// The alignment of every buffer [`txfx_alloc`] gives. `js/wasm.js` writes the call's words and
/// the lists' pairs through a `Uint32Array` at a 4-aligned offset into its arena, and the module
/// reads them as `u32`s, so the arena itself must start 4-aligned: a promise of this layout, not
/// of the allocator's habits (a `Vec<u8>` promises only 1).
const BUFFER_ALIGN: usize = 8;

/// The layout of a `capacity`-byte buffer (at least one byte, so that the pointer is always a
/// real allocation); a capacity no allocation can have traps, as a failed allocation does.
fn buffer_layout(capacity: usize) -> std::alloc::Layout {
    match std::alloc::Layout::from_size_align(capacity.max(1), BUFFER_ALIGN) {
        Ok(layout) => layout,
        Err(_) => std::process::abort(),
    }
}

/// A buffer of `capacity` bytes for the caller to fill, aligned to 8 bytes. A failed
/// allocation traps (`js/wasm.js` then drops the instance and starts a fresh one).
#[unsafe(no_mangle)]
pub extern "C" fn txfx_alloc(capacity: usize) -> *mut u8 {
    let layout = buffer_layout(capacity);
    // SAFETY: the layout's size is at least one byte.
    let pointer = unsafe { std::alloc::alloc(layout) };
    if pointer.is_null() {
        std::alloc::handle_alloc_error(layout);
    }
    pointer
}

/// Frees a buffer [`txfx_alloc`] gave.
///
/// # Safety
/// `pointer` and `capacity` are those of one [`txfx_alloc`] call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn txfx_free(pointer: *mut u8, capacity: usize) {
    // SAFETY: the caller passes back what txfx_alloc allocated, with its capacity, so with the
    // layout it was allocated with.
    unsafe { std::alloc::dealloc(pointer, buffer_layout(capacity)) };
}

/// `n` words at `pointer`, refused unless the pointer is aligned for `u32` (every word the
/// JavaScript side writes is, inside an arena [`txfx_alloc`] aligned).
///
/// # Safety
/// `pointer..pointer + 4·n` is memory the caller filled.
unsafe fn aligned_words<'a>(pointer: usize, n: usize) -> Result<&'a [u32], Thrown> {
    if !pointer.is_multiple_of(std::mem::align_of::<u32>()) {
        return Err(abi_fault("argument words not aligned to 4 bytes"));
    }
    // SAFETY: aligned (checked above), and filled by the caller, as the contract says.
    Ok(unsafe { std::slice::from_raw_parts(pointer as *const u32, n) })
}

/// The output buffer's address.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_output_ptr() -> *const u8 {
    OUTPUT.with(|output| output.borrow().as_ptr())
}

/// The output buffer's length.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_output_len() -> usize {
    OUTPUT.with(|output| output.borrow().len())
}

/// Writes the export table into the output buffer; its length.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_exports() -> usize {
    set_output(edge::exports_json().into_bytes())
}

/// A call that breaks the ABI: `js/wasm.js`'s fault, never the caller's input.
fn abi_fault(message: &str) -> Thrown {
    Thrown::backend("Abi", message)
}

/// `len` bytes at `pointer` as text.
///
/// # Safety
/// `pointer..pointer + len` is memory the caller filled.
unsafe fn text<'a>(pointer: usize, len: usize) -> Result<&'a str, Thrown> {
    // SAFETY: as the function's contract says.
    let bytes = unsafe { std::slice::from_raw_parts(pointer as *const u8, len) };
    std::str::from_utf8(bytes).map_err(|_| abi_fault("an argument is not UTF-8"))
}

/// The arguments `count` words at `words` describe (module docs).
///
/// # Safety
/// The words and every buffer they name are memory the caller filled.
unsafe fn arguments<'a>(words: *const u32, count: usize) -> Result<Vec<Arg<'a>>, Thrown> {
    // SAFETY: as the function's contract says.
    let words = unsafe { aligned_words(words as usize, count)? };
    words
        .chunks(3)
        .map(|word| match *word {
            [0, _, _] => Ok(Arg::Absent),
            // SAFETY: the caller's buffer, with its length.
            [1, pointer, len] => Ok(Arg::Text(unsafe { text(pointer as usize, len as usize)? })),
            [2, value, _] => Ok(Arg::Number(value)),
            // SAFETY: the caller's buffer, with its length.
            [4, pointer, len] => Ok(Arg::Bytes(unsafe {
                std::slice::from_raw_parts(pointer as usize as *const u8, len as usize)
            })),
            _ => Err(abi_fault("an argument of an unknown kind")),
        })
        .collect()
}

/// A list of strings as the output buffer carries it (module docs): the count and each string's
/// length in bytes as little-endian `u32`s, then the strings' UTF-8 one after another.
fn packed_texts(texts: &[String]) -> Vec<u8> {
    let body: usize = texts.iter().map(String::len).sum();
    let mut out = Vec::with_capacity(4 * (1 + texts.len()) + body);
    out.extend_from_slice(&u32_of(texts.len()).to_le_bytes());
    for text in texts {
        out.extend_from_slice(&u32_of(text.len()).to_le_bytes());
    }
    for text in texts {
        out.extend_from_slice(text.as_bytes());
    }
    out
}

/// A failure as the output buffer carries it (module docs): `[class, kind, message]`, and the
/// link after them for a refutation.
fn failure_record(thrown: &Thrown) -> Vec<String> {
    let mut record =
        vec![thrown.class_name().to_owned(), thrown.kind().to_owned(), thrown.message().to_owned()];
    if let Some(link) = thrown.link() {
        record.push(link.to_owned());
    }
    record
}

/// A length as the ABI's `u32`: every length here is of something in wasm32's memory, so it fits.
fn u32_of(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// Runs export `export` (module docs); the status.
///
/// # Safety
/// `words` and the buffers it names are memory the caller filled (module docs).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn txfx_call(export: u32, words: *const u32, count: usize) -> u32 {
    // SAFETY: passed on from the caller's contract.
    let result =
        unsafe { arguments(words, count) }.and_then(|args| edge::call(&Sequential, export as usize, &args));
    match result {
        Ok(Returned::Text(text)) => {
            set_output(text.into_bytes());
            0
        }
        Ok(Returned::Texts(texts)) => {
            set_output(packed_texts(&texts));
            1
        }
        Err(thrown) => {
            set_output(packed_texts(&failure_record(&thrown)));
            2
        }
    }
}

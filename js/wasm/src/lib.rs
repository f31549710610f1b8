//! The WASM engine of the `txfx` npm package: the edge's export table ([`txfx_js_edge::EXPORTS`])
//! behind one dispatcher, called with txfx's own single-threaded hasher. No threads, no
//! SharedArrayBuffer, and no imports at all: the module is plain WebAssembly, so its JavaScript
//! side (`js/wasm.js`) can instantiate it again at any time. That is how the engine survives a
//! trap (an allocation that fails, say): the instance is dropped with everything it held, and a
//! fresh one serves the next call.
//!
//! The ABI, for `js/wasm.js` (all numbers are wasm32 `i32`s):
//! - `txfx_alloc(capacity) -> ptr` and `txfx_free(ptr, capacity)`: buffers the caller fills
//!   (UTF-8 text) and frees after the call;
//! - `txfx_call(export, words, count) -> status`: runs export `export` of the table with the
//!   arguments described by `count` words at `words`, three a piece: `[0, 0, 0]` an absent
//!   argument, `[1, ptr, len]` a string, `[2, value, 0]` a number, `[3, ptr, n]` a list of `n`
//!   strings whose `[ptr, len]` pairs are at `ptr`, `[4, ptr, len]` a document's bytes as the
//!   caller gave them (UTF-8 JSON, read and refused, `NotUtf8`, by the edge: the JavaScript side
//!   decodes nothing). The status is 0 for a string result, 1 for a list (as JSON text), 2 for a
//!   failure (the edge's JSON message);
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

/// A buffer of `capacity` bytes for the caller to fill (at least one byte, so that the pointer is
/// always a real allocation).
#[unsafe(no_mangle)]
pub extern "C" fn txfx_alloc(capacity: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(capacity.max(1));
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

/// Frees a buffer [`txfx_alloc`] gave.
///
/// # Safety
/// `pointer` and `capacity` are those of one [`txfx_alloc`] call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn txfx_free(pointer: *mut u8, capacity: usize) {
    // SAFETY: the caller passes back what txfx_alloc allocated, with its capacity.
    drop(unsafe { Vec::from_raw_parts(pointer, 0, capacity.max(1)) });
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
    let words = unsafe { std::slice::from_raw_parts(words, count) };
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
            [3, pointer, n] => {
                // SAFETY: n pairs of words the caller wrote.
                let pairs =
                    unsafe { std::slice::from_raw_parts(pointer as usize as *const u32, 2 * n as usize) };
                pairs
                    .chunks_exact(2)
                    .map(|pair| match *pair {
                        // SAFETY: each pair names a buffer the caller filled.
                        [pointer, len] => unsafe { text(pointer as usize, len as usize) },
                        _ => Err(abi_fault("a list of strings cut short")),
                    })
                    .collect::<Result<Vec<&str>, Thrown>>()
                    .map(Arg::Texts)
            }
            _ => Err(abi_fault("an argument of an unknown kind")),
        })
        .collect()
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
            set_output(serde_json::Value::from(texts).to_string().into_bytes());
            1
        }
        Err(thrown) => {
            set_output(thrown.message().as_bytes().to_vec());
            2
        }
    }
}

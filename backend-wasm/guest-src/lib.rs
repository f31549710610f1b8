//! The WASM guest: txfx's Poseidon2 behind a minimal C-like ABI.
//!
//! All data crosses the boundary through one scratch buffer in linear memory, field elements as
//! 32-byte big-endian words, a whole batch per call:
//!
//! | export | scratch in | scratch out | returns |
//! |---|---|---|---|
//! | `txfx_scratch(bytes) -> ptr` | | | the buffer, grown to at least `bytes` |
//! | `txfx_permute(n)` | n states of 4 words | the permuted states | status |
//! | `txfx_hash_nodes(n, sep)` | n pairs of words | n words | status |
//! | `txfx_hash_batch(n)` | n × (u32 LE has_sep, u32 LE sep, u32 LE len, len words) | n words | status |
//!
//! Status 0 is success; [`STATUS_NOT_CANONICAL`] means an input word was not below p;
//! [`STATUS_SHORT_INPUT`] means the declared sizes exceed the scratch buffer.

// The ABI needs exported symbols and reads of the scratch buffer the host wrote; besides the
// x86-64 assembly product in txfx-poseidon (never built for wasm32), this crate is the only place
// txfx uses `unsafe`, and only for that.
#![allow(unsafe_code)]

use std::cell::RefCell;

use txfx_poseidon::field::{fr_from_be_slice, fr_to_be_bytes};
use txfx_poseidon::permutation::permute_many;
use txfx_poseidon::{DomainSeparator, Fr, HashJob, poseidon2_hash_pair};

/// An input word was not a canonical field element.
pub const STATUS_NOT_CANONICAL: u32 = 1;
/// The declared counts need more bytes than the scratch buffer holds.
pub const STATUS_SHORT_INPUT: u32 = 2;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Grows the scratch buffer to at least `bytes` and returns its address for the host to write.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_scratch(bytes: u32) -> u32 {
    SCRATCH.with_borrow_mut(|scratch| {
        if scratch.len() < bytes as usize {
            scratch.resize(bytes as usize, 0);
        }
        scratch.as_mut_ptr() as u32
    })
}

fn words(bytes: &[u8]) -> Result<Vec<Fr>, u32> {
    bytes.chunks_exact(32).map(|word| fr_from_be_slice(word).map_err(|_| STATUS_NOT_CANONICAL)).collect()
}

fn with_scratch(f: impl FnOnce(&mut Vec<u8>) -> Result<(), u32>) -> u32 {
    SCRATCH.with_borrow_mut(|scratch| match f(scratch) {
        Ok(()) => 0,
        Err(status) => status,
    })
}

fn input(scratch: &[u8], bytes: usize) -> Result<&[u8], u32> {
    scratch.get(..bytes).ok_or(STATUS_SHORT_INPUT)
}

fn write_words(scratch: &mut Vec<u8>, values: &[Fr]) {
    let needed = 32 * values.len();
    if scratch.len() < needed {
        scratch.resize(needed, 0);
    }
    for (slot, value) in scratch.chunks_exact_mut(32).zip(values) {
        slot.copy_from_slice(&fr_to_be_bytes(value));
    }
}

/// Permutes `n` states in place.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_permute(n: u32) -> u32 {
    with_scratch(|scratch| {
        let fields = words(input(scratch, 128 * n as usize)?)?;
        let mut states: Vec<[Fr; 4]> = fields.chunks_exact(4).map(|s| [s[0], s[1], s[2], s[3]]).collect();
        permute_many(&mut states);
        let flat: Vec<Fr> = states.into_iter().flatten().collect();
        write_words(scratch, &flat);
        Ok(())
    })
}

/// Hashes `n` pairs under separator `sep` (one tree level).
#[unsafe(no_mangle)]
pub extern "C" fn txfx_hash_nodes(n: u32, sep: u32) -> u32 {
    with_scratch(|scratch| {
        let fields = words(input(scratch, 64 * n as usize)?)?;
        let separator = DomainSeparator::new(sep);
        let out: Vec<Fr> =
            fields.chunks_exact(2).map(|p| poseidon2_hash_pair(separator, p[0], p[1])).collect();
        write_words(scratch, &out);
        Ok(())
    })
}

/// Hashes `n` independent jobs.
#[unsafe(no_mangle)]
pub extern "C" fn txfx_hash_batch(n: u32) -> u32 {
    with_scratch(|scratch| {
        let mut offset = 0usize;
        let mut jobs = Vec::with_capacity(n as usize);
        let header = |offset: &mut usize| -> Result<u32, u32> {
            let bytes = scratch.get(*offset..*offset + 4).ok_or(STATUS_SHORT_INPUT)?;
            *offset += 4;
            Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        };
        for _ in 0..n {
            let has_sep = header(&mut offset)?;
            let sep = header(&mut offset)?;
            let len = header(&mut offset)? as usize;
            let bytes = scratch.get(offset..offset + 32 * len).ok_or(STATUS_SHORT_INPUT)?;
            offset += 32 * len;
            let inputs = words(bytes)?;
            jobs.push(if has_sep != 0 {
                HashJob::with_separator(DomainSeparator::new(sep), inputs)
            } else {
                HashJob::plain(inputs)
            });
        }
        let out: Vec<Fr> = jobs.iter().map(HashJob::run).collect();
        write_words(scratch, &out);
        Ok(())
    })
}

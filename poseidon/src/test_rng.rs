//! splitmix64 (Steele, Lea, Flood, *Fast splittable pseudorandom number generators*, 2014): the
//! tests' one fixed-seed source of random limbs, field elements and lengths, so that a failure
//! reproduces from its seed. Test-only; every test module that needs random values takes them
//! from here.

use ark_bn254::Fr;
use ark_ff::{BigInt, PrimeField};

/// splitmix64 from a fixed seed.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value below `n` (`n > 0`; the modulo bias is irrelevant to the tests).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A uniformly random field element (rejection sampling on 254-bit values).
    pub(crate) fn fr(&mut self) -> Fr {
        loop {
            let limbs = [self.next_u64(), self.next_u64(), self.next_u64(), self.next_u64() >> 2];
            if let Some(x) = Fr::from_bigint(BigInt(limbs)) {
                return x;
            }
        }
    }
}

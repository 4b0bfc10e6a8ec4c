//! The portable seeded random generator. ChaCha8 produces the stream; the sampling
//! (ranges, shuffles) is ours, so a seed means the same game on every machine and with
//! every version of the dependencies.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

#[derive(Clone, Debug)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// A generator for `seed`. The 32-byte key is expanded from the seed with
    /// SplitMix64, written here so that it never changes under us.
    pub fn new(seed: u64) -> GameRng {
        let mut key = [0u8; 32];
        let mut state = seed;
        for chunk in key.chunks_exact_mut(8) {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
        GameRng(ChaCha8Rng::from_seed(key))
    }

    /// A generator for a sub-stream of `seed` (one per agent, say), independent of the
    /// main stream.
    pub fn derived(seed: u64, stream: u64) -> GameRng {
        GameRng::new(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F).rotate_left(17))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection so that no value is favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        if n <= 1 {
            return 0;
        }
        let limit = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }

    /// An index drawn with the given non-negative integer weights (at least one positive).
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut x = self.below(total.max(1));
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len().saturating_sub(1)
    }

    /// Fisher–Yates, from the last position down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = GameRng::new(3);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        // Each face is expected 1000 times; 800 is over 6 standard deviations away.
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::new(9);
        let mut items: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}

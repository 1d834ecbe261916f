//! The tests' random numbers: Knuth's MMIX linear congruential generator (multiplier
//! 6364136223846793005, increment 1442695040888963407), high 31 bits out. Deterministic from
//! the seed, so a failing seed reproduces; nothing here needs statistical quality.

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

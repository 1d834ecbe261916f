//! Layer 5: Dremel striping (records to levels + values) and record assembly (the reverse).
//!
//! This layer never sees bytes. Its unit of exchange with the page layer is [`LeafData`] (defined
//! beside the value containers, so that the page layer below can produce it): the
//! definition levels, repetition levels and non-null values of one leaf column, as a column
//! chunk holds them once decoded.
//!
//! Spec: the Dremel paper's striping, as parquet-format's README ("Nested Encoding") and
//! LogicalTypes.md (LIST and MAP, with their backward-compatibility rules) describe it.
//!
//! ```text
//! message m { optional group a (LIST) { repeated group list { optional int32 element; } } }
//! max_def_level = 3, max_rep_level = 1
//!
//! record          def  rep  value
//! a = [1, null]    3    0    1
//!                  2    1    -        (element null: def stops at `list`)
//! a = []           1    0    -        (empty list: def stops at `a`)
//! a = null         0    0    -
//! ```

pub mod assemble;
pub mod assembler;
pub mod shape;
pub mod shred;

pub use assemble::assemble;
pub use shred::{empty_columns, shred, shred_into};

pub use crate::values::LeafData;

/// How many of `levels` equal `level`, counted in chunks the compiler vectorises (a
/// `filter().count()` adds one 64-bit lane per level).
pub(crate) fn count_level(levels: &[u16], level: u16) -> usize {
    let mut chunks = levels.chunks_exact(64);
    let mut total = 0;
    for c in &mut chunks {
        // At most 64 per chunk: no overflow in u16 lanes.
        total += c.iter().map(|&x| u16::from(x == level)).sum::<u16>() as usize;
    }
    total + chunks.remainder().iter().filter(|&&x| x == level).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn count_level_counts(levels in proptest::collection::vec(0u16..4, 0..300), level in 0u16..4) {
            prop_assert_eq!(
                count_level(&levels, level),
                levels.iter().filter(|&&l| l == level).count()
            );
        }
    }
}

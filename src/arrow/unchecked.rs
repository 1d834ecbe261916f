//! The crate's only `unsafe` code, two calls in two functions, in builds with the `arrow`
//! feature alone (every other build, the core and `no_std` ones among them, is
//! `#![forbid(unsafe_code)]`): offset buffers and string arrays built without the checks of
//! arrow-rs's safe constructors, which parket has already made, more cheaply, by the time it
//! builds them.
//!
//! - [`OffsetBuffer::new`] checks that the offsets never decrease, one pair at a time with an
//!   exit at each; [`offsets`] checks the same over the whole buffer in one pass the compiler
//!   vectorizes (and that it starts at 0 and ends at the values' length).
//! - [`GenericStringArray::try_new`] checks the values' bytes as UTF-8 and each offset for a
//!   char boundary, on every batch, over every value: for a dictionary-encoded column, the
//!   same few entries again and again. The scan checked each value once already, as its page
//!   was read ([`Scan::check_utf8`](crate::read::Scan::check_utf8)): a dictionary's entries
//!   once per column chunk, other values as they were written into the batch. That was 14.1M
//!   of the 21.5M instructions that building the arrays of `strings-v1-dict-none` cost
//!   (callgrind), arrow-rs's reader (which builds its arrays with `new_unchecked` too) 0.3M.
//!
//! In debug builds (the tests) both functions also run arrow-rs's own checks on the same
//! buffers and panic if those disagree.

use arrow_array::{GenericStringArray, OffsetSizeTrait};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};

use crate::error::{Error, Result};

/// `offsets` as an Arrow offset buffer, checked: at least one, the first 0, none below the
/// one before it, the last `len` (the length of the values they index).
#[allow(unsafe_code)]
pub(super) fn offsets<O: OffsetSizeTrait>(offsets: Vec<O>, len: usize) -> Result<OffsetBuffer<O>> {
    let ascending = match offsets.split_first() {
        // No exit in the loop: it vectorizes (an `all` over pairs does not).
        Some((first, rest)) => {
            first.as_usize() == 0
                && offsets
                    .iter()
                    .zip(rest)
                    .fold(true, |ok, (a, b)| ok & (a <= b))
        }
        None => false,
    };
    if !ascending || offsets.last().map(|o| o.as_usize()) != Some(len) {
        return Err(Error::invalid_argument(
            "Arrow offsets that do not ascend from 0 to the values' length",
        ));
    }
    let offsets = ScalarBuffer::from(offsets);
    #[cfg(debug_assertions)]
    let checked = OffsetBuffer::new(offsets.clone());
    // SAFETY: `OffsetBuffer::new_unchecked` asks for what `OffsetBuffer::new` asserts: a
    // buffer that is not empty, whose first offset is not negative and whose offsets never
    // decrease. Checked above: the first is 0 and no offset is below the one before it.
    let buffer = unsafe { OffsetBuffer::new_unchecked(offsets) };
    #[cfg(debug_assertions)]
    assert_eq!(checked, buffer);
    Ok(buffer)
}

/// A string array of the values `offsets` (from [`offsets`]) mark in `data`, the slots of
/// `nulls` null: `data` must be valid UTF-8 value by value, which this function does not
/// check (in release builds). The caller's values come from a scan that checked each of them
/// ([`Scan::check_utf8`](crate::read::Scan::check_utf8)).
#[allow(unsafe_code)]
pub(super) fn string_array<O: OffsetSizeTrait>(
    offsets: OffsetBuffer<O>,
    data: Buffer,
    nulls: Option<NullBuffer>,
) -> Result<GenericStringArray<O>> {
    let len = offsets.len() - 1;
    if nulls.as_ref().is_some_and(|n| n.len() != len) {
        return Err(Error::invalid_argument(
            "a validity bitmap of another length than its string array",
        ));
    }
    if offsets.last().as_usize() > data.len() {
        return Err(Error::invalid_argument(
            "string offsets past the end of their values",
        ));
    }
    #[cfg(debug_assertions)]
    if let Err(e) = GenericStringArray::<O>::try_new(offsets.clone(), data.clone(), nulls.clone()) {
        panic!("a string array the scan checked fails arrow-rs's checks: {e}");
    }
    // SAFETY: `new_unchecked` is safe when `try_new` would not fail. `try_new` checks that
    // the null buffer (when there is one) has a slot per value (checked above), that the last
    // offset is within `data` (checked above: so is every offset, since they never decrease,
    // which `OffsetBuffer` guarantees), that the bytes from the first offset to the last are
    // valid UTF-8 and that every offset is a char boundary. The last two hold when each value
    // is valid UTF-8 on its own, as the scan checked (a null slot's value is empty).
    Ok(unsafe { GenericStringArray::new_unchecked(offsets, data, nulls) })
}

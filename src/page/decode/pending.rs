//! The BYTE_ARRAY values of a data page left encoded for a reader that takes them a batch at
//! a time ([`PageDecoder::defer_plain`](super::PageDecoder::defer_plain)): PLAIN,
//! DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY, checked whole when the page is read (so a
//! bad page fails there, located as any page), then written a range at a time straight into
//! the caller's values, in order. Decoding the page into a buffer of its own and copying each
//! batch's values out of it wrote every byte twice.

use core::ops::Range;

use crate::encoding::plain;
#[cfg(feature = "delta")]
use crate::encoding::{delta_byte_array, delta_length_byte_array};
#[cfg(not(feature = "delta"))]
use crate::error::Error;
use crate::error::Result;
use crate::format::Encoding;
use crate::values::ByteArrays;

/// The page's values as one of the three encodings' cursors holds them; the cursors (and
/// their vectors) are reused from page to page.
#[derive(Debug, Clone, Default)]
pub(super) struct PendingBytes {
    /// The encoding of the page loaded, `None` when there is none.
    loaded: Option<Encoding>,
    plain: plain::Pending,
    #[cfg(feature = "delta")]
    lengths: delta_length_byte_array::Pending,
    #[cfg(feature = "delta")]
    delta: delta_byte_array::Pending,
}

impl PendingBytes {
    /// Whether BYTE_ARRAY values of `encoding` are left encoded.
    pub(super) fn defers(encoding: Encoding) -> bool {
        match encoding {
            Encoding::Plain => true,
            #[cfg(feature = "delta")]
            Encoding::DeltaLengthByteArray | Encoding::DeltaByteArray => true,
            _ => false,
        }
    }

    /// Forgets the page loaded.
    pub(super) fn clear(&mut self) {
        self.loaded = None;
    }

    /// Whether a page is loaded.
    pub(super) fn is_loaded(&self) -> bool {
        self.loaded.is_some()
    }

    /// Checks the `n` values of `encoding` (one of [`PendingBytes::defers`]'s) at the start
    /// of `input`, a page's values section, and keeps what their cursor needs: after an
    /// error, nothing is loaded. DELTA_BYTE_ARRAY values may total at most `max_bytes`.
    pub(super) fn load(
        &mut self,
        encoding: Encoding,
        input: &[u8],
        n: usize,
        max_bytes: u64,
    ) -> Result<()> {
        self.loaded = None;
        match encoding {
            Encoding::Plain => self.plain.load(input, n)?,
            #[cfg(feature = "delta")]
            Encoding::DeltaLengthByteArray => self.lengths.load(input, n)?,
            #[cfg(feature = "delta")]
            _ => self.delta.load(input, n, None, max_bytes)?,
            // `defers` admits no other encoding without `delta`.
            #[cfg(not(feature = "delta"))]
            _ => {
                let _ = max_bytes;
                return Err(Error::unsupported(
                    "deferring BYTE_ARRAY values of this encoding",
                ));
            }
        };
        self.loaded = Some(encoding);
        Ok(())
    }

    /// Appends values `range` of the page loaded to `out`; `input` is the values section
    /// [`PendingBytes::load`] was given.
    pub(super) fn take(
        &mut self,
        input: &[u8],
        range: Range<usize>,
        out: &mut ByteArrays,
    ) -> Result<()> {
        match self.loaded {
            Some(Encoding::Plain) => self.plain.take(input, range, out),
            #[cfg(feature = "delta")]
            Some(Encoding::DeltaLengthByteArray) => self.lengths.take(input, range, out),
            #[cfg(feature = "delta")]
            Some(_) => self.delta.take(input, range, out),
            #[cfg(not(feature = "delta"))]
            Some(_) => Err(Error::unsupported(
                "deferring BYTE_ARRAY values of this encoding",
            )),
            None => Ok(()),
        }
    }
}

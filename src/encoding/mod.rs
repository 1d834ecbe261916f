//! Layer 3: page encodings, one module per encoding of Encodings.md, each with its encoder
//! beside its decoder.

#[cfg(feature = "alp")]
pub mod alp;
pub mod bit_packed;
#[cfg(feature = "byte-stream-split")]
pub mod byte_stream_split;
#[cfg(feature = "delta")]
pub mod delta_binary_packed;
#[cfg(feature = "delta")]
pub mod delta_byte_array;
#[cfg(feature = "delta")]
pub mod delta_length_byte_array;
pub mod dictionary;
pub mod plain;
pub mod rle;

use crate::error::{Error, Result};
use crate::format::Encoding;

/// Whether this build has `encoding`'s decoder and encoder: an error naming the encoding and
/// the cargo feature that builds it in when it does not. PLAIN, the dictionary encodings and
/// RLE are always there; DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY
/// come with `delta` (the two byte-array ones store their lengths as DELTA_BINARY_PACKED),
/// BYTE_STREAM_SPLIT with `byte-stream-split`, ALP with `alp`. The page decoder and encoder
/// ask it for an encoding they leave out, the writer's options for every column, so a page or
/// a column in an encoding that is not built in is an error (located as any other).
pub fn built_in(encoding: Encoding) -> Result<()> {
    let left_out = match encoding {
        #[cfg(not(feature = "delta"))]
        Encoding::DeltaBinaryPacked => Some(("DELTA_BINARY_PACKED", "delta")),
        #[cfg(not(feature = "delta"))]
        Encoding::DeltaLengthByteArray => Some(("DELTA_LENGTH_BYTE_ARRAY", "delta")),
        #[cfg(not(feature = "delta"))]
        Encoding::DeltaByteArray => Some(("DELTA_BYTE_ARRAY", "delta")),
        #[cfg(not(feature = "byte-stream-split"))]
        Encoding::ByteStreamSplit => Some(("BYTE_STREAM_SPLIT", "byte-stream-split")),
        #[cfg(not(feature = "alp"))]
        Encoding::Alp => Some(("ALP", "alp")),
        _ => None,
    };
    match left_out {
        Some((what, feature)) => Err(Error::feature_disabled(what, feature)),
        None => Ok(()),
    }
}

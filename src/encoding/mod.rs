//! Layer 3: page encodings, one module per encoding of Encodings.md, each with its encoder
//! beside its decoder.

#[cfg(feature = "alp")]
pub mod alp;
pub mod bit_packed;
pub mod byte_stream_split;
pub mod delta_binary_packed;
pub mod delta_byte_array;
pub mod delta_length_byte_array;
pub mod dictionary;
pub mod plain;
pub mod rle;

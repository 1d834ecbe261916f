//! Standard base64 (RFC 4648 section 4, with padding): the encoder, and the alphabet its
//! decoders share. Used for BINARY values in JSON (json-mapping.md) and for the wrapped keys
//! of PKMT1 key material.
//!
//! Worked example (RFC 4648 section 10): `"foob"` is `66 6f 6f 62`; the first three bytes are
//! the 24 bits `011001 100110 111101 101111` = 25 38 61 47 = `Zm9v`; the last byte `01100010`
//! padded with zero bits is `011000 100000` = 24 32 = `Yg`, then `==`.
//!
//! ```
//! assert_eq!(parket::bytes::base64::encode(b"foob"), "Zm9vYg==");
//! ```

use alloc::string::String;

/// The 64 characters, by value.
pub const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `data` in standard base64 with padding.
pub fn encode(data: &[u8]) -> String {
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

//! Standard base64 (RFC 4648 section 4): the one encoder and the one decoder of the crate.
//! Used for BINARY values in JSON and `--where` literals (json-mapping.md, strict: padded and
//! canonical), for the wrapped keys of PKMT1 key material and for pyarrow's `ARROW:schema`
//! value (lenient: padding optional, as other writers emit both).
//!
//! Worked example (RFC 4648 section 10): `"foob"` is `66 6f 6f 62`; the first three bytes are
//! the 24 bits `011001 100110 111101 101111` = 25 38 61 47 = `Zm9v`; the last byte `01100010`
//! padded with zero bits is `011000 100000` = 24 32 = `Yg`, then `==`.
//!
//! ```
//! use parket::bytes::base64::{decode, encode, Padding};
//! assert_eq!(encode(b"foob"), "Zm9vYg==");
//! assert_eq!(decode(b"Zm9vYg==", Padding::Required).as_deref(), Some(&b"foob"[..]));
//! assert_eq!(decode(b"Zm9vYg", Padding::Optional).as_deref(), Some(&b"foob"[..]));
//! assert_eq!(decode(b"Zm9vYg", Padding::Required), None); // length not a multiple of 4
//! assert_eq!(decode(b"Zm9vYh==", Padding::Required), None); // 'h' leaves non-zero bits
//! ```

use alloc::string::String;
use alloc::vec::Vec;

/// The 64 characters, by value.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

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

/// How [`decode`] treats the end of the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// RFC 4648's canonical form: the length is a multiple of 4 (padded with `=`), and the
    /// bits the last character carries beyond the data are zero.
    Required,
    /// `=` padding may be left out (if present, it must complete a group of 4); leftover bits
    /// are ignored.
    Optional,
}

/// The value of one base64 character, `None` for anything outside the alphabet.
fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// The bytes `text` encodes in standard base64; `None` when it is not base64 under `padding`
/// (a character outside the alphabet, whitespace, `=` other than at the end, a length no
/// whole number of bytes can have).
pub fn decode(text: &[u8], padding: Padding) -> Option<Vec<u8>> {
    let body = match text {
        [rest @ .., b'=', b'='] | [rest @ .., b'='] => rest,
        _ => text,
    };
    let padded = body.len() != text.len();
    if (padded || padding == Padding::Required) && text.len() % 4 != 0 || body.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in body {
        acc = (acc << 6) | sextet(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if padding == Padding::Required && acc != 0 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_both_ways() {
        // RFC 4648 section 10.
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (raw, enc) in vectors {
            assert_eq!(encode(raw.as_bytes()), enc);
            for p in [Padding::Required, Padding::Optional] {
                assert_eq!(decode(enc.as_bytes(), p).as_deref(), Some(raw.as_bytes()));
            }
            let bare = enc.trim_end_matches('=');
            assert_eq!(
                decode(bare.as_bytes(), Padding::Optional).as_deref(),
                Some(raw.as_bytes())
            );
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(
            decode(encode(&all).as_bytes(), Padding::Required),
            Some(all)
        );
    }

    #[test]
    fn malformed_is_none() {
        for p in [Padding::Required, Padding::Optional] {
            for bad in [
                "Zg=", "Zg==Zg==", "Z===", "Z", "Zm9vY", "T!", "T\nQ==", "Zm 9v",
            ] {
                assert_eq!(decode(bad.as_bytes(), p), None, "{bad:?} under {p:?}");
            }
        }
        assert_eq!(decode(b"Zh==", Padding::Required), None);
        assert_eq!(
            decode(b"Zh==", Padding::Optional).as_deref(),
            Some(&b"f"[..])
        );
        assert_eq!(decode(b"Zg", Padding::Required), None);
    }
}

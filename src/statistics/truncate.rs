//! Truncation of a byte-string min or max to a length budget, keeping it a bound: a min is
//! cut (a prefix is never greater), a max is cut and rounded up; either then is not exact.
//!
//! Spec: parquet.thrift `Statistics`, `is_min_value_exact` / `is_max_value_exact` ("If true,
//! max_value is the actual maximum value for a column"): a truncated bound is written with
//! the flag false. Only unsigned byte order is truncated (the writer's
//! `StatisticsBuilder::to_format`); UTF-8 values are cut at a character boundary.
//!
//! Worked example, to 3 bytes: the max `61 ff ff fe 80` (not UTF-8) becomes `62` (the `ff`s
//! cannot be incremented and are dropped, then `61` becomes `62`); the UTF-8 max "ééé"
//! (`c3 a9 c3 a9 c3 a9`) is cut to "é" (`c3 a9`) and rounded up to "ê" (`c3 aa`).
//!
//! ```
//! use parket::statistics::{truncate_max, truncate_min};
//! assert_eq!(truncate_max(vec![0x61, 0xff, 0xff, 0xfe, 0x80], 3), (vec![0x62], false));
//! assert_eq!(truncate_max("ééé".into(), 3), (vec![0xc3, 0xaa], false));
//! assert_eq!(truncate_min("ééé".into(), 3), (vec![0xc3, 0xa9], false));
//! ```

use alloc::vec::Vec;

/// Truncates a minimum to at most `n` bytes (at a UTF-8 character boundary when it is
/// UTF-8): a prefix is never greater. Returns the value and whether it is exact.
pub fn truncate_min(mut v: Vec<u8>, n: usize) -> (Vec<u8>, bool) {
    if v.len() <= n {
        return (v, true);
    }
    let mut cut = n;
    if let Ok(s) = core::str::from_utf8(&v) {
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
    }
    v.truncate(cut);
    (v, false)
}

/// Truncates a maximum to at most `n` bytes and rounds it up so it stays an upper bound:
/// the last byte (or, for UTF-8, the last character) is incremented, dropping those that
/// cannot be. When nothing can be incremented the value is kept whole (exact).
pub fn truncate_max(v: Vec<u8>, n: usize) -> (Vec<u8>, bool) {
    if v.len() <= n {
        return (v, true);
    }
    if let Ok(s) = core::str::from_utf8(&v) {
        let mut cut = n;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut out: alloc::string::String = s[..cut].into();
        while let Some(c) = out.pop() {
            let mut next = c as u32 + 1;
            if (0xd800..0xe000).contains(&next) {
                next = 0xe000;
            }
            if let Some(c2) = char::from_u32(next) {
                out.push(c2);
                return (out.into_bytes(), false);
            }
        }
        return (v, true);
    }
    let mut out = v[..n].to_vec();
    while let Some(last) = out.pop() {
        if last != 0xff {
            out.push(last + 1);
            return (out, false);
        }
    }
    (v, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statistics::{StatKind, StatisticsBuilder};
    use crate::values::{ByteArrays, ValuesRef};
    use alloc::vec;

    fn strings(v: &[&str]) -> ByteArrays {
        v.iter().collect()
    }

    #[test]
    fn truncation() {
        assert_eq!(
            truncate_min(b"abcdef".to_vec(), 3),
            (b"abc".to_vec(), false)
        );
        assert_eq!(
            truncate_max(b"abcdef".to_vec(), 3),
            (b"abd".to_vec(), false)
        );
        assert_eq!(truncate_max(b"abc".to_vec(), 3), (b"abc".to_vec(), true));
        assert_eq!(
            truncate_max(vec![0x61, 0xff, 0xff, 0xfe, 0x80], 3),
            (vec![0x62], false)
        );
        // Not UTF-8 (0xff) and nothing to increment: kept whole.
        assert_eq!(truncate_max(vec![0xff; 5], 3), (vec![0xff; 5], true));
        // UTF-8: "ééé" cut at 3 bytes -> "é" (2 bytes), max rounds up to "ê".
        let s = "ééé".as_bytes().to_vec();
        assert_eq!(truncate_min(s.clone(), 3), ("é".as_bytes().to_vec(), false));
        assert_eq!(truncate_max(s, 3), ("ê".as_bytes().to_vec(), false));
        let mut b = StatisticsBuilder::new(StatKind::Bytes);
        b.update(ValuesRef::ByteArray(strings(&["aaaa", "bbbb"]).as_ref()))
            .unwrap();
        let f = b.to_format(Some(2));
        assert_eq!(f.min_value.unwrap(), b"aa");
        assert_eq!(f.max_value.unwrap(), b"bc");
        assert_eq!(
            (f.is_min_value_exact, f.is_max_value_exact),
            (Some(false), Some(false))
        );
    }
}

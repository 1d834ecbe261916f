//! UTF-8 checks of byte-array values, for readers that hand them out as strings (the Arrow
//! reader's `Utf8` arrays, built without Arrow's own check: see `arrow::read`).
//!
//! A run of values `data[offsets[i]..offsets[i + 1]]` is valid exactly when each value is: the
//! bytes from the first offset to the last are valid UTF-8 as a whole *and* every offset is a
//! char boundary of them (then each value is a whole number of chars). The whole alone is not
//! enough: `[0xC3]` and `[0xA9]` make "é" together, and neither is valid alone.

/// Bytes per block of the ASCII test (a block at a time, so non-ASCII bytes stop it early).
const BLOCK: usize = 256;

/// Whether every byte is ASCII: OR-ed together a block at a time (a loop the compiler
/// vectorizes, without the exit per byte of `iter().all`).
#[inline]
fn all_ascii(bytes: &[u8]) -> bool {
    bytes
        .chunks(BLOCK)
        .all(|b| b.iter().fold(0u8, |acc, &x| acc | x) < 0x80)
}

/// Whether each value `data[offsets[i]..offsets[i + 1]]` is valid UTF-8, for `offsets` that
/// do not decrease (their order is the caller's to keep: an ASCII run is valid however it is
/// cut). An offset past `data` is `false`. Text that is all ASCII (one pass over the bytes)
/// needs no look at the offsets: every byte is a char.
pub(crate) fn values_valid(offsets: &[usize], data: &[u8]) -> bool {
    let (Some(&start), Some(&end)) = (offsets.first(), offsets.last()) else {
        return true;
    };
    let Some(bytes) = data.get(start..end) else {
        return false;
    };
    if all_ascii(bytes) {
        return true;
    }
    if core::str::from_utf8(bytes).is_err() {
        return false;
    }
    // Valid as a whole: each value is valid when it starts on a char boundary (its end is the
    // next one's start, or the end of `bytes`). A boundary is the end or a byte that is not a
    // continuation byte (0b10xx_xxxx, as i8 below -64).
    let mut prev = start;
    offsets.iter().all(|&o| {
        let ok = o >= prev && (o == end || bytes.get(o - start).is_some_and(|&b| b as i8 >= -64));
        prev = o;
        ok
    })
}

/// Whether each PLAIN BYTE_ARRAY value of `page` is valid UTF-8, value `i` being the bytes
/// after the 4-byte length prefix at `starts[i]`, up to `starts[i + 1]` (a dictionary page
/// read in place, its starts checked against it: `starts[i] + 4 <= starts[i + 1] <=
/// page.len()`). When the values and their prefixes are all ASCII (values under 128 bytes
/// have ASCII prefixes), one pass over the page; else each value on its own.
pub(crate) fn prefixed_values_valid(starts: &[usize], page: &[u8]) -> bool {
    let (Some(&first), Some(&end)) = (starts.first(), starts.last()) else {
        return true;
    };
    if page.get(first..end).is_some_and(all_ascii) {
        return true;
    }
    starts.windows(2).all(|w| {
        let value = w[0].checked_add(4).and_then(|s| page.get(s..w[1]));
        value.is_some_and(|v| core::str::from_utf8(v).is_ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The definition: every value on its own.
    fn naive(offsets: &[usize], data: &[u8]) -> bool {
        offsets.windows(2).all(|w| {
            w[0] <= w[1]
                && data
                    .get(w[0]..w[1])
                    .is_some_and(|v| core::str::from_utf8(v).is_ok())
        })
    }

    #[test]
    fn values_are_checked_one_by_one() {
        let e_acute = "é".as_bytes(); // C3 A9
                                      // (offsets, data, valid)
        let cases: &[(&[usize], &[u8], bool)] = &[
            (&[], b"", true),
            (&[0], b"", true),
            (&[0, 0, 0], b"", true),
            (&[0, 3, 5], b"abcde", true),
            (&[0, 2], e_acute, true),
            // The whole is "é", but the values are its two halves.
            (&[0, 1, 2], e_acute, false),
            (&[0, 1], &[0xC3], false),
            (&[0, 1], &[0xFF], false),
            (&[0, 2, 3], b"\xC3\xA9a", true),
            (&[0, 1, 3], b"a\xC3\xA9", true),
            // An empty value in the middle of a char.
            (&[0, 1, 1, 2], e_acute, false),
            // Offsets that run past the data; a decreasing pair inside a char.
            (&[0, 5], b"abcd", false),
            (&[0, 2, 1, 2], e_acute, false),
            // A run that does not start at 0 (a batch appended after others).
            (&[2, 4], b"\xC3\xA9\xC3\xA9", true),
            (&[1, 3], b"\xC3\xA9\xC3\xA9", false),
        ];
        for (offsets, data, valid) in cases {
            assert_eq!(values_valid(offsets, data), *valid, "{offsets:?} {data:?}");
            if offsets.first() == Some(&0) {
                assert_eq!(naive(offsets, data), *valid, "{offsets:?} {data:?}");
            }
        }
    }

    #[test]
    fn long_runs_match_the_definition() {
        // Values of ASCII, two-, three- and four-byte chars, over several ASCII blocks, cut at
        // every char boundary and, one at a time, inside a char.
        let text: Vec<u8> = "ab€ é😀xyz".repeat(300).into_bytes();
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| i == text.len() || (text[i] as i8) >= -64)
            .collect();
        assert!(values_valid(&boundaries, &text));
        assert!(naive(&boundaries, &text));
        for cut in [3usize, 4, 5, 9, 10, 11, 12] {
            let mut offsets = boundaries.clone();
            offsets.push(cut);
            offsets.sort_unstable();
            let want = naive(&offsets, &text);
            assert_eq!(values_valid(&offsets, &text), want, "cut at {cut}");
        }
        let ascii: Vec<u8> = (0..2000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let offsets: Vec<usize> = (0..=2000).step_by(7).chain([2000]).collect();
        assert!(values_valid(&offsets, &ascii));
        let mut bad = ascii.clone();
        bad[1500] = 0x80;
        assert!(!values_valid(&offsets, &bad));
    }

    /// `values` as a PLAIN page (4-byte length prefixes) and where each prefix starts.
    fn plain_page(values: &[&[u8]]) -> (Vec<usize>, Vec<u8>) {
        let (mut starts, mut page) = (Vec::new(), Vec::new());
        for v in values {
            starts.push(page.len());
            page.extend_from_slice(&(v.len() as u32).to_le_bytes());
            page.extend_from_slice(v);
        }
        starts.push(page.len());
        (starts, page)
    }

    #[test]
    fn prefixed_values_are_checked_one_by_one() {
        let long = [b'x'; 200]; // its prefix C8 00 00 00 is not ASCII
        let cases: &[(&[&[u8]], bool)] = &[
            (&[], true),
            (&[b"", b"ab", b"c"], true),
            (&[b"\xC3\xA9", &long, b"\xF0\x9F\x98\x80"], true),
            (&[&long], true),
            // "é" cut between two values.
            (&[b"\xC3", b"\xA9"], false),
            (&[b"ok", b"\xFF"], false),
            (&[&long, b"\xC3"], false),
        ];
        for (values, valid) in cases {
            let (starts, page) = plain_page(values);
            assert_eq!(prefixed_values_valid(&starts, &page), *valid, "{values:?}");
        }
    }
}

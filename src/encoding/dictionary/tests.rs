//! Tests of dictionary encoding: the index format, the gathers and the encoder.

use super::gather::NARROW;
use super::*;
use crate::encoding::plain;
use crate::error::ErrorKind;
use crate::format::PhysicalType;
use crate::values::{ByteArrays, FixedLenByteArrays, Values, ValuesRef};
use alloc::string::ToString;
use alloc::vec;
use proptest::prelude::*;

#[test]
fn bit_width_byte() {
    // bad_data/ARROW-GH-41321: a bit width of 254 is an error.
    let e = decode_indices(&[254, 0, 0], 1, &mut Vec::new()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { value: 254, .. }));
    assert!(decode_indices(&[33, 2, 0, 0, 0, 0], 1, &mut Vec::new()).is_err());
    // bad_data/ARROW-GH-43605: 00 b3 29 is 21186 zeros (2649 groups, no payload).
    let mut out = Vec::new();
    assert_eq!(
        decode_indices(&[0x00, 0xb3, 0x29], 21186, &mut out).unwrap(),
        3
    );
    assert_eq!(out, vec![0; 21186]);
    // Width 32: RLE run of 2 copies of 0xDEADBEEF.
    let mut out = Vec::new();
    assert_eq!(
        decode_indices(&[32, 0x04, 0xEF, 0xBE, 0xAD, 0xDE], 2, &mut out).unwrap(),
        6
    );
    assert_eq!(out, [0xDEADBEEF; 2]);
    assert!(decode_indices(&[], 1, &mut Vec::new()).is_err());
    assert_eq!(decode_indices(&[], 0, &mut Vec::new()).unwrap(), 0);
    // Errors from the hybrid carry offsets counted from the start of the page data.
    let e = decode_indices(&[8, 0x03, 1], 8, &mut Vec::new()).unwrap_err();
    assert_eq!(e.location().offset, Some(2));
}

#[test]
fn gather_checks_indices_once() {
    let dict = ["a", "bc"].into_iter().collect::<ByteArrays>();
    let mut out = Values::ByteArray(ByteArrays::new());
    gather(ValuesRef::ByteArray(dict.as_ref()), &[1, 0, 1], &mut out).unwrap();
    let expected: ByteArrays = ["bc", "a", "bc"].into_iter().collect();
    assert_eq!(out, Values::ByteArray(expected));

    let mut out = Values::Int32(Vec::new());
    let e = gather(ValuesRef::Int32(&[5, 6]), &[0, 2, 1], &mut out).unwrap_err();
    assert!(e
        .to_string()
        .starts_with("dictionary index of 2 exceeds the limit of 1"));
    assert!(matches!(
        e.kind(),
        ErrorKind::LimitExceeded {
            requested: 2,
            limit: 1,
            ..
        }
    ));
    assert!(out.is_empty());
    assert!(gather(ValuesRef::Int32(&[]), &[0], &mut out).is_err());
    assert!(gather(ValuesRef::Int32(&[]), &[], &mut out).is_ok());
    assert!(gather(ValuesRef::Int64(&[1]), &[0], &mut out).is_err());
    let f = FixedLenByteArrays::from_parts(2, b"xyzw".to_vec()).unwrap();
    let mut out = Values::FixedLenByteArray(FixedLenByteArrays::new(2));
    gather(
        ValuesRef::FixedLenByteArray(f.as_ref()),
        &[1, 1, 0],
        &mut out,
    )
    .unwrap();
    assert_eq!(
        out,
        Values::FixedLenByteArray(FixedLenByteArrays::from_parts(2, b"zwzwxy".to_vec()).unwrap())
    );
    let mut out = Values::FixedLenByteArray(FixedLenByteArrays::new(3));
    assert!(gather(ValuesRef::FixedLenByteArray(f.as_ref()), &[0], &mut out).is_err());
}

#[test]
fn one_entry_uses_one_bit() {
    let mut page = Vec::new();
    encode_indices(&[0; 10], 1, &mut page);
    // Bit width 1, RLE run of 10 zeros: 01 | 14 00.
    assert_eq!(page, [0x01, 0x14, 0x00]);
}

#[test]
fn floats_keyed_by_bits() {
    let nan1 = f64::from_bits(0x7FF8_0000_0000_0001);
    let nan2 = f64::from_bits(0x7FF8_0000_0000_0002);
    let values = [0.0, -0.0, nan1, nan2, nan1, 0.0];
    let mut enc = DictionaryEncoder::new(PhysicalType::Double, 0, 1000).unwrap();
    assert_eq!(enc.put(ValuesRef::Double(&values)).unwrap(), 6);
    assert_eq!(enc.len(), 4);
    assert_eq!(enc.indices(), &[0, 1, 2, 3, 2, 0]);
    let mut out = Values::Double(Vec::new());
    gather(enc.dictionary().as_ref(), enc.indices(), &mut out).unwrap();
    assert!(out.bit_eq(&Values::Double(values.to_vec())));
}

#[test]
fn byte_limit_is_the_fallback_signal() {
    // Each new string costs 4 + 2 bytes of PLAIN; a limit of 13 holds two of them.
    let values: ByteArrays = ["aa", "bb", "aa", "cc", "aa"].into_iter().collect();
    let mut enc = DictionaryEncoder::new(PhysicalType::ByteArray, 0, 13).unwrap();
    assert_eq!(enc.put(ValuesRef::ByteArray(values.as_ref())).unwrap(), 3);
    assert_eq!(enc.dictionary_plain_bytes(), 12);
    assert_eq!(enc.take_indices(), [0, 1, 0]);
    assert!(enc.indices().is_empty());
    // Values already in the dictionary are still accepted.
    assert_eq!(
        enc.put(ValuesRef::ByteArray(values.as_ref().slice(4..5)))
            .unwrap(),
        1
    );
    let mut page = Vec::new();
    plain::encode(enc.dictionary().as_ref(), &mut page).unwrap();
    assert_eq!(page.len(), enc.dictionary_plain_bytes());
    assert!(DictionaryEncoder::new(PhysicalType::Boolean, 0, 10).is_err());
    assert!(enc.put(ValuesRef::Int32(&[1])).is_err());
}

fn check_roundtrip(values: ValuesRef<'_>, type_length: usize) {
    let mut enc = DictionaryEncoder::new(values.physical_type(), type_length, usize::MAX).unwrap();
    assert_eq!(enc.put(values).unwrap(), values.len());
    // Dictionary page and data page, then back.
    let mut dict_page = Vec::new();
    plain::encode(enc.dictionary().as_ref(), &mut dict_page).unwrap();
    let mut data_page = Vec::new();
    encode_indices(enc.indices(), enc.len(), &mut data_page);
    let mut dict = Values::new(values.physical_type(), type_length);
    plain::decode(&dict_page, enc.len(), &mut dict).unwrap();
    let mut indices = Vec::new();
    assert_eq!(
        decode_indices(&data_page, values.len(), &mut indices).unwrap(),
        data_page.len()
    );
    let mut out = Values::new(values.physical_type(), type_length);
    gather(dict.as_ref(), &indices, &mut out).unwrap();
    assert!(out.as_ref().bit_eq(&values));
    let mut fused = Values::new(values.physical_type(), type_length);
    assert_eq!(
        decode_gather(&data_page, values.len(), dict.as_ref(), &mut fused).unwrap(),
        data_page.len()
    );
    assert!(fused.as_ref().bit_eq(&values));
    // No duplicate entries.
    if enc.len() > 100 {
        return;
    }
    let mut seen = Vec::new();
    for i in 0..enc.len() {
        let one = enc.dictionary().as_ref().slice(i..i + 1);
        assert!(!seen.iter().any(|s: &Values| s.as_ref().bit_eq(&one)));
        seen.push(one.to_owned());
    }
}

/// Puts `values` into a new encoder of `pt` limited to `limit` bytes, in pieces cut at
/// `splits` (clamped, in order), stopping at the first put that does not take all; returns
/// the encoder and how many values it took.
fn put_in_pieces(
    pt: PhysicalType,
    limit: usize,
    values: ValuesRef<'_>,
    splits: &[usize],
) -> (DictionaryEncoder, usize) {
    let mut cuts: Vec<usize> = splits.iter().map(|&s| s.min(values.len())).collect();
    cuts.push(0);
    cuts.push(values.len());
    cuts.sort_unstable();
    let mut enc = DictionaryEncoder::new(pt, 0, limit).unwrap();
    let mut taken = 0;
    for w in cuts.windows(2) {
        let piece = values.slice(w[0]..w[1]);
        let t = enc.put(piece).unwrap();
        taken += t;
        if t < piece.len() {
            break;
        }
    }
    (enc, taken)
}

proptest! {
    // A BYTE_ARRAY dictionary read in place from its PLAIN page (entries with a 4-byte
    // gap) gathers the same values as the decoded one, by both gathers, for short and
    // long entries and entries near the page's end.
    #[test]
    fn plain_page_entries_gather_as_decoded(
        entries in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 1..80),
        picks in proptest::collection::vec(any::<u32>(), 0..300),
        narrow in any::<bool>(),
    ) {
        let entries: Vec<Vec<u8>> = entries
            .into_iter()
            .map(|mut e| { if narrow { e.truncate(NARROW) } e })
            .collect();
        let decoded: ByteArrays = entries.iter().collect();
        let mut page = Vec::new();
        crate::encoding::plain::encode(ValuesRef::ByteArray(decoded.as_ref()), &mut page).unwrap();
        let mut starts = Vec::new();
        crate::encoding::plain::byte_array_starts(&page, entries.len(), &mut starts).unwrap();
        let in_place = Dict::Bytes(Entries::plain(&starts, &page));
        let n = entries.len() as u32;
        let indices: Vec<u32> = picks.iter().map(|&p| p % n).collect();
        let mut want = Values::ByteArray(ByteArrays::new());
        gather(ValuesRef::ByteArray(decoded.as_ref()), &indices, &mut want).unwrap();
        let mut got = Values::ByteArray(ByteArrays::new());
        gather_dict(in_place, &indices, &mut got).unwrap();
        prop_assert_eq!(&got, &want);
        let mut encoded = Vec::new();
        encode_indices(&indices, entries.len(), &mut encoded);
        let mut fused = Values::ByteArray(ByteArrays::new());
        decode_gather_dict(&encoded, indices.len(), in_place, &mut fused).unwrap();
        prop_assert_eq!(&fused, &want);
        // An index past the end is the same error.
        let mut bad = indices.clone();
        bad.push(n);
        let e1 = gather(ValuesRef::ByteArray(decoded.as_ref()), &bad, &mut want).unwrap_err();
        let e2 = gather_dict(in_place, &bad, &mut got).unwrap_err();
        prop_assert_eq!(e1.to_string(), e2.to_string());
    }

    // The encoder against a reference built on a BTreeMap of the values' bits: the same
    // dictionary (first-seen order), the same ids, the same cut where the byte limit is
    // reached, over several puts (the fast path and the per-value budget path).
    #[test]
    fn encoder_matches_btreemap_reference(
        raw in proptest::collection::vec(any::<u64>(), 0..600),
        spread in 1u64..300,
        limit in prop_oneof![Just(usize::MAX), 0usize..2000],
        splits in proptest::collection::vec(0usize..700, 0..4),
    ) {
        use alloc::collections::BTreeMap;
        // Few distinct values (repeats and runs) plus the odd special float.
        let bits: Vec<u64> = raw
            .iter()
            .map(|&r| match r % 7 {
                0 => r, // anything: NaN payloads, -0.0, huge ints
                1 => 0x8000_0000_0000_0000, // -0.0
                _ => r % spread,
            })
            .collect();
        let i64s: Vec<i64> = bits.iter().map(|&b| b as i64).collect();
        let i32s: Vec<i32> = bits.iter().map(|&b| (b ^ (b >> 32)) as i32).collect();
        let f64s: Vec<f64> = bits.iter().map(|&b| f64::from_bits(b)).collect();
        let f32s: Vec<f32> = bits.iter().map(|&b| f32::from_bits((b ^ (b >> 32)) as u32)).collect();
        let cases: [(PhysicalType, Vec<u64>, usize, Values); 4] = [
            (PhysicalType::Int64, bits.clone(), 8, Values::Int64(i64s)),
            (PhysicalType::Int32, i32s.iter().map(|&x| x as u32 as u64).collect(), 4, Values::Int32(i32s)),
            (PhysicalType::Double, bits.clone(), 8, Values::Double(f64s)),
            (PhysicalType::Float, f32s.iter().map(|x| x.to_bits() as u64).collect(), 4, Values::Float(f32s)),
        ];
        for (pt, keys, size, values) in cases {
            // Reference.
            let mut map: BTreeMap<u64, u32> = BTreeMap::new();
            let mut ref_dict: Vec<u64> = Vec::new();
            let mut ref_ids: Vec<u32> = Vec::new();
            let mut ref_taken = keys.len();
            for (i, &k) in keys.iter().enumerate() {
                let id = match map.get(&k) {
                    Some(&id) => id,
                    None => {
                        if (ref_dict.len() + 1) * size > limit {
                            ref_taken = i;
                            break;
                        }
                        map.insert(k, ref_dict.len() as u32);
                        ref_dict.push(k);
                        ref_dict.len() as u32 - 1
                    }
                };
                ref_ids.push(id);
            }
            // Encoder, fed in pieces.
            let (enc, taken) = put_in_pieces(pt, limit, values.as_ref(), &splits);
            prop_assert_eq!(taken, ref_taken);
            prop_assert_eq!(enc.indices(), &ref_ids[..]);
            let got: Vec<u64> = match enc.dictionary() {
                Values::Int64(d) => d.iter().map(|&x| x as u64).collect(),
                Values::Int32(d) => d.iter().map(|&x| x as u32 as u64).collect(),
                Values::Double(d) => d.iter().map(|x| x.to_bits()).collect(),
                Values::Float(d) => d.iter().map(|x| x.to_bits() as u64).collect(),
                _ => unreachable!(),
            };
            prop_assert_eq!(got, ref_dict);
            prop_assert_eq!(enc.dictionary_plain_bytes(), enc.len() * size);
        }
    }

    // BYTE_ARRAY against the same kind of reference: strings of 0 to 40 bytes (around the
    // encoder's 4-, 8-, 16- and 32-byte comparison and hash cases, many sharing a prefix),
    // up to 400 distinct (the table grows from 64 slots several times), repeats and runs,
    // fed in pieces, with and without a byte limit that cuts the input.
    #[test]
    fn byte_arrays_match_btreemap_reference(
        picks in proptest::collection::vec((0u32..400, 0usize..41), 0..900),
        limit in prop_oneof![Just(usize::MAX), 0usize..6000],
        splits in proptest::collection::vec(0usize..1000, 0..4),
    ) {
        use alloc::collections::BTreeMap;
        let strings: Vec<Vec<u8>> = picks
            .iter()
            .map(|&(k, len)| {
                let mut s = alloc::format!("attr-{k:05}-").into_bytes();
                s.resize(len, b'x');
                if let Some(last) = s.last_mut() {
                    *last = (k % 251) as u8;
                }
                s
            })
            .collect();
        let values: ByteArrays = strings.iter().map(|s| s.as_slice()).collect();
        let mut map: BTreeMap<&[u8], u32> = BTreeMap::new();
        let (mut ref_dict, mut ref_ids, mut used) = (Vec::new(), Vec::new(), 0usize);
        let mut ref_taken = strings.len();
        for (i, s) in strings.iter().enumerate() {
            let id = match map.get(s.as_slice()) {
                Some(&id) => id,
                None => {
                    if used + 4 + s.len() > limit {
                        ref_taken = i;
                        break;
                    }
                    used += 4 + s.len();
                    map.insert(s.as_slice(), ref_dict.len() as u32);
                    ref_dict.push(s.as_slice());
                    ref_dict.len() as u32 - 1
                }
            };
            ref_ids.push(id);
        }
        let all = ValuesRef::ByteArray(values.as_ref());
        let (enc, taken) = put_in_pieces(PhysicalType::ByteArray, limit, all, &splits);
        prop_assert_eq!(taken, ref_taken);
        prop_assert_eq!(enc.indices(), &ref_ids[..]);
        let got: Vec<&[u8]> = match enc.dictionary() {
            Values::ByteArray(d) => d.iter().collect(),
            _ => unreachable!(),
        };
        prop_assert_eq!(got, ref_dict);
        prop_assert_eq!(enc.dictionary_plain_bytes(), used);
    }

    #[test]
    fn roundtrip_all_types(raw in proptest::collection::vec(0u64..40, 0..300), wide: u64) {
        // Few distinct values, so entries repeat; `wide` spreads the bits.
        let i64s: Vec<i64> = raw.iter().map(|&r| (r.wrapping_mul(wide)) as i64).collect();
        check_roundtrip(ValuesRef::Int64(&i64s), 0);
        let i32s: Vec<i32> = i64s.iter().map(|&v| v as i32).collect();
        check_roundtrip(ValuesRef::Int32(&i32s), 0);
        let f64s: Vec<f64> = i64s.iter().map(|&v| f64::from_bits(v as u64)).collect();
        check_roundtrip(ValuesRef::Double(&f64s), 0);
        let f32s: Vec<f32> = i64s.iter().map(|&v| f32::from_bits(v as u32)).collect();
        check_roundtrip(ValuesRef::Float(&f32s), 0);
        let i96s: Vec<[u8; 12]> = raw.iter().map(|&r| { let mut a = [0u8; 12]; a[11] = r as u8; a[0] = (r * 7) as u8; a }).collect();
        check_roundtrip(ValuesRef::Int96(&i96s), 0);
        let strings: ByteArrays = raw.iter().map(|&r| alloc::format!("{}", r * r).into_bytes()).collect();
        check_roundtrip(ValuesRef::ByteArray(strings.as_ref()), 0);
        let mut flba = FixedLenByteArrays::new(3);
        for &r in &raw { flba.push(&[r as u8, 0, (r / 3) as u8]).unwrap(); }
        check_roundtrip(ValuesRef::FixedLenByteArray(flba.as_ref()), 3);
    }

    #[test]
    fn fused_gather_matches_reference(
        runs in proptest::collection::vec((0u32..40, 1usize..40), 0..60),
        dict_len in 0usize..40,
        width in 0u32..=32,
    ) {
        // Runs of repeats and mixed values (some indices past the dictionary's end),
        // against the two-pass reference, for a fixed-width and a byte-array dictionary.
        let indices: Vec<u32> = runs
            .iter()
            .flat_map(|&(v, n)| (0..n as u32).map(move |k| if n > 8 { v } else { (v + k) % 40 }))
            .collect();
        let need = rle::bit_width(indices.iter().copied().max().unwrap_or(0).into());
        let w = width.max(need);
        let mut page = vec![w as u8];
        rle::encode_u32(&indices, w, &mut page);
        let ints: Vec<i64> = (0..dict_len as i64).map(|i| i * 1000 - 7).collect();
        let strings: ByteArrays = (0..dict_len).map(|i| "x".repeat(i % 7)).collect();
        // Entries over 16 bytes too (the gather's wide blocks), and a dictionary over
        // 384 bytes (not padded).
        let long: ByteArrays = (0..dict_len).map(|i| format!("{i}").repeat(i % 23)).collect();
        for dict in [Values::Int64(ints), Values::ByteArray(strings), Values::ByteArray(long)] {
            // A naive gather, value by value, as the expectation for in-range indices.
            if let (Values::ByteArray(d), true) = (&dict, indices.iter().all(|&i| (i as usize) < dict_len)) {
                let naive: ByteArrays = indices.iter().map(|&i| d.get(i as usize).unwrap().to_vec()).collect();
                let mut fused = Values::new(dict.physical_type(), 0);
                decode_gather(&page, indices.len(), dict.as_ref(), &mut fused).unwrap();
                prop_assert!(fused.as_ref().bit_eq(&Values::ByteArray(naive).as_ref()));
            }
            let mut expected = Values::new(dict.physical_type(), 0);
            let mut idx = Vec::new();
            let reference = decode_indices(&page, indices.len(), &mut idx)
                .and_then(|used| gather(dict.as_ref(), &idx, &mut expected).map(|()| used));
            let mut fused = Values::new(dict.physical_type(), 0);
            let got = decode_gather(&page, indices.len(), dict.as_ref(), &mut fused);
            prop_assert_eq!(got.is_ok(), reference.is_ok());
            if let Ok(used) = reference {
                prop_assert_eq!(got.ok(), Some(used));
                prop_assert!(fused.as_ref().bit_eq(&expected.as_ref()));
            }
        }
    }

    #[test]
    fn many_distinct(n in 0usize..5000) {
        let v: Vec<i32> = (0..n as i32).map(|i| i.wrapping_mul(7919)).collect();
        check_roundtrip(ValuesRef::Int32(&v), 0);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        fuzz_decode(&data);
    }

    #[test]
    fn plausible_pages(nd in 1u8..10, idx in proptest::collection::vec(0u8..4, 0..40)) {
        // A dictionary of INT32, then small bytes as a hybrid stream.
        let mut data = vec![1, nd, 40, 0, 0];
        data.extend((0..nd as i32).flat_map(|i| i.to_le_bytes()));
        data.push(3);
        data.extend(&idx);
        fuzz_decode(&data);
    }
}

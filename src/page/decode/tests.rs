//! Hand-worked pages: every expected level and value below is worked out by hand from the
//! spec's byte layouts (see the module docs), not produced by the code under test.

use super::*;
use crate::format::{DataPageHeader, DataPageHeaderV2, DictionaryPageHeader};
use crate::values::ByteArrays;
use alloc::vec;

fn header(type_: PageType, body_len: usize, uncompressed: usize) -> PageHeader {
    PageHeader {
        type_,
        uncompressed_page_size: uncompressed as i32,
        compressed_page_size: body_len as i32,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

fn v1(num_values: i32, encoding: Encoding, body: &[u8]) -> PageHeader {
    let mut h = header(PageType::DataPage, body.len(), body.len());
    h.data_page_header = Some(DataPageHeader {
        num_values,
        encoding,
        definition_level_encoding: Encoding::Rle,
        repetition_level_encoding: Encoding::Rle,
        statistics: None,
    });
    h
}

fn dict(num_values: i32, body: &[u8]) -> PageHeader {
    let mut h = header(PageType::DictionaryPage, body.len(), body.len());
    h.dictionary_page_header = Some(DictionaryPageHeader {
        num_values,
        encoding: Encoding::PlainDictionary,
        is_sorted: None,
    });
    h
}

fn optional_int32() -> PageColumn {
    PageColumn::new(PhysicalType::Int32, 0, 1, 0)
}

fn decoder(col: PageColumn) -> PageDecoder<'static> {
    PageDecoder::new(col, CompressionCodec::Uncompressed, Limits::default())
}

/// The module docs' worked example: `[1, null, 3]` in an OPTIONAL INT32 column.
const EXAMPLE: [u8; 31] = [
    0x15, 0x00, 0x15, 0x1c, 0x15, 0x1c, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00,
    0x00, // header
    0x02, 0x00, 0x00, 0x00, 0x03, 0x05, // definition levels 1, 0, 1
    0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, // values 1, 3
];

#[test]
fn worked_example_v1_optional_int32() {
    let (h, used) = PageHeader::decode(&EXAMPLE).unwrap();
    assert_eq!(used, 17);
    assert_eq!(h, v1(3, Encoding::Plain, &EXAMPLE[17..]));
    let mut out = optional_int32().new_leaf_data();
    let info = decoder(optional_int32())
        .decode_page(&h, &EXAMPLE[17..], &mut out)
        .unwrap();
    assert_eq!(
        info,
        PageInfo {
            kind: PageKind::DataV1,
            num_values: 3,
            num_non_null: 2,
            num_rows: 3
        }
    );
    assert_eq!(out.def_levels, [1, 0, 1]);
    assert_eq!(out.values, Values::Int32(vec![1, 3]));
}

#[test]
fn crc_is_checked_over_the_stored_body() {
    let body = &EXAMPLE[17..];
    let mut h = v1(3, Encoding::Plain, body);
    // CRC-32 of the 14 body bytes: Python's zlib.crc32(bytes([2,0,0,0,3,5,1,0,0,0,3,0,0,0])).
    let good: u32 = 0x4f6a_ec56;
    h.crc = Some(good as i32);
    let mut out = optional_int32().new_leaf_data();
    decoder(optional_int32())
        .decode_page(&h, body, &mut out)
        .unwrap();
    h.crc = Some((good ^ 1) as i32);
    let e = decoder(optional_int32())
        .decode_page(&h, body, &mut out)
        .unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::Checksum {
            expected: good ^ 1,
            actual: good
        }
    );
    // Verification off: the page reads.
    decoder(optional_int32())
        .verify_crc(false)
        .decode_page(&h, body, &mut out)
        .unwrap();
}

#[test]
fn v2_page_with_rep_and_def_levels() {
    // A column with max_rep_level 1, max_def_level 1: records [7, null] and [9].
    // rep 0, 1, 0 -> bit-packed run at width 1: 03, bits 0,1,0 = 0x02
    // def 1, 0, 1 -> 03, bits 1,0,1 = 0x05
    let body = [0x03, 0x02, 0x03, 0x05, 7, 0, 0, 0, 9, 0, 0, 0];
    let mut h = header(PageType::DataPageV2, body.len(), body.len());
    h.data_page_header_v2 = Some(DataPageHeaderV2 {
        num_values: 3,
        num_nulls: 1,
        num_rows: 2,
        encoding: Encoding::Plain,
        definition_levels_byte_length: 2,
        repetition_levels_byte_length: 2,
        is_compressed: Some(false),
        statistics: None,
    });
    let col = PageColumn::new(PhysicalType::Int32, 0, 1, 1);
    // The codec is ignored when is_compressed is false.
    let mut d = PageDecoder::new(col, CompressionCodec::Snappy, Limits::default());
    let mut out = col.new_leaf_data();
    let info = d.decode_page(&h, &body, &mut out).unwrap();
    assert_eq!(
        (info.kind, info.num_rows, info.num_non_null),
        (PageKind::DataV2, 2, 2)
    );
    assert_eq!(out.rep_levels, [0, 1, 0]);
    assert_eq!(out.def_levels, [1, 0, 1]);
    assert_eq!(out.values, Values::Int32(vec![7, 9]));

    // parquet-java 1.17 writes num_nulls = -1 when it did not count: unknown, the levels say
    // how many values are null. Any negative count reads the same.
    for unknown in [-1, i32::MIN] {
        let mut h2 = h.clone();
        h2.data_page_header_v2.as_mut().unwrap().num_nulls = unknown;
        let mut out2 = col.new_leaf_data();
        let info = d.decode_page(&h2, &body, &mut out2).unwrap();
        assert_eq!((info.num_values, info.num_non_null), (3, 2));
        assert_eq!(
            (out2.def_levels, out2.values),
            (out.def_levels.clone(), out.values.clone())
        );
    }
    // A known count above num_values contradicts the header.
    let mut h2 = h.clone();
    h2.data_page_header_v2.as_mut().unwrap().num_nulls = 4;
    let e = d
        .decode_page(&h2, &body, &mut col.new_leaf_data())
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }), "{e}");

    // A V2 page must start a row.
    let bad = [0x03, 0x03, 0x03, 0x05, 7, 0, 0, 0, 9, 0, 0, 0]; // rep 1, 1, 0
    let e = d.decode_page(&h, &bad, &mut out).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfSpec { .. }), "{e}");

    // Level byte lengths past the body.
    let mut h2 = h.clone();
    h2.data_page_header_v2
        .as_mut()
        .unwrap()
        .definition_levels_byte_length = 11;
    let e = d.decode_page(&h2, &body, &mut out).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
}

#[test]
fn v2_empty_values_section_is_not_decompressed() {
    // datapage_v2_empty_datapage.snappy.parquet: one null FLOAT; def levels `03 00`, 0 value
    // bytes, SNAPPY (of which 0 bytes is not a valid stream).
    let body = [0x03, 0x00];
    let mut h = header(PageType::DataPageV2, 2, 2);
    h.data_page_header_v2 = Some(DataPageHeaderV2 {
        num_values: 1,
        num_nulls: 1,
        num_rows: 1,
        encoding: Encoding::Plain,
        definition_levels_byte_length: 2,
        repetition_levels_byte_length: 0,
        is_compressed: None,
        statistics: None,
    });
    let col = PageColumn::new(PhysicalType::Float, 0, 1, 0);
    let mut d = PageDecoder::new(col, CompressionCodec::Snappy, Limits::default());
    let mut out = col.new_leaf_data();
    d.decode_page(&h, &body, &mut out).unwrap();
    assert_eq!(out.def_levels, [0]);
    assert!(out.values.is_empty());
}

#[test]
fn dictionary_then_indices() {
    // Dictionary: PLAIN BYTE_ARRAY "ab", "c".
    let dict_body = [2, 0, 0, 0, b'a', b'b', 1, 0, 0, 0, b'c'];
    // Indices 1, 0, 1, 1: bit width 1, bit-packed run (03), bits 1,0,1,1 = 0x0d.
    let data_body = [0x01, 0x03, 0x0d];
    let col = PageColumn::new(PhysicalType::ByteArray, 0, 0, 0);
    let mut d = decoder(col);
    let mut out = col.new_leaf_data();
    let info = d
        .decode_page(&dict(2, &dict_body), &dict_body, &mut out)
        .unwrap();
    assert_eq!((info.kind, info.num_values), (PageKind::Dictionary, 2));
    let h = v1(4, Encoding::RleDictionary, &data_body);
    d.decode_page(&h, &data_body, &mut out).unwrap();
    let want: ByteArrays = ["c", "ab", "c", "c"].into_iter().collect();
    assert_eq!(out.values, Values::ByteArray(want));
    assert!(out.def_levels.is_empty() && out.rep_levels.is_empty());

    // An index past the dictionary: indices 1, 2 at width 2 (03, then a group of 8 values in
    // 2 bytes: bits 01 10 = 0x09, 0x00).
    let bad = [0x02, 0x03, 0x09, 0x00];
    let e = d
        .decode_page(&v1(2, Encoding::RleDictionary, &bad), &bad, &mut out)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");

    // A second dictionary page.
    let e = d
        .decode_page(&dict(2, &dict_body), &dict_body, &mut out)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfSpec { .. }), "{e}");

    // Indices without a dictionary.
    let e = decoder(col)
        .decode_page(&h, &data_body, &mut out)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfSpec { .. }), "{e}");
}

#[test]
fn byte_array_dictionary_kept_as_its_page() {
    // 100 entries of 1 to 25 bytes: a PLAIN page over IN_PLACE_BYTES, kept as it is.
    let entries: ByteArrays = (0..100usize)
        .map(|i| "x".repeat(i % 25 + 1) + &i.to_string())
        .collect();
    let mut dict_body = Vec::new();
    crate::encoding::plain::encode(ValuesRef::ByteArray(entries.as_ref()), &mut dict_body).unwrap();
    assert!(dict_body.len() >= IN_PLACE_BYTES);
    let indices = [99u32, 0, 24, 24, 25, 7, 99];
    let mut data_body = Vec::new();
    dictionary::encode_indices(&indices, 100, &mut data_body);
    let want: ByteArrays = indices
        .iter()
        .map(|&i| entries.get(i as usize).unwrap())
        .collect();
    let col = PageColumn::new(PhysicalType::ByteArray, 0, 0, 0);
    for borrowed in [false, true] {
        let mut d = decoder(col);
        let mut out = col.new_leaf_data();
        let h = dict(100, &dict_body);
        if borrowed {
            d.decode_borrowed_page(&h, &dict_body, &mut out).unwrap();
            assert!(matches!(
                d.dictionary,
                Some(Dictionary::Bytes {
                    page: Cow::Borrowed(_),
                    ..
                })
            ));
        } else {
            d.decode_page(&h, &dict_body, &mut out).unwrap();
            assert!(matches!(
                d.dictionary,
                Some(Dictionary::Bytes {
                    page: Cow::Owned(_),
                    ..
                })
            ));
        }
        // Gathered from the page (fused and deferred), and as values on request.
        let h = v1(7, Encoding::RleDictionary, &data_body);
        d.decode_borrowed_page(&h, &data_body, &mut out).unwrap();
        assert_eq!(out.values, Values::ByteArray(want.clone()));
        d.defer_byte_array_gather(true);
        let mut deferred = col.new_leaf_data();
        d.decode_borrowed_page(&h, &data_body, &mut deferred)
            .unwrap();
        let mut gathered = col.new_values();
        dictionary::gather_dict(
            d.dict().unwrap(),
            d.deferred_indices().unwrap(),
            &mut gathered,
        )
        .unwrap();
        assert_eq!(gathered, Values::ByteArray(want.clone()));
        assert_eq!(
            d.dictionary().as_deref(),
            Some(&Values::ByteArray(entries.clone()))
        );
    }
    // A prefix that runs past the page, at its offset: the last entry's length is 1 too long.
    let mut bad = dict_body.clone();
    let last = dict_body.len() - 4 - 27;
    bad[last] += 1;
    let mut out = col.new_leaf_data();
    let e = decoder(col)
        .decode_borrowed_page(&dict(100, &bad), &bad, &mut out)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    assert_eq!(e.location().offset, Some(last as u64 + 4), "{e}");
    // With SNAPPY: the page is decompressed into a buffer of the decoder's own.
    #[cfg(feature = "snappy")]
    {
        let mut compressed = Vec::new();
        let codec = crate::compression::Codec::Snappy;
        crate::compression::compress(codec, &dict_body, &mut compressed).unwrap();
        let mut d = PageDecoder::new(col, CompressionCodec::Snappy, Limits::default());
        let mut h = dict(100, &compressed);
        h.uncompressed_page_size = dict_body.len() as i32;
        d.decode_borrowed_page(&h, &compressed, &mut out).unwrap();
        assert_eq!(d.dictionary().as_deref(), Some(&Values::ByteArray(entries)));
        // The next chunk's dictionary is decompressed over this one's bytes (not zeroed
        // first): a shorter page whose header claims one entry more than it holds is
        // truncated at its own end, not read on into the stale bytes after it.
        let short: ByteArrays = (0..60usize)
            .map(|i| "y".repeat(20) + &i.to_string())
            .collect();
        let mut short_body = Vec::new();
        crate::encoding::plain::encode(ValuesRef::ByteArray(short.as_ref()), &mut short_body)
            .unwrap();
        assert!(IN_PLACE_BYTES <= short_body.len() && short_body.len() < dict_body.len());
        let mut compressed = Vec::new();
        crate::compression::compress(codec, &short_body, &mut compressed).unwrap();
        let mut h = dict(61, &compressed);
        h.uncompressed_page_size = short_body.len() as i32;
        let buffers = d.into_buffers();
        let mut d = PageDecoder::new(col, CompressionCodec::Snappy, Limits::default())
            .with_buffers(buffers);
        let e = d.decode_page(&h, &compressed, &mut out).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
        // And with the right count it is the new page's entries alone.
        let buffers = d.into_buffers();
        assert!(
            buffers.3.len() >= dict_body.len(),
            "the buffer keeps its length"
        );
        let mut d = PageDecoder::new(col, CompressionCodec::Snappy, Limits::default())
            .with_buffers(buffers);
        h.dictionary_page_header.as_mut().unwrap().num_values = 60;
        d.decode_page(&h, &compressed, &mut out).unwrap();
        assert_eq!(d.dictionary().as_deref(), Some(&Values::ByteArray(short)));
    }
}

#[test]
fn page_of_nulls_has_an_empty_or_one_byte_index_section() {
    let col = optional_int32();
    let dict_body = [5, 0, 0, 0];
    // def levels: length 2, RLE run of 3 zeros (header 3 << 1 = 06, value 00).
    for index_section in [&[][..], &[0x01][..]] {
        let mut body = vec![2, 0, 0, 0, 0x06, 0x00];
        body.extend_from_slice(index_section);
        let mut d = decoder(col);
        let mut out = col.new_leaf_data();
        d.decode_page(&dict(1, &dict_body), &dict_body, &mut out)
            .unwrap();
        let info = d
            .decode_page(&v1(3, Encoding::PlainDictionary, &body), &body, &mut out)
            .unwrap();
        assert_eq!((info.num_values, info.num_non_null), (3, 0));
        assert_eq!(out.def_levels, [0, 0, 0]);
        assert!(out.values.is_empty());
    }
}

#[test]
fn bit_packed_levels_and_rle_booleans() {
    // V1 with BIT_PACKED definition levels (MSB first): 1, 0, 1 at width 1 = 0b1010_0000.
    // Values: RLE BOOLEAN, length 2, bit-packed run 03, bits true,false = 0x01.
    let body = [0xa0, 2, 0, 0, 0, 0x03, 0x01];
    let mut h = v1(3, Encoding::Rle, &body);
    h.data_page_header
        .as_mut()
        .unwrap()
        .definition_level_encoding = Encoding::BitPacked;
    let col = PageColumn::new(PhysicalType::Boolean, 0, 1, 0);
    let mut out = col.new_leaf_data();
    decoder(col).decode_page(&h, &body, &mut out).unwrap();
    assert_eq!(out.def_levels, [1, 0, 1]);
    assert_eq!(out.values, Values::Boolean(vec![true, false]));
}

#[test]
fn header_counts_and_sizes_are_checked() {
    let body = &EXAMPLE[17..];
    let col = optional_int32();
    let mut out = col.new_leaf_data();
    let kind = |h: &PageHeader, body: &[u8], limits: Limits| {
        let mut d = PageDecoder::new(col, CompressionCodec::Snappy, limits);
        let mut out = col.new_leaf_data();
        d.decode_page(h, body, &mut out).unwrap_err().kind().clone()
    };
    // Negative sizes and counts.
    let mut h = v1(3, Encoding::Plain, body);
    h.compressed_page_size = -1;
    assert!(matches!(
        kind(&h, body, Limits::default()),
        ErrorKind::OutOfRange { .. }
    ));
    let mut h = v1(3, Encoding::Plain, body);
    h.uncompressed_page_size = -5;
    assert!(matches!(
        kind(&h, body, Limits::default()),
        ErrorKind::OutOfRange { .. }
    ));
    let h = v1(-3, Encoding::Plain, body);
    assert!(matches!(
        kind(&h, body, Limits::default()),
        ErrorKind::OutOfRange { .. }
    ));
    // A body shorter than compressed_page_size.
    let h = v1(3, Encoding::Plain, body);
    assert!(matches!(
        kind(&h, &body[1..], Limits::default()),
        ErrorKind::Truncated { .. }
    ));
    // uncompressed_page_size is checked before decompressing (the body is not Snappy).
    let mut h = v1(3, Encoding::Plain, body);
    h.uncompressed_page_size = 1 << 30;
    let limited = Limits::default().max_page_bytes(1 << 20);
    assert!(matches!(
        kind(&h, body, limited),
        ErrorKind::LimitExceeded { .. }
    ));
    // num_values over the limit.
    let h = v1(3, Encoding::Plain, body);
    let limited = Limits::default().max_values_per_page(2);
    let mut d = PageDecoder::new(col, CompressionCodec::Uncompressed, limited);
    let e = d.decode_page(&h, body, &mut out).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }));
    // More level positions than the levels hold.
    let h = v1(30, Encoding::Plain, body);
    let e = decoder(col).decode_page(&h, body, &mut out).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    // A data page header missing.
    let h = header(PageType::DataPage, body.len(), body.len());
    let e = decoder(col).decode_page(&h, body, &mut out).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfSpec { .. }));
}

#[test]
fn levels_above_the_max_are_errors() {
    // max_def_level 2 (bit width 2), levels 3, 0: RLE with length 3: 03 (one group of 8 values
    // in 2 bytes), 0b0000_0011, 0x00.
    let body = [3, 0, 0, 0, 0x03, 0x03, 0x00];
    let col = PageColumn::new(PhysicalType::Int32, 0, 2, 0);
    let mut out = col.new_leaf_data();
    let e = decoder(col)
        .decode_page(&v1(2, Encoding::Plain, &body), &body, &mut out)
        .unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::OutOfRange {
            what: "definition level",
            value: 3
        }
    );
}

#[test]
fn error_offsets_count_from_the_body() {
    // The example with its values cut to 7 bytes: the PLAIN values start at body offset 6.
    let body = &EXAMPLE[17..30];
    let mut h = v1(3, Encoding::Plain, body);
    h.uncompressed_page_size = body.len() as i32;
    let mut out = optional_int32().new_leaf_data();
    let e = decoder(optional_int32())
        .decode_page(&h, body, &mut out)
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    assert_eq!(e.location().offset, Some(6), "{e}");
}

#[test]
fn index_pages_are_skipped() {
    let h = header(PageType::IndexPage, 3, 3);
    let mut out = optional_int32().new_leaf_data();
    let info = decoder(optional_int32())
        .decode_page(&h, &[1, 2, 3], &mut out)
        .unwrap();
    assert_eq!(info.kind, PageKind::Index);
    assert!(out.def_levels.is_empty());
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..600)) {
            fuzz_page(&data);
        }

        #[test]
        fn compact_gather_matches_fused(
            idx in proptest::collection::vec(0u32..12, 0..300),
            width in 0u32..=8,
            dict_len in 0usize..10,
            garbage in proptest::collection::vec(any::<u8>(), 0..60),
            use_garbage in any::<bool>(),
            n_delta in 0usize..3,
        ) {
            // Builds for size gather dictionary pages in two passes only (`compact::gather`):
            // same values and same error kind as the fused pass, for valid and arbitrary
            // index sections.
            let data = if use_garbage {
                garbage
            } else {
                let w = width.max(crate::encoding::rle::bit_width(
                    idx.iter().copied().max().unwrap_or(0).into(),
                ));
                let mut d = vec![w as u8];
                crate::encoding::rle::encode_u32(&idx, w, &mut d);
                d
            };
            let n = (idx.len() + n_delta).saturating_sub(1);
            let ints: Vec<i64> = (0..dict_len as i64).map(|i| i * 1000 - 7).collect();
            let strings: ByteArrays = (0..dict_len).map(|i| "y".repeat(i % 5)).collect();
            for dict in [Values::Int64(ints), Values::ByteArray(strings)] {
                let mut fused = Values::new(dict.physical_type(), 0);
                let a = dictionary::decode_gather(&data, n, dict.as_ref(), &mut fused);
                let mut compact = Values::new(dict.physical_type(), 0);
                let mut indices = vec![7u32];
                let d = dictionary::Dict::from(dict.as_ref());
                let b = super::compact::gather(
                    &data, n, (d, d.longest() as u64), &mut indices, &Limits::default(), &mut compact,
                );
                match (a, b) {
                    (Ok(_), Ok(())) => prop_assert!(fused.as_ref().bit_eq(&compact.as_ref())),
                    (Err(x), Err(y)) => prop_assert_eq!(
                        core::mem::discriminant(x.kind()),
                        core::mem::discriminant(y.kind())
                    ),
                    (a, b) => prop_assert!(false, "fused {:?}, compact {:?}", a, b),
                }
            }
        }

        #[test]
        fn mutated_example_never_panics(
            at in 0usize..31, byte in any::<u8>(), config in any::<[u8; 3]>()
        ) {
            let mut page = EXAMPLE;
            page[at] = byte;
            let mut data = config.to_vec();
            data.extend_from_slice(&page);
            fuzz_page(&data);
        }
    }
}

#[test]
fn decoder_is_send_and_sync() {
    // A decoder can move to another thread, and be shared read-only (for `dictionary()`).
    fn check<T: Send + Sync>() {}
    check::<PageDecoder<'static>>();
}

//! Round trips of every struct through proptest strategies, and arbitrary bytes.

use alloc::string::String;
use alloc::vec::Vec;
use proptest::collection::vec;
use proptest::option::of;
use proptest::prelude::*;
use proptest::strategy::Union;

use super::*;

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..6)
}
fn text() -> impl Strategy<Value = String> {
    ".{0,5}"
}
fn small<T: core::fmt::Debug>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    vec(s, 0..3)
}
fn real() -> impl Strategy<Value = f64> {
    // NaN != NaN: values with NaN are covered by the byte-level round trip (fuzz_metadata).
    any::<f64>().prop_filter("not NaN", |f| !f.is_nan())
}

fn time_unit() -> impl Strategy<Value = TimeUnit> {
    prop_oneof![
        Just(TimeUnit::Millis),
        Just(TimeUnit::Micros),
        Just(TimeUnit::Nanos)
    ]
}

fn logical_type() -> impl Strategy<Value = LogicalType> {
    use LogicalType as L;
    let arms: Vec<BoxedStrategy<LogicalType>> = alloc::vec![
        Just(L::String).boxed(),
        Just(L::Map).boxed(),
        Just(L::List).boxed(),
        Just(L::Enum).boxed(),
        (any::<i32>(), any::<i32>())
            .prop_map(|(scale, precision)| L::Decimal { scale, precision })
            .boxed(),
        Just(L::Date).boxed(),
        (any::<bool>(), time_unit())
            .prop_map(|(is_adjusted_to_utc, unit)| L::Time {
                is_adjusted_to_utc,
                unit
            })
            .boxed(),
        (any::<bool>(), time_unit())
            .prop_map(|(is_adjusted_to_utc, unit)| L::Timestamp {
                is_adjusted_to_utc,
                unit
            })
            .boxed(),
        (any::<i8>(), any::<bool>())
            .prop_map(|(bit_width, is_signed)| L::Integer {
                bit_width,
                is_signed
            })
            .boxed(),
        Just(L::Unknown).boxed(),
        Just(L::Json).boxed(),
        Just(L::Bson).boxed(),
        Just(L::Uuid).boxed(),
        Just(L::Float16).boxed(),
        of(any::<i8>())
            .prop_map(|specification_version| L::Variant {
                specification_version
            })
            .boxed(),
        of(text()).prop_map(|crs| L::Geometry { crs }).boxed(),
        (
            of(text()),
            of(prop::sample::select(EdgeInterpolationAlgorithm::ALL))
        )
            .prop_map(|(crs, algorithm)| L::Geography { crs, algorithm })
            .boxed(),
        Just(L::File).boxed(),
        prop_oneof![Just(9i16), 20i16..300]
            .prop_map(|field_id| L::Unrecognized { field_id })
            .boxed(),
    ];
    Union::new(arms)
}

fn schema_element() -> impl Strategy<Value = SchemaElement> {
    (
        of(prop::sample::select(PhysicalType::ALL)),
        of(any::<i32>()),
        of(prop::sample::select(FieldRepetitionType::ALL)),
        text(),
        of(any::<i32>()),
        of(prop::sample::select(ConvertedType::ALL)),
        of(any::<i32>()),
        of(any::<i32>()),
        of(any::<i32>()),
        of(logical_type()),
    )
        .prop_map(
            |(t, tl, rep, name, nc, ct, scale, precision, field_id, lt)| SchemaElement {
                type_: t,
                type_length: tl,
                repetition_type: rep,
                name,
                num_children: nc,
                converted_type: ct,
                scale,
                precision,
                field_id,
                logical_type: lt,
            },
        )
}

fn statistics() -> impl Strategy<Value = Statistics> {
    (
        of(bytes()),
        of(bytes()),
        of(any::<i64>()),
        of(any::<i64>()),
        of(bytes()),
        of(bytes()),
        of(any::<bool>()),
        of(any::<bool>()),
        of(any::<i64>()),
    )
        .prop_map(
            |(max, min, nc, dc, maxv, minv, maxe, mine, nan)| Statistics {
                max,
                min,
                null_count: nc,
                distinct_count: dc,
                max_value: maxv,
                min_value: minv,
                is_max_value_exact: maxe,
                is_min_value_exact: mine,
                nan_count: nan,
            },
        )
}

fn key_value() -> impl Strategy<Value = KeyValue> {
    (text(), of(text())).prop_map(|(key, value)| KeyValue { key, value })
}

fn geo() -> impl Strategy<Value = GeospatialStatistics> {
    let bbox = (
        (real(), real(), real(), real()),
        (of(real()), of(real()), of(real()), of(real())),
    )
        .prop_map(
            |((xmin, xmax, ymin, ymax), (zmin, zmax, mmin, mmax))| BoundingBox {
                xmin,
                xmax,
                ymin,
                ymax,
                zmin,
                zmax,
                mmin,
                mmax,
            },
        );
    (of(bbox), of(small(any::<i32>()))).prop_map(|(bbox, geospatial_types)| GeospatialStatistics {
        bbox,
        geospatial_types,
    })
}

fn column_meta_data() -> impl Strategy<Value = ColumnMetaData> {
    (
        (
            prop::sample::select(PhysicalType::ALL),
            small(prop::sample::select(Encoding::ALL)),
            small(text()),
            prop::sample::select(CompressionCodec::ALL),
            any::<i64>(),
            any::<i64>(),
            any::<i64>(),
            of(small(key_value())),
            any::<i64>(),
        ),
        (
            of(any::<i64>()),
            of(any::<i64>()),
            of(statistics()),
            of(small(
                (
                    prop::sample::select(PageType::ALL),
                    prop::sample::select(Encoding::ALL),
                    any::<i32>(),
                )
                    .prop_map(|(page_type, encoding, count)| PageEncodingStats {
                        page_type,
                        encoding,
                        count,
                    }),
            )),
            of(any::<i64>()),
            of(any::<i32>()),
            of((
                of(any::<i64>()),
                of(small(any::<i64>())),
                of(small(any::<i64>())),
            )
                .prop_map(|(a, b, c)| SizeStatistics {
                    unencoded_byte_array_data_bytes: a,
                    repetition_level_histogram: b,
                    definition_level_histogram: c,
                })),
            of(geo()),
        ),
    )
        .prop_map(
            |(
                (t, enc, path, codec, nv, tu, tc, kv, dpo),
                (ipo, dico, st, es, bfo, bfl, ss, gs),
            )| {
                ColumnMetaData {
                    type_: t,
                    encodings: enc,
                    path_in_schema: path,
                    codec,
                    num_values: nv,
                    total_uncompressed_size: tu,
                    total_compressed_size: tc,
                    key_value_metadata: kv,
                    data_page_offset: dpo,
                    index_page_offset: ipo,
                    dictionary_page_offset: dico,
                    statistics: st,
                    encoding_stats: es,
                    bloom_filter_offset: bfo,
                    bloom_filter_length: bfl,
                    size_statistics: ss,
                    geospatial_statistics: gs,
                }
            },
        )
}

fn aes() -> impl Strategy<Value = (Option<Vec<u8>>, Option<Vec<u8>>, Option<bool>)> {
    (of(bytes()), of(bytes()), of(any::<bool>()))
}

fn encryption_algorithm() -> impl Strategy<Value = EncryptionAlgorithm> {
    prop_oneof![
        aes().prop_map(|(a, b, c)| EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
            aad_prefix: a,
            aad_file_unique: b,
            supply_aad_prefix: c,
        })),
        aes().prop_map(|(a, b, c)| EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
            aad_prefix: a,
            aad_file_unique: b,
            supply_aad_prefix: c,
        })),
    ]
}

fn column_chunk() -> impl Strategy<Value = ColumnChunk> {
    let crypto = prop_oneof![
        Just(ColumnCryptoMetaData::EncryptionWithFooterKey),
        (small(text()), of(bytes())).prop_map(|(path_in_schema, key_metadata)| {
            ColumnCryptoMetaData::EncryptionWithColumnKey(EncryptionWithColumnKey {
                path_in_schema,
                key_metadata,
            })
        }),
    ];
    (
        of(text()),
        any::<i64>(),
        of(column_meta_data()),
        of(any::<i64>()),
        of(any::<i32>()),
        of(any::<i64>()),
        of(any::<i32>()),
        of(crypto),
        of(bytes()),
    )
        .prop_map(|(fp, fo, md, oio, oil, cio, cil, cm, ecm)| ColumnChunk {
            file_path: fp,
            file_offset: fo,
            meta_data: md,
            offset_index_offset: oio,
            offset_index_length: oil,
            column_index_offset: cio,
            column_index_length: cil,
            crypto_metadata: cm,
            encrypted_column_metadata: ecm,
        })
}

fn row_group() -> impl Strategy<Value = RowGroup> {
    (
        small(column_chunk()),
        any::<i64>(),
        any::<i64>(),
        of(small(
            (any::<i32>(), any::<bool>(), any::<bool>()).prop_map(|(c, d, n)| SortingColumn {
                column_idx: c,
                descending: d,
                nulls_first: n,
            }),
        )),
        of(any::<i64>()),
        of(any::<i64>()),
        of(any::<i16>()),
    )
        .prop_map(|(columns, tbs, nr, sc, fo, tcs, ord)| RowGroup {
            columns,
            total_byte_size: tbs,
            num_rows: nr,
            sorting_columns: sc,
            file_offset: fo,
            total_compressed_size: tcs,
            ordinal: ord,
        })
}

fn column_order() -> impl Strategy<Value = ColumnOrder> {
    prop_oneof![
        Just(ColumnOrder::TypeOrder),
        Just(ColumnOrder::Ieee754TotalOrder),
        Just(ColumnOrder::Int96TimestampOrder),
        (4i16..100).prop_map(|field_id| ColumnOrder::Unknown { field_id }),
    ]
}

fn file_meta_data() -> impl Strategy<Value = FileMetaData> {
    (
        any::<i32>(),
        small(schema_element()),
        any::<i64>(),
        small(row_group()),
        of(small(key_value())),
        of(text()),
        of(small(column_order())),
        of(encryption_algorithm()),
        of(bytes()),
    )
        .prop_map(|(v, s, n, rg, kv, cb, co, ea, fsk)| FileMetaData {
            version: v,
            schema: s,
            num_rows: n,
            row_groups: rg,
            key_value_metadata: kv,
            created_by: cb,
            column_orders: co,
            encryption_algorithm: ea,
            footer_signing_key_metadata: fsk,
        })
}

fn page_header() -> impl Strategy<Value = PageHeader> {
    let v1 = (
        any::<i32>(),
        prop::sample::select(Encoding::ALL),
        prop::sample::select(Encoding::ALL),
        prop::sample::select(Encoding::ALL),
        of(statistics()),
    )
        .prop_map(|(n, e, d, r, s)| DataPageHeader {
            num_values: n,
            encoding: e,
            definition_level_encoding: d,
            repetition_level_encoding: r,
            statistics: s,
        });
    let dict = (
        any::<i32>(),
        prop::sample::select(Encoding::ALL),
        of(any::<bool>()),
    )
        .prop_map(|(n, e, s)| DictionaryPageHeader {
            num_values: n,
            encoding: e,
            is_sorted: s,
        });
    let v2 = (
        (any::<i32>(), any::<i32>(), any::<i32>()),
        prop::sample::select(Encoding::ALL),
        (any::<i32>(), any::<i32>()),
        of(any::<bool>()),
        of(statistics()),
    )
        .prop_map(|((nv, nn, nr), e, (dl, rl), c, s)| DataPageHeaderV2 {
            num_values: nv,
            num_nulls: nn,
            num_rows: nr,
            encoding: e,
            definition_levels_byte_length: dl,
            repetition_levels_byte_length: rl,
            is_compressed: c,
            statistics: s,
        });
    (
        prop::sample::select(PageType::ALL),
        any::<i32>(),
        any::<i32>(),
        of(any::<i32>()),
        of(v1),
        of(Just(IndexPageHeader {})),
        of(dict),
        of(v2),
    )
        .prop_map(|(t, u, c, crc, v1, ix, d, v2)| PageHeader {
            type_: t,
            uncompressed_page_size: u,
            compressed_page_size: c,
            crc,
            data_page_header: v1,
            index_page_header: ix,
            dictionary_page_header: d,
            data_page_header_v2: v2,
        })
}

fn column_index() -> impl Strategy<Value = ColumnIndex> {
    let l = || of(small(any::<i64>()));
    (
        small(any::<bool>()),
        small(bytes()),
        small(bytes()),
        prop::sample::select(BoundaryOrder::ALL),
        l(),
        l(),
        l(),
        l(),
    )
        .prop_map(|(np, mn, mx, bo, nc, rl, dl, nan)| ColumnIndex {
            null_pages: np,
            min_values: mn,
            max_values: mx,
            boundary_order: bo,
            null_counts: nc,
            repetition_level_histograms: rl,
            definition_level_histograms: dl,
            nan_counts: nan,
        })
}

fn offset_index() -> impl Strategy<Value = OffsetIndex> {
    (
        vec(
            (any::<i64>(), any::<i32>(), any::<i64>()).prop_map(|(o, c, f)| PageLocation {
                offset: o,
                compressed_page_size: c,
                first_row_index: f,
            }),
            0..20,
        ),
        of(small(any::<i64>())),
    )
        .prop_map(|(p, u)| OffsetIndex {
            page_locations: p,
            unencoded_byte_array_data_bytes: u,
        })
}

fn bloom_header() -> impl Strategy<Value = BloomFilterHeader> {
    any::<i32>().prop_map(|n| BloomFilterHeader {
        num_bytes: n,
        algorithm: BloomFilterAlgorithm::Block,
        hash: BloomFilterHash::XxHash,
        compression: BloomFilterCompression::Uncompressed,
    })
}

/// What the decoder gives back for `m`: `m` itself, or, without the `metadata-extras` feature,
/// `m` with every `#[extra]` field `None` (the decoder skips them).
fn decoded_footer(m: &FileMetaData) -> FileMetaData {
    let mut m = m.clone();
    if !cfg!(feature = "metadata-extras") {
        m.key_value_metadata = None;
        m.created_by = None;
        m.column_orders = None;
        m.encryption_algorithm = None;
        m.footer_signing_key_metadata = None;
        for rg in &mut m.row_groups {
            rg.sorting_columns = None;
            rg.total_byte_size = 0;
            rg.file_offset = None;
            rg.total_compressed_size = None;
            for c in &mut rg.columns {
                c.encrypted_column_metadata = None;
                c.file_offset = 0;
                // The column-key member is read as empty (only which member it is counts).
                if let Some(ColumnCryptoMetaData::EncryptionWithColumnKey(k)) =
                    &mut c.crypto_metadata
                {
                    k.path_in_schema.clear();
                    k.key_metadata = None;
                }
                if let Some(md) = &mut c.meta_data {
                    // Required, skipped and left empty.
                    md.encodings.clear();
                    md.path_in_schema.clear();
                    md.total_uncompressed_size = 0;
                    md.key_value_metadata = None;
                    md.index_page_offset = None;
                    md.statistics = None;
                    md.encoding_stats = None;
                    md.size_statistics = None;
                    md.geospatial_statistics = None;
                }
            }
        }
    }
    m
}

/// [`decoded_footer`] for a page header: without `metadata-extras`, no page statistics.
fn decoded_page_header(h: &PageHeader) -> PageHeader {
    let mut h = h.clone();
    if !cfg!(feature = "metadata-extras") {
        if let Some(v1) = &mut h.data_page_header {
            v1.statistics = None;
        }
        if let Some(v2) = &mut h.data_page_header_v2 {
            v2.statistics = None;
        }
        if let Some(d) = &mut h.dictionary_page_header {
            d.is_sorted = None;
        }
    }
    h
}

/// Encodes and decodes with the given decoder, checking the value and the bytes consumed.
fn prefix_round_trip<T: PartialEq + core::fmt::Debug>(
    v: &T,
    encode: impl Fn(&T, &mut Vec<u8>),
    decode: impl Fn(&[u8]) -> crate::Result<(T, usize)>,
) -> Result<(), TestCaseError> {
    prefix_round_trip_to(v, v, encode, decode)
}

/// [`prefix_round_trip`] where decoding `v` gives `expected`.
fn prefix_round_trip_to<T: PartialEq + core::fmt::Debug>(
    v: &T,
    expected: &T,
    encode: impl Fn(&T, &mut Vec<u8>),
    decode: impl Fn(&[u8]) -> crate::Result<(T, usize)>,
) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    encode(v, &mut out);
    out.extend_from_slice(b"trailing page data");
    let (back, n) = decode(&out).map_err(|e| TestCaseError::fail(alloc::format!("{e}")))?;
    prop_assert_eq!(&back, expected);
    prop_assert_eq!(n, out.len() - 18);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn file_meta_data_round_trip(m in file_meta_data()) {
        let mut out = Vec::new();
        m.encode(&mut out);
        prop_assert_eq!(FileMetaData::decode(&out).unwrap(), decoded_footer(&m));
    }

    #[test]
    fn page_header_round_trip(h in page_header()) {
        prefix_round_trip_to(&h, &decoded_page_header(&h), PageHeader::encode, PageHeader::decode)?;
    }

    #[test]
    fn column_index_round_trip(c in column_index()) {
        prefix_round_trip(&c, ColumnIndex::encode, ColumnIndex::decode)?;
    }

    #[test]
    fn offset_index_round_trip(o in offset_index()) {
        prefix_round_trip(&o, OffsetIndex::encode, OffsetIndex::decode)?;
    }

    #[test]
    fn bloom_filter_header_round_trip(b in bloom_header()) {
        prefix_round_trip(&b, BloomFilterHeader::encode, BloomFilterHeader::decode)?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in vec(any::<u8>(), 0..400)) {
        fuzz_metadata(&data);
        let _ = ColumnIndex::decode(&data);
        let _ = OffsetIndex::decode(&data);
        let _ = BloomFilterHeader::decode(&data);
        let _ = FileCryptoMetaData::decode(&data);
    }

    /// Mutations of a valid footer (more likely to reach deep into the decoder than random
    /// bytes) never panic either, and whatever decodes round-trips.
    #[test]
    fn mutated_footers_never_panic(
        m in file_meta_data(),
        flips in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut out = Vec::new();
        m.encode(&mut out);
        for (i, b) in flips {
            if !out.is_empty() {
                let i = i.index(out.len());
                out[i] = b;
            }
        }
        fuzz_metadata(&out);
    }
}

#[test]
fn nan_bounding_box_round_trips_bit_for_bit() {
    let g = GeospatialStatistics {
        bbox: Some(BoundingBox {
            xmin: f64::NAN,
            xmax: -0.0,
            ymin: f64::INFINITY,
            ymax: 1.5,
            zmin: Some(f64::from_bits(0x7ff8_0000_0000_0001)),
            ..Default::default()
        }),
        geospatial_types: Some(alloc::vec![1, 3001]),
    };
    let mut out = Vec::new();
    g.encode(&mut out);
    let (back, _) = crate::thrift::decode_prefix::<GeospatialStatistics>(&out, 8).unwrap();
    let (a, b) = (back.bbox.unwrap(), g.bbox.unwrap());
    assert_eq!(a.xmin.to_bits(), b.xmin.to_bits());
    assert_eq!(a.xmax.to_bits(), (-0.0f64).to_bits());
    assert_eq!(a.zmin.unwrap().to_bits(), 0x7ff8_0000_0000_0001);
}

#[test]
fn unknown_enum_value_is_an_error_not_a_default() {
    // SchemaElement { 1: type = -7, 4: name = "h" }: 15 0d (zigzag(-7) = 13), 38 01 68, 00
    let e = crate::thrift::decode_prefix::<SchemaElement>(&[0x15, 0x0d, 0x38, 0x01, b'h', 0x00], 8)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "physical type out of range: -7 (byte offset 1)"
    );
}

#[test]
fn union_with_two_members_or_none_is_an_error() {
    // TimeUnit { 1: MILLIS {}, 2: MICROS {} }
    let two = [0x1c, 0x00, 0x1c, 0x00, 0x00];
    assert!(crate::thrift::decode_prefix::<TimeUnit>(&two, 8).is_err());
    assert!(crate::thrift::decode_prefix::<TimeUnit>(&[0x00], 8).is_err());
    // LogicalType member 30 (unknown) with contents: kept as Unrecognized.
    let unknown = [0x0c, 0x3c, 0x15, 0x02, 0x00, 0x00];
    assert_eq!(
        LogicalType::decode(&unknown).unwrap(),
        (LogicalType::Unrecognized { field_id: 30 }, unknown.len())
    );
}

#[test]
fn extra_fields_are_skipped_without_metadata_extras() {
    // DataPageHeader { 1: num_values = 3, 2: encoding = PLAIN, 3: definition_level_encoding =
    // RLE, 4: repetition_level_encoding = RLE, 5: statistics = Statistics { 3: null_count = 1 } }
    let bytes = [
        0x15, 0x06, // field 1, I32: zigzag(3)
        0x15, 0x00, // field 2, I32: PLAIN = 0
        0x15, 0x06, // field 3, I32: RLE = 3
        0x15, 0x06, // field 4, I32: RLE = 3
        0x1c, // field 5, STRUCT: statistics
        0x36, 0x02, // Statistics field 3, I64: null_count, zigzag(1)
        0x00, // stop (Statistics)
        0x00, // stop (DataPageHeader)
    ];
    let (h, used) = crate::thrift::decode_prefix::<DataPageHeader>(&bytes, 8).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!((h.num_values, h.encoding), (3, Encoding::Plain));
    assert_eq!(h.repetition_level_encoding, Encoding::Rle);
    let expected = Statistics {
        null_count: Some(1),
        ..Default::default()
    };
    // Without `metadata-extras` the statistics are skipped, not decoded.
    let expected = cfg!(feature = "metadata-extras").then_some(expected);
    assert_eq!(h.statistics, expected);
    // Encoding is the same either way: what is set is written.
    let mut out = Vec::new();
    h.encode(&mut out);
    let written = if cfg!(feature = "metadata-extras") {
        &bytes[..]
    } else {
        &[0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00][..]
    };
    assert_eq!(out, written);
}

/// Decodes `data` as a `T` with the default struct decoder and with the compact one of builds
/// for size (`cfg(parket_opt_size)`), nesting at most `depth` deep: the value (as `Debug`
/// text, so that a NaN equals itself) and the bytes consumed, or the error with its location.
fn both_decoders<T: crate::thrift::ThriftType + core::fmt::Debug>(
    data: &[u8],
    depth: u32,
) -> (String, String) {
    let run = |compact: bool| {
        let mut r = crate::thrift::Reader::new(data, depth);
        r.compact = compact;
        let v = T::read(&mut r, crate::thrift::Ctx::NONE).map(|v| (v, r.position()));
        alloc::format!("{v:?}")
    };
    (run(false), run(true))
}

/// Every top-level struct, and the structs nested in them, decoded both ways.
fn compare_decoders(data: &[u8], depth: u32) -> Result<(), TestCaseError> {
    let pairs = [
        both_decoders::<FileMetaData>(data, depth),
        both_decoders::<PageHeader>(data, depth),
        both_decoders::<ColumnIndex>(data, depth),
        both_decoders::<OffsetIndex>(data, depth),
        both_decoders::<BloomFilterHeader>(data, depth),
        both_decoders::<FileCryptoMetaData>(data, depth),
        both_decoders::<SchemaElement>(data, depth),
        both_decoders::<ColumnMetaData>(data, depth),
        both_decoders::<LogicalType>(data, depth),
        both_decoders::<Statistics>(data, depth),
    ];
    for (default, compact) in pairs {
        prop_assert_eq!(default, compact);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The compact struct decoder of builds for size gives the same values, bytes consumed
    /// and errors (kind, message and location) as the default one, on arbitrary bytes ...
    #[test]
    fn compact_decoder_matches_default_on_arbitrary_bytes(
        data in vec(any::<u8>(), 0..400),
        depth in prop_oneof![Just(64u32), 1u32..6],
    ) {
        compare_decoders(&data, depth)?;
    }

    /// ... on valid footers and page headers, and on mutations of them.
    #[test]
    fn compact_decoder_matches_default_on_mutated_footers(
        m in file_meta_data(),
        h in page_header(),
        flips in vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        depth in prop_oneof![Just(64u32), 1u32..8],
    ) {
        let (mut footer, mut page) = (Vec::new(), Vec::new());
        m.encode(&mut footer);
        h.encode(&mut page);
        for mut out in [footer, page] {
            for &(i, b) in &flips {
                if !out.is_empty() {
                    let i = i.index(out.len());
                    out[i] = b;
                }
            }
            compare_decoders(&out, depth)?;
        }
    }
}

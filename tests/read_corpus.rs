//! The reader against the parquet-testing corpus.
//!
//! The corpus lives in `$PARQUET_TEST_DATA` (default: `../shared/parquet-testing` next to the
//! crate); a missing corpus fails the tests, saying how to point at it.
//!
//! - A registry lists every file of `data/` (with `aes256/`, `geospatial/`) and `bad_data/`
//!   with its expected outcome; an unlisted file fails the test.
//! - Every readable file: every page of every column decodes; levels and values add up to the
//!   footer's counts; batches of 7 give what `read_all` gives; `Read + Seek` (a `Cursor`, and a
//!   reader that returns 1 byte per call) gives what the byte slice gives.
//! - Values: the `delta_*_expect.csv` files, `alltypes_plain.parquet` (golden values from
//!   pyarrow 26.0.1), BYTE_STREAM_SPLIT columns against their PLAIN twins, ARROW-GH-43605.

use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;

use parket::levels::LeafData;
use parket::read::{ChunkBuffers, FileReader};
use parket::values::{Values, ValuesRef};
use parket::{Error, ErrorKind, Limits};

fn corpus() -> PathBuf {
    let dir = parket::testing::corpus_dir();
    assert!(
        dir.join("bad_data").is_dir(),
        "{}: no bad_data/",
        dir.display()
    );
    dir
}

fn read(name: &str) -> Vec<u8> {
    let p = corpus().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// What reading a file gives.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Reads: this many rows (the row groups' sum) and leaf columns.
    Rows(i64, usize),
    /// Reads these rows and leaves with CRC verification off; with it on, a Checksum error.
    BadCrc(i64, usize),
    /// ErrorKind::Encrypted (at the footer, or at the first encrypted column).
    Encrypted,
    /// An error of this kind (the name of the ErrorKind variant).
    Fails(&'static str),
    /// Not a Parquet file (the footer is not found): OutOfSpec at the footer.
    NotParquet,
    /// Needs GiBs of memory: with pages limited to 64 MiB, LimitExceeded.
    Heavy,
}
use Expect::*;

/// Every file of the corpus and what reading it gives.
const REGISTRY: &[(&str, Expect)] = &[
    // The footer itself does not decode: a list of encodings has I16 elements (damaged).
    ("bad_data/ARROW-GH-41317.parquet", Fails("OutOfRange")),
    // A page header is not valid Thrift (and an RLE bit width of 254 follows).
    ("bad_data/ARROW-GH-41321.parquet", Fails("Truncated")),
    // Valid despite its folder: bit width 0 dictionary indices.
    ("bad_data/ARROW-GH-43605.parquet", Rows(21186, 1)),
    // The chunk's first repetition level is 1.
    ("bad_data/ARROW-GH-45185.parquet", Fails("OutOfSpec")),
    // REQUIRED column whose pages hold definition levels: values too short.
    ("bad_data/ARROW-GH-47662.parquet", Fails("Truncated")),
    // Garbage page headers (a DataPageHeader without num_values).
    (
        "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
        Fails("MissingField"),
    ),
    // The page claims 21 level positions, the chunk 1 (and the level streams are short).
    (
        "bad_data/ARROW-RS-GH-6229-LEVELS.parquet",
        Fails("OutOfSpec"),
    ),
    // Physical type -7 in the footer.
    ("bad_data/PARQUET-1481.parquet", Fails("OutOfRange")),
    (
        "data/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json",
        NotParquet,
    ),
    (
        "data/aes256/encrypt_columns_and_footer.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/aes256/encrypt_columns_and_footer_ctr.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/aes256/encrypt_columns_plaintext_footer.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/aes256/uniform_encryption.parquet.encrypted",
        Encrypted,
    ),
    ("data/alltypes_dictionary.parquet", Rows(2, 11)),
    ("data/alltypes_plain.parquet", Rows(8, 11)),
    ("data/alltypes_plain.snappy.parquet", Rows(2, 11)),
    ("data/alltypes_tiny_pages.parquet", Rows(7300, 13)),
    ("data/alltypes_tiny_pages_plain.parquet", Rows(7300, 13)),
    ("data/binary.parquet", Rows(12, 1)),
    ("data/binary_truncated_min_max.parquet", Rows(12, 6)),
    ("data/bloom_filter.bin", NotParquet),
    ("data/bloom_filter.xxhash.bin", NotParquet),
    ("data/byte_array_decimal.parquet", Rows(24, 1)),
    ("data/byte_stream_split.zstd.parquet", Rows(300, 2)),
    (
        "data/byte_stream_split_extended.gzip.parquet",
        Rows(200, 14),
    ),
    ("data/column_chunk_key_value_metadata.parquet", Rows(0, 2)),
    ("data/concatenated_gzip_members.parquet", Rows(513, 1)),
    ("data/data_index_bloom_encoding_stats.parquet", Rows(14, 1)),
    (
        "data/data_index_bloom_encoding_with_length.parquet",
        Rows(14, 1),
    ),
    ("data/datapage_v1-corrupt-checksum.parquet", BadCrc(5120, 2)),
    (
        "data/datapage_v1-snappy-compressed-checksum.parquet",
        Rows(5120, 2),
    ),
    (
        "data/datapage_v1-uncompressed-checksum.parquet",
        Rows(5120, 2),
    ),
    ("data/datapage_v2.snappy.parquet", Rows(5, 5)),
    ("data/datapage_v2_empty_datapage.snappy.parquet", Rows(1, 1)),
    ("data/delta_binary_packed.parquet", Rows(200, 66)),
    ("data/delta_binary_packed_expect.csv", NotParquet),
    ("data/delta_byte_array.parquet", Rows(1000, 9)),
    ("data/delta_byte_array_expect.csv", NotParquet),
    ("data/delta_encoding_optional_column.parquet", Rows(100, 17)),
    ("data/delta_encoding_optional_column_expect.csv", NotParquet),
    ("data/delta_encoding_required_column.parquet", Rows(100, 17)),
    ("data/delta_encoding_required_column_expect.csv", NotParquet),
    ("data/delta_length_byte_array.parquet", Rows(1000, 1)),
    ("data/dict-page-offset-zero.parquet", Rows(39, 1)),
    (
        "data/encrypt_columns_and_footer.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/encrypt_columns_and_footer_aad.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/encrypt_columns_and_footer_ctr.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        Encrypted,
    ),
    // Plaintext footer: the footer reads, the encrypted columns do not.
    (
        "data/encrypt_columns_plaintext_footer.parquet.encrypted",
        Encrypted,
    ),
    (
        "data/external_key_material_java.parquet.encrypted",
        Encrypted,
    ),
    ("data/fixed_length_byte_array.parquet", Rows(1000, 1)),
    ("data/fixed_length_decimal.parquet", Rows(24, 1)),
    ("data/fixed_length_decimal_legacy.parquet", Rows(24, 1)),
    ("data/float16_nonzeros_and_nans.parquet", Rows(8, 1)),
    ("data/float16_zeros_and_nans.parquet", Rows(3, 1)),
    ("data/floating_orders_nan_count.parquet", Rows(50, 6)),
    ("data/geospatial/crs-arbitrary-value.parquet", Rows(1, 2)),
    ("data/geospatial/crs-default.parquet", Rows(1, 2)),
    ("data/geospatial/crs-geography.parquet", Rows(1, 2)),
    ("data/geospatial/crs-projjson.parquet", Rows(1, 2)),
    ("data/geospatial/crs-srid.parquet", Rows(1, 2)),
    ("data/geospatial/geography-lines.parquet", Rows(499, 2)),
    ("data/geospatial/geography-points.parquet", Rows(500, 2)),
    ("data/geospatial/geography-polygons.parquet", Rows(500, 2)),
    ("data/geospatial/geospatial-with-nan.parquet", Rows(3, 3)),
    ("data/geospatial/geospatial.parquet", Rows(196, 3)),
    ("data/hadoop_lz4_compressed.parquet", Rows(4, 3)),
    ("data/hadoop_lz4_compressed_larger.parquet", Rows(10000, 1)),
    // The optional map key breaks LogicalTypes.md, but the columns read.
    ("data/incorrect_map_schema.parquet", Rows(1, 2)),
    ("data/int32_decimal.parquet", Rows(24, 1)),
    ("data/int32_with_null_pages.parquet", Rows(1000, 1)),
    ("data/int64_decimal.parquet", Rows(24, 1)),
    ("data/int96_from_spark.parquet", Rows(6, 1)),
    ("data/large_string_map.brotli.parquet", Heavy),
    ("data/list_columns.parquet", Rows(3, 2)),
    ("data/lz4_raw_compressed.parquet", Rows(4, 3)),
    ("data/lz4_raw_compressed_larger.parquet", Rows(10000, 1)),
    ("data/map_no_value.parquet", Rows(3, 4)),
    ("data/nan_in_stats.parquet", Rows(2, 1)),
    ("data/nation.dict-malformed.parquet", Rows(25, 4)),
    ("data/nested_lists.snappy.parquet", Rows(3, 2)),
    ("data/nested_maps.snappy.parquet", Rows(6, 5)),
    ("data/nested_structs.rust.parquet", Rows(1, 216)),
    ("data/non_hadoop_lz4_compressed.parquet", Rows(4, 3)),
    ("data/nonnullable.impala.parquet", Rows(1, 13)),
    ("data/null_list.parquet", Rows(1, 1)),
    ("data/nullable.impala.parquet", Rows(7, 13)),
    ("data/nulls.snappy.parquet", Rows(8, 1)),
    ("data/old_list_structure.parquet", Rows(1, 1)),
    ("data/overflow_i16_page_cnt.parquet", Rows(40000, 1)),
    ("data/page_v2_empty_compressed.parquet", Rows(10, 1)),
    (
        "data/plain-dict-uncompressed-checksum.parquet",
        Rows(1000, 2),
    ),
    // FileMetaData.num_rows says 0; the row group says 6.
    ("data/repeated_no_annotation.parquet", Rows(6, 3)),
    ("data/repeated_primitive_no_list.parquet", Rows(4, 4)),
    ("data/rle-dict-snappy-checksum.parquet", Rows(1000, 2)),
    (
        "data/rle-dict-uncompressed-corrupt-checksum.parquet",
        BadCrc(1000, 2),
    ),
    ("data/rle_boolean_encoding.parquet", Rows(68, 1)),
    ("data/single_nan.parquet", Rows(1, 1)),
    ("data/sort_columns.parquet", Rows(6, 2)),
    ("data/uniform_encryption.parquet.encrypted", Encrypted),
    ("data/unknown-logical-type.parquet", Rows(3, 2)),
];

fn corpus_files() -> Vec<String> {
    let root = corpus();
    let mut out = Vec::new();
    for sub in ["data", "data/aes256", "data/geospatial", "bad_data"] {
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                out.push(p.strip_prefix(&root).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

fn kind_name(k: &ErrorKind) -> &'static str {
    match k {
        ErrorKind::Truncated { .. } => "Truncated",
        ErrorKind::OutOfRange { .. } => "OutOfRange",
        ErrorKind::OutOfSpec { .. } => "OutOfSpec",
        ErrorKind::MissingField { .. } => "MissingField",
        ErrorKind::LimitExceeded { .. } => "LimitExceeded",
        ErrorKind::Unsupported { .. } => "Unsupported",
        ErrorKind::FeatureDisabled { .. } => "FeatureDisabled",
        ErrorKind::Checksum { .. } => "Checksum",
        ErrorKind::Encrypted => "Encrypted",
        ErrorKind::InvalidArgument(_) => "InvalidArgument",
        ErrorKind::Io(_) => "Io",
        _ => "other",
    }
}

/// Every column chunk of every row group, each checked against the footer's counts.
fn alternating<T: Copy>(a: T, b: T) -> Vec<T> {
    vec![a, b, a, b, a, b, a, b]
}

fn read_everything(file: &FileReader<'_>) -> Result<Vec<Vec<LeafData>>, Error> {
    let leaves: Vec<usize> = (0..file.schema().columns().len()).collect();
    let mut out = Vec::new();
    for rg in 0..file.num_row_groups() {
        let data = file.read_row_group(rg, &leaves)?;
        let meta = &file.metadata().row_groups[rg];
        for (i, leaf) in data.iter().enumerate() {
            let desc = &file.schema().columns()[i];
            let num_values = meta.columns[i].meta_data.as_ref().unwrap().num_values as usize;
            let expected_values = if desc.max_def_level > 0 {
                assert_eq!(leaf.def_levels.len(), num_values, "{}", desc.path_string());
                leaf.def_levels
                    .iter()
                    .filter(|&&d| d == desc.max_def_level)
                    .count()
            } else {
                assert!(leaf.def_levels.is_empty());
                num_values
            };
            if desc.max_rep_level > 0 {
                assert_eq!(leaf.rep_levels.len(), num_values);
                let rows = leaf.rep_levels.iter().filter(|&&r| r == 0).count();
                assert_eq!(rows as i64, meta.num_rows);
            } else {
                assert!(leaf.rep_levels.is_empty());
                assert_eq!(num_values as i64, meta.num_rows);
            }
            assert_eq!(leaf.values.len(), expected_values, "{}", desc.path_string());
        }
        out.push(data);
    }
    Ok(out)
}

fn same_leaf(a: &LeafData, b: &LeafData) -> bool {
    a.def_levels == b.def_levels && a.rep_levels == b.rep_levels && a.values.bit_eq(&b.values)
}

fn same_file(a: &[Vec<LeafData>], b: &[Vec<LeafData>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_leaf(p, q)))
}

/// Reads every chunk through `next_batch(7)` and glues the batches back together. With
/// `reuse`, every chunk decodes into the buffers the one before it used.
fn read_batched(file: &FileReader<'_>, reuse: bool) -> Vec<Vec<LeafData>> {
    let mut out = Vec::new();
    let mut buffers = ChunkBuffers::default();
    for rg in 0..file.num_row_groups() {
        let mut cols = Vec::new();
        for c in 0..file.schema().columns().len() {
            let mut chunk = match reuse {
                true => file.column_chunk_with(rg, c, std::mem::take(&mut buffers)),
                false => file.column_chunk(rg, c),
            }
            .unwrap();
            let mut leaf = chunk.column().new_leaf_data();
            while let Some(b) = chunk.next_batch(7).unwrap() {
                assert!(b.len() <= 7 && !b.is_empty());
                leaf.def_levels.extend_from_slice(b.def_levels());
                leaf.rep_levels.extend_from_slice(b.rep_levels());
                assert!(leaf.values.extend_from(b.values()));
            }
            buffers = chunk.into_buffers();
            cols.push(leaf);
        }
        out.push(cols);
    }
    out
}

/// Reads every chunk with one `next_batch(5)` and then `read_all` for the rest (a page left
/// half read, whose values may still be dictionary indices), glued back together.
fn read_mixed(file: &FileReader<'_>) -> Vec<Vec<LeafData>> {
    let mut out = Vec::new();
    for rg in 0..file.num_row_groups() {
        let mut cols = Vec::new();
        for c in 0..file.schema().columns().len() {
            let mut chunk = file.column_chunk(rg, c).unwrap();
            let mut leaf = chunk.column().new_leaf_data();
            if let Some(b) = chunk.next_batch(5).unwrap() {
                leaf.def_levels.extend_from_slice(b.def_levels());
                leaf.rep_levels.extend_from_slice(b.rep_levels());
                assert!(leaf.values.extend_from(b.values()));
            }
            let rest = chunk.read_all().unwrap();
            leaf.def_levels.extend_from_slice(&rest.def_levels);
            leaf.rep_levels.extend_from_slice(&rest.rep_levels);
            assert!(leaf.values.extend_from(rest.values.as_ref()));
            cols.push(leaf);
        }
        out.push(cols);
    }
    out
}

/// A reader that returns at most one byte per `read` call.
struct OneByte<R>(R);

impl<R: Read> Read for OneByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match buf.first_mut() {
            Some(b) => self.0.read(std::slice::from_mut(b)),
            None => Ok(0),
        }
    }
}

impl<R: Seek> Seek for OneByte<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
    }
}

fn check_file(name: &str, expect: Expect) {
    let bytes = read(name);
    let open = FileReader::from_bytes(&bytes);
    match expect {
        Rows(rows, leaves) | BadCrc(rows, leaves) => {
            let file = open.unwrap_or_else(|e| panic!("{name}: {e}"));
            let file = file.verify_crc(matches!(expect, Rows(..)));
            assert_eq!(file.schema().columns().len(), leaves, "{name}: leaves");
            let total: i64 = file.metadata().row_groups.iter().map(|r| r.num_rows).sum();
            assert_eq!(total, rows, "{name}: rows");
            let all = read_everything(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                same_file(&all, &read_batched(&file, false)),
                "{name}: batches"
            );
            assert!(
                same_file(&all, &read_batched(&file, true)),
                "{name}: batches in reused buffers"
            );
            assert!(
                same_file(&all, &read_mixed(&file)),
                "{name}: one batch, then read_all"
            );
            // Read + Seek, whole reads and one byte per call.
            let cursor = FileReader::new(std::io::Cursor::new(bytes.as_slice()))
                .unwrap()
                .verify_crc(matches!(expect, Rows(..)));
            let via_cursor = read_everything(&cursor).unwrap();
            assert!(same_file(&all, &via_cursor), "{name}: Cursor differs");
            assert!(
                same_file(&all, &read_batched(&cursor, true)),
                "{name}: Cursor batches in reused buffers"
            );
            let one = FileReader::new(OneByte(std::io::Cursor::new(bytes.as_slice())))
                .unwrap()
                .verify_crc(matches!(expect, Rows(..)));
            assert!(
                same_file(&all, &read_everything(&one).unwrap()),
                "{name}: 1-byte reads"
            );
            if matches!(expect, BadCrc(..)) {
                let strict = FileReader::from_bytes(&bytes).unwrap();
                let e = read_everything(&strict).expect_err(name);
                assert!(
                    matches!(e.kind(), ErrorKind::Checksum { .. }),
                    "{name}: {e}"
                );
                assert!(e.location().page.is_some() && e.location().offset.is_some());
                let strict = FileReader::new(OneByte(std::io::Cursor::new(bytes.as_slice())));
                let e = read_everything(&strict.unwrap()).expect_err(name);
                assert!(
                    matches!(e.kind(), ErrorKind::Checksum { .. }),
                    "{name}: {e}"
                );
            }
        }
        Encrypted => {
            let e = open.and_then(|f| read_everything(&f).map(|_| ()));
            let e = e.expect_err(name);
            assert_eq!(e.kind(), &ErrorKind::Encrypted, "{name}: {e}");
        }
        Fails(kind) => {
            let e = open.and_then(|f| read_everything(&f).map(|_| ()));
            let e = e.expect_err(name);
            assert_eq!(kind_name(e.kind()), kind, "{name}: {e}");
            let streamed = FileReader::new(OneByte(std::io::Cursor::new(bytes.as_slice())))
                .and_then(|f| read_everything(&f).map(|_| ()));
            assert_eq!(
                streamed.expect_err(name),
                e,
                "{name}: Read + Seek error differs"
            );
        }
        NotParquet => {
            let e = open.err().unwrap_or_else(|| panic!("{name} opened"));
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::OutOfSpec { .. } | ErrorKind::Truncated { .. }
                ),
                "{name}: {e}"
            );
        }
        Heavy => {
            let file = open
                .unwrap()
                .with_limits(Limits::default().max_page_bytes(64 << 20));
            let e = read_everything(&file).expect_err(name);
            assert_eq!(kind_name(e.kind()), "LimitExceeded", "{name}: {e}");
        }
    }
}

#[test]
fn file_reader_is_send() {
    fn send<T: Send>() {}
    send::<FileReader<'static>>();
}

#[test]
fn registry_lists_every_file() {
    let files = corpus_files();
    let listed: Vec<&str> = REGISTRY.iter().map(|(n, _)| *n).collect();
    let unlisted: Vec<&String> = files
        .iter()
        .filter(|f| !listed.contains(&f.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "files without an expected outcome: {unlisted:?}"
    );
    let missing: Vec<&&str> = listed
        .iter()
        .filter(|n| !files.iter().any(|f| f == *n))
        .collect();
    assert!(
        missing.is_empty(),
        "registry entries without a file: {missing:?}"
    );
}

#[test]
fn every_file_gives_its_expected_outcome() {
    let mut counts = std::collections::BTreeMap::new();
    for &(name, expect) in REGISTRY {
        check_file(name, expect);
        let key = match expect {
            Rows(..) => "read",
            BadCrc(..) => "read without CRC checks, Checksum error with",
            Encrypted => "Encrypted",
            Fails(_) => "error",
            NotParquet => "not Parquet",
            Heavy => "LimitExceeded at 64 MiB pages",
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    println!("{counts:?}");
}

// ---- values ----

fn column(file: &FileReader<'_>, path: &str) -> LeafData {
    file.column_chunk(0, path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .read_all()
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Expands non-null values to one `Option` per row (flat columns only).
fn rows_of<T: Clone>(leaf: &LeafData, max_def: u16, values: &[T]) -> Vec<Option<T>> {
    if leaf.def_levels.is_empty() {
        return values.iter().cloned().map(Some).collect();
    }
    let mut it = values.iter();
    leaf.def_levels
        .iter()
        .map(|&d| (d == max_def).then(|| it.next().unwrap().clone()))
        .collect()
}

/// The column's values as text, one per row (None for null).
fn as_text(leaf: &LeafData) -> Vec<Option<String>> {
    let max = leaf.def_levels.iter().copied().max().unwrap_or(0).max(1);
    let text: Vec<String> = match leaf.values.as_ref() {
        ValuesRef::Int32(v) => v.iter().map(|x| x.to_string()).collect(),
        ValuesRef::Int64(v) => v.iter().map(|x| x.to_string()).collect(),
        ValuesRef::ByteArray(v) => v
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
            .collect(),
        other => panic!("unexpected {:?}", other.physical_type()),
    };
    rows_of(leaf, max, &text)
}

/// A small CSV reader: quoted fields (`""` escapes a quote); an unquoted empty field is null.
fn parse_csv(text: &str) -> Vec<Vec<Option<String>>> {
    let mut rows = Vec::new();
    for line in text.lines().skip(1).filter(|l| !l.is_empty()) {
        let mut fields = Vec::new();
        let mut chars = line.chars().peekable();
        loop {
            let field = if chars.peek() == Some(&'"') {
                chars.next();
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            s.push('"');
                        } else {
                            break;
                        }
                    } else {
                        s.push(c);
                    }
                }
                Some(s)
            } else {
                let s: String = std::iter::from_fn(|| chars.next_if(|&c| c != ',')).collect();
                (!s.is_empty()).then_some(s)
            };
            fields.push(field);
            if chars.next().is_none() {
                break;
            }
        }
        rows.push(fields);
    }
    rows
}

#[test]
fn delta_files_match_their_expect_csv() {
    for name in [
        "delta_binary_packed",
        "delta_byte_array",
        "delta_encoding_optional_column",
        "delta_encoding_required_column",
    ] {
        let bytes = read(&format!("data/{name}.parquet"));
        let csv = String::from_utf8(read(&format!("data/{name}_expect.csv"))).unwrap();
        let expected = parse_csv(&csv);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let n_cols = file.schema().columns().len();
        assert_eq!(expected[0].len(), n_cols, "{name}: columns");
        for c in 0..n_cols {
            let leaf = file.column_chunk(0, c).unwrap().read_all().unwrap();
            let got = as_text(&leaf);
            let want: Vec<Option<String>> = expected.iter().map(|r| r[c].clone()).collect();
            assert_eq!(got, want, "{name}: column {c}");
        }
    }
}

#[test]
fn alltypes_plain_values() {
    // Golden values: pyarrow 26.0.1 `pq.read_table("alltypes_plain.parquet").to_pylist()`.
    let bytes = read("data/alltypes_plain.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let all = |p| column(&file, p);
    let id = all("id");
    assert_eq!(id.def_levels, [1; 8]);
    assert_eq!(id.values, Values::Int32(vec![4, 5, 6, 7, 2, 3, 0, 1]));
    assert_eq!(
        all("bool_col").values,
        Values::Boolean(alternating(true, false))
    );
    for p in ["tinyint_col", "smallint_col", "int_col"] {
        assert_eq!(all(p).values, Values::Int32(alternating(0, 1)), "{p}");
    }
    assert_eq!(all("bigint_col").values, Values::Int64(alternating(0, 10)));
    assert!(all("float_col")
        .values
        .bit_eq(&Values::Float(alternating(0.0, 1.1))));
    assert!(all("double_col")
        .values
        .bit_eq(&Values::Double(alternating(0.0, 10.1))));
    let Values::ByteArray(dates) = all("date_string_col").values else {
        panic!()
    };
    let dates: Vec<&[u8]> = dates.iter().collect();
    assert_eq!(
        dates,
        [
            b"03/01/09",
            b"03/01/09",
            b"04/01/09",
            b"04/01/09",
            b"02/01/09",
            b"02/01/09",
            b"01/01/09",
            b"01/01/09"
        ]
    );
    let Values::ByteArray(s) = all("string_col").values else {
        panic!()
    };
    assert_eq!(
        s.iter().collect::<Vec<_>>(),
        alternating(&b"0"[..], &b"1"[..])
    );
    // INT96: nanoseconds of the day (8 bytes LE), then the Julian day (4 bytes LE).
    // 2009-03-01 00:00 and 00:01, 2009-04-01 ..., 2009-02-01 ..., 2009-01-01 ...
    let Values::Int96(ts) = all("timestamp_col").values else {
        panic!()
    };
    let decoded: Vec<(u64, u32)> = ts
        .iter()
        .map(|t| {
            let nanos = u64::from_le_bytes(t[..8].try_into().unwrap());
            let day = u32::from_le_bytes(t[8..].try_into().unwrap());
            (nanos, day)
        })
        .collect();
    // Julian day 2440588 is 1970-01-01; 2009-03-01 is 14304 days later.
    let (mar, apr, feb, jan) = (2454892, 2454923, 2454864, 2454833);
    let min = 60_000_000_000;
    assert_eq!(
        decoded,
        [
            (0, mar),
            (min, mar),
            (0, apr),
            (min, apr),
            (0, feb),
            (min, feb),
            (0, jan),
            (min, jan)
        ]
    );
}

#[test]
fn byte_stream_split_matches_plain_twins() {
    let bytes = read("data/byte_stream_split_extended.gzip.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let names: Vec<String> = file
        .schema()
        .columns()
        .iter()
        .map(|c| c.path_string())
        .collect();
    let mut pairs = 0;
    for n in &names {
        let Some(base) = n.strip_suffix("_plain") else {
            continue;
        };
        let twin = format!("{base}_byte_stream_split");
        assert!(names.contains(&twin), "no twin for {n}: {names:?}");
        let a = column(&file, n);
        let b = column(&file, &twin);
        assert!(same_leaf(&a, &b), "{n} differs from {twin}");
        assert_eq!(a.def_levels.len(), 200);
        pairs += 1;
    }
    assert_eq!(pairs, 7);
    // byte_stream_split.zstd.parquet: FLOAT and DOUBLE columns, 300 rows.
    let bytes = read("data/byte_stream_split.zstd.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let f = file.column_chunk(0, 0).unwrap().read_all().unwrap();
    assert_eq!(f.def_levels.len(), 300);
    assert!(matches!(f.values, Values::Float(_)));
}

#[test]
fn arrow_gh_43605_reads_21186_zeros() {
    let bytes = read("bad_data/ARROW-GH-43605.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let leaf = file.column_chunk(0, 0).unwrap().read_all().unwrap();
    assert_eq!(leaf.def_levels, vec![1; 21186]);
    assert_eq!(leaf.values, Values::Int32(vec![0; 21186]));
}

#[test]
fn int32_with_null_pages_and_tiny_pages() {
    let bytes = read("data/int32_with_null_pages.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let mut chunk = file.column_chunk(0, 0).unwrap();
    let mut pages_of_nulls = 0;
    let mut total = 0;
    // Batches never span pages: a batch of 1000 is one page.
    while let Some(b) = chunk.next_batch(1000).unwrap() {
        total += b.len();
        if b.values().is_empty() {
            pages_of_nulls += 1;
        }
    }
    assert_eq!(total, 1000);
    assert_eq!(pages_of_nulls, 1);
    // 40000 one-value pages.
    let bytes = read("data/overflow_i16_page_cnt.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let mut chunk = file.column_chunk(0, 0).unwrap();
    let mut n = 0;
    while let Some(b) = chunk.next_batch(4096).unwrap() {
        assert_eq!(b.len(), 1);
        n += 1;
    }
    assert_eq!(n, 40000);
}

#[test]
fn codec_files_agree() {
    // The same 4 rows under three LZ4 framings.
    let read_all = |name: &str| {
        let bytes = read(name);
        let file = FileReader::from_bytes(&bytes).unwrap();
        read_everything(&file).unwrap()
    };
    // Golden values: pyarrow 26.0.1 (the non-Hadoop file's columns are OPTIONAL, the others'
    // REQUIRED: compare the values).
    let c1: parket::values::ByteArrays = ["abc", "def", "abc", "def"].into_iter().collect();
    let golden = [
        Values::Int64(vec![1593604800, 1593604800, 1593604801, 1593604801]),
        Values::ByteArray(c1),
        Values::Double(vec![42.0, 7.7, 42.125, 7.7]),
    ];
    for name in [
        "data/lz4_raw_compressed.parquet",
        "data/hadoop_lz4_compressed.parquet",
        "data/non_hadoop_lz4_compressed.parquet",
    ] {
        let file = read_all(name);
        for (leaf, want) in file[0].iter().zip(&golden) {
            assert!(leaf.values.bit_eq(want), "{name}: {:?}", leaf.values);
        }
    }
    let a = read_all("data/lz4_raw_compressed_larger.parquet");
    let b = read_all("data/hadoop_lz4_compressed_larger.parquet");
    assert!(same_file(&a, &b));
    // Two concatenated GZIP members: 513 values.
    let g = read_all("data/concatenated_gzip_members.parquet");
    assert_eq!(g[0][0].def_levels.len(), 513);
}

#[test]
fn errors_carry_their_location() {
    let bytes = read("data/datapage_v1-corrupt-checksum.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = file.column_chunk(0, "a").unwrap().read_all().unwrap_err();
    let loc = e.location();
    assert_eq!(
        (loc.row_group, loc.column.as_deref(), loc.page),
        (Some(0), Some("a"), Some(0))
    );
    // Column b: page 0 is fine, page 1 is corrupt.
    let e = file.column_chunk(0, "b").unwrap().read_all().unwrap_err();
    assert_eq!(e.location().page, Some(1), "{e}");
    let plain = FileReader::from_bytes(&bytes).unwrap().verify_crc(false);
    assert_eq!(
        plain
            .column_chunk(0, "a")
            .unwrap()
            .read_all()
            .unwrap()
            .values
            .len(),
        5120
    );
    // An encrypted column of a plaintext-footer file.
    let bytes = read("data/encrypt_columns_plaintext_footer.parquet.encrypted");
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = file.column_chunk(0, "double_field").err().unwrap();
    assert_eq!(e.kind(), &ErrorKind::Encrypted);
    assert_eq!(e.location().column.as_deref(), Some("double_field"));
    // Bad arguments.
    let bytes = read("data/alltypes_plain.parquet");
    let file = FileReader::from_bytes(&bytes).unwrap();
    assert!(file.column_chunk(0, "nope").is_err());
    assert!(file.column_chunk(1, 0).is_err());
    assert!(file.column_chunk(0, 11).is_err());
}

#[test]
fn truncations_and_flips_error_without_panicking() {
    for name in [
        "data/alltypes_plain.parquet",
        "data/datapage_v2.snappy.parquet",
        "data/nested_lists.snappy.parquet",
        "data/delta_length_byte_array.parquet",
    ] {
        let bytes = read(name);
        for cut in 0..bytes.len() {
            let prefix = &bytes[..cut];
            let r = FileReader::from_bytes(prefix).and_then(|f| read_everything(&f).map(|_| ()));
            assert!(r.is_err(), "{name}: prefix of {cut} bytes read");
            let suffix = &bytes[cut + 1..];
            let r = FileReader::from_bytes(suffix).and_then(|f| read_everything(&f).map(|_| ()));
            assert!(
                r.is_err(),
                "{name}: {} bytes cut from the front read",
                cut + 1
            );
        }
        // Each byte of the pages flipped: an error or a value, never a panic.
        let footer_len = u32::from_le_bytes(bytes[bytes.len() - 8..][..4].try_into().unwrap());
        let pages_end = bytes.len() - 8 - footer_len as usize;
        for i in 4..pages_end {
            let mut m = bytes.clone();
            m[i] ^= 0xff;
            let opened = FileReader::from_bytes(&m);
            if let Ok(f) = opened {
                let f = f.with_limits(Limits::default().max_page_bytes(1 << 24));
                for rg in 0..f.num_row_groups() {
                    for c in 0..f.schema().columns().len() {
                        if let Ok(chunk) = f.column_chunk(rg, c) {
                            let _ = chunk.read_all();
                        }
                    }
                }
            };
        }
    }
}

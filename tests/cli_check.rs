//! `parket check FILE`: every readable corpus file passes except those whose metadata really
//! disagrees with their data (each listed with the reason); files parket writes pass, in every
//! shape (nested, dictionary, V1/V2, compressed, page index); a file with a patched statistics
//! or page-index value fails, naming the column.

use std::path::PathBuf;
use std::process::Command;

use parket::compression::Codec;
use parket::format::FileMetaData;
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, PageVersion, WriteOptions};

/// `parket check` on the default threads (every core), and the same output (but for its time)
/// on 1 and on 3 threads, where large chunks are read in parts: the chunks and parts a thread
/// takes change nothing printed.
fn parket_check(path: &std::path::Path) -> (bool, String) {
    let (ok, text) = parket_check_on(path, None);
    for threads in ["1", "3"] {
        let (ok_n, text_n) = parket_check_on(path, Some(threads));
        assert!(
            ok_n == ok && untimed(&text_n) == untimed(&text),
            "{}: --threads {threads} prints\n{text_n}\nthe default\n{text}",
            path.display()
        );
    }
    (ok, text)
}

/// `text` without the time of its summary line ("..., 0.012 s").
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match (l.starts_with("checked "), l.rfind(", ")) {
            (true, Some(at)) => &l[..at],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parket_check_on(path: &std::path::Path, threads: Option<&str>) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parket"));
    command.arg("check");
    if let Some(t) = threads {
        command.args(["--threads", t]);
    }
    let out = command.arg(path).output().expect("run parket");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("panicked") && out.status.code().is_some_and(|c| c <= 1),
        "{}: {text}",
        path.display()
    );
    (out.status.success(), text)
}

/// Corpus files that fail `check`, with a substring of the expected output and the reason.
const FAILING: &[(&str, &str, &str)] = &[
    (
        "data/datapage_v1-corrupt-checksum.parquet",
        "BAD a: row group 0: page CRC mismatch",
        "corrupt page CRCs (on purpose): both columns, page named",
    ),
    (
        "data/rle-dict-uncompressed-corrupt-checksum.parquet",
        "BAD binary_field: row group 0: page CRC mismatch",
        "corrupt page CRCs (on purpose)",
    ),
    (
        "data/datapage_v1-snappy-compressed-checksum.parquet",
        "ColumnIndex.null_pages[0] is true but the page has non-null values",
        "parquet-mr wrote a placeholder ColumnIndex (statistics off): every page marked \
         null, null_counts -1, though every page has values",
    ),
    (
        "data/datapage_v1-uncompressed-checksum.parquet",
        "ColumnIndex.null_counts[0] is -1",
        "the same placeholder ColumnIndex",
    ),
    (
        "data/repeated_no_annotation.parquet",
        "BAD file: FileMetaData.num_rows is 0 but the row groups hold 6 rows",
        "FileMetaData.num_rows is 0",
    ),
    (
        "data/encrypt_columns_plaintext_footer.parquet.encrypted",
        "BAD double_field: row group 0: the file is encrypted",
        "encrypted columns cannot be decoded (no keys)",
    ),
    // bad_data/: every file fails, each with its damage named.
    (
        "bad_data/ARROW-GH-41317.parquet",
        "Thrift list element type out of range",
        "the footer does not decode",
    ),
    (
        "bad_data/ARROW-GH-41321.parquet",
        "BAD int64: row group 0: truncated varint",
        "garbage page headers and level streams",
    ),
    (
        "bad_data/ARROW-GH-45185.parquet",
        "the column chunk's first repetition level is not 0",
        "a chunk starting mid-record",
    ),
    (
        "bad_data/ARROW-GH-47662.parquet",
        "truncated PLAIN FIXED_LEN_BYTE_ARRAY values",
        "a REQUIRED column whose pages hold definition levels",
    ),
    (
        "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
        "missing required field DataPageHeader.num_values",
        "garbage page headers",
    ),
    (
        "bad_data/ARROW-RS-GH-6229-LEVELS.parquet",
        "a page holds more values than remain of ColumnMetaData.num_values",
        "page and chunk value counts disagree",
    ),
    (
        "bad_data/PARQUET-1481.parquet",
        "physical type out of range: -7",
        "the footer does not decode",
    ),
];

/// Corpus files not checked: they need GiBs of memory.
const SKIPPED: &[&str] = &["data/large_string_map.brotli.parquet"];

#[test]
fn corpus_files_pass_unless_inconsistent() {
    let root = parket::testing::corpus_dir();
    let mut passed = 0;
    let mut failed = Vec::new();
    for sub in ["data", "data/geospatial", "data/aes256", "bad_data"] {
        for path in parket::testing::corpus_files(sub) {
            let name = path.strip_prefix(&root).unwrap().display().to_string();
            if SKIPPED.contains(&name.as_str()) {
                continue;
            }
            let (ok, text) = parket_check(&path);
            let expected = FAILING.iter().find(|f| f.0 == name);
            if name.ends_with(".encrypted") && expected.is_none() {
                // Encrypted footer: no keys, no check.
                assert!(!ok && text.contains("encrypted"), "{name}: {text}");
                continue;
            }
            match (ok, expected) {
                (true, None) => {
                    assert!(text.contains("\nchecked ") || text.starts_with("checked "));
                    assert!(text.contains(" 0 bad, "), "{name}: {text}");
                    passed += 1;
                }
                (false, Some((_, needle, _))) => {
                    assert!(
                        text.contains(needle),
                        "{name}: expected {needle:?} in\n{text}"
                    );
                    failed.push(name);
                }
                (true, Some(_)) => panic!("{name} passes but is listed as failing"),
                (false, None) => panic!("{name} fails:\n{text}"),
            }
        }
    }
    assert_eq!(
        failed.len(),
        FAILING.len(),
        "failing files seen: {failed:?}"
    );
    assert!(passed >= 60, "only {passed} files passed");
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parket-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(schema: &Schema, options: WriteOptions, records: &[Value]) -> Vec<u8> {
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    w.write_records(records).unwrap();
    w.finish().unwrap();
    w.into_inner()
}

fn sample() -> (Schema, Vec<Value>) {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double d; \
         optional int32 u (INTEGER(32, false)); \
         optional group l (LIST) { repeated group list { optional int32 element; } } \
         optional group m (MAP) { repeated group key_value { required binary key (STRING); \
         optional fixed_len_byte_array(4) value (DECIMAL(9, 2)); } } }",
    )
    .unwrap();
    let records = (0..5000i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i * 7 - 10_000),
                if i % 3 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("value {}", (i * 31) % 97).into_bytes())
                },
                match i % 11 {
                    0 => Value::Null,
                    1 => Value::Double(f64::NAN),
                    2 => Value::Double(-0.0),
                    _ => Value::Double(i as f64 / 3.0 - 500.0),
                },
                Value::Int32((i as i32).wrapping_mul(-1_000_003)),
                match i % 5 {
                    0 => Value::Null,
                    n => Value::List(
                        (0..n)
                            .map(|k| {
                                if k == 2 {
                                    Value::Null
                                } else {
                                    Value::Int32((i + k) as i32)
                                }
                            })
                            .collect(),
                    ),
                },
                Value::Map(
                    (0..i % 3)
                        .map(|k| {
                            (
                                Value::Bytes(format!("k{k}").into_bytes()),
                                Value::Bytes(((i * k) as i32 - 700).to_be_bytes().to_vec()),
                            )
                        })
                        .collect(),
                ),
            ])
        })
        .collect();
    (schema, records)
}

#[test]
fn files_parket_writes_pass() {
    let (schema, records) = sample();
    let configs: Vec<(&str, WriteOptions)> = vec![
        ("default", WriteOptions::default()),
        (
            "v2-zstd-small-pages",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Zstd { level: 1 })
                .max_rows_per_page(97)
                .row_group_rows(1500),
        ),
        (
            "plain-uncompressed-crc",
            WriteOptions::default()
                .dictionary(false)
                .codec(Codec::Uncompressed)
                .page_crc(true)
                .data_page_size(1024),
        ),
        (
            "truncated-stats",
            WriteOptions::default()
                .statistics_truncate_length(Some(3))
                .column_index_truncate_length(Some(2))
                .max_rows_per_page(300),
        ),
        (
            "no-stats",
            WriteOptions::default().statistics(false).page_index(false),
        ),
        (
            "gzip-dictionary-fallback",
            WriteOptions::default()
                .codec(Codec::Gzip { level: 6 })
                .dictionary_page_size_limit(64),
        ),
    ];
    for (name, options) in configs {
        let bytes = write(&schema, options, &records);
        let path = temp_path(&format!("{name}.parquet"));
        std::fs::write(&path, &bytes).unwrap();
        let (ok, text) = parket_check(&path);
        assert!(ok, "{name}: {text}");
        assert_eq!(text.matches("\nok  ").count() + 1, 7, "{name}: {text}");
        assert!(
            text.contains("ok  id  INT64  5000 values (0 nulls)"),
            "{name}: {text}"
        );
    }
}

fn footer(file: &[u8]) -> (FileMetaData, usize) {
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    (
        FileMetaData::decode(&file[n - 8 - len..n - 8]).unwrap(),
        n - 8 - len,
    )
}

/// Replaces every occurrence of `from` in `bytes[range]` by `to`; returns how many.
fn patch(bytes: &mut [u8], range: std::ops::Range<usize>, from: &[u8], to: &[u8]) -> usize {
    let mut n = 0;
    let mut i = range.start;
    while i + from.len() <= range.end {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            n += 1;
            i += from.len();
        } else {
            i += 1;
        }
    }
    n
}

#[test]
fn corrupted_statistics_fail_naming_the_column() {
    let schema = Schema::parse("message m { required int32 a; optional int64 b; }").unwrap();
    let records: Vec<Value> = (0..1000)
        .map(|i| {
            Value::Group(vec![
                Value::Int32(i),
                if i % 4 == 0 {
                    Value::Null
                } else {
                    Value::Int64(1_000_000 + i as i64)
                },
            ])
        })
        .collect();
    let options = WriteOptions::default()
        .dictionary(false)
        .max_rows_per_page(100);
    let good = write(&schema, options, &records);
    let good_path = temp_path("stats-good.parquet");
    std::fs::write(&good_path, &good).unwrap();
    assert!(parket_check(&good_path).0);
    let (meta, footer_at) = footer(&good);

    // The chunk's max of b (1000999) becomes 1000998 in the footer: too small.
    let mut bad = good.clone();
    let max = 1_000_999i64.to_le_bytes();
    let n = patch(
        &mut bad,
        footer_at..good.len(),
        &max,
        &1_000_998i64.to_le_bytes(),
    );
    assert!(n >= 1, "the max is in the footer");
    let path = temp_path("stats-max.parquet");
    std::fs::write(&path, &bad).unwrap();
    let (ok, text) = parket_check(&path);
    assert!(!ok, "{text}");
    assert!(
        text.contains("BAD b: row group 0: Statistics max is 1000998 but the data's is 1000999"),
        "{text}"
    );
    assert!(text.contains("ok  a  INT32"), "{text}");

    // The null count of b (250) becomes 249: in the footer, the i64 zigzag varint 250*2 =
    // 500 = f4 03 after the field header 0x16 (field 3 after field 2, type i64).
    let mut bad = good.clone();
    let n = patch(
        &mut bad,
        footer_at..good.len(),
        &[0x16, 0xf4, 0x03],
        &[0x16, 0xf2, 0x03],
    );
    assert_eq!(n, 1);
    std::fs::write(&path, &bad).unwrap();
    let (ok, text) = parket_check(&path);
    assert!(!ok, "{text}");
    assert!(
        text.contains("BAD b: row group 0: Statistics.null_count is 249"),
        "{text}"
    );

    // The ColumnIndex min of a's page 3 (300) becomes 299.
    let cc = &meta.row_groups[0].columns[0];
    let at = cc.column_index_offset.unwrap() as usize;
    let range = at..at + cc.column_index_length.unwrap() as usize;
    let mut bad = good.clone();
    let n = patch(
        &mut bad,
        range,
        &300i32.to_le_bytes(),
        &299i32.to_le_bytes(),
    );
    assert_eq!(n, 1);
    std::fs::write(&path, &bad).unwrap();
    let (ok, text) = parket_check(&path);
    assert!(!ok, "{text}");
    assert!(
        text.contains("BAD a: row group 0: page 3: ColumnIndex min is 299 but the data's is 300"),
        "{text}"
    );

    // A flipped bit in a page body with CRCs on: the page is named.
    let crc = write(
        &schema,
        WriteOptions::default()
            .dictionary(false)
            .codec(Codec::Uncompressed)
            .page_crc(true)
            .max_rows_per_page(100),
        &records,
    );
    let (meta, _) = footer(&crc);
    let m = meta.row_groups[0].columns[1].meta_data.as_ref().unwrap();
    let mut bad = crc.clone();
    let body_end = (m.data_page_offset + m.total_compressed_size) as usize;
    bad[body_end - 3] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    let (ok, text) = parket_check(&path);
    assert!(!ok, "{text}");
    assert!(
        text.contains("BAD b: row group 0: page CRC mismatch"),
        "{text}"
    );
    assert!(text.contains("column b, page 9"), "{text}");
}

/// pyarrow 26 writes `unencoded_byte_array_data_bytes` of a DELTA_BYTE_ARRAY chunk of several
/// pages lower than the values' bytes, near the bytes of the suffixes it stores (the chunk's size
/// statistics and each page's entry in the offset index). `check` says so in a note and passes.
#[test]
fn pyarrow_delta_byte_array_miscount_is_a_note() {
    let path = temp_path("delta-byte-array.parquet");
    let code = r#"
import sys, pyarrow as pa, pyarrow.parquet as pq
import random
random.seed(1)
# Shared prefixes ("Bronx" after "Brooklyn", a name after itself): the miscount needs them.
vals = [random.choice(["Manhattan", "Queens", "Brooklyn", "Bronx"]) for _ in range(50000)]
t = pa.table({"s": pa.array(vals)})
pq.write_table(t, sys.argv[1], use_dictionary=False, column_encoding={"s": "DELTA_BYTE_ARRAY"},
               write_page_index=True, data_page_version="2.0")
print(sum(len(v) for v in vals))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(code)
        .arg(&path)
        .output()
        .expect("run python3 (install tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes: i64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let (ok, text) = parket_check(&path);
    assert!(ok, "{text}");
    let note = "note: row group 0: SizeStatistics.unencoded_byte_array_data_bytes is ";
    let stated: i64 = text
        .split(note)
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            panic!("no note on the size statistics (has pyarrow fixed its count?): {text}")
        });
    assert!(stated < bytes, "{text}");
    assert!(
        text.contains(&format!(
            "{note}{stated} (the data holds {bytes}): counted from the DELTA_BYTE_ARRAY suffixes"
        )),
        "{text}"
    );
    assert!(
        text.contains("note: row group 0: OffsetIndex.unencoded_byte_array_data_bytes is ["),
        "{text}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_thread_count_out_of_range_is_an_error_not_a_panic() {
    // `--threads` is the user's: `check` once overflowed computing its window (4 chunks per
    // thread), and `cat` started as many threads as it was told.
    let (schema, records) = sample();
    let path = temp_path("threads.parquet");
    std::fs::write(&path, write(&schema, WriteOptions::default(), &records)).unwrap();
    let run = |command: &str, threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_parket"))
            .args([command, "--threads", threads])
            .arg(&path)
            .output()
            .expect("run parket");
        let text = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !text.contains("panicked"),
            "{command} --threads {threads}: {text}"
        );
        (out.status.success(), text)
    };
    for command in ["check", "cat"] {
        for threads in [usize::MAX.to_string(), "1025".into(), "0".into()] {
            let (ok, text) = run(command, &threads);
            assert!(!ok, "{command} --threads {threads} succeeded");
            assert!(
                text.contains(&format!("--threads {threads}: give 1 to 1024")),
                "{command}: {text}"
            );
        }
        let (ok, text) = run(command, "1024");
        assert!(ok, "{command} --threads 1024: {text}");
    }
}

#[test]
fn a_file_of_one_large_column_checks_the_same_on_any_threads() {
    // One column holds nearly all the bytes: on several threads `check` reads it in parts of
    // pages (its dictionary pages, then PLAIN pages once the dictionary is full), and
    // `parket_check` compares the output with one thread's.
    let schema = Schema::parse(
        "message m { required int32 k; optional binary big (STRING); \
         optional group l (LIST) { repeated group list { required int64 element; } } }",
    )
    .unwrap();
    let records: Vec<Value> = (0..20_000i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int32((i % 7) as i32),
                if i % 13 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("{:0>150}", i * 7919 % 100_003).into_bytes())
                },
                Value::List((0..i % 4).map(|k| Value::Int64(i * k)).collect()),
            ])
        })
        .collect();
    for (name, options) in [
        (
            "v1",
            WriteOptions::default()
                .max_rows_per_page(700)
                .dictionary_page_size_limit(100_000),
        ),
        (
            "v2-zstd",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Zstd { level: 1 })
                .max_rows_per_page(900)
                .page_crc(true),
        ),
    ] {
        let path = temp_path(&format!("large-{name}.parquet"));
        std::fs::write(&path, write(&schema, options, &records)).unwrap();
        let (ok, text) = parket_check(&path);
        assert!(ok, "{name}: {text}");
        assert!(
            text.contains("ok  big  BYTE_ARRAY  20000 values (1539 nulls)"),
            "{name}: {text}"
        );
        let _ = std::fs::remove_file(&path);
    }
}

//! Arrow against pyarrow: files pyarrow writes (tests/interop/arrow_gen.py: every Arrow type
//! it maps, nested, nulls, time zones, large/view/dictionary types, V2 pages, small row
//! groups, INT96, with and without `ARROW:schema`) and the parquet-testing corpus read into
//! the RecordBatches pyarrow reads (its tables, as Arrow IPC files); `BatchWriter`'s files
//! read by pyarrow as the same tables, and by `BatchReader` back to them.
#![cfg(feature = "arrow")]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use arrow_array::{Array, RecordBatch};
use parket::arrow::{BatchReader, BatchWriter};
use parket::read::FileReader;
use parket::write::{PageVersion, WriteOptions};

fn python(args: &[&str]) -> Option<String> {
    let out = Command::new("python3").args(args).output().ok()?;
    if !out.status.success() {
        panic!(
            "python3 {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn script() -> String {
    format!("{}/tests/interop/arrow_gen.py", env!("CARGO_MANIFEST_DIR"))
}

/// The directory of pyarrow's files and expectations (made once per run); `None` without
/// python3 + pyarrow.
fn generated() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let probe = Command::new("python3")
            .args(["-c", "import pyarrow"])
            .output();
        if !probe.is_ok_and(|o| o.status.success()) {
            eprintln!("skipped: python3 with pyarrow is not available");
            return None;
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("arrow_interop");
        let _ = std::fs::remove_dir_all(&dir);
        python(&[&script(), dir.to_str().unwrap()])?;
        Some(dir)
    })
    .as_deref()
}

fn read_ipc(path: &Path) -> (arrow_schema::SchemaRef, Vec<RecordBatch>) {
    let f = std::fs::File::open(path).unwrap();
    let r = arrow_ipc::reader::FileReader::try_new(f, None).unwrap();
    let schema = r.schema();
    (schema, r.map(|b| b.unwrap()).collect())
}

/// Asserts that `ours` (any batching) holds the rows of `expected` (one batch), field by field.
fn assert_same(
    what: &str,
    ours: &[RecordBatch],
    schema: &arrow_schema::Schema,
    expected: &[RecordBatch],
) {
    let rows: usize = expected.iter().map(|b| b.num_rows()).sum();
    assert_eq!(
        ours.iter().map(|b| b.num_rows()).sum::<usize>(),
        rows,
        "{what}: rows"
    );
    let expected = arrow_select_concat(schema, expected);
    let mut at = 0;
    for b in ours {
        assert_eq!(b.num_columns(), schema.fields().len(), "{what}: columns");
        for (i, f) in schema.fields().iter().enumerate() {
            let got = b.schema().field(i).clone();
            assert_eq!(
                (got.name(), got.data_type(), got.is_nullable()),
                (f.name(), f.data_type(), f.is_nullable()),
                "{what}: field {i}"
            );
            let want = expected[i].slice(at, b.num_rows());
            let col = b.column(i);
            if col.as_ref() != want.as_ref() {
                panic!(
                    "{what}: column {} rows {at}..: got\n{col:?}\nwant\n{want:?}",
                    f.name()
                );
            }
        }
        at += b.num_rows();
    }
}

/// The columns of `batches` (pyarrow's combined table: at most one batch).
fn arrow_select_concat(
    schema: &arrow_schema::Schema,
    batches: &[RecordBatch],
) -> Vec<Arc<dyn Array>> {
    match batches {
        [] => schema
            .fields()
            .iter()
            .map(|f| arrow_array::new_empty_array(f.data_type()))
            .collect(),
        [b] => b.columns().to_vec(),
        _ => panic!("expected one batch per table"),
    }
}

fn read_ours(bytes: &[u8], batch: usize) -> Vec<RecordBatch> {
    let file = FileReader::from_bytes(bytes).unwrap();
    let reader = BatchReader::from_scan(file.scan().batch_size(batch)).unwrap();
    reader.collect::<parket::Result<Vec<_>>>().unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "parquet" && !p.to_str()?.ends_with(".rt.parquet"))
                .then(|| p.file_stem().unwrap().to_str().unwrap().to_string())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn pyarrow_files_read_as_pyarrow_reads_them() {
    let Some(dir) = generated() else { return };
    let all = names(dir);
    assert!(all.len() >= 9, "{all:?}");
    for name in all {
        let bytes = std::fs::read(dir.join(format!("{name}.parquet"))).unwrap();
        let (schema, expected) = read_ipc(&dir.join(format!("{name}.arrow")));
        for batch in [8192, 333] {
            let ours = read_ours(&bytes, batch);
            assert_same(
                &format!("{name} (batches of {batch})"),
                &ours,
                &schema,
                &expected,
            );
        }
    }
}

#[test]
fn batch_writer_files_read_back_in_pyarrow_and_parket() {
    let Some(dir) = generated() else { return };
    for name in names(dir) {
        let (schema, expected) = read_ipc(&dir.join(format!("{name}.arrow")));
        let options = [
            WriteOptions::default(),
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .row_group_rows(400)
                .data_page_size(1000)
                .dictionary(false),
        ];
        for (k, options) in options.into_iter().enumerate() {
            let mut w = BatchWriter::new(Vec::new(), schema.clone(), options).unwrap();
            // In uneven slices, to cross row groups mid-batch.
            for b in &expected {
                let mut at = 0;
                while at < b.num_rows() {
                    let n = 377.min(b.num_rows() - at);
                    w.write(&b.slice(at, n)).unwrap();
                    at += n;
                }
            }
            let bytes = w.finish().unwrap();
            let path = dir.join(format!("{name}.{k}.rt.parquet"));
            std::fs::write(&path, &bytes).unwrap();
            let out = python(&[
                &script(),
                "--check",
                dir.join(format!("{name}.arrow")).to_str().unwrap(),
                path.to_str().unwrap(),
            ])
            .unwrap();
            assert_eq!(out.trim(), "ok", "{name} options {k}: pyarrow reads {out}");
            let ours = read_ours(&bytes, 1000);
            assert_same(
                &format!("{name} written with options {k}"),
                &ours,
                &schema,
                &expected,
            );
        }
    }
}

/// Every parquet-testing file pyarrow reads (and gives expectations for) reads into the same
/// batches; the corpus files whose reading differs are listed with the reason.
#[test]
fn corpus_files_read_as_pyarrow_reads_them() {
    let Some(_) = generated() else { return };
    let data = PathBuf::from(
        std::env::var("PARQUET_TEST_DATA")
            .unwrap_or_else(|_| "/work/shared/parquet-testing".into()),
    )
    .join("data");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("arrow_corpus");
    let _ = std::fs::remove_dir_all(&out);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    let mut args = vec![script(), out.to_str().unwrap().to_string()];
    args.extend(files.iter().map(|p| p.to_str().unwrap().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    python(&args).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in &files {
        let name = p.file_stem().unwrap().to_str().unwrap();
        let expected = out.join(format!("{name}.arrow"));
        if !expected.exists() {
            continue;
        }
        let (schema, batches) = read_ipc(&expected);
        let bytes = std::fs::read(p).unwrap();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // pyarrow does not check page CRCs; parket does unless told not to.
            let crc = !name.ends_with("corrupt-checksum");
            let file = FileReader::from_bytes(&bytes)
                .map_err(|e| e.to_string())?
                .verify_crc(crc);
            let reader = BatchReader::new(&file).map_err(|e| e.to_string())?;
            let ours = reader
                .collect::<parket::Result<Vec<_>>>()
                .map_err(|e| e.to_string())?;
            assert_same(name, &ours, &schema, &batches);
            Ok::<(), String>(())
        }));
        match result {
            Ok(Ok(())) => checked += 1,
            Ok(Err(e)) => failures.push(format!("{name}: error {e}")),
            Err(p) => failures.push(format!(
                "{name}: {}",
                p.downcast_ref::<String>()
                    .map(|s| s.chars().take(300).collect::<String>())
                    .unwrap_or_default()
            )),
        }
    }
    eprintln!("{checked} corpus files read as pyarrow reads them");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Projection by dotted paths (a leaf deep in a struct, a whole map, a column) reads what
/// pyarrow's `columns=` reads; a predicate keeps the rows it selects.
#[test]
fn projection_and_predicate() {
    let Some(dir) = generated() else { return };
    let bytes = std::fs::read(dir.join("nested.parquet")).unwrap();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let (schema, expected) = read_ipc(&dir.join("nested.projected.arrow"));
    let ours = BatchReader::with_columns(&file, &["st.b.c", "m", "id"], 300)
        .unwrap()
        .collect::<parket::Result<Vec<_>>>()
        .unwrap();
    assert_eq!(ours.len(), 4);
    assert_same("nested projected", &ours, &schema, &expected);

    let (schema, expected) = read_ipc(&dir.join("nested.arrow"));
    let p = parket::predicate::Predicate::parse("id < 250", file.schema()).unwrap();
    let ours = BatchReader::from_scan(file.scan().predicate(p).batch_size(100))
        .unwrap()
        .collect::<parket::Result<Vec<_>>>()
        .unwrap();
    let first = RecordBatch::try_new(schema.clone(), expected[0].columns().to_vec())
        .unwrap()
        .slice(0, 250);
    assert_same("nested where id < 250", &ours, &schema, &[first]);
}

/// The read module's worked example: a nullable list of nullable INT32, rows `[1, null]`,
/// `null`, `[]`, from hand-written levels.
#[test]
fn levels_become_offsets_and_validity() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int32Type;
    use parket::levels::LeafData;
    use parket::values::Values;
    let schema = parket::schema::Schema::parse(
        "message m { optional group a (LIST) { repeated group list { optional int32 element; } } }",
    )
    .unwrap();
    let mut w =
        parket::write::FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    w.write_columns(&[LeafData {
        def_levels: vec![3, 2, 0, 1],
        rep_levels: vec![0, 1, 0, 0],
        values: Values::Int32(vec![1]),
    }])
    .unwrap();
    w.finish().unwrap();
    let bytes = w.into_inner();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let batch = BatchReader::new(&file).unwrap().next().unwrap().unwrap();
    let list = batch.column(0).as_list::<i32>();
    assert_eq!(list.offsets().as_ref(), &[0, 2, 2, 2]);
    assert_eq!(
        (0..3).map(|i| list.is_valid(i)).collect::<Vec<_>>(),
        [true, false, true]
    );
    let values = list.values().as_primitive::<Int32Type>();
    assert_eq!(values.iter().collect::<Vec<_>>(), [Some(1), None]);
}

/// What has no mapping is an error naming the field, both ways.
#[test]
fn unmappable_types_are_errors_naming_the_field() {
    let schema = parket::schema::Schema::parse(
        "message m { required int32 ok; optional fixed_len_byte_array(12) span (INTERVAL); }",
    )
    .unwrap();
    let mut w =
        parket::write::FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    w.finish().unwrap();
    let bytes = w.into_inner();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = BatchReader::new(&file)
        .err()
        .expect("INTERVAL has no Arrow type")
        .to_string();
    assert!(e.contains("INTERVAL") && e.contains("span"), "{e}");
    // The other columns still read.
    assert_eq!(
        BatchReader::with_columns(&file, &["ok"], 10)
            .unwrap()
            .count(),
        0
    );

    use arrow_schema::{DataType, Field, Schema, UnionFields, UnionMode};
    let u = DataType::Union(
        UnionFields::try_new([0], [Field::new("x", DataType::Int32, true)]).unwrap(),
        UnionMode::Dense,
    );
    let s = Arc::new(Schema::new(vec![
        Field::new("fine", DataType::Int64, false),
        Field::new("choice", u, true),
    ]));
    let e = BatchWriter::new(Vec::new(), s, WriteOptions::default())
        .err()
        .expect("unions have no Parquet type")
        .to_string();
    assert!(e.contains("`choice`"), "{e}");
}

/// The `ARROW:schema` BatchWriter stores decodes with arrow-rs's own IPC reader to the
/// writer's schema (metadata, time zones, dictionary, nested).
#[test]
fn stored_arrow_schema_decodes_with_arrow_ipc() {
    use arrow_schema::{DataType, Field, Schema, TimeUnit};
    let s = Schema::new(vec![
        Field::new(
            "ts",
            DataType::Timestamp(TimeUnit::Nanosecond, Some("Europe/Paris".into())),
            true,
        ),
        Field::new(
            "l",
            DataType::LargeList(Arc::new(Field::new("element", DataType::Utf8View, false))),
            false,
        ),
        Field::new(
            "d",
            DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::LargeUtf8)),
            true,
        )
        .with_metadata([("k", "v")]),
        Field::new("dec", DataType::Decimal256(60, -3), true),
        Field::new("t", DataType::Time32(TimeUnit::Second), true),
        Field::new("dur", DataType::Duration(TimeUnit::Microsecond), true),
        Field::new("f16", DataType::Float16, true),
        Field::new(
            "m",
            DataType::Map(
                Arc::new(Field::new(
                    "entries",
                    DataType::Struct(
                        vec![
                            Field::new("key", DataType::Binary, false),
                            Field::new("value", DataType::FixedSizeBinary(5), true),
                        ]
                        .into(),
                    ),
                    false,
                )),
                false,
            ),
            true,
        ),
    ])
    .with_metadata([("pandas", "{}")]);
    let value = parket::arrow::ipc::schema_to_metadata(&s).unwrap();
    let bytes = parket::arrow::ipc::decode_base64(value.as_bytes()).unwrap();
    let theirs = arrow_ipc::convert::try_schema_from_ipc_buffer(&bytes).unwrap();
    assert_eq!(theirs, s);
    assert_eq!(parket::arrow::ipc::schema_from_metadata(&value), Some(s));
}

#[path = "common/mutate.rs"]
mod mutate;

/// BYTE_ARRAY pages in DELTA_BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY and PLAIN, which a scan
/// writes a batch at a time straight from the page: rows picked from inside pages (the
/// values before them passed, a DELTA_BYTE_ARRAY prefix taken from a value not read) read
/// as pyarrow reads them. (Whole files, in batches of 333 and 8,192 rows, are in
/// `pyarrow_files_read_as_pyarrow_reads_them`.)
#[test]
fn delta_strings_read_from_inside_pages() {
    use parket::predicate::RowRanges;
    let Some(dir) = generated() else { return };
    let picks = [
        0..1,
        5..40,
        127..129,
        250..251,
        400..1100,
        1650..1760,
        1990..2000,
    ];
    for name in [
        "strings_delta_v1",
        "strings_delta_v2",
        "strings_delta_v2_none",
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.parquet"))).unwrap();
        let (schema, expected) = read_ipc(&dir.join(format!("{name}.arrow")));
        let all = arrow_select_concat(&schema, &expected);
        let file = FileReader::from_bytes(&bytes).unwrap();
        for batch in [7, 100, 8192] {
            let rows = RowRanges::from_ranges(picks.iter().map(|r| r.start as u64..r.end as u64));
            let ours = BatchReader::from_scan(file.scan().rows(rows).batch_size(batch))
                .unwrap()
                .collect::<parket::Result<Vec<_>>>()
                .unwrap();
            let what = format!("{name} rows {picks:?} (batches of {batch})");
            let got: usize = ours.iter().map(|b| b.num_rows()).sum();
            assert_eq!(got, picks.iter().map(|r| r.len()).sum::<usize>(), "{what}");
            // Walk our batches and the picked rows of pyarrow's table side by side.
            let (mut b, mut at) = (0, 0);
            for r in &picks {
                let mut row = r.start;
                while row < r.end {
                    while ours[b].num_rows() == at {
                        (b, at) = (b + 1, 0);
                    }
                    let n = (r.end - row).min(ours[b].num_rows() - at);
                    for (i, want) in all.iter().enumerate() {
                        let got = ours[b].column(i).slice(at, n);
                        let want = want.slice(row, n);
                        assert_eq!(got.as_ref(), want.as_ref(), "{what}: column {i} row {row}");
                    }
                    at += n;
                    row += n;
                }
            }
        }
    }
}

/// The bytes a ULEB128 takes at the start of `b`.
fn uleb_len(b: &[u8]) -> usize {
    b.iter().position(|&x| x & 0x80 == 0).unwrap() + 1
}

/// A DELTA_BYTE_ARRAY page that lies (a first prefix longer than the empty value before it)
/// and a DELTA_LENGTH_BYTE_ARRAY page whose lengths stream is made to run over its bytes (a
/// miniblock widened to 31-bit deltas) are errors naming the column, row group and page;
/// neither panics.
#[test]
fn hostile_delta_pages_are_located_errors() {
    let Some(dir) = generated() else { return };
    let bytes = std::fs::read(dir.join("strings_delta_v2_none.parquet")).unwrap();
    let l = mutate::layout(&bytes).unwrap();
    let names = [
        "dba",
        "dba_bin",
        "dba_large",
        "dba_keys",
        "dba_list",
        "dlba",
    ];
    // The values section of the second data page of column `col` (V2 pages, uncompressed:
    // after the levels).
    let values_of = |col: usize| {
        let (head, body) = l
            .pages
            .iter()
            .zip(&l.chunk_of)
            .filter(|(_, &(rg, c))| rg == 0 && c == col)
            .map(|(p, _)| p.clone())
            .nth(1)
            .unwrap();
        let (h, _) = parket::format::PageHeader::decode(&bytes[head]).unwrap();
        let v2 = h.data_page_header_v2.unwrap();
        body.start + (v2.definition_levels_byte_length + v2.repetition_levels_byte_length) as usize
    };
    for (col, what) in [(0, "prefix"), (5, "DELTA_")] {
        let mut bad = bytes.clone();
        // The lengths' header: block size, miniblocks, value count, first value.
        let at = values_of(col);
        let mut p = at + uleb_len(&bad[at..]);
        p += uleb_len(&bad[p..]);
        p += uleb_len(&bad[p..]);
        if col == 0 {
            // Every page's first prefix is 0 (the value before it is empty).
            assert_eq!(bad[p], 0, "first prefix length");
            bad[p] = 10; // zigzag 5
        } else {
            p += uleb_len(&bad[p..]); // first length
            p += uleb_len(&bad[p..]); // min delta
            bad[p] = 31; // first miniblock: 31-bit deltas
        }
        let file = FileReader::from_bytes(&bad).unwrap();
        for batch in [50, 8192] {
            let scan = file.scan().columns(&[names[col]]).batch_size(batch);
            let r: parket::Result<Vec<_>> = BatchReader::from_scan(scan).unwrap().collect();
            let e = r.expect_err("a hostile page").to_string();
            assert!(
                e.contains(what) && e.contains(names[col]) && e.contains("page 1"),
                "{}: {e}",
                names[col]
            );
        }
    }
}

/// String columns holding invalid UTF-8 (tests/interop/arrow_utf8.py: pyarrow's writer fed
/// arrays it did not check), one file per encoding: a dictionary entry (a small dictionary
/// and one read in place), a PLAIN value (`Utf8`, `LargeUtf8` and `Utf8View`; one whose half
/// char is completed by the next value, so that the bytes are valid as a whole), a
/// DELTA_LENGTH_BYTE_ARRAY value and a DELTA_BYTE_ARRAY value put together from its prefix and
/// suffix. Each is an error naming the column, row group and page where pyarrow rejects the
/// file; the files pyarrow reads (among them DELTA_BYTE_ARRAY pages whose prefixes cut "é"
/// and "ê" in the middle: neither part valid, the values whole) read as the same table.
#[test]
fn strings_are_checked_as_utf8() {
    if generated().is_none() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("arrow_utf8");
    let _ = std::fs::remove_dir_all(&dir);
    let script = format!("{}/tests/interop/arrow_utf8.py", env!("CARGO_MANIFEST_DIR"));
    let listing = python(&[&script, dir.to_str().unwrap()]).unwrap();
    let mut seen = (0, 0);
    for line in listing.lines() {
        let (name, verdict) = line.split_once(' ').unwrap();
        let bytes = std::fs::read(dir.join(format!("{name}.parquet"))).unwrap();
        let file = FileReader::from_bytes(&bytes).unwrap();
        for batch in [7, 8192] {
            let read: parket::Result<Vec<RecordBatch>> =
                BatchReader::from_scan(file.scan().batch_size(batch))
                    .unwrap()
                    .collect();
            match verdict {
                "accepted" => {
                    let (schema, expected) = read_ipc(&dir.join(format!("{name}.arrow")));
                    let ours = read.unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_same(name, &ours, &schema, &expected);
                    seen.0 += 1;
                }
                "rejected" => {
                    let e = read.expect_err(name);
                    let text = e.to_string();
                    let loc = e.location();
                    assert!(text.contains("not valid UTF-8"), "{name}: {text}");
                    assert_eq!(loc.column.as_deref(), Some("s"), "{name}: {text}");
                    assert_eq!(loc.row_group, Some(0), "{name}: {text}");
                    // A dictionary's entries are checked with its page, the first.
                    let page = loc
                        .page
                        .unwrap_or_else(|| panic!("{name}: no page: {text}"));
                    assert_eq!(page == 0, name.starts_with("dict"), "{name}: {text}");
                    seen.1 += 1;
                }
                v => panic!("{name}: {v}"),
            }
        }
    }
    assert_eq!(
        seen,
        (2 * 5, 2 * 7),
        "files accepted and rejected, twice each"
    );
}

//! `parket dump --footer / --column-index / --offset-index / --bloom-filter [--probe]` and the
//! additions to `parket meta`, against bytes worked by hand in spec-notes (01, 02, 14, 15) and
//! against the raw bytes of corpus files read by the test itself; and `dump --footer` on every
//! corpus file exits 0 or 1, never panics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use parket::compression::Codec;
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{FileWriter, WriteOptions};

fn parket(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

fn stdout_of(args: &[&str]) -> String {
    let out = parket(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The lines of `text` with runs of spaces folded to one, for comparing annotated lines.
fn folded(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn has_line(text: &str, want: &str) -> bool {
    folded(text).iter().any(|l| l == want)
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_dump_structs");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// The 87-byte file of spec-notes/01 (its footer annotated byte by byte in spec-notes/02).
fn note01_file() -> PathBuf {
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(&[
        0x15, 0x00, 0x15, 0x08, 0x15, 0x08, 0x2C, 0x15, 0x02, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06,
        0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
    ]);
    file.extend_from_slice(&[
        0x15, 0x02, 0x19, 0x2C, 0x48, 0x01, 0x6D, 0x15, 0x02, 0x00, 0x15, 0x02, 0x25, 0x00, 0x18,
        0x01, 0x78, 0x00, 0x16, 0x02, 0x19, 0x1C, 0x19, 0x1C, 0x26, 0x00, 0x1C, 0x15, 0x02, 0x19,
        0x15, 0x00, 0x19, 0x18, 0x01, 0x78, 0x15, 0x00, 0x16, 0x02, 0x16, 0x2A, 0x16, 0x2A, 0x26,
        0x08, 0x00, 0x00, 0x16, 0x2A, 0x16, 0x02, 0x00, 0x00,
    ]);
    file.extend_from_slice(&[0x36, 0x00, 0x00, 0x00]);
    file.extend_from_slice(b"PAR1");
    assert_eq!(file.len(), 87);
    let p = tmp("note01.parquet");
    std::fs::write(&p, file).unwrap();
    p
}

#[test]
fn footer_of_the_hand_built_file() {
    let f = note01_file();
    let out = stdout_of(&["dump", "--footer", f.to_str().unwrap()]);
    // spec-notes/02, line by line: offset 25 is the footer's first byte.
    for want in [
        "0 50 41 52 31 magic \"PAR1\"",
        "25 15 02 1 version: i32 = 1",
        "27 19 2c 2 schema: list<SchemaElement>, 2 elements",
        "29 48 01 6d 4 name: string = \"m\" (1 bytes)",
        "32 15 02 5 num_children: i32 = 1",
        "35 15 02 1 type: Type = INT32 (1)",
        "37 25 00 3 repetition_type: FieldRepetitionType = REQUIRED (0)",
        "43 16 02 3 num_rows: i64 = 1",
        "45 19 1c 4 row_groups: list<RowGroup>, 1 elements",
        "49 26 00 2 file_offset: i64 = 0",
        "52 15 02 1 type: Type = INT32 (1)",
        "54 19 15 2 encodings: list<Encoding>, 1 elements",
        "56 00 element: Encoding = PLAIN (0)",
        "69 26 08 9 data_page_offset: i64 = 4",
        "78 00 stop",
        "79 36 00 00 00 footer length: 54 (4 bytes, little-endian)",
        "83 50 41 52 31 magic \"PAR1\"",
    ] {
        assert!(has_line(&out, want), "missing {want:?} in\n{out}");
    }
}

/// The file of spec-notes/14: `required int32 x` = 1..6 in two pages of three.
fn note14_file() -> PathBuf {
    let schema = Schema::parse("message m { required int32 x; }").unwrap();
    let options = WriteOptions::default()
        .codec(Codec::Uncompressed)
        .dictionary(false)
        .page_crc(false)
        .max_rows_per_page(3);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    rg.column("x")
        .unwrap()
        .write(ValuesRef::Int32(&[1, 2, 3, 4, 5, 6]), &[], &[])
        .unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    let p = tmp("note14.parquet");
    std::fs::write(&p, w.into_inner()).unwrap();
    p
}

#[test]
fn page_index_of_the_note_14_file() {
    let f = note14_file();
    let f = f.to_str().unwrap();
    // spec-notes/14: ColumnIndex at 62 (35 bytes), OffsetIndex at 97 (17 bytes).
    let ci = stdout_of(&["dump", "--column-index", "0:x", f]);
    for want in [
        "column index of row group 0, column x (INT32): 35 bytes at offset 62",
        "62 19 21 1 null_pages: list<bool>, 2 elements",
        "64 02 element: bool = false",
        "90 15 02 4 boundary_order: BoundaryOrder = ASCENDING (1)",
        "2 pages, boundary_order ASCENDING; min and max decoded for x (a null page has neither)",
        "0 false 0 1 3",
        "1 false 0 4 6",
    ] {
        assert!(has_line(&ci, want), "missing {want:?} in\n{ci}");
    }
    let oi = stdout_of(&["dump", "--offset-index", "0:0", f]);
    for want in [
        "offset index of row group 0, column x (INT32): 17 bytes at offset 97",
        "97 19 2c 1 page_locations: list<PageLocation>, 2 elements",
        "99 16 08 1 offset: i64 = 4",
        "101 15 3a 2 compressed_page_size: i32 = 29",
        "103 16 00 3 first_row_index: i64 = 0",
        "0 4 29 0 3 -",
        "1 33 29 3 3 -",
    ] {
        assert!(has_line(&oi, want), "missing {want:?} in\n{oi}");
    }
    // No Bloom filter there: an error naming what is missing.
    let out = parket(&["dump", "--bloom-filter", "0:x", f]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no Bloom filter"));
    // A chunk that does not exist.
    let out = parket(&["dump", "--column-index", "3:x", f]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no row group 3"));
}

#[test]
fn bloom_probe_shows_the_block_and_bits_of_spec_notes_15() {
    let path =
        parket::testing::corpus_dir().join("data/data_index_bloom_encoding_with_length.parquet");
    let f = path.to_str().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    // "hello" (not in the file): spec-notes/15 works XXH64("hello") = 0x26C7827D_889F6DA3 and
    // its 8 bits 20, 9, 10, 7, 9, 31, 28, 27; with z = 2048 / 32 = 64 blocks the block is
    // (0x26C7827D * 64) >> 32 = 9.
    let out = stdout_of(&["dump", "--bloom-filter", "0:String", "--probe", "hello", f]);
    assert!(out.contains("xxHash64 = 0x26c7827d889f6da3"), "{out}");
    assert!(out.contains("(0x26c7827d * 64) >> 32 = 9"), "{out}");
    // The bitset starts after the 16-byte header at 253 (bloom_filter_length 2064 = 16 + 2048).
    let bits_at = 253 + 16;
    let mut unset = 0;
    for (i, bit) in [20u32, 9, 10, 7, 9, 31, 28, 27].into_iter().enumerate() {
        let at = bits_at + 9 * 32 + 4 * i;
        let word = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let set = word & (1 << bit) != 0;
        unset += usize::from(!set);
        let line = folded(&out)
            .into_iter()
            .find(|l| l.contains(&format!("word {i} =")))
            .unwrap();
        assert!(line.starts_with(&format!("{at} ")), "{line}");
        assert!(line.contains(&format!("bit {bit} ")), "{line}");
        assert_eq!(line.ends_with("NOT set"), !set, "{line}");
    }
    if unset == 0 {
        assert!(out.contains("may be in this chunk"));
    } else {
        assert!(out.contains(&format!("{unset} of the 8 bits are not set")));
    }
    // Every value of the chunk passes: a Bloom filter has no false negatives.
    for v in ["Hello", "today"] {
        let out = stdout_of(&["dump", "--bloom-filter", "0:0", "--probe", v, f]);
        assert!(out.contains("all 8 bits are set"), "{v}: {out}");
    }
    let out = stdout_of(&["dump", "--bloom-filter", "0:0", f]);
    assert!(
        has_line(&out, "253 15 80 20 1 num_bytes: i32 = 2048"),
        "{out}"
    );
}

#[test]
fn meta_names_orders_indexes_filters_and_why_min_max_is_missing() {
    let data = parket::testing::corpus_dir().join("data");
    let meta = |name: &str| stdout_of(&["meta", data.join(name).to_str().unwrap()]);
    let m = meta("alltypes_plain.parquet");
    assert!(m.contains("column orders: not set"), "{m}");
    let m = meta("floating_orders_nan_count.parquet");
    assert!(m.contains("float_ieee754: IEEE_754_TOTAL_ORDER"), "{m}");
    assert!(m.contains("float_typedef: TYPE_ORDER"), "{m}");
    let m = meta("nan_in_stats.parquet");
    assert!(m.contains("no min/max: a NaN bound"), "{m}");
    let m = meta("datapage_v2.snappy.parquet");
    assert!(
        m.contains("no min/max: only the deprecated min/max fields"),
        "{m}"
    );
    let m = meta("data_index_bloom_encoding_with_length.parquet");
    assert!(m.contains("bloom filter: at 253 (2064 bytes)"), "{m}");
    assert!(m.contains("null_count (not set: unknown, not 0)"), "{m}");
    let m = meta("alltypes_tiny_pages.parquet");
    assert!(m.contains("page index: column index at "), "{m}");
}

#[test]
fn footer_dump_on_every_corpus_file_never_panics() {
    let mut files = parket::testing::corpus_files("data");
    files.extend(parket::testing::corpus_files("bad_data"));
    let mut dumped = 0;
    for f in &files {
        let out = parket(&["dump", "--footer", f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("panicked") && matches!(out.status.code(), Some(0 | 1)),
            "{}: {err}",
            f.display()
        );
        dumped += usize::from(out.status.success());
    }
    assert!(dumped >= 70, "only {dumped} footers dumped");
}

#[test]
fn delta_blocks_of_spec_notes_08_example_2() {
    // spec-notes/08, worked example 2: -1 3 2 2 10 -> deltas 4 -1 0 8, min delta -1, packed
    // 5 0 1 9 in 4 bits: widths 04 00 00 00, miniblock 0 = 05 91 and 14 bytes of padding.
    let input = tmp("delta.jsonl");
    std::fs::write(
        &input,
        "{\"x\":-1}\n{\"x\":3}\n{\"x\":2}\n{\"x\":2}\n{\"x\":10}\n",
    )
    .unwrap();
    let file = tmp("delta.parquet");
    let f = file.to_str().unwrap();
    stdout_of(&[
        "write",
        "--schema",
        "message m { required int64 x; }",
        "--input",
        input.to_str().unwrap(),
        "--output",
        f,
        "--encoding",
        "x=DELTA_BINARY_PACKED",
        "--dictionary",
        "off",
        "--codec",
        "uncompressed",
    ]);
    let out = folded(&stdout_of(&["dump", "--page", "0:x:0", f]));
    // The values start after the 27-byte page (4-byte magic + 23-byte header).
    for want in [
        "27 80 01 block size in values: 128 (ULEB128)",
        "29 04 miniblocks per block: 4 (ULEB128)",
        "30 05 total value count: 5 (ULEB128)",
        "31 01 first value: -1 (zigzag ULEB128)",
        "32 01 block 0: min delta -1 (zigzag ULEB128)",
        "33 04 00 00 00 bit widths of the 4 miniblocks: [4, 0, 0, 0]",
        "37 05 91 00 00 00 00 00 00 00 00 00 00 miniblock 0: 32 x 4 bits = 16 bytes; packed [5, 0, 1, 9] + min delta = deltas [4, -1, 0, 8] (the last 28 are padding)",
        "53 miniblocks 1.. hold no value: no bytes (their widths mean nothing)",
    ] {
        assert!(out.iter().any(|l| l == want), "missing {want:?} in\n{}", out.join("\n"));
    }
}

/// pyarrow's view of every column chunk: [has_column_index, has_offset_index,
/// bloom_filter_offset, bloom_filter_length] per column per row group, or an error.
fn pyarrow_index_offsets(files: &[String]) -> Vec<serde_json::Value> {
    let script = r#"
import json, sys
import pyarrow.parquet as pq
for f in sys.argv[1:]:
    try:
        md = pq.ParquetFile(f).metadata
        rgs = []
        for i in range(md.num_row_groups):
            rg = md.row_group(i)
            cols = []
            for j in range(rg.num_columns):
                c = rg.column(j)
                off = c.bloom_filter_offset
                ln = c.bloom_filter_length
                cols.append([c.has_column_index, c.has_offset_index,
                             None if off is None or off < 0 else off,
                             None if ln is None or ln < 0 else ln])
            rgs.append(cols)
        print(json.dumps(rgs))
    except Exception as e:
        print(json.dumps({"error": str(e)}))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(files)
        .output()
        .expect("run python3 with pyarrow");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn meta_json_index_and_bloom_offsets_agree_with_pyarrow() {
    let mut files = parket::testing::corpus_files("data");
    files.extend(parket::testing::corpus_files("data/geospatial"));
    let files: Vec<String> = files
        .iter()
        .map(|p| p.display().to_string())
        .filter(|n| n.ends_with(".parquet"))
        .collect();
    let expected = pyarrow_index_offsets(&files);
    assert_eq!(expected.len(), files.len());
    let (mut compared, mut with_index, mut with_bloom) = (0, 0, 0);
    for (name, py) in files.iter().zip(&expected) {
        if py.get("error").is_some() {
            continue;
        }
        let out = parket(&["meta", "--json", name]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for (i, (rg, prg)) in ours["row_groups"]
            .as_array()
            .unwrap()
            .iter()
            .zip(py.as_array().unwrap())
            .enumerate()
        {
            for (j, (c, p)) in rg["columns"]
                .as_array()
                .unwrap()
                .iter()
                .zip(prg.as_array().unwrap())
                .enumerate()
            {
                let at = format!("{name}: row group {i} column {j}");
                assert_eq!(
                    !c["column_index"].is_null(),
                    p[0].as_bool().unwrap(),
                    "{at}: column index"
                );
                assert_eq!(
                    !c["offset_index"].is_null(),
                    p[1].as_bool().unwrap(),
                    "{at}: offset index"
                );
                assert_eq!(
                    c["bloom_filter"]["offset"], p[2],
                    "{at}: bloom_filter_offset"
                );
                assert_eq!(
                    c["bloom_filter"]["length"], p[3],
                    "{at}: bloom_filter_length"
                );
                with_index += usize::from(p[0].as_bool().unwrap());
                with_bloom += usize::from(!p[2].is_null());
            }
        }
        compared += 1;
    }
    assert!(compared >= 60, "only {compared} files compared");
    assert!(
        with_index >= 20 && with_bloom >= 2,
        "{with_index} indexes, {with_bloom} filters"
    );
}

#[test]
fn meta_shows_size_statistics_worked_by_hand() {
    // s = "a", null: definition levels 1, 0 -> histogram [1, 1]; 1 unencoded byte ("a").
    // l = [1, 2], []: entries (rep 0, def 3), (rep 1, def 3), (rep 0, def 1) -> repetition
    // histogram [2, 1], definition histogram [0, 1, 0, 2].
    let input = tmp("sizes.jsonl");
    std::fs::write(&input, "{\"s\":\"a\",\"l\":[1,2]}\n{\"s\":null,\"l\":[]}\n").unwrap();
    let file = tmp("sizes.parquet");
    let f = file.to_str().unwrap();
    stdout_of(&[
        "write",
        "--schema",
        "message m { optional binary s (STRING); optional group l (LIST) { \
         repeated group list { optional int32 element; } } }",
        "--input",
        input.to_str().unwrap(),
        "--output",
        f,
    ]);
    let m = stdout_of(&["meta", f]);
    for want in [
        "size statistics: unencoded byte-array data 1 bytes, definition level histogram [1, 1]",
        "size statistics: repetition level histogram [2, 1], definition level histogram [0, 1, 0, 2]",
    ] {
        assert!(has_line(&m, want), "missing {want:?} in\n{m}");
    }
}

//! Bloom filters across implementations.
//!
//! * parket writes Bloom filters (`parket write --bloom-filter PATH`) on INT32, INT64, STRING,
//!   DOUBLE, FLOAT, UUID, plain FIXED_LEN_BYTE_ARRAY and DECIMAL-on-FLBA columns; then
//!   - our reader (`BloomFilterHeader::decode` at `ColumnMetaData.bloom_filter_offset`,
//!     `Sbbf::from_bytes`, `check_hash`) finds every value of each row group, as pyarrow reads
//!     the values, and rejects most absent values;
//!   - DuckDB's `parquet_bloom_probe(file, column, value)` does not exclude any present value
//!     and excludes most absent ones (see `tests/interop/duckcheck.py bloom`).
//! * pyarrow rewrites the same data with its own Bloom filters, DuckDB writes a file with its
//!   own, and parquet-testing has two files with parquet-java's: our reader finds every value
//!   in each of them.
//!
//! pyarrow 26 exposes `bloom_filter_offset` / `bloom_filter_length` in its metadata but has no
//! Python reader for the filters, so DuckDB is the other reader. DuckDB 1.4.4 limits, shown
//! on files DuckDB wrote itself: its probe never excludes a UUID or DECIMAL value (not
//! informative), and
//! its probe of a BLOB / FIXED_LEN_BYTE_ARRAY column excludes values that are present (also in
//! its own and pyarrow's files, whose filters our reader confirms): those columns are checked
//! by our reader only.

use parket::bloom::{hash_bytes, Sbbf};
use parket::format::BloomFilterHeader;
use parket::read::footer::metadata_from_bytes;
use parket::Limits;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Copy, Debug)]
enum Kind {
    I32,
    I64,
    Str,
    F64,
    F32,
    Uuid,
    /// base64 in JSON
    Bytes,
    /// DECIMAL(_, scale) on FLBA(width)
    Dec(usize, usize),
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/interop")
        .join(name)
}

fn python(args: &[&str]) -> String {
    let out = Command::new("python3")
        .args(args)
        .output()
        .expect("run python3 (install tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "python3 {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("bad base64 {s}"),
    };
    let mut out = Vec::new();
    for chunk in s.as_bytes().chunks(4) {
        let pad = chunk.iter().filter(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in chunk {
            n = n << 6 | if c == b'=' { 0 } else { val(c) as u32 };
        }
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    out
}

/// The plain-encoded bytes the spec hashes for a JSON value (per the row contract) of `kind`.
fn plain_bytes(kind: Kind, v: &Value) -> Vec<u8> {
    match kind {
        Kind::I32 => (v.as_i64().unwrap() as i32).to_le_bytes().to_vec(),
        Kind::I64 => v.as_i64().unwrap().to_le_bytes().to_vec(),
        Kind::Str => v.as_str().unwrap().as_bytes().to_vec(),
        Kind::F64 => v.as_f64().unwrap().to_bits().to_le_bytes().to_vec(),
        Kind::F32 => (v.as_f64().unwrap() as f32)
            .to_bits()
            .to_le_bytes()
            .to_vec(),
        Kind::Uuid => {
            let hex: String = v.as_str().unwrap().chars().filter(|&c| c != '-').collect();
            (0..16)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        }
        Kind::Bytes => base64_decode(v.as_str().unwrap()),
        Kind::Dec(width, _scale) => {
            let digits: String = v.as_str().unwrap().chars().filter(|&c| c != '.').collect();
            let n: i128 = digits.parse().unwrap();
            n.to_be_bytes()[16 - width..].to_vec()
        }
    }
}

/// A value of `kind` that is (almost surely) not in the file: derived from `i`.
fn absent_bytes(kind: Kind, i: u64) -> Vec<u8> {
    let x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5555_0000_aaaa;
    match kind {
        Kind::I32 => (x as i32).to_le_bytes().to_vec(),
        Kind::I64 => x.to_le_bytes().to_vec(),
        Kind::Str => format!("absent-{x}").into_bytes(),
        Kind::F64 => (x as f64 * 1.000_001).to_bits().to_le_bytes().to_vec(),
        Kind::F32 => ((x >> 40) as f32 + 0.1).to_bits().to_le_bytes().to_vec(),
        Kind::Uuid => [x.to_le_bytes(), (!x).to_le_bytes()].concat(),
        Kind::Bytes => x.to_le_bytes()[..5].to_vec(),
        Kind::Dec(w, _) => (x as i128).to_be_bytes()[16 - w..].to_vec(),
    }
}

#[derive(Debug, Default)]
struct Outcome {
    groups: usize,
    with_filter: usize,
    present: usize,
    found: usize,
    absent: usize,
    false_positives: usize,
}

/// Reads every Bloom filter of the top-level columns `cols` of `path` with our reader and
/// checks the values pyarrow reads from each row group (rows.py).
fn own_reader(path: &Path, cols: &[(&str, Kind)]) -> Vec<(String, Outcome)> {
    let file = std::fs::read(path).unwrap();
    let meta = metadata_from_bytes(&file, &Limits::default()).unwrap();
    let rows: Vec<Value> = python(&[script("rows.py").to_str().unwrap(), path.to_str().unwrap()])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = Vec::new();
    for &(name, kind) in cols {
        let mut o = Outcome::default();
        let mut first_row = 0usize;
        for rg in &meta.row_groups {
            o.groups += 1;
            let n = rg.num_rows as usize;
            let group = &rows[first_row..first_row + n];
            first_row += n;
            let cm = rg
                .columns
                .iter()
                .filter_map(|c| c.meta_data.as_ref())
                .find(|m| m.path_in_schema == [name])
                .unwrap_or_else(|| panic!("{}: no column {name}", path.display()));
            let Some(offset) = cm.bloom_filter_offset else {
                continue;
            };
            o.with_filter += 1;
            let start = offset as usize;
            let (header, hlen) = BloomFilterHeader::decode(&file[start..]).unwrap();
            let bits = &file[start + hlen..start + hlen + header.num_bytes as usize];
            if let Some(len) = cm.bloom_filter_length {
                assert_eq!(
                    len as usize,
                    hlen + bits.len(),
                    "{name}: bloom_filter_length"
                );
            }
            let filter = Sbbf::from_bytes(bits).unwrap();
            let mut seen = std::collections::HashSet::new();
            for row in group {
                let v = &row[name];
                if v.is_null() {
                    continue;
                }
                let b = plain_bytes(kind, v);
                o.present += 1;
                if filter.check_hash(hash_bytes(&b)) {
                    o.found += 1;
                } else {
                    eprintln!("{}: {name}: {v} not found", path.display());
                }
                seen.insert(b);
            }
            for i in 0..200 {
                let b = absent_bytes(kind, i + o.groups as u64 * 1000);
                if seen.contains(&b) {
                    continue;
                }
                o.absent += 1;
                o.false_positives += filter.check_hash(hash_bytes(&b)) as usize;
            }
        }
        out.push((name.to_string(), o));
    }
    out
}

fn assert_own(path: &Path, cols: &[(&str, Kind)], want_filters: bool) {
    for (name, o) in own_reader(path, cols) {
        println!("own reader {}: {name}: {o:?}", path.display());
        if want_filters {
            assert_eq!(o.with_filter, o.groups, "{name}: a row group has no filter");
        }
        assert!(
            o.with_filter > 0,
            "{name}: no Bloom filter in {}",
            path.display()
        );
        assert_eq!(o.found, o.present, "{name}: values missing from the filter");
        assert!(
            o.false_positives * 10 <= o.absent,
            "{name}: too many false positives: {o:?}"
        );
    }
}

const SCHEMA: &str = "message schema {
  required int32 i32;
  optional int64 i64;
  optional binary s (STRING);
  required double d;
  optional float f;
  optional fixed_len_byte_array(16) u (UUID);
  optional fixed_len_byte_array(5) fx;
  optional fixed_len_byte_array(9) dec (DECIMAL(20,2));
  optional int32 nob;
}
";

const COLS: [(&str, Kind); 8] = [
    ("i32", Kind::I32),
    ("i64", Kind::I64),
    ("s", Kind::Str),
    ("d", Kind::F64),
    ("f", Kind::F32),
    ("u", Kind::Uuid),
    ("fx", Kind::Bytes),
    ("dec", Kind::Dec(9, 2)),
];

fn rows_jsonl(n: u64) -> String {
    let mut x = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let b64 = |b: &[u8]| {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for c in b.chunks(3) {
            let n = (c[0] as u32) << 16
                | (*c.get(1).unwrap_or(&0) as u32) << 8
                | *c.get(2).unwrap_or(&0) as u32;
            for k in 0..4 {
                if k <= c.len() {
                    s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
                } else {
                    s.push('=');
                }
            }
        }
        s
    };
    let mut out = String::new();
    for i in 0..n {
        let r = next();
        let i64v = if r % 5 == 0 {
            "null".to_string()
        } else {
            ((r >> 3) as i64 % 50).to_string()
        };
        let s = match r % 7 {
            0 => "null".to_string(),
            1 => "\"\"".to_string(),
            _ => format!("\"é😀{}\"", r % 300),
        };
        let d = ((next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e6;
        let f = (next() % 2000) as f32 / 4.0 - 250.0;
        let u = next().to_le_bytes();
        let u2 = next().to_le_bytes();
        let uuid: String = u
            .iter()
            .chain(u2.iter())
            .enumerate()
            .map(|(k, b)| {
                let sep = if [4, 6, 8, 10].contains(&k) { "-" } else { "" };
                format!("{sep}{b:02x}")
            })
            .collect();
        let fx = b64(&next().to_le_bytes()[..5]);
        let dec = format!(
            "{}.{:02}",
            (next() % 2_000_000_000_000) as i64 - 1_000_000_000_000,
            i % 100
        );
        out.push_str(&format!(
            "{{\"i32\":{},\"i64\":{i64v},\"s\":{s},\"d\":{d:?},\"f\":{f:?},\"u\":\"{uuid}\",\
             \"fx\":\"{fx}\",\"dec\":\"{dec}\",\"nob\":{i}}}\n",
            r as i32
        ));
    }
    out
}

#[test]
fn bloom_filters_agree_across_readers_and_writers() {
    let dir = std::env::temp_dir().join(format!("parket-bloom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.txt"), SCHEMA).unwrap();
    std::fs::write(dir.join("rows.jsonl"), rows_jsonl(1000)).unwrap();
    let variants: [&[&str]; 3] = [
        &[],
        &["--dictionary", "off", "--codec", "snappy"],
        &[
            "--row-group-rows",
            "300",
            "--codec",
            "zstd",
            "--page-version",
            "2",
        ],
    ];
    for (k, extra) in variants.iter().enumerate() {
        let f = dir.join(format!("parket{k}.parquet"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_parket"));
        cmd.arg("write")
            .arg("--schema")
            .arg(format!("@{}", dir.join("schema.txt").display()))
            .arg("--input")
            .arg(dir.join("rows.jsonl"))
            .arg("--output")
            .arg(&f)
            .args(*extra);
        for (name, _) in COLS {
            cmd.args(["--bloom-filter", name]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );

        // Our reader, on our filters; `nob` has none.
        assert_own(&f, &COLS, true);
        let nob = own_reader(&f, &[("nob", Kind::I32)]);
        assert_eq!(nob[0].1.with_filter, 0, "nob has a Bloom filter");

        // DuckDB's probe, on our filters.
        let report = python(&[
            script("duckcheck.py").to_str().unwrap(),
            "bloom",
            f.to_str().unwrap(),
            "i32,i64,s,d,f,u,dec,fx",
        ]);
        for line in report.lines() {
            println!("duckdb probe {}: {line}", f.display());
            let r: Value = serde_json::from_str(line).unwrap();
            let col = r["column"].as_str().unwrap();
            let n = |k: &str| r[k].as_u64().unwrap();
            assert_eq!(
                n("offsets"),
                n("groups"),
                "{col}: pyarrow sees no bloom offset"
            );
            if col == "fx" {
                continue; // DuckDB 1.4.4's BLOB probe misses present values (see module doc)
            }
            assert_eq!(
                n("found"),
                n("present"),
                "{col}: DuckDB excludes a present value"
            );
            if col != "u" && col != "dec" {
                assert!(n("excluded") * 10 >= n("absent") * 9, "{col}: {line}");
            }
        }

        // pyarrow's filters on the same data, read by our reader.
        let pa = dir.join(format!("pyarrow{k}.parquet"));
        python(&[
            script("duckcheck.py").to_str().unwrap(),
            "pyarrow-bloom",
            f.to_str().unwrap(),
            pa.to_str().unwrap(),
            "i32,i64,s,d,f,u,fx,dec",
        ]);
        assert_own(&pa, &COLS, true);
    }

    // DuckDB's filters (written for its dictionary-encoded columns), read by our reader.
    let dk = dir.join("duckdb.parquet");
    python(&[
        script("duckcheck.py").to_str().unwrap(),
        "duckdb-bloom",
        dk.to_str().unwrap(),
    ]);
    assert_own(
        &dk,
        &[
            ("i", Kind::I64),
            ("s", Kind::Str),
            ("b", Kind::Bytes),
            ("d", Kind::F64),
        ],
        true,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parquet_testing_bloom_filters_hold_their_values() {
    let data = parket::testing::corpus_dir();
    for name in [
        "data_index_bloom_encoding_stats.parquet",
        "data_index_bloom_encoding_with_length.parquet",
    ] {
        let f = data.join("data").join(name);
        assert_own(&f, &[("String", Kind::Str)], true);
    }
}

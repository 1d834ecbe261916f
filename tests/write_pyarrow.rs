//! Round trips through pyarrow: files written across options (every physical type, V1/V2,
//! every codec pyarrow reads, dictionary on/off/fallback, every encoding, many pages and row
//! groups, zero rows, null-only columns) are read back by `tests/write/check.py`, which
//! compares the values and checks each chunk's statistics against what pyarrow computes from
//! the data. Skipped (with a message) when python3 with pyarrow is not available.
#![cfg(all(feature = "std", feature = "write"))]

use std::path::PathBuf;
use std::process::Command;

use parket::compression::Codec;
use parket::format::Encoding;
use parket::schema::Schema;
use parket::values::{ByteArrays, FixedLenByteArraysRef, ValuesRef};
use parket::write::{BloomFilterOptions, FileWriter, PageVersion, WriteOptions};

const SCHEMA: &str = "message m {
  optional boolean b;
  optional int32 i32;
  optional int64 i64;
  optional int96 i96;
  optional float f;
  optional double d;
  optional binary s (STRING);
  optional fixed_len_byte_array(4) fl;
  required int32 u (INTEGER(32,false));
  optional group l (LIST) { repeated group list { optional int64 element; } }
  optional binary nul (STRING);
}";

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// One leaf column: levels, values, and the canonical text of each row.
#[derive(Default)]
struct Col {
    def: Vec<u16>,
    rep: Vec<u16>,
    rows: Vec<String>,
    // Level index where each row starts.
    row_start: Vec<usize>,
    // Value index where each row starts.
    val_start: Vec<usize>,
    b: Vec<bool>,
    i32: Vec<i32>,
    i64: Vec<i64>,
    i96: Vec<[u8; 12]>,
    f32: Vec<f32>,
    f64: Vec<f64>,
    ba: ByteArrays,
    fl: Vec<u8>,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn data(n: usize, seed: u64) -> Vec<Col> {
    let mut rng = Rng(seed);
    let mut cols: Vec<Col> = (0..11).map(|_| Col::default()).collect();
    for _ in 0..n {
        for (ci, c) in cols.iter_mut().enumerate() {
            c.row_start.push(c.def.len());
            let nv = match ci {
                8 => c.i32.len(),
                _ => 0,
            };
            let _ = nv;
            c.val_start.push(match ci {
                0 => c.b.len(),
                1 | 8 => c.i32.len(),
                2 | 9 => c.i64.len(),
                3 => c.i96.len(),
                4 => c.f32.len(),
                5 => c.f64.len(),
                6 | 10 => c.ba.len(),
                _ => c.fl.len() / 4,
            });
            let null = ci != 8 && (ci == 10 || rng.below(10) == 0);
            if ci == 9 {
                // list: null, empty, or 1..4 elements with some nulls.
                match rng.below(8) {
                    0 => {
                        c.def.push(0);
                        c.rep.push(0);
                        c.rows.push("null".into());
                    }
                    1 => {
                        c.def.push(1);
                        c.rep.push(0);
                        c.rows.push("[]".into());
                    }
                    _ => {
                        let k = 1 + rng.below(4);
                        let mut parts = Vec::new();
                        for e in 0..k {
                            c.rep.push(if e == 0 { 0 } else { 1 });
                            if rng.below(6) == 0 {
                                c.def.push(2);
                                parts.push("null".to_string());
                            } else {
                                let v = rng.below(1000) as i64 - 500;
                                c.def.push(3);
                                c.i64.push(v);
                                parts.push(v.to_string());
                            }
                        }
                        c.rows.push(format!("[{}]", parts.join(",")));
                    }
                }
                continue;
            }
            if ci != 8 {
                c.def.push(if null { 0 } else { 1 });
            }
            if null {
                c.rows.push("null".into());
                continue;
            }
            let text = match ci {
                0 => {
                    let v = rng.below(3) == 0;
                    c.b.push(v);
                    v.to_string()
                }
                1 => {
                    let v = (rng.next() as i32).wrapping_mul(if rng.below(2) == 0 { 1 } else { 7 });
                    c.i32.push(v);
                    v.to_string()
                }
                2 => {
                    // Few distinct values: dictionary friendly.
                    let v = (rng.below(50) as i64 - 25) * 1_000_000_007;
                    c.i64.push(v);
                    v.to_string()
                }
                3 => {
                    let nanos = rng.below(86_400_000_000_000);
                    let day = 2_440_588 + rng.below(20_000) as u32;
                    let mut b = [0u8; 12];
                    b[..8].copy_from_slice(&nanos.to_le_bytes());
                    b[8..].copy_from_slice(&day.to_le_bytes());
                    c.i96.push(b);
                    ((day as i64 - 2_440_588) * 86_400_000_000_000 + nanos as i64).to_string()
                }
                4 => {
                    let v = match rng.below(12) {
                        0 => f32::NAN,
                        1 => -0.0,
                        2 => 0.0,
                        _ => (rng.below(2000) as f32 - 1000.0) / 8.0,
                    };
                    c.f32.push(v);
                    format!("f:{}", hex(&v.to_bits().to_le_bytes()))
                }
                5 => {
                    let v = (rng.next() as f64) / 3.0 - 1e9;
                    c.f64.push(v);
                    format!("f:{}", hex(&v.to_bits().to_le_bytes()))
                }
                6 => {
                    let len = rng.below(12) as usize;
                    let s: String = (0..len)
                        .map(|_| (b'a' + rng.below(6) as u8) as char)
                        .collect();
                    let s = if rng.below(20) == 0 {
                        format!("{s}\u{e9}")
                    } else {
                        s
                    };
                    c.ba.push(s.as_bytes());
                    format!("x:{}", hex(s.as_bytes()))
                }
                7 => {
                    let v = (rng.below(300) as u32).to_be_bytes();
                    c.fl.extend_from_slice(&v);
                    format!("x:{}", hex(&v))
                }
                8 => {
                    let v = rng.next() as u32 | if rng.below(3) == 0 { 0x8000_0000 } else { 0 };
                    c.i32.push(v as i32);
                    v.to_string()
                }
                _ => unreachable!(),
            };
            c.rows.push(text);
        }
    }
    for c in &mut cols {
        c.row_start.push(c.def.len().max(c.rep.len()));
        let n_vals = c.b.len()
            + c.i32.len()
            + c.i64.len()
            + c.i96.len()
            + c.f32.len()
            + c.f64.len()
            + c.ba.len()
            + c.fl.len() / 4;
        c.val_start.push(n_vals);
    }
    cols
}

fn values(ci: usize, c: &Col, r: std::ops::Range<usize>) -> ValuesRef<'_> {
    match ci {
        0 => ValuesRef::Boolean(&c.b[r]),
        1 | 8 => ValuesRef::Int32(&c.i32[r]),
        2 | 9 => ValuesRef::Int64(&c.i64[r]),
        3 => ValuesRef::Int96(&c.i96[r]),
        4 => ValuesRef::Float(&c.f32[r]),
        5 => ValuesRef::Double(&c.f64[r]),
        6 | 10 => ValuesRef::ByteArray(c.ba.as_ref().slice(r)),
        _ => ValuesRef::FixedLenByteArray(
            FixedLenByteArraysRef::new(4, &c.fl[r.start * 4..r.end * 4]).unwrap(),
        ),
    }
}

const NAMES: [&str; 11] = [
    "b", "i32", "i64", "i96", "f", "d", "s", "fl", "u", "l", "nul",
];

/// Writes rows `0..n` in row groups of `rg_rows`, each column in batches of `batch` rows
/// (the list column in batches cut at arbitrary level positions).
fn write_file(
    name: &str,
    n: usize,
    rg_rows: usize,
    batch: usize,
    options: WriteOptions,
) -> (PathBuf, Vec<Col>) {
    let cols = data(n, 42 + n as u64);
    let schema = Schema::parse(SCHEMA).unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("write_pyarrow");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.parquet"));
    let file = std::fs::File::create(&path).unwrap();
    let mut w = FileWriter::new(std::io::BufWriter::new(file), schema, options).unwrap();
    let mut start = 0;
    while start < n || (n == 0 && start == 0) {
        let end = (start + rg_rows).min(n);
        let mut rg = w.next_row_group().unwrap();
        for (ci, c) in cols.iter().enumerate() {
            let cw = rg.column(ci).unwrap();
            let (l0, l1) = (c.row_start[start], c.row_start[end]);
            let (v0, v1) = (c.val_start[start], c.val_start[end]);
            if ci == 9 {
                // Cut at arbitrary level positions: a batch may end inside a list.
                let mut l = l0;
                let mut v = v0;
                let mut k = 1;
                while l < l1 {
                    let e = (l + batch / 2 + k).min(l1);
                    k = (k * 7 + 3) % 11;
                    let nv = c.def[l..e].iter().filter(|&&d| d == 3).count();
                    cw.write(values(ci, c, v..v + nv), &c.def[l..e], &c.rep[l..e])
                        .unwrap();
                    l = e;
                    v += nv;
                }
                assert_eq!(v, v1);
                continue;
            }
            let mut r = start;
            while r < end {
                let e = (r + batch).min(end);
                let lv = c.row_start[r]..c.row_start[e];
                let vv = c.val_start[r]..c.val_start[e];
                let def: &[u16] = if ci == 8 { &[] } else { &c.def[lv] };
                cw.write(values(ci, c, vv), def, &[]).unwrap();
                r = e;
            }
            let _ = (l0, l1, v0, v1);
        }
        rg.finish().unwrap();
        start = end;
        if n == 0 {
            break;
        }
    }
    w.finish().unwrap();
    (path, cols)
}

fn python_ok() -> bool {
    Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn check(
    name: &str,
    path: &std::path::Path,
    cols: &[Col],
    page_index: bool,
    bloom: bool,
    rgs: usize,
) {
    let mut exp = String::from("{\"columns\": {");
    for (i, c) in cols.iter().enumerate() {
        if i > 0 {
            exp.push(',');
        }
        exp.push_str(&format!("\"{}\": [", NAMES[i]));
        exp.push_str(
            &c.rows
                .iter()
                .map(|r| format!("\"{r}\""))
                .collect::<Vec<_>>()
                .join(","),
        );
        exp.push(']');
    }
    let blooms = if bloom {
        "[\"i32\", \"i64\", \"s\", \"d\"]"
    } else {
        "[]"
    };
    exp.push_str(&format!(
        "}}, \"page_index\": {page_index}, \"bloom\": {blooms}, \"row_groups\": {rgs}}}"
    ));
    let exp_path = path.with_extension("json");
    std::fs::write(&exp_path, exp).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/write/check.py");
    let out = Command::new("python3")
        .args([script, path.to_str().unwrap(), exp_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: pyarrow check failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn run(name: &str, n: usize, rg_rows: usize, batch: usize, options: WriteOptions) {
    if !python_ok() {
        eprintln!("skipping {name}: python3 with pyarrow not found");
        return;
    }
    // A chunk without rows has no pages to index: parket writes no page index for it.
    let page_index = options_page_index(&options) && n > 0;
    let bloom = format!("{options:?}").contains("fpp");
    let (path, cols) = write_file(name, n, rg_rows, batch, options);
    let rgs = if n == 0 { 1 } else { n.div_ceil(rg_rows) };
    check(name, &path, &cols, page_index, bloom, rgs);
}

fn options_page_index(o: &WriteOptions) -> bool {
    !format!("{o:?}").contains("page_index: false")
}

#[test]
fn defaults() {
    run("defaults", 3000, 3000, 500, WriteOptions::default());
}

#[test]
fn v2_zstd() {
    run(
        "v2_zstd",
        3000,
        1000,
        333,
        WriteOptions::default()
            .page_version(PageVersion::V2)
            .codec(Codec::Zstd { level: 3 }),
    );
}

#[test]
fn plain_uncompressed_no_index() {
    run(
        "plain",
        2000,
        2000,
        100,
        WriteOptions::default()
            .dictionary(false)
            .codec(Codec::Uncompressed)
            .page_index(false)
            .page_crc(false),
    );
}

#[test]
fn every_codec() {
    for (i, codec) in [
        Codec::Snappy,
        Codec::Gzip { level: 6 },
        Codec::Brotli { level: 5 },
        Codec::Lz4,
        Codec::Lz4Raw,
        Codec::Zstd { level: 1 },
    ]
    .into_iter()
    .enumerate()
    {
        for v in [PageVersion::V1, PageVersion::V2] {
            run(
                &format!("codec{i}_{v:?}"),
                1500,
                700,
                256,
                WriteOptions::default().codec(codec).page_version(v),
            );
        }
    }
}

#[test]
fn dictionary_fallback_and_small_pages() {
    for v in [PageVersion::V1, PageVersion::V2] {
        run(
            &format!("fallback_{v:?}"),
            5000,
            5000,
            300,
            WriteOptions::default()
                .page_version(v)
                .dictionary_page_size_limit(200)
                .data_page_size(512)
                .max_rows_per_page(97),
        );
    }
}

#[test]
fn every_encoding() {
    for v in [PageVersion::V1, PageVersion::V2] {
        let o = WriteOptions::default()
            .page_version(v)
            .dictionary(false)
            .data_page_size(2048)
            .column("b", |c| c.encoding(Encoding::Rle))
            .column("i32", |c| c.encoding(Encoding::DeltaBinaryPacked))
            .column("i64", |c| c.encoding(Encoding::ByteStreamSplit))
            .column("u", |c| c.encoding(Encoding::DeltaBinaryPacked))
            .column("f", |c| c.encoding(Encoding::ByteStreamSplit))
            .column("d", |c| c.encoding(Encoding::ByteStreamSplit))
            .column("s", |c| c.encoding(Encoding::DeltaByteArray))
            .column("nul", |c| c.encoding(Encoding::DeltaLengthByteArray))
            .column("fl", |c| c.encoding(Encoding::DeltaByteArray))
            .column("l.list.element", |c| {
                c.encoding(Encoding::DeltaBinaryPacked)
            });
        run(&format!("encodings_{v:?}"), 4000, 1500, 700, o);
        let o = WriteOptions::default()
            .page_version(v)
            .dictionary(false)
            .column("s", |c| c.encoding(Encoding::DeltaLengthByteArray))
            .column("fl", |c| c.encoding(Encoding::ByteStreamSplit))
            .column("i32", |c| c.encoding(Encoding::ByteStreamSplit));
        run(&format!("encodings2_{v:?}"), 1000, 1000, 1000, o);
    }
}

#[test]
fn zero_rows_and_tiny() {
    run("zero", 0, 10, 10, WriteOptions::default());
    run(
        "one",
        1,
        10,
        10,
        WriteOptions::default().page_version(PageVersion::V2),
    );
}

#[test]
fn bloom_filters() {
    let b = Some(BloomFilterOptions::default());
    run(
        "bloom",
        2000,
        1000,
        400,
        WriteOptions::default()
            .column("i32", |c| c.bloom_filter(b))
            .column("i64", |c| c.bloom_filter(b))
            .column("s", |c| c.bloom_filter(b))
            .column("d", |c| c.bloom_filter(b)),
    );
}

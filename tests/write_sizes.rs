//! File sizes against pyarrow: `tests/write/sizes.py` writes each dataset with pyarrow
//! (SNAPPY, dictionary, V1, page index, page checksums: parket's defaults) and dumps the raw
//! data; this test writes the same data with parket's defaults and checks that no file is more
//! than 2% larger than pyarrow's. Prints the table (`cargo test --test write_sizes --
//! --nocapture`). Skipped when python3 with pyarrow and numpy is not available.
#![cfg(all(feature = "std", feature = "write", feature = "snappy"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use parket::schema::Schema;
use parket::values::{ByteArrays, ValuesRef};
use parket::write::{FileWriter, WriteOptions};

fn read_le<const N: usize, T>(p: &Path, f: impl Fn([u8; N]) -> T) -> Vec<T> {
    std::fs::read(p)
        .unwrap()
        .chunks_exact(N)
        .map(|c| f(c.try_into().unwrap()))
        .collect()
}

fn read_strings(p: &Path) -> ByteArrays {
    let b = std::fs::read(p).unwrap();
    let mut out = ByteArrays::new();
    let mut i = 0;
    while i < b.len() {
        let n = u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        out.push(&b[i + 4..i + 4 + n]);
        i += 4 + n;
    }
    out
}

/// A writer of `dir/<name>.parket.parquet` with pyarrow's default options (SNAPPY), or
/// uncompressed when `name` ends in `.none`.
fn open_writer(
    dir: &Path,
    name: &str,
    schema: &str,
) -> (FileWriter<std::io::BufWriter<std::fs::File>>, PathBuf) {
    let schema = Schema::parse(schema).unwrap();
    let path = dir.join(format!("{name}.parket.parquet"));
    let options = if name.ends_with(".none") {
        WriteOptions::default().codec(parket::compression::Codec::Uncompressed)
    } else {
        WriteOptions::default()
    };
    let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    (FileWriter::new(file, schema, options).unwrap(), path)
}

/// Writes `n` rows of one column in batches of 1024 rows (as pyarrow's write_batch_size).
fn write_flat(dir: &Path, name: &str, schema: &str, values: ValuesRef<'_>) -> u64 {
    let (mut w, path) = open_writer(dir, name, schema);
    let n = values.len();
    let mut rg = w.next_row_group().unwrap();
    let ones = vec![1u16; 1024];
    let mut i = 0;
    while i < n {
        let e = (i + 1024).min(n);
        rg.column(0)
            .unwrap()
            .write(values.slice(i..e), &ones[..e - i], &[])
            .unwrap();
        i = e;
    }
    rg.finish().unwrap();
    w.finish().unwrap();
    drop(w);
    std::fs::metadata(&path).unwrap().len()
}

fn write_nested(dir: &Path, name: &str, offsets: &[i32], vals: &[i32]) -> u64 {
    let (mut w, path) = open_writer(
        dir,
        name,
        "message schema { optional group x (LIST) { repeated group list { optional int32 element; } } }",
    );
    let mut rg = w.next_row_group().unwrap();
    let (mut def, mut rep) = (Vec::new(), Vec::new());
    for row in offsets.windows(2) {
        let n = (row[1] - row[0]) as usize;
        if n == 0 {
            def.push(1);
            rep.push(0);
        }
        for k in 0..n {
            def.push(3);
            rep.push(if k == 0 { 0 } else { 1 });
        }
    }
    rg.column(0)
        .unwrap()
        .write(ValuesRef::Int32(vals), &def, &rep)
        .unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    drop(w);
    std::fs::metadata(&path).unwrap().len()
}

#[test]
fn no_larger_than_pyarrow() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("write_sizes");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/write/sizes.py");
    match Command::new("python3").arg(script).arg(&dir).output() {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!("skipping: python3 with pyarrow and numpy not available");
            return;
        }
    }
    let ints = read_le(&dir.join("ints.i64"), i64::from_le_bytes);
    let seq = read_le(&dir.join("seq.i64"), i64::from_le_bytes);
    let d = read_le(&dir.join("doubles.f64"), f64::from_le_bytes);
    let s = read_strings(&dir.join("strings.str"));
    let u = read_strings(&dir.join("unique.str"));
    let off = read_le(&dir.join("nested.off"), i32::from_le_bytes);
    let vals = read_le(&dir.join("nested.i32"), i32::from_le_bytes);
    let i64s = "message schema { optional int64 x; }";
    let strs = "message schema { optional binary x (STRING); }";
    let mut rows = Vec::new();
    for sfx in ["", ".none"] {
        let n = |b: &str| format!("{b}{sfx}");
        rows.push((
            "ints (1M int64, 1000 distinct)",
            n("ints"),
            write_flat(&dir, &n("ints"), i64s, ValuesRef::Int64(&ints)),
        ));
        rows.push((
            "seq (1M increasing int64)",
            n("seq"),
            write_flat(&dir, &n("seq"), i64s, ValuesRef::Int64(&seq)),
        ));
        rows.push((
            "doubles (500k normal)",
            n("doubles"),
            write_flat(
                &dir,
                &n("doubles"),
                "message schema { optional double x; }",
                ValuesRef::Double(&d),
            ),
        ));
        rows.push((
            "strings (300k, 5000 distinct)",
            n("strings"),
            write_flat(&dir, &n("strings"), strs, ValuesRef::ByteArray(s.as_ref())),
        ));
        rows.push((
            "unique strings (200k)",
            n("unique"),
            write_flat(&dir, &n("unique"), strs, ValuesRef::ByteArray(u.as_ref())),
        ));
        rows.push((
            "nested (200k list<int32>)",
            n("nested"),
            write_nested(&dir, &n("nested"), &off, &vals),
        ));
    }

    println!("| dataset | codec | pyarrow 26 | parket | ratio |");
    println!("|---|---|---:|---:|---:|");
    let mut worst: f64 = 0.0;
    let mut worst_snappy: f64 = 0.0;
    for (label, name, ours) in &rows {
        let codec = if name.ends_with(".none") {
            "none"
        } else {
            "snappy"
        };
        let theirs = std::fs::metadata(dir.join(format!("{name}.pyarrow.parquet")))
            .unwrap()
            .len();
        let ratio = *ours as f64 / theirs as f64;
        if codec == "none" {
            worst = worst.max(ratio);
        } else {
            worst_snappy = worst_snappy.max(ratio);
        }
        println!("| {label} | {codec} | {theirs} | {ours} | {ratio:.4} |");
    }
    // Uncompressed, the layouts are compared alone: no larger (0.998-1.000 before the
    // writer skipped dictionaries that do not pay on the first page; since, 0.937-0.999).
    assert!(
        worst <= 1.0,
        "an uncompressed parket file is larger than pyarrow's"
    );
    // With SNAPPY the codec adds its own gap: the `snap` crate compresses some data ~2.4%
    // worse than libsnappy (one PLAIN page of unique strings: 323718 vs 316049 bytes for
    // the same input), so SNAPPY files get 3%.
    assert!(
        worst_snappy <= 1.03,
        "a SNAPPY parket file is more than 3% larger than pyarrow's"
    );
}

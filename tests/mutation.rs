//! The mutation test (issue 6): every valid file we have, mutated a few thousand times in all
//! (seeded bit flips, bytes set to extremes, truncations, and structure-aware corruptions of
//! the footer and of page headers: lengths, counts, offsets and types re-encoded with hostile
//! values), each mutant read fully (every column chunk of every row group through
//! `next_batch`, then the records) must give an error or a result: never a panic, never more
//! than a second, never more than 1 GiB of heap. The reads use `Limits` of 64 MiB per page
//! and the test asserts a peak far below the 1 GiB cap.
//!
//! This test binary has its own global allocator, which counts the bytes in use and their
//! peak, and refuses (the process aborts, naming the mutant) any allocation past the cap.
//! Everything runs in one `#[test]` so the counts are this test's alone.
//!
//! A failure prints the file, the mutant's seed and the mutation; replay one with
//! `MUTATION_FILE=<name> MUTATION_SEED=<seed> cargo test --test mutation -- --nocapture`.
#![cfg(all(
    feature = "write",
    feature = "snappy",
    feature = "zstd",
    feature = "gzip"
))]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use parket::compression::Codec;
use parket::format::{Encoding, PageHeader};
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, PageVersion, WriteOptions};
use parket::Limits;

#[path = "common/counting.rs"]
mod counting;
use counting::{measured, CAP, CURRENT, FILE as NOW_FILE, PEAK, SEED as NOW_SEED};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const GIB: usize = 1 << 30;

#[path = "common/mutate.rs"]
mod mutate;
use mutate::{layout, mutate, Layout_};

// ---------------------------------------------------------------------------------------
// Reading a mutant.

fn limits() -> Limits {
    Limits::default()
        .max_page_bytes(64 << 20)
        .max_dictionary_bytes(64 << 20)
        .max_metadata_bytes(64 << 20)
        .max_values_per_page(1 << 22)
        .max_values_per_read(1 << 20)
}

/// Reads everything; returns how many values and records were read before any error.
fn read_all(bytes: &[u8], verify_crc: bool, through_reader: bool) -> (u64, u64) {
    let file = if through_reader {
        FileReader::new_with_limits(std::io::Cursor::new(bytes), limits())
    } else {
        FileReader::from_bytes_with_limits(bytes, limits())
    };
    let Ok(file) = file else { return (0, 0) };
    let file = file.with_limits(limits()).verify_crc(verify_crc);
    let mut values = 0u64;
    for rg in 0..file.num_row_groups() {
        for c in 0..file.schema().columns().len() {
            let Ok(mut col) = file.column_chunk(rg, c) else {
                continue;
            };
            while let Ok(Some(batch)) = col.next_batch(1000) {
                values += batch.len() as u64;
            }
        }
    }
    let mut records = 0u64;
    if let Ok(it) = file.records(None) {
        for r in it {
            if r.is_err() {
                break;
            }
            records += 1;
        }
    }
    (values, records)
}

// ---------------------------------------------------------------------------------------
// The files.

fn written_files() -> Vec<(String, Vec<u8>)> {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double d; \
         optional group l (LIST) { repeated group list { optional int32 element; } } \
         optional group m (MAP) { repeated group key_value { required binary key (STRING); \
         optional fixed_len_byte_array(4) value (DECIMAL(9, 2)); } } \
         optional boolean b; }",
    )
    .unwrap();
    let records: Vec<Value> = (0..600i64)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i * 1_000_003),
                if i % 3 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("s{}", i % 13).into_bytes())
                },
                if i % 7 == 0 {
                    Value::Null
                } else {
                    Value::Double(i as f64 * 0.25)
                },
                match i % 4 {
                    0 => Value::Null,
                    n => Value::List(
                        (0..n)
                            .map(|k| {
                                if k == 1 {
                                    Value::Null
                                } else {
                                    Value::Int32((i * k) as i32)
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
                                Value::Bytes((i as i32 * 3).to_be_bytes().to_vec()),
                            )
                        })
                        .collect(),
                ),
                if i % 5 == 0 {
                    Value::Null
                } else {
                    Value::Boolean(i % 2 == 0)
                },
            ])
        })
        .collect();
    let configs: Vec<(&str, WriteOptions)> = vec![
        (
            "written-v1-snappy-dict",
            WriteOptions::default().max_rows_per_page(100),
        ),
        (
            "written-v2-zstd-crc",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Zstd { level: 1 })
                .page_crc(true)
                .max_rows_per_page(150)
                .row_group_rows(400),
        ),
        (
            "written-v1-plain-uncompressed",
            WriteOptions::default()
                .dictionary(false)
                .codec(Codec::Uncompressed)
                .max_rows_per_page(64),
        ),
        (
            "written-v2-gzip-delta",
            WriteOptions::default()
                .page_version(PageVersion::V2)
                .codec(Codec::Gzip { level: 1 })
                .dictionary(false)
                .column("id", |c| c.encoding(Encoding::DeltaBinaryPacked))
                .column("s", |c| c.encoding(Encoding::DeltaByteArray))
                .column("d", |c| c.encoding(Encoding::ByteStreamSplit)),
        ),
    ];
    configs
        .into_iter()
        .map(|(name, options)| {
            let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
            w.write_records(&records).unwrap();
            w.finish().unwrap();
            (name.to_string(), w.into_inner())
        })
        .collect()
}

fn files() -> Vec<(String, Vec<u8>)> {
    let mut out = written_files();
    let root = parket::testing::corpus_dir();
    for sub in ["data", "data/geospatial"] {
        for p in parket::testing::corpus_files(sub) {
            let name = p.strip_prefix(&root).unwrap().display().to_string();
            // Encrypted files read no data; large_string_map needs GiBs (its rows hold
            // huge strings), so it is not a file whose mutants can be read in a test.
            if name.ends_with(".encrypted") || name.contains("large_string_map") {
                continue;
            }
            out.push((name, std::fs::read(&p).unwrap()));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Regressions: mutants that failed once, with what went wrong.

/// (file, seed) pairs replayed first.
const REGRESSIONS: &[(&str, u64)] = &[];

/// A file of one OPTIONAL INT32 column whose single V1 page holds `n` nulls as one RLE run:
/// a 26-byte page, valid by the spec, whose levels take `2 n` bytes once decoded.
fn null_run_file(n: i32) -> Vec<u8> {
    let schema = Schema::parse("message m { optional int32 x; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .statistics(false)
        .page_index(false);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    w.write_records(&vec![Value::Group(vec![Value::Null]); 10])
        .unwrap();
    w.finish().unwrap();
    let file = w.into_inner();
    let l = layout(&file).unwrap();
    let (h, b) = l.pages[0].clone();
    // Spec (Encodings.md, RLE): <length: u32 LE> <run header: varint(count << 1)> <value>.
    let mut body = Vec::new();
    let mut run = Vec::new();
    let mut v = (n as u64) << 1;
    while v >= 0x80 {
        run.push(v as u8 | 0x80);
        v >>= 7;
    }
    run.push(v as u8);
    run.push(0); // level 0: null
    body.extend_from_slice(&(run.len() as u32).to_le_bytes());
    body.extend_from_slice(&run);
    let (mut header, _) = PageHeader::decode(&file[h.clone()]).unwrap();
    header.data_page_header.as_mut().unwrap().num_values = n;
    header.uncompressed_page_size = body.len() as i32;
    header.compressed_page_size = body.len() as i32;
    header.crc = None;
    let mut out = file[..h.start].to_vec();
    header.encode(&mut out);
    out.extend_from_slice(&body);
    let chunk_len = (out.len() - h.start) as i64;
    let mut md = l.metadata.clone();
    md.num_rows = n as i64;
    md.row_groups[0].num_rows = n as i64;
    let m = md.row_groups[0].columns[0].meta_data.as_mut().unwrap();
    m.num_values = n as i64;
    m.total_compressed_size = chunk_len;
    m.total_uncompressed_size = chunk_len;
    out.extend_from_slice(&file[b.end..l.footer.start]);
    let mut footer = Vec::new();
    md.encode(&mut footer);
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

/// Hostile pages with the *default* limits: a run of 2^30 nulls in 26 bytes.
fn regressions_with_default_limits() {
    // Before: Limits::values_per_page defaulted to 2^31, so this page decoded to 2 GiB of
    // definition levels (4 GiB with repetition levels). Now the default is 2^26.
    let file = null_run_file(1 << 30);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (r, peak) = measured(|| {
        reader
            .column_chunk(0, 0)
            .unwrap()
            .next_batch(4096)
            .map(|_| ())
    });
    let e = r.unwrap_err();
    assert!(
        matches!(e.kind(), parket::ErrorKind::LimitExceeded { .. }),
        "{e}"
    );
    assert!(peak < 1 << 20, "peak {peak}");

    // Once, records() read whole row groups of any size, so a page of 2^26 nulls (26 bytes,
    // within values_per_page) became 2^26 records: over 4 GiB. Now records stream page by
    // page: that page costs what the page-by-page read below costs (its 128 MiB of levels),
    // and records are made a thousand at a time.
    let file = null_run_file(1 << 26);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (r, peak) = measured(|| {
        let mut records = reader.records(None).unwrap();
        let mut n = 0;
        for r in records.by_ref().take(100_000) {
            assert_eq!(r?, Value::Group(vec![Value::Null]));
            n += 1;
        }
        Ok::<_, parket::Error>(n)
    });
    assert_eq!(r.unwrap(), 100_000);
    assert!(peak < 200 << 20, "peak {peak}");
    // Whole-chunk reads are bounded by Limits::values_per_read (2^24 by default).
    let (r, peak) = measured(|| reader.column_chunk(0, 0).unwrap().read_all().map(|_| ()));
    assert!(r.is_err() && peak < 1 << 20, "peak {peak}");
    // Page by page, the same chunk reads (in 2^26 positions: 128 MiB of levels).
    let (r, peak) = measured(|| {
        let mut c = reader.column_chunk(0, 0).unwrap();
        let mut n = 0;
        while let Some(b) = c.next_batch(1 << 20).unwrap() {
            n += b.len();
        }
        n
    });
    assert_eq!(r, 1 << 26);
    assert!(peak < 200 << 20, "peak {peak}");
    // 2^20 records of one page, streamed: the page's levels (2 MiB) and a step of records.
    let file = null_run_file(1 << 20);
    let reader = FileReader::from_bytes(&file).unwrap();
    let (n, peak) = measured(|| reader.records(None).unwrap().count());
    assert_eq!(n, 1 << 20);
    assert!(peak < 8 << 20, "2^20 records took {} MiB", peak >> 20);
}

/// Runs one mutant under catch_unwind; returns the error text on a panic.
fn run_one(bytes: &[u8], seed: u64) -> Result<(u64, u64), String> {
    catch_unwind(AssertUnwindSafe(|| {
        read_all(bytes, seed % 2 == 0, seed % 5 == 0)
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

#[test]
fn mutants_never_panic_hang_or_balloon() {
    let mutants_per_file: u64 = std::env::var("MUTANTS_PER_FILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let only_file = std::env::var("MUTATION_FILE").ok();
    let only_seed: Option<u64> = std::env::var("MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok());
    CAP.store(CURRENT.load(Relaxed) + GIB, Relaxed);
    regressions_with_default_limits();
    // Panics are caught and reported; keep the default hook quiet meanwhile.
    std::panic::set_hook(Box::new(|_| {}));
    let files = files();
    // A watchdog: a mutant that runs for 20 s is a hang; name it and end the process.
    std::thread::spawn(|| {
        let mut last = (u64::MAX, u64::MAX);
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = (NOW_FILE.load(Relaxed), NOW_SEED.load(Relaxed));
            if now != last {
                (last, since) = (now, Instant::now());
            } else if now.0 != u64::MAX && since.elapsed() > Duration::from_secs(20) {
                eprintln!("mutation test: file #{} seed {} hangs", now.0, now.1);
                std::process::exit(101);
            }
        }
    });
    let base = CURRENT.load(Relaxed);
    CAP.store(base + GIB, Relaxed);
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut mutants, mut slowest, mut peak_max) = (0u64, Duration::ZERO, 0usize);
    let mut read_ok = 0u64;
    let mut run = |fi: usize, name: &str, file: &[u8], l: &Layout_, seed: u64| {
        let (bytes, what) = mutate(file, l, seed);
        NOW_FILE.store(fi as u64, Relaxed);
        NOW_SEED.store(seed, Relaxed);
        let before = CURRENT.load(Relaxed);
        PEAK.store(before, Relaxed);
        let t = Instant::now();
        let r = run_one(&bytes, seed);
        let took = t.elapsed();
        let peak = PEAK.load(Relaxed) - before;
        mutants += 1;
        slowest = slowest.max(took);
        peak_max = peak_max.max(peak);
        let at = format!("{name} seed {seed} ({what})");
        match r {
            Err(msg) => failures.push(format!("{at}: panicked: {msg}")),
            Ok((values, _)) => {
                read_ok += (values > 0) as u64;
            }
        }
        if took > Duration::from_secs(1) {
            failures.push(format!("{at}: took {took:?}"));
        }
        if peak > 256 << 20 {
            failures.push(format!("{at}: peak heap {} MiB", peak >> 20));
        }
    };
    for &(name, seed) in REGRESSIONS {
        let (fi, (_, file)) = files.iter().enumerate().find(|f| f.1 .0 == name).unwrap();
        let l = layout(file).unwrap();
        run(fi, name, file, &l, seed);
    }
    for (fi, (name, file)) in files.iter().enumerate() {
        if only_file.as_ref().is_some_and(|f| f != name) {
            continue;
        }
        let Some(l) = layout(file) else { continue };
        // Big files get fewer mutants, so the whole run stays CI-sized.
        let n = if file.len() > 200_000 {
            mutants_per_file / 4
        } else {
            mutants_per_file
        };
        let seeds: Vec<u64> = match only_seed {
            Some(s) => vec![s],
            None => (0..n).collect(),
        };
        for seed in seeds {
            run(fi, name, file, &l, seed);
        }
    }
    NOW_FILE.store(u64::MAX, Relaxed);
    let _ = std::panic::take_hook();
    eprintln!(
        "mutation test: {mutants} mutants of {} files in {:.1} s (slowest {:?}, peak heap per \
         mutant {:.1} MiB, {read_ok} gave some values)",
        files.len(),
        start.elapsed().as_secs_f64(),
        slowest,
        peak_max as f64 / (1 << 20) as f64
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

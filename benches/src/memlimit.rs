//! `memlimit`: parket's fixed-width decoding against what the memory allows (issue 22 item 5).
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-benches cargo run --release --manifest-path benches/Cargo.toml \
//!     --bin memlimit -- [--values 1048576] [--page 131072] [--rounds 15]
//! ```
//!
//! One thread, no files on disk. Each measurement goes over `--values` values in pages of
//! `--page` values (131,072 INT64 values are a 1 MiB page, pyarrow's page size), decoding
//! every page into one reused output buffer, as a reader does; beside each, a simple lower
//! bound doing the least work that produces the same output:
//!
//! | parket | lower bound |
//! |---|---|
//! | `plain::decode` of a PLAIN INT64 / DOUBLE page | `copy_from_slice` of the page's bytes into a reused byte buffer (memcpy) |
//! | the column reader (`FileReader::column_chunk_with` + `next_batch(8192)`) on a file parket wrote: one required INT64 column, PLAIN, uncompressed, the same pages | the same memcpy |
//! | `dictionary::decode_gather` of an RLE_DICTIONARY page (1,024 INT64 entries, random indices: bit-packed at width 10) | `dict[i]` for indices already decoded (`Vec::extend` over a `[i64; 1024]`) |
//! | `dictionary::decode_indices` of the same page | writing the same number of `u32` (`resize`: a memset) |
//! | `rle::decode_levels` of definition levels, bit width 1, 10% nulls at random (bit-packed runs) | writing the same number of `u16` (a memset) |
//! | the same, no nulls (one RLE run) | the same memset |
//!
//! Rounds are interleaved (each round runs every measurement once, in turn), after one
//! warm-up round; the report is each measurement's median over the rounds, its spread
//! (min-max) and the ratio lower bound time / parket time (1.0: parket is at the bound), of
//! the medians and of the fastest rounds (the steadier figure on a loaded machine).

use std::hint::black_box;
use std::time::{Duration, Instant};

use parket::encoding::{dictionary, plain, rle};
use parket::format::{Encoding, PhysicalType};
use parket::levels::LeafData;
use parket::read::{ChunkBuffers, FileReader};
use parket::schema::{Schema, Type};
use parket::values::{Values, ValuesRef};
use parket::write::{FileWriter, WriteOptions};

struct Args {
    values: usize,
    page: usize,
    rounds: usize,
}

fn parse_args() -> Args {
    let mut args = Args {
        values: 1 << 20,
        page: 1 << 17,
        rounds: 15,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || -> usize {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--values" => args.values = value(),
            "--page" => args.page = value(),
            "--rounds" => args.rounds = value(),
            _ => usage(),
        }
    }
    if args.values == 0 || args.page == 0 || args.rounds == 0 {
        usage()
    }
    args
}

fn usage() -> ! {
    eprintln!("usage: memlimit [--values N] [--page N] [--rounds N]");
    std::process::exit(2)
}

/// A small deterministic generator (xorshift64*), so that every run decodes the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

type Measure = Box<dyn FnMut() -> usize>;

/// Unwraps a parket result in the bench (the data is ours: an error is a bug worth a panic).
fn ok<T>(r: parket::Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("parket: {e}"))
}

fn main() {
    let args = parse_args();
    let n = args.values;
    let page = args.page;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);

    // The data: INT64 and DOUBLE values, their PLAIN pages.
    let ints: Vec<i64> = (0..n).map(|_| rng.next() as i64).collect();
    let doubles: Vec<f64> = (0..n).map(|_| rng.next() as f64 / 3.0).collect();
    let plain_pages = |v: ValuesRef<'_>| -> Vec<Vec<u8>> {
        let mut bytes = Vec::new();
        ok(plain::encode(v, &mut bytes));
        bytes.chunks(page * 8).map(|c| c.to_vec()).collect()
    };
    let int_pages = plain_pages(ValuesRef::Int64(&ints));
    let double_pages = plain_pages(ValuesRef::Double(&doubles));

    // A file parket writes: one required INT64 column, PLAIN, uncompressed, pages of `page`.
    let file = {
        let schema = ok(Schema::new(
            "m",
            vec![Type::required("a", PhysicalType::Int64)],
        ));
        let options = WriteOptions::default()
            .statistics(false)
            .page_index(false)
            .page_crc(false)
            .row_group_rows(n)
            .column("a", |o| {
                o.dictionary(false)
                    .encoding(Encoding::Plain)
                    .data_page_size(page * 8)
                    .max_rows_per_page(page)
            });
        let mut w = ok(FileWriter::new(Vec::new(), schema, options));
        ok(w.write_columns(&[LeafData {
            def_levels: vec![],
            rep_levels: vec![],
            values: Values::Int64(ints.clone()),
        }]));
        ok(w.finish());
        w.into_inner()
    };

    // Dictionary pages: 1,024 INT64 entries, random indices.
    let dict: [i64; 1024] = std::array::from_fn(|i| (i as i64) * 1_000_003);
    let indices: Vec<u32> = (0..n).map(|_| (rng.next() % 1024) as u32).collect();
    let index_pages: Vec<(Vec<u8>, &[u32])> = indices
        .chunks(page)
        .map(|c| {
            let mut out = Vec::new();
            dictionary::encode_indices(c, dict.len(), &mut out);
            (out, c)
        })
        .collect();

    // Definition levels, bit width 1: 10% nulls at random, and none.
    let level_pages = |null_per_mille: u64, rng: &mut Rng| -> Vec<Vec<u8>> {
        (0..n.div_ceil(page))
            .map(|p| {
                let len = page.min(n - p * page);
                let levels: Vec<u16> = (0..len)
                    .map(|_| u16::from(rng.next() % 1000 >= null_per_mille))
                    .collect();
                let mut out = Vec::new();
                rle::encode_levels(&levels, 1, &mut out);
                out
            })
            .collect()
    };
    let nulls = level_pages(100, &mut rng);
    let no_nulls = level_pages(0, &mut rng);

    let pages_len = move |i: usize| page.min(n - i * page);
    let mut measurements: Vec<(&str, &str, Measure)> = Vec::new();
    {
        let pages = int_pages.clone();
        let mut buf = vec![0u8; page * 8];
        measurements.push((
            "memcpy of the PLAIN pages",
            "",
            Box::new(move || {
                for p in &pages {
                    buf[..p.len()].copy_from_slice(p);
                    black_box(&buf);
                }
                n
            }),
        ));
    }
    for (name, pages, empty) in [
        (
            "plain::decode, INT64",
            int_pages.clone(),
            Values::Int64(Vec::new()),
        ),
        (
            "plain::decode, DOUBLE",
            double_pages.clone(),
            Values::Double(Vec::new()),
        ),
    ] {
        let mut out = empty;
        measurements.push((
            name,
            "memcpy of the PLAIN pages",
            Box::new(move || {
                for (i, p) in pages.iter().enumerate() {
                    out.clear();
                    ok(plain::decode(p, pages_len(i), &mut out));
                    black_box(&out);
                }
                n
            }),
        ));
    }
    {
        let mut buffers = Some(ChunkBuffers::default());
        measurements.push((
            "column reader, required INT64 PLAIN (file from memory, footer included)",
            "memcpy of the PLAIN pages",
            Box::new(move || {
                let reader = ok(FileReader::from_bytes(&file[..]));
                let mut chunk =
                    ok(reader.column_chunk_with(0, 0, buffers.take().unwrap_or_default()));
                let mut count = 0;
                while let Some(batch) = ok(chunk.next_batch(8192)) {
                    count += black_box(batch.values()).len();
                }
                buffers = Some(chunk.into_buffers());
                assert_eq!(count, n);
                count
            }),
        ));
    }
    {
        let pages: Vec<Vec<u32>> = index_pages.iter().map(|(_, c)| c.to_vec()).collect();
        let mut out: Vec<i64> = Vec::with_capacity(page);
        measurements.push((
            "gather dict[i] of decoded indices",
            "",
            Box::new(move || {
                for p in &pages {
                    out.clear();
                    out.extend(p.iter().map(|&i| dict[i as usize & 1023]));
                    black_box(&out);
                }
                n
            }),
        ));
    }
    {
        let pages: Vec<Vec<u8>> = index_pages.iter().map(|(e, _)| e.clone()).collect();
        let mut out = Values::Int64(Vec::new());
        measurements.push((
            "dictionary::decode_gather, INT64, width 10",
            "gather dict[i] of decoded indices",
            Box::new(move || {
                for (i, p) in pages.iter().enumerate() {
                    out.clear();
                    ok(dictionary::decode_gather(
                        p,
                        pages_len(i),
                        ValuesRef::Int64(&dict),
                        &mut out,
                    ));
                    black_box(&out);
                }
                n
            }),
        ));
    }
    {
        let mut out: Vec<u32> = Vec::with_capacity(page);
        measurements.push((
            "memset of u32 outputs",
            "",
            Box::new(move || {
                for i in 0..n.div_ceil(page) {
                    out.clear();
                    out.resize(pages_len(i), 7);
                    black_box(&out);
                }
                n
            }),
        ));
    }
    {
        let pages: Vec<Vec<u8>> = index_pages.iter().map(|(e, _)| e.clone()).collect();
        let mut out: Vec<u32> = Vec::new();
        measurements.push((
            "dictionary::decode_indices, width 10",
            "memset of u32 outputs",
            Box::new(move || {
                for (i, p) in pages.iter().enumerate() {
                    out.clear();
                    ok(dictionary::decode_indices(p, pages_len(i), &mut out));
                    black_box(&out);
                }
                n
            }),
        ));
    }
    {
        let mut out: Vec<u16> = Vec::with_capacity(page);
        measurements.push((
            "memset of u16 levels",
            "",
            Box::new(move || {
                for i in 0..n.div_ceil(page) {
                    out.clear();
                    out.resize(pages_len(i), 1);
                    black_box(&out);
                }
                n
            }),
        ));
    }
    for (name, pages) in [
        ("rle::decode_levels, width 1, 10% nulls", nulls),
        ("rle::decode_levels, width 1, no nulls", no_nulls),
    ] {
        let mut out: Vec<u16> = Vec::new();
        measurements.push((
            name,
            "memset of u16 levels",
            Box::new(move || {
                for (i, p) in pages.iter().enumerate() {
                    out.clear();
                    ok(rle::decode_levels(p, 1, pages_len(i), &mut out));
                    black_box(&out);
                }
                n
            }),
        ));
    }

    // Interleaved rounds after a warm-up round.
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); measurements.len()];
    for round in 0..=args.rounds {
        for (k, (_, _, f)) in measurements.iter_mut().enumerate() {
            let start = Instant::now();
            let count = f();
            let t = start.elapsed();
            assert_eq!(count, n);
            if round > 0 {
                times[k].push(t);
            }
        }
    }
    let stats: Vec<(Duration, Duration, Duration)> = times
        .iter_mut()
        .map(|t| {
            t.sort();
            (t[t.len() / 2], t[0], t[t.len() - 1])
        })
        .collect();
    let stats_of = |name: &str| {
        measurements
            .iter()
            .position(|(m, _, _)| *m == name)
            .map(|k| stats[k])
    };

    println!(
        "{n} values in pages of {page}, median (min-max) of {} interleaved rounds, one thread\n",
        args.rounds
    );
    println!(
        "| measurement | ns / value | spread (ms) | GB/s of output | lower bound / this | \
         the same, fastest rounds |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (k, (name, bound, _)) in measurements.iter().enumerate() {
        let (median, min, max) = stats[k];
        let width = if name.contains("u16") || name.contains("levels") {
            2.0
        } else if name.contains("u32") || name.contains("indices") && !name.contains("gather") {
            4.0
        } else {
            8.0
        };
        let (ratio, ratio_min) = if bound.is_empty() {
            ("(bound)".to_string(), "(bound)".to_string())
        } else {
            let r = |b: Duration, t: Duration| format!("{:.2}", b.as_secs_f64() / t.as_secs_f64());
            stats_of(bound).map_or(("?".into(), "?".into()), |b| (r(b.0, median), r(b.1, min)))
        };
        println!(
            "| {name} | {:.3} | {:.2}-{:.2} | {:.1} | {ratio} | {ratio_min} |",
            median.as_secs_f64() * 1e9 / n as f64,
            min.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3,
            n as f64 * width / median.as_secs_f64() / 1e9,
        );
    }
}

//! ALP against BYTE_STREAM_SPLIT + ZSTD and PLAIN + ZSTD on the bench's doubles.
//!
//! Usage: `parket-alp-measure FILE [RUNS]`. FILE holds DOUBLE columns (benches/alp/gen.py writes
//! the taxi table's). Every column is written once per configuration (dictionary off, V2
//! pages, parket's default page size), single-threaded; prints per column the file bytes of
//! that column chunk, and per configuration the median encode and decode times of all columns
//! over RUNS runs (default 5). Every decoded value is checked bit for bit against the input.

use std::time::Instant;

use parket::compression::Codec;
use parket::format::Encoding;
use parket::levels::LeafData;
use parket::read::{ChunkBuffers, FileReader};
use parket::schema::Schema;
use parket::values::Values;
use parket::write::{FileWriter, PageVersion, WriteOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: parket-alp-measure FILE [RUNS]");
    let runs: usize = args.next().map_or(5, |r| r.parse().expect("RUNS"));
    let bytes = std::fs::read(&path).expect("read FILE");
    let file = FileReader::from_bytes(&bytes).expect("open");
    let schema = file.schema().clone();
    let all: Vec<usize> = (0..schema.columns().len()).collect();
    let input: Vec<Vec<LeafData>> = (0..file.num_row_groups())
        .map(|rg| file.read_row_group(rg, &all).expect("read"))
        .collect();
    let names: Vec<String> = schema.columns().iter().map(|c| c.path_string()).collect();
    let values: usize = input.iter().flatten().map(|l| l.values.len()).sum();
    println!(
        "{path}: {} columns, {} row groups, {values} non-null doubles ({} bytes PLAIN)",
        names.len(),
        input.len(),
        values * 8
    );
    let configs: [(&str, Encoding, Codec); 5] = [
        ("PLAIN + ZSTD(3)", Encoding::Plain, Codec::Zstd { level: 3 }),
        (
            "BYTE_STREAM_SPLIT + ZSTD(3)",
            Encoding::ByteStreamSplit,
            Codec::Zstd { level: 3 },
        ),
        ("ALP", Encoding::Alp, Codec::Uncompressed),
        ("ALP + ZSTD(3)", Encoding::Alp, Codec::Zstd { level: 3 }),
        ("PLAIN (uncompressed)", Encoding::Plain, Codec::Uncompressed),
    ];
    let mut sizes = Vec::new();
    let mut rows = Vec::new();
    for (name, enc, codec) in configs {
        let write = || {
            let mut o = WriteOptions::default()
                .page_version(PageVersion::V2)
                .dictionary(false)
                .statistics(true)
                .codec(codec);
            for n in &names {
                o = o.column(n, |c| c.encoding(enc));
            }
            let mut w = FileWriter::new(Vec::new(), schema.clone(), o).expect("options");
            for rg in &input {
                w.write_columns(rg).expect("write");
            }
            w.finish().expect("finish");
            w.into_inner()
        };
        let out = write();
        check(&out, &input, &schema);
        let meta = FileReader::from_bytes(&out)
            .expect("reopen")
            .metadata()
            .clone();
        let per_column: Vec<i64> = (0..names.len())
            .map(|c| {
                meta.row_groups
                    .iter()
                    .map(|rg| {
                        rg.columns[c]
                            .meta_data
                            .as_ref()
                            .unwrap()
                            .total_compressed_size
                    })
                    .sum()
            })
            .collect();
        let enc_ms = median(runs, || {
            std::hint::black_box(write());
        });
        let dec_ms = median(runs, || {
            std::hint::black_box(decode(&out));
        });
        sizes.push((name, per_column));
        rows.push((name, out.len(), enc_ms, dec_ms));
    }
    println!();
    println!("| configuration | file bytes | encode ms | decode ms | encode MB/s | decode MB/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mb = (values * 8) as f64 / 1e6;
    for (name, len, e, d) in &rows {
        println!(
            "| {name} | {len} | {e:.1} | {d:.1} | {:.0} | {:.0} |",
            mb / (e / 1e3),
            mb / (d / 1e3)
        );
    }
    println!();
    print!("| column |");
    for (name, _) in &sizes {
        print!(" {name} |");
    }
    println!();
    print!("|---|");
    for _ in &sizes {
        print!("---:|");
    }
    println!();
    for (c, n) in names.iter().enumerate() {
        print!("| {n} |");
        for (_, s) in &sizes {
            print!(" {} |", s[c]);
        }
        println!();
    }
}

fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn decode(bytes: &[u8]) -> usize {
    let file = FileReader::from_bytes(bytes).expect("open");
    let mut total = 0;
    let mut buffers = ChunkBuffers::default();
    for rg in 0..file.num_row_groups() {
        for column in 0..file.schema().columns().len() {
            let mut reader = file.column_chunk_with(rg, column, buffers).expect("chunk");
            while let Some(batch) = reader.next_batch(8192).expect("batch") {
                total += std::hint::black_box(batch.values()).len();
            }
            buffers = reader.into_buffers();
        }
    }
    total
}

fn check(bytes: &[u8], input: &[Vec<LeafData>], schema: &Schema) {
    let file = FileReader::from_bytes(bytes).expect("open");
    let all: Vec<usize> = (0..schema.columns().len()).collect();
    for (rg, want) in input.iter().enumerate() {
        let got = file.read_row_group(rg, &all).expect("read back");
        for (g, w) in got.iter().zip(want) {
            let (Values::Double(g), Values::Double(w)) = (&g.values, &w.values) else {
                panic!("DOUBLE columns only");
            };
            assert!(g.len() == w.len() && g.iter().zip(w).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }
}

//! The row group writer's two ways in: columns written through `RowGroupWriter::column`
//! (pages held until `finish`) and columns written in schema order through
//! `RowGroupWriter::write` + `close_column` (pages straight to the sink once the chunk's
//! dictionary is settled). Whatever the order of the calls, the file must be the same bytes,
//! over page versions, codecs, dictionaries that pay, are dropped on the first page or fall
//! back in the middle of a chunk, CRCs, page indexes and Bloom filters. Also: the errors of
//! the streaming calls, and a sink that fails.
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::levels::shred::shred;
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{BloomFilterOptions, FileWriter, PageVersion, WriteOptions};

const SCHEMA: &str = "message m { required int64 id; optional binary name (STRING); \
     optional group tags (LIST) { repeated group list { optional int32 element; } } \
     optional double score; required binary code (STRING); }";

/// Records whose columns exercise each dictionary outcome: `name` starts repetitive and
/// turns distinct (its dictionary fills up mid-chunk), `code` is distinct from the start
/// (dropped on the first page), `tags` repeat (kept), `id` and `score` numeric.
fn records(n: i64) -> Vec<Value> {
    (0..n)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i * 3 - 7),
                match i % 7 {
                    0 => Value::Null,
                    _ if i < n / 3 => Value::Bytes(format!("name {}", i % 13).into_bytes()),
                    _ => Value::Bytes(format!("distinct name number {i}").into_bytes()),
                },
                match i % 5 {
                    0 => Value::Null,
                    k => Value::List(
                        (0..k)
                            .map(|j| match j {
                                2 => Value::Null,
                                _ => Value::Int32(((i + j) % 9) as i32),
                            })
                            .collect(),
                    ),
                },
                match i % 11 {
                    0 => Value::Null,
                    1 => Value::Double(f64::NAN),
                    2 => Value::Double(-0.0),
                    _ => Value::Double(i as f64 / 7.0),
                },
                Value::Bytes(format!("{:016x}", (i as u64).wrapping_mul(0x9e37_79b9)).into_bytes()),
            ])
        })
        .collect()
}

/// How the columns reach the row group writer.
#[derive(Debug, Clone, Copy)]
enum Order {
    /// `column(i).write` batch by batch across the columns, then `finish`.
    Buffered,
    /// Each column whole, in schema order, through `write` and `close_column`.
    Streamed,
    /// Through `write` and `close_column`, last column first: all held until column 0
    /// closes.
    Reversed,
    /// Streamed, but the first two columns' batches interleaved before either closes.
    Interleaved,
}

fn write(options: &WriteOptions, records: &[Value], order: Order) -> Vec<u8> {
    let schema = Schema::parse(SCHEMA).unwrap();
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
    for group in records.chunks(1500) {
        let batches: Vec<_> = group
            .chunks(400)
            .map(|b| shred(&schema, b).unwrap())
            .collect();
        let ncols = schema.columns().len();
        let mut rg = w.next_row_group().unwrap();
        let put = |rg: &mut parket::write::RowGroupWriter<'_, Vec<u8>>, i: usize, b: usize| {
            let leaf = &batches[b][i];
            let (v, d, r) = (leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels);
            match order {
                Order::Buffered => rg.column(i).unwrap().write(v, d, r).unwrap(),
                _ => rg.write(i, v, d, r).unwrap(),
            }
        };
        match order {
            Order::Buffered => {
                for b in 0..batches.len() {
                    for i in 0..ncols {
                        put(&mut rg, i, b);
                    }
                }
            }
            Order::Streamed | Order::Reversed => {
                let cols: Vec<usize> = match order {
                    Order::Streamed => (0..ncols).collect(),
                    _ => (0..ncols).rev().collect(),
                };
                for i in cols {
                    for b in 0..batches.len() {
                        put(&mut rg, i, b);
                    }
                    rg.close_column(i).unwrap();
                }
            }
            Order::Interleaved => {
                for b in 0..batches.len() {
                    put(&mut rg, 1, b);
                    put(&mut rg, 0, b);
                }
                rg.close_column(0).unwrap();
                rg.close_column(1).unwrap();
                for i in 2..ncols {
                    for b in 0..batches.len() {
                        put(&mut rg, i, b);
                    }
                    if i < ncols - 1 {
                        rg.close_column(i).unwrap();
                    }
                }
            }
        }
        rg.finish().unwrap();
    }
    w.finish().unwrap();
    w.into_inner()
}

fn read_back(file: &[u8]) -> Vec<Value> {
    FileReader::from_bytes(file)
        .unwrap()
        .records(None)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Values as bits, so that NaN == NaN.
fn bits(v: &[Value]) -> String {
    format!("{v:?}")
}

#[test]
fn every_order_writes_the_same_bytes() {
    let records = records(4000);
    let mut codecs = vec![Codec::Uncompressed];
    #[cfg(feature = "snappy")]
    codecs.push(Codec::Snappy);
    #[cfg(feature = "zstd")]
    codecs.push(Codec::Zstd { level: 1 });
    let mut cases = 0;
    for version in [PageVersion::V1, PageVersion::V2] {
        for &codec in &codecs {
            for dictionary in [true, false] {
                for extras in [false, true] {
                    let mut options = WriteOptions::default()
                        .page_version(version)
                        .codec(codec)
                        .dictionary(dictionary)
                        // Small pages and dictionaries: many pages, and `name` falls back.
                        .data_page_size(2048)
                        .dictionary_page_size_limit(600)
                        .page_crc(extras)
                        .page_index(extras);
                    if extras {
                        options = options.column("name", |c| {
                            c.bloom_filter(Some(BloomFilterOptions::default()))
                        });
                    }
                    let expected = write(&options, &records, Order::Buffered);
                    for order in [Order::Streamed, Order::Reversed, Order::Interleaved] {
                        let got = write(&options, &records, order);
                        assert!(
                            got == expected,
                            "{order:?} differs: {version:?} {codec:?} dictionary {dictionary} \
                             extras {extras} ({} vs {} bytes)",
                            got.len(),
                            expected.len()
                        );
                    }
                    assert_eq!(bits(&read_back(&expected)), bits(&records));
                    cases += 1;
                }
            }
        }
    }
    assert!(cases >= 8);
}

/// The streamed row group's chunks start where the previous one ended, pages and all: the
/// first column's pages are in the sink before the row group is finished.
#[test]
fn the_front_column_goes_out_as_it_is_written() {
    let schema = Schema::parse("message m { required int64 a; required int64 b; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .codec(Codec::Uncompressed)
        .data_page_size(1024);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let values: Vec<i64> = (0..10_000).collect();
    let mut rg = w.next_row_group().unwrap();
    // b first: not the front, so held.
    rg.write("b", ValuesRef::Int64(&values), &[], &[]).unwrap();
    rg.write("a", ValuesRef::Int64(&values), &[], &[]).unwrap();
    drop(rg);
    // The row group was dropped: a's pages are in the sink (80 KB of values), b's are not.
    let written = w.bytes_written();
    assert!(written > 70_000, "{written} bytes written");
    assert!(written < 100_000, "{written} bytes written");
    // Its rows are lost, so finishing the file is an error rather than a file without them.
    let mut rg = w.next_row_group().unwrap();
    rg.write("a", ValuesRef::Int64(&values[..3]), &[], &[])
        .unwrap();
    rg.write("b", ValuesRef::Int64(&values[..3]), &[], &[])
        .unwrap();
    rg.finish().unwrap();
    let e = w.finish().unwrap_err().to_string();
    assert!(e.contains("dropped without finish()"), "{e}");
}

#[test]
fn streaming_calls_refuse_what_they_cannot_do() {
    let schema = Schema::parse("message m { required int32 a; optional int32 b; }").unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    let mut rg = w.next_row_group().unwrap();
    rg.write("a", ValuesRef::Int32(&[1, 2, 3]), &[], &[])
        .unwrap();
    rg.close_column("a").unwrap();
    // Closed and written out: no more writes, by either way in.
    let e = rg.write("a", ValuesRef::Int32(&[4]), &[], &[]).unwrap_err();
    assert!(e.to_string().contains("closed"), "{e}");
    assert!(rg.column("a").is_err());
    assert!(rg.close_column("a").is_err());
    assert!(rg.write("zz", ValuesRef::Int32(&[4]), &[], &[]).is_err());
    // Two rows where a has three: refused at close, and b is open again.
    rg.write("b", ValuesRef::Int32(&[5]), &[1, 0], &[]).unwrap();
    let e = rg.close_column("b").unwrap_err();
    assert!(e.to_string().contains("has 2 rows"), "{e}");
    rg.write("b", ValuesRef::Int32(&[6]), &[1], &[]).unwrap();
    rg.close_column(1).unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    let rows = read_back(&w.into_inner());
    let b: Vec<String> = rows
        .iter()
        .map(|r| format!("{:?}", r.as_group().unwrap()[1]))
        .collect();
    assert_eq!(b, ["Int32(5)", "Null", "Int32(6)"]);

    // A column holding a different number of rows than a closed one fails `finish`.
    let schema = Schema::parse("message m { required int32 a; required int32 b; }").unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, WriteOptions::default()).unwrap();
    let mut rg = w.next_row_group().unwrap();
    rg.write("a", ValuesRef::Int32(&[1, 2]), &[], &[]).unwrap();
    rg.close_column("a").unwrap();
    rg.write("b", ValuesRef::Int32(&[1]), &[], &[]).unwrap();
    let e = rg.finish().unwrap_err();
    assert!(e.to_string().contains("column b has 1 rows"), "{e}");
}

/// A sink that takes `room` bytes and then fails.
struct Failing {
    room: usize,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.room {
            self.room = 0;
            return Err(std::io::Error::other("disk full"));
        }
        self.room -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_sink_write_stops_the_writer() {
    let schema = Schema::parse("message m { required int64 a; }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .data_page_size(1024);
    let mut w = FileWriter::new(Failing { room: 5000 }, schema, options).unwrap();
    let values: Vec<i64> = (0..10_000).collect();
    let mut rg = w.next_row_group().unwrap();
    let e = rg
        .write("a", ValuesRef::Int64(&values), &[], &[])
        .unwrap_err();
    assert!(e.to_string().contains("disk full"), "{e}");
    let e = rg
        .write("a", ValuesRef::Int64(&values), &[], &[])
        .unwrap_err();
    assert!(e.to_string().contains("earlier write"), "{e}");
    assert!(rg.finish().is_err());
    let e = w.finish().unwrap_err();
    assert!(e.to_string().contains("earlier write"), "{e}");
}

/// A row group of no rows (each chunk one empty page): closing each column first (streamed)
/// gives the same bytes as finishing the row group alone (held), and the file reads back as
/// one row group of no rows.
#[test]
fn empty_chunks_stream_like_held_ones() {
    for dictionary in [true, false] {
        let options = WriteOptions::default().dictionary(dictionary);
        let schema = Schema::parse(SCHEMA).unwrap();
        let file = |streamed: bool| {
            let mut w = FileWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
            let mut rg = w.next_row_group().unwrap();
            if streamed {
                for i in 0..schema.columns().len() {
                    rg.close_column(i).unwrap();
                }
            }
            rg.finish().unwrap();
            w.finish().unwrap();
            w.into_inner()
        };
        let (streamed, held) = (file(true), file(false));
        assert!(streamed == held, "dictionary {dictionary}");
        assert!(read_back(&streamed).is_empty());
        let meta = FileReader::from_bytes(&streamed)
            .unwrap()
            .metadata()
            .clone();
        assert_eq!(meta.row_groups.len(), 1);
        assert_eq!(meta.row_groups[0].num_rows, 0);
    }
}

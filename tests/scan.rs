//! Scans (`FileReader::scan`): the rows selected are exactly those of a full read, with and
//! without the page index, over a slice and a `Read + Seek`; pages outside the selection are
//! never read (a counting reader checks the bytes); row groups scanned from several threads.

#![allow(clippy::single_range_in_vec_init)]

use std::io::{Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parket::read::{FileReader, RowRanges, ScanBuilder};
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{FileWriter, PageVersion, WriteOptions};

/// The rows a scan builder gives, as records (every test here compares them with the
/// records it wrote).
trait Rows {
    fn collect_records(self) -> Vec<Value>;
}

impl Rows for ScanBuilder<'_, '_> {
    fn collect_records(self) -> Vec<Value> {
        self.build()
            .unwrap()
            .records()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

fn sample(n: usize) -> (Schema, Vec<Value>) {
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); \
         optional group l (LIST) { repeated group list { optional int32 element; } } }",
    )
    .unwrap();
    let records = (0..n)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i as i64),
                if i % 7 == 0 {
                    Value::Null
                } else {
                    Value::Bytes(format!("value {}", (i * 31) % 97).into_bytes())
                },
                match i % 5 {
                    0 => Value::Null,
                    k => Value::List(
                        (0..k)
                            .map(|j| {
                                if j == 2 {
                                    Value::Null
                                } else {
                                    Value::Int32((i + j) as i32)
                                }
                            })
                            .collect(),
                    ),
                },
            ])
        })
        .collect();
    (schema, records)
}

fn write(schema: &Schema, options: WriteOptions, records: &[Value]) -> Vec<u8> {
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    w.write_records(records).unwrap();
    w.finish().unwrap();
    w.into_inner()
}

fn small_pages() -> WriteOptions {
    WriteOptions::default()
        .max_rows_per_page(50)
        .row_group_rows(1000)
}

/// A deterministic pseudo-random generator (xorshift).
fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn selected_rows_equal_the_full_read() {
    let (schema, records) = sample(2600);
    for (name, options) in [
        ("index", small_pages()),
        ("index-v2", small_pages().page_version(PageVersion::V2)),
        ("no-index", small_pages().page_index(false)),
        ("one-page", WriteOptions::default()),
    ] {
        let bytes = write(&schema, options, &records);
        let from_slice = FileReader::from_bytes(&bytes).unwrap();
        let from_reader = FileReader::new(std::io::Cursor::new(bytes.clone())).unwrap();
        let mut seed = 0x9e3779b97f4a7c15u64;
        for round in 0..30 {
            let ranges: Vec<_> = (0..rng(&mut seed) % 5)
                .map(|_| {
                    let s = rng(&mut seed) % 2600;
                    s..s + rng(&mut seed) % 300
                })
                .collect();
            let sel = RowRanges::from_ranges(ranges);
            let offset = if round % 3 == 0 {
                rng(&mut seed) % 50
            } else {
                0
            };
            let limit = (round % 4 == 0).then(|| rng(&mut seed) % 400);
            let batch = 1 + (rng(&mut seed) % 700) as usize;
            let mut expected: Vec<Value> = (0..2600u64)
                .filter(|r| sel.ranges().iter().any(|x| x.contains(r)))
                .map(|r| records[r as usize].clone())
                .skip(offset as usize)
                .collect();
            if let Some(l) = limit {
                expected.truncate(l as usize);
            }
            for file in [&from_slice, &from_reader] {
                for use_index in [true, false] {
                    let mut b = file
                        .scan()
                        .rows(sel.clone())
                        .offset(offset)
                        .batch_size(batch)
                        .use_page_index(use_index);
                    if let Some(l) = limit {
                        b = b.limit(l);
                    }
                    let got: Vec<Value> = b.collect_records();
                    assert_eq!(got, expected, "{name} round {round} index {use_index}");
                }
            }
        }
        // Projection: one column, every row.
        let ids: Vec<Value> = from_slice.scan().columns(&["l"]).collect_records();
        assert_eq!(ids.len(), 2600);
        assert_eq!(
            ids[3],
            Value::Group(vec![records[3].clone().into_group()[2].clone()])
        );
    }
}

trait IntoGroup {
    fn into_group(self) -> Vec<Value>;
}
impl IntoGroup for Value {
    fn into_group(self) -> Vec<Value> {
        match self {
            Value::Group(v) => v,
            _ => panic!("not a group"),
        }
    }
}

/// A `Read + Seek` that counts the bytes read.
struct Counting {
    inner: std::io::Cursor<Vec<u8>>,
    read: Arc<AtomicU64>,
}
impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
impl Seek for Counting {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(to)
    }
}

#[test]
fn pages_outside_the_selection_are_never_read() {
    let (schema, records) = sample(2600);
    let options = small_pages().dictionary(false);
    let bytes = write(&schema, options, &records);
    let read = Arc::new(AtomicU64::new(0));
    let file = FileReader::new(Counting {
        inner: std::io::Cursor::new(bytes.clone()),
        read: read.clone(),
    })
    .unwrap();
    let footer = read.load(Ordering::Relaxed);
    // Row 1234: row group 1, its row 234, in the page of rows 200..250 of each column.
    let scan = file.scan().rows(RowRanges::from_ranges([1234..1235]));
    let ranges = scan.byte_ranges(0).unwrap();
    let after_plan = read.load(Ordering::Relaxed);
    let mut scan = scan.build().unwrap();
    let batch = scan.next().unwrap().unwrap();
    assert!(scan.next().is_none());
    assert_eq!((batch.row_group, batch.rows.clone()), (1, vec![234..235]));
    let stats = scan.stats();
    assert_eq!((stats.indexed_chunks, stats.pages_read), (3, 3));
    let total = read.load(Ordering::Relaxed);
    // Exactly: the offset indexes (read once to plan, once to scan) and the three pages.
    let page_bytes: u64 = ranges.iter().map(|r| r.end - r.start).sum();
    let index_bytes = after_plan - footer;
    assert_eq!(total - after_plan, index_bytes + page_bytes);
    // The pages are those the offset index places for rows 200..250.
    let meta = FileReader::from_bytes(&bytes).unwrap();
    let mut expected = Vec::new();
    for c in 0..3 {
        let oi = meta.offset_index(1, c).unwrap().unwrap();
        let loc = oi
            .page_locations
            .iter()
            .find(|l| l.first_row_index == 200)
            .unwrap();
        expected.push(loc.offset as u64..(loc.offset + loc.compressed_page_size as i64) as u64);
    }
    expected.sort_by_key(|r| r.start);
    assert_eq!(parket::read::scan::coalesce(expected, 0), ranges);
    assert!(
        page_bytes * 50 < bytes.len() as u64,
        "{page_bytes} of {}",
        bytes.len()
    );
    let got = parket::levels::assemble(scan.schema(), &batch.columns).unwrap();
    assert_eq!(got, [records[1234].clone()]);
}

#[test]
fn row_groups_scanned_from_several_threads() {
    let (schema, records) = sample(2600);
    let bytes: Arc<[u8]> = write(&schema, small_pages(), &records).into();
    let file = FileReader::from_owned(bytes).unwrap();
    let n = file.num_row_groups();
    assert_eq!(n, 3);
    let per_group: Vec<Vec<Value>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|rg| {
                let file = &file;
                s.spawn(move || {
                    file.scan()
                        .row_groups([rg])
                        .build()
                        .unwrap()
                        .records()
                        .collect::<Result<Vec<_>, _>>()
                        .unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(per_group.concat(), records);
}

/// A function that opens a file and returns an iterator of its rows.
fn rows_of(path: &std::path::Path) -> parket::Result<impl Iterator<Item = parket::Result<Value>>> {
    let file = FileReader::new(std::fs::File::open(path)?)?;
    file.into_records(None)
}

#[test]
fn a_function_returns_the_rows_of_a_file_it_opened() {
    let (schema, records) = sample(1500);
    let path = std::env::temp_dir().join(format!("parket-scan-{}.parquet", std::process::id()));
    std::fs::write(&path, write(&schema, small_pages(), &records)).unwrap();
    let got: Vec<Value> = rows_of(&path).unwrap().collect::<Result<_, _>>().unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(got, records);
}

/// The file fuzz harness (whose scan of a row selection, through the offset indexes files
/// have, must agree with the whole read) over every small file of the corpus.
#[test]
fn the_corpus_scans_like_it_reads() {
    let dir = std::env::var_os("PARQUET_TEST_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/parquet-testing")
        });
    let Ok(entries) = std::fs::read_dir(dir.join("data")) else {
        return;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let path = e.path();
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if path.extension().is_some_and(|x| x == "parquet") && bytes.len() < (1 << 20) {
            #[cfg(feature = "fuzzing")]
            parket::read::fuzz::fuzz_file(&bytes);
            n += 1;
        }
    }
    assert!(n > 50, "{n} files");
}

/// A caller that owns the IO: the footer from the tail (asking again when it is short), the
/// offset indexes, then exactly the pages the scan names; nothing else is fetched.
#[test]
fn pushed_bytes_scan_like_the_file() {
    let (schema, records) = sample(2600);
    let bytes = write(&schema, small_pages(), &records);
    let len = bytes.len() as u64;
    let fetched = std::cell::Cell::new(0u64);
    let fetch = |r: std::ops::Range<u64>| {
        fetched.set(fetched.get() + (r.end - r.start));
        bytes[r.start as usize..r.end as usize].to_vec()
    };
    let e =
        parket::read::footer::metadata_from_tail(&fetch(len - 8..len), len, &Default::default())
            .unwrap_err();
    let parket::ErrorKind::Truncated { needed, .. } = *e.kind() else {
        panic!("{e}")
    };
    let mut file = FileReader::from_tail(fetch(len - needed..len), len).unwrap();
    let sel = RowRanges::from_ranges([5..7, 1990..2100]);
    // Before anything is pushed, a scan names the bytes it lacks.
    let e = file
        .scan()
        .rows(sel.clone())
        .use_page_index(false)
        .build()
        .unwrap()
        .next()
        .unwrap();
    assert!(e.unwrap_err().to_string().contains("were not pushed"));
    for r in file.scan().rows(sel.clone()).index_ranges(64).unwrap() {
        file.push(r.start, fetch(r));
    }
    let pages = file.scan().rows(sel.clone()).byte_ranges(64).unwrap();
    for r in pages.clone() {
        file.push(r.start, fetch(r));
    }
    let got: Vec<Value> = file.scan().rows(sel.clone()).collect_records();
    let expected: Vec<Value> = [5..7, 1990..2100]
        .into_iter()
        .flatten()
        .map(|i| records[i].clone())
        .collect();
    assert_eq!(got, expected);
    assert!(
        fetched.get() * 2 < len,
        "fetched {} of {len}",
        fetched.get()
    );
}

/// Which records a case expects.
type Matcher = Box<dyn Fn(&Value) -> bool>;

/// A predicate: exactly the matching rows (the expected ones computed here from the records
/// written), row groups and pages pruned, offset and limit counted in matching rows.
#[test]
fn predicates_give_exactly_the_matching_rows() {
    use parket::predicate::{col, Predicate};
    let (schema, records) = sample(2600);
    let id = |v: &Value| match v {
        Value::Group(f) => match f[0] {
            Value::Int64(i) => i,
            _ => unreachable!(),
        },
        _ => unreachable!(),
    };
    let s_is_null = |v: &Value| matches!(v, Value::Group(f) if f[1] == Value::Null);
    for (name, options) in [
        ("index", small_pages()),
        (
            "no-index",
            small_pages().page_index(false).statistics(false),
        ),
    ] {
        let bytes = write(&schema, options, &records);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let cases: Vec<(Predicate, Matcher)> = vec![
            (
                Predicate::parse("id >= 1210 AND id < 1230 OR id = 2500", &schema).unwrap(),
                Box::new(move |v| (1210..1230).contains(&id(v)) || id(v) == 2500),
            ),
            (
                Predicate::new(col("id").lt(40).and(col("s").is_null()), &schema).unwrap(),
                Box::new(move |v| id(v) < 40 && s_is_null(v)),
            ),
            (
                Predicate::parse("id > 5000", &schema).unwrap(),
                Box::new(|_| false),
            ),
            (
                Predicate::parse("id IN (3, 1999, 2000)", &schema).unwrap(),
                Box::new(move |v| [3, 1999, 2000].contains(&id(v))),
            ),
        ];
        for (i, (p, want)) in cases.iter().enumerate() {
            for (offset, limit) in [(0, None), (1, Some(2))] {
                let mut b = file
                    .scan()
                    .predicate(p.clone())
                    .offset(offset)
                    .batch_size(7);
                if let Some(l) = limit {
                    b = b.limit(l);
                }
                let mut scan = b.build().unwrap().records();
                let got: Vec<Value> = scan.by_ref().collect::<Result<_, _>>().unwrap();
                let mut expected: Vec<Value> = records
                    .iter()
                    .filter(|v| want(v))
                    .skip(offset as usize)
                    .cloned()
                    .collect();
                if let Some(l) = limit {
                    expected.truncate(l as usize);
                }
                assert_eq!(got, expected, "{name} case {i} offset {offset}");
                if name == "index" && i == 0 && limit.is_none() {
                    // Rows 1210..1230 are in row group 1 (rows 200..250 of it: one page per
                    // column), 2500 in row group 2: two row groups, two pages per column.
                    let st = scan.stats();
                    assert_eq!((st.row_groups, st.pages_read), (2, 6), "{st:?}");
                }
            }
        }
        // Projection without the predicate's column.
        let got: Vec<Value> = file
            .scan()
            .columns(&["s"])
            .predicate(Predicate::parse("id = 8", &schema).unwrap())
            .collect_records();
        assert_eq!(
            got,
            [Value::Group(vec![Value::Bytes(b"value 54".to_vec())])]
        );
    }
}

/// Without statistics or a page index, Bloom filters still rule out row groups; the rows are
/// the same. (Dictionaries: `dictionaries_prune_parket_written_chunks`.)
#[test]
fn bloom_filters_prune_row_groups() {
    use parket::predicate::Predicate;
    let (schema, records) = sample(2600);
    let bare = small_pages().statistics(false).page_index(false);
    for (name, options, text, pruned) in [
        (
            "bloom",
            bare.clone()
                .dictionary(false)
                .bloom_filter(Some(Default::default())),
            "id = 99999",
            true,
        ),
        (
            "bloom",
            bare.dictionary(false)
                .bloom_filter(Some(Default::default())),
            "id IN (5, 99999)",
            false,
        ),
    ] {
        let bytes = write(&schema, options, &records);
        let file = FileReader::from_bytes(&bytes).unwrap();
        let p = Predicate::parse(text, &schema).unwrap();
        let scan = file.scan().predicate(p.clone());
        let groups = scan.plan().unwrap().len();
        let got: Vec<Value> = scan.collect_records();
        let unpruned: Vec<Value> = file
            .scan()
            .predicate(p)
            .use_page_index(false)
            .collect_records();
        assert_eq!(got, unpruned, "{name} {text}");
        if pruned {
            assert_eq!((groups, got.len()), (0, 0), "{name} {text}");
        } else {
            assert!(
                groups >= 1 && !got.is_empty(),
                "{name} {text}: {groups} row groups"
            );
        }
    }
}

/// Rows whose `s` is `g{group} v{k}`: 10 values repeated, so that the writer keeps its
/// dictionary (a chunk whose first page is nearly all distinct values gets none: `sample`'s
/// `value {k}` strings, 50 distinct in a page of 50, are written PLAIN, so no dictionary
/// can prune them), and each value in one row group only.
fn repeated(n: usize, group_rows: usize) -> (Schema, Vec<Value>) {
    let schema =
        Schema::parse("message m { required int64 id; optional binary s (STRING); }").unwrap();
    let records = (0..n)
        .map(|i| {
            let s = if i % 13 == 0 {
                Value::Null
            } else {
                Value::Bytes(format!("g{} v{}", i / group_rows, i % 10).into_bytes())
            };
            Value::Group(vec![Value::Int64(i as i64), s])
        })
        .collect();
    (schema, records)
}

/// Whether every data page of the chunk is dictionary-encoded, per `encoding_stats`.
fn all_dictionary(file: &FileReader<'_>, rg: usize, c: usize) -> bool {
    use parket::format::{Encoding, PageType};
    let meta = file.metadata().row_groups[rg].columns[c]
        .meta_data
        .as_ref()
        .unwrap();
    let stats = meta.encoding_stats.as_ref().unwrap();
    meta.dictionary_page_offset.is_some()
        && stats.iter().all(|e| {
            !matches!(e.page_type, PageType::DataPage | PageType::DataPageV2)
                || e.encoding == Encoding::RleDictionary
        })
}

/// Dictionary pruning on parket-written chunks (found never to prune: the test data was
/// written PLAIN, see `repeated`). Without statistics, page index or Bloom filters, an
/// equality on a value absent from every chunk's dictionary skips every row group, reading
/// only the dictionary pages (a counting reader checks the bytes); a value present in one row
/// group reads that one only; a chunk whose dictionary filled up (later pages PLAIN, per
/// `encoding_stats`) is never pruned by it.
#[test]
fn dictionaries_prune_parket_written_chunks() {
    use parket::predicate::Predicate;
    let (schema, records) = repeated(3000, 1000);
    for v2 in [false, true] {
        let options = small_pages()
            .statistics(false)
            .page_index(false)
            .page_version(if v2 { PageVersion::V2 } else { PageVersion::V1 });
        let bytes = write(&schema, options, &records);
        let read = Arc::new(AtomicU64::new(0));
        let file = FileReader::new(Counting {
            inner: std::io::Cursor::new(bytes.clone()),
            read: read.clone(),
        })
        .unwrap();
        assert_eq!(file.num_row_groups(), 3);
        for rg in 0..3 {
            assert!(all_dictionary(&file, rg, 1), "row group {rg} of s");
        }
        let scan = |text: &str| {
            let p = Predicate::parse(text, &schema).unwrap();
            let b = file.scan().predicate(p);
            let e = b.explain().unwrap();
            let rows: Vec<Value> = b.collect_records();
            (e.row_groups, rows)
        };
        // Absent everywhere: no row group is read; the bytes read are the three dictionary
        // pages (each walked from a header prefix capped by its chunk), not the data pages.
        let before = read.load(Ordering::Relaxed);
        let (groups, rows) = scan("s = 'g1 v11'");
        assert_eq!((groups, rows.len()), (0, 0), "v2 {v2}");
        let spent = read.load(Ordering::Relaxed) - before;
        let mut dictionaries = 0;
        let mut s_chunks = 0;
        for rg in &file.metadata().row_groups {
            let m = rg.columns[1].meta_data.as_ref().unwrap();
            dictionaries += (m.data_page_offset - m.dictionary_page_offset.unwrap()) as u64;
            s_chunks += m.total_compressed_size as u64;
        }
        // explain() and the scan each probe the dictionaries once.
        assert!(
            spent <= 2 * (dictionaries + 3 * 256) && spent < s_chunks,
            "read {spent} bytes: dictionaries {dictionaries}, chunks of s {s_chunks}"
        );
        // Present in row group 1 only; IN with absent values; NOT over a dictionary.
        let (groups, rows) = scan("s = 'g1 v3'");
        assert_eq!((groups, rows.len()), (1, 92), "v2 {v2}");
        let (groups, rows) = scan("s IN ('g2 v4', 'nope', 'g9 v1')");
        assert_eq!((groups, rows.len()), (1, 92), "v2 {v2}");
        // Every value is 'g0 ..' or above: NOT s >= 'g0' is false or null in every chunk.
        let (groups, _) = scan("NOT s >= 'g0'");
        assert_eq!(groups, 0, "v2 {v2}");
        let (groups, rows) = scan("s = 'g1 v3' OR id = 5");
        assert_eq!((groups, rows.len()), (3, 93), "v2 {v2}");
    }
    // A dictionary that fills up: later pages fall back to PLAIN, with values the dictionary
    // page does not hold. The chunk must not be pruned by its dictionary.
    let schema = Schema::parse("message m { required binary s (STRING); }").unwrap();
    let records: Vec<Value> = (0..600)
        .map(|i| {
            let s = if i < 100 {
                format!("v{}", i % 5)
            } else {
                format!("a long value that fills the dictionary {i}")
            };
            Value::Group(vec![Value::Bytes(s.into_bytes())])
        })
        .collect();
    let options = small_pages()
        .statistics(false)
        .page_index(false)
        .dictionary_page_size_limit(300);
    let bytes = write(&schema, options, &records);
    let file = FileReader::from_bytes(&bytes).unwrap();
    let meta = file.metadata().row_groups[0].columns[0]
        .meta_data
        .as_ref()
        .unwrap();
    assert!(meta.dictionary_page_offset.is_some() && !all_dictionary(&file, 0, 0));
    let p = Predicate::parse("s = 'a long value that fills the dictionary 555'", &schema).unwrap();
    let rows: Vec<Value> = file.scan().predicate(p).collect_records();
    assert_eq!(rows, [records[555].clone()]);
}

/// A point lookup (`id = X` on a file sorted by `id`, with statistics, page index and a Bloom
/// filter on `id`) reads at most: the footer, the column index of `id` and the offset indexes
/// of the row group holding X, and the pages holding the answer (one data page per column,
/// after its dictionary page if the chunk has one). The Bloom filter is not probed: the page
/// index has narrowed the row group to one page. A counting reader checks the bytes, against
/// bounds computed from the metadata.
#[test]
fn a_point_lookup_reads_the_footer_indexes_and_answer_pages() {
    use parket::predicate::Predicate;
    let schema = Schema::parse(
        "message m { required int64 id; optional binary s (STRING); optional double x; }",
    )
    .unwrap();
    let n = 100_000i64;
    let records: Vec<Value> = (0..n)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i),
                Value::Bytes(format!("name {}", i % 1000).into_bytes()),
                if i % 10 == 0 {
                    Value::Null
                } else {
                    Value::Double(i as f64 * 0.5)
                },
            ])
        })
        .collect();
    let options = WriteOptions::default()
        .row_group_rows(25_000)
        .max_rows_per_page(1000)
        .column("id", |c| c.bloom_filter(Some(Default::default())));
    let bytes = write(&schema, options, &records);
    let read = Arc::new(AtomicU64::new(0));
    let file = FileReader::new(Counting {
        inner: std::io::Cursor::new(bytes.clone()),
        read: read.clone(),
    })
    .unwrap();
    let footer = read.load(Ordering::Relaxed);
    let md = FileReader::from_bytes(&bytes).unwrap();
    let rg = &md.metadata().row_groups[2];
    for x in [50_000i64, 61_234, 74_999] {
        let before = read.load(Ordering::Relaxed);
        let p = Predicate::parse(&format!("id = {x}"), &schema).unwrap();
        let got: Vec<Value> = file.scan().predicate(p).collect_records();
        assert_eq!(got, [records[x as usize].clone()]);
        let spent = read.load(Ordering::Relaxed) - before;
        // The bound: row group 2's indexes (the column index of id, every offset index), and
        // per column the page holding row x - 50_000 with the chunk's dictionary page.
        let row = (x - 50_000) as u64;
        let mut allowed = 0u64;
        let id = &rg.columns[0];
        allowed += id.column_index_length.unwrap() as u64;
        // The Bloom filter is not read: the page index narrowed the row group to one page.
        assert!(id.meta_data.as_ref().unwrap().bloom_filter_length.is_some());
        for (c, chunk) in rg.columns.iter().enumerate() {
            allowed += chunk.offset_index_length.unwrap() as u64;
            let m = chunk.meta_data.as_ref().unwrap();
            if let Some(d) = m.dictionary_page_offset {
                allowed += (m.data_page_offset - d) as u64;
            }
            let oi = md.offset_index(2, c).unwrap().unwrap();
            let page = oi
                .page_locations
                .iter()
                .rev()
                .find(|l| l.first_row_index as u64 <= row)
                .unwrap();
            allowed += page.compressed_page_size as u64;
        }
        assert!(
            spent <= allowed,
            "id = {x}: read {spent} bytes, allowed {allowed} (footer {footer}, file {})",
            bytes.len()
        );
        assert!(
            spent * 50 < bytes.len() as u64,
            "{spent} of {}",
            bytes.len()
        );
    }
}

#[test]
fn batches_are_the_same_on_one_thread_and_several() {
    use parket::predicate::Predicate;
    // Batches large enough to be spread over threads (rows times columns above the rule's
    // threshold), and small ones that stay on the calling thread.
    let (schema, records) = sample(70_000);
    let bytes = write(
        &schema,
        WriteOptions::default().max_rows_per_page(5000),
        &records,
    );
    let file = FileReader::from_bytes(&bytes).unwrap();
    let p = || Predicate::parse("id >= 1000 AND id < 69000 AND s IS NOT NULL", &schema).unwrap();
    for batch in [100, 8192, 1 << 16] {
        let scan = |threads: usize, predicate: bool| {
            let mut b = file.scan().batch_size(batch).threads(threads);
            if predicate {
                b = b.predicate(p());
            }
            b.build().unwrap().collect::<Result<Vec<_>, _>>().unwrap()
        };
        for predicate in [false, true] {
            let one = scan(1, predicate);
            assert!(!one.is_empty());
            assert_eq!(
                scan(4, predicate),
                one,
                "batch {batch}, predicate {predicate}"
            );
        }
    }
}

/// Row `i` of the PLAIN-page tests: `id` (i * 3 - 7), `x` (nulls), `y` (runs of nulls that
/// span pages), `f` (FIXED_LEN_BYTE_ARRAY(3), nulls), `b`.
fn plain_row(i: usize) -> Vec<Value> {
    vec![
        Value::Int64(i as i64 * 3 - 7),
        if i % 3 == 0 {
            Value::Null
        } else {
            Value::Double(i as f64 * 0.5)
        },
        if (i / 40) % 2 == 0 {
            Value::Null // runs of nulls that span pages
        } else {
            Value::Int32(i as i32)
        },
        if i % 5 == 1 {
            Value::Null
        } else {
            Value::Bytes(vec![i as u8, (i >> 8) as u8, 7])
        },
        Value::Boolean(i % 7 == 0),
    ]
}

#[test]
fn plain_pages_give_the_rows_selected_at_page_edges_and_between() {
    use parket::compression::Codec;
    use parket::predicate::Predicate;
    // PLAIN fixed-width pages (no dictionary), with and without nulls, compressed or not:
    // the scan leaves their values encoded and decodes the rows it takes.
    let schema = Schema::parse(
        "message m { required int64 id; optional double x; optional int32 y; \
         optional fixed_len_byte_array(3) f; required boolean b; }",
    )
    .unwrap();
    let n = 1000usize;
    let records: Vec<Value> = (0..n).map(|i| Value::Group(plain_row(i))).collect();
    for codec in [Codec::Uncompressed, Codec::Snappy] {
        for version in [PageVersion::V1, PageVersion::V2] {
            let mut options = WriteOptions::default()
                .max_rows_per_page(37)
                .row_group_rows(400)
                .page_version(version);
            for c in ["id", "x", "y", "f", "b"] {
                options = options.column(c, |o| o.dictionary(false).codec(codec));
            }
            let bytes = write(&schema, options, &records);
            let from_slice = FileReader::from_bytes(&bytes).unwrap();
            let from_reader = FileReader::new(std::io::Cursor::new(bytes.clone())).unwrap();
            let selections: Vec<Vec<std::ops::Range<u64>>> = vec![
                vec![0..1],
                vec![36..38],
                vec![73..74, 110..111],
                vec![399..401],
                vec![999..1000],
                vec![5..6, 20..30, 36..37, 41..120, 555..556],
                vec![0..1000],
            ];
            for sel in selections {
                let expected: Vec<Value> = sel
                    .iter()
                    .flat_map(|r| r.clone())
                    .map(|r| records[r as usize].clone())
                    .collect();
                for file in [&from_slice, &from_reader] {
                    for batch in [1, 7, 1000] {
                        let got: Vec<Value> = file
                            .scan()
                            .rows(RowRanges::from_ranges(sel.clone()))
                            .batch_size(batch)
                            .collect_records();
                        assert_eq!(got, expected, "{codec:?} {version:?} {sel:?} batch {batch}");
                    }
                }
            }
            // A predicate on a column with nulls, the other columns taken row by row.
            let p = Predicate::parse("x >= 100 AND x < 110", &schema).unwrap();
            let got: Vec<Value> = from_slice.scan().predicate(p).collect_records();
            let expected: Vec<Value> = (200..220)
                .filter(|i| i % 3 != 0)
                .map(|i| records[i].clone())
                .collect();
            assert_eq!(got, expected, "{codec:?} {version:?} predicate");
        }
    }
}

#[test]
fn columns_outside_the_predicate_decompress_as_far_as_the_rows_kept() {
    use parket::compression::Codec;
    use parket::predicate::Predicate;
    // A predicate on `id`; the other columns are read at the rows it keeps, and their SNAPPY
    // PLAIN pages (in memory) are decompressed only up to those rows, further as later rows
    // of the same page are kept (batches of 1 and 7 rows). Every other codec, and a source
    // read through `Read + Seek`, decompresses whole pages: the same rows either way.
    let schema = Schema::parse(
        "message m { required int64 id; optional double x; optional int32 y; \
         optional fixed_len_byte_array(3) f; required boolean b; required int64 z; }",
    )
    .unwrap();
    let n = 1000usize;
    let records: Vec<Value> = (0..n)
        .map(|i| {
            let mut row = plain_row(i);
            // Runs and repeats: Snappy copies, overlapping ones among them.
            row.push(Value::Int64(((i / 9) % 4) as i64));
            Value::Group(row)
        })
        .collect();
    let id = |row: usize| row as i64 * 3 - 7;
    // Rows (pages of 37 rows): a page's first and last, its middle, several of one page
    // (kept in different batches), the last row of the file, ranges over page edges.
    let queries: Vec<(String, Vec<usize>)> = vec![
        (format!("id = {}", id(0)), vec![0]),
        (format!("id = {}", id(36)), vec![36]),
        (format!("id = {}", id(37)), vec![37]),
        (format!("id = {}", id(55)), vec![55]),
        (format!("id = {}", id(999)), vec![999]),
        (
            format!("id IN ({}, {}, {}, {})", id(75), id(90), id(110), id(111)),
            vec![75, 90, 110, 111],
        ),
        (
            format!("id >= {} AND id < {}", id(30), id(80)),
            (30..80).collect(),
        ),
        ("id >= -100".to_string(), (0..n).collect()),
    ];
    let codecs = [
        Codec::Uncompressed,
        Codec::Snappy,
        Codec::Gzip { level: 6 },
        Codec::Zstd { level: 3 },
        Codec::Lz4Raw,
    ];
    for codec in codecs {
        for version in [PageVersion::V1, PageVersion::V2] {
            let mut options = WriteOptions::default()
                .max_rows_per_page(37)
                .row_group_rows(400)
                .page_version(version);
            for c in ["id", "x", "y", "f", "b", "z"] {
                options = options.column(c, |o| o.dictionary(false).codec(codec));
            }
            let bytes = write(&schema, options, &records);
            let from_slice = FileReader::from_bytes(&bytes).unwrap();
            let from_reader = FileReader::new(std::io::Cursor::new(bytes.clone())).unwrap();
            for (text, rows) in &queries {
                let expected: Vec<Value> = rows.iter().map(|&r| records[r].clone()).collect();
                for file in [&from_slice, &from_reader] {
                    for batch in [1, 7, 1000] {
                        let p = Predicate::parse(text, &schema).unwrap();
                        let got = file.scan().predicate(p).batch_size(batch).collect_records();
                        assert_eq!(got, expected, "{codec:?} {version:?} {text} batch {batch}");
                    }
                }
            }
        }
    }
}

/// A string predicate is tested on a dictionary page's ids (each dictionary entry once per
/// chunk), on its PLAIN fallback pages by value: the same rows as evaluating the predicate on
/// the values (the expectation is `Predicate::evaluate` over the records written), with nulls,
/// `IN`, `NOT`, ranges, another column beside it, offset and limit, the predicate's column in
/// the output or not, batches that end with each page or span several.
#[test]
fn string_predicates_on_dictionary_ids_and_plain_fallback_pages() {
    use parket::format::{Encoding, PageType};
    use parket::predicate::{ColumnBatch, Predicate};
    use parket::values::{ByteArrays, ValuesRef};
    let schema =
        Schema::parse("message m { required int64 id; optional binary s (STRING); }").unwrap();
    // 50 values repeated, then (from row 1500) distinct ones that overflow the dictionary:
    // row group 1 turns PLAIN in its middle.
    let s_of = |i: usize| match i {
        _ if i % 9 == 0 => None,
        0..1500 => Some(format!("k{:02}", i * 7 % 50)),
        _ => Some(format!("u{i}")),
    };
    let records: Vec<Value> = (0..3000)
        .map(|i| {
            Value::Group(vec![
                Value::Int64(i as i64),
                s_of(i).map_or(Value::Null, |s| Value::Bytes(s.into_bytes())),
            ])
        })
        .collect();
    let options = WriteOptions::default()
        .max_rows_per_page(64)
        .row_group_rows(1000)
        .dictionary_page_size_limit(1200);
    let bytes = write(&schema, options, &records);
    let file = FileReader::from_bytes(&bytes).unwrap();
    // Row group 0 is all dictionary pages, 1 has both, 2 is PLAIN from its first page.
    let encodings = |rg: usize| {
        let meta = file.metadata().row_groups[rg].columns[1]
            .meta_data
            .as_ref()
            .unwrap();
        let data = |e: Encoding| {
            meta.encoding_stats.as_ref().unwrap().iter().any(|s| {
                matches!(s.page_type, PageType::DataPage | PageType::DataPageV2)
                    && s.encoding == e
                    && s.count > 0
            })
        };
        (data(Encoding::RleDictionary), data(Encoding::Plain))
    };
    assert_eq!(encodings(0), (true, false));
    assert_eq!(encodings(1), (true, true));
    assert_eq!(encodings(2), (false, true));
    // The expectation: the predicate evaluated on every row's values.
    let ids: Vec<i64> = (0..3000).collect();
    let strs: Vec<String> = (0..3000).filter_map(s_of).collect();
    let strs: ByteArrays = strs.iter().map(String::as_bytes).collect();
    let levels: Vec<u16> = (0..3000).map(|i| u16::from(s_of(i).is_some())).collect();
    let queries = [
        "s = 'k07'",
        "s != 'k07'",
        "s < 'k10'",
        "s >= 'u2000'",
        "s IN ('k01', 'k49', 'u2222', 'zz')",
        "NOT s IN ('k01', 'k02')",
        "s IS NULL",
        "s IS NOT NULL AND id < 1600",
        "s = 'k03' OR id = 2500",
        "s > 'k4' AND s < 'u1'",
        "s = 'absent'",
        "NOT s = 'k07' OR id IN (7, 1800)",
    ];
    for q in queries {
        let p = Predicate::parse(q, &schema).unwrap();
        let batches: Vec<ColumnBatch<'_>> = p
            .columns()
            .iter()
            .map(|&c| match c {
                0 => ColumnBatch {
                    values: ValuesRef::Int64(&ids),
                    def_levels: &[],
                },
                _ => ColumnBatch {
                    values: ValuesRef::ByteArray(strs.as_ref()),
                    def_levels: &levels,
                },
            })
            .collect();
        let mut keep = Vec::new();
        p.evaluate(&batches, &mut keep).unwrap();
        let matching: Vec<&Value> = records
            .iter()
            .zip(&keep)
            .filter(|x| *x.1)
            .map(|x| x.0)
            .collect();
        for (batch, offset, limit) in [(8192, 0, None), (7, 3, Some(40)), (100, 0, None)] {
            let mut b = file
                .scan()
                .predicate(p.clone())
                .batch_size(batch)
                .offset(offset);
            if let Some(l) = limit {
                b = b.limit(l);
            }
            let got = b.clone().collect_records();
            let end = limit.map_or(matching.len(), |l| {
                (offset as usize + l as usize).min(matching.len())
            });
            let want: Vec<Value> = matching[(offset as usize).min(end)..end]
                .iter()
                .map(|v| (*v).clone())
                .collect();
            assert_eq!(
                got, want,
                "{q}, batches of {batch}, offset {offset}, limit {limit:?}"
            );
            // The predicate's column left out of the output.
            let got_ids = b.columns(&["id"]).collect_records();
            let want_ids: Vec<Value> = want
                .iter()
                .map(|v| match v {
                    Value::Group(f) => Value::Group(vec![f[0].clone()]),
                    _ => unreachable!(),
                })
                .collect();
            assert_eq!(got_ids, want_ids, "{q}: ids only");
        }
    }
}

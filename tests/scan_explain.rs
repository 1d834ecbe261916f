//! `ScanBuilder::explain` (what `parket cat --explain` prints) against a file built so that
//! each pruning stage's counts can be worked out by hand.
//!
//! The file: 400 rows in 4 row groups of 100, pages of 10 rows (10 data pages per chunk),
//! statistics and the page index on. Row `r` (row group `g = r / 100`, row `k = r % 100` in it):
//!
//! - `id` INT64 = `(r / 10) * 1000 + r % 10`: page `p` of the file holds ids
//!   `p*1000 ..= p*1000 + 9`, so row group `g` spans `g*10000 ..= g*10000 + 9009` and there are
//!   gaps between pages (ids 10..999 are nowhere);
//! - `s` STRING = `"g{g} v{0|2|4}"` (`k % 3` picks 0, 2, 4): a dictionary of 3 strings per
//!   chunk, every data page dictionary-encoded; bounds `"g{g} v0" ..= "g{g} v4"`;
//! - `u` INT64 = `2 * r`, no dictionary (PLAIN), uncompressed, a Bloom filter sized for ndv 100 at fpp 0.01:
//!   `100 * (-8 / ln(1 - 0.01^(1/8))) / 8` = 121.04 bytes, so 122, rounded up to 128 bytes
//!   (BloomFilter.md); a page of `u` is 10 PLAIN values, 80 bytes plus its header, a chunk
//!   ten of them.

use parket::compression::Codec;
use parket::predicate::Predicate;
use parket::read::{Explain, FileReader};
use parket::record::Value;
use parket::schema::Schema;
use parket::write::{BloomFilterOptions, FileWriter, WriteOptions};

fn file() -> (Schema, Vec<u8>) {
    let schema = Schema::parse(
        "message m { required int64 id; required binary s (STRING); required int64 u; }",
    )
    .unwrap();
    let records: Vec<Value> = (0..400i64)
        .map(|r| {
            Value::Group(vec![
                Value::Int64((r / 10) * 1000 + r % 10),
                Value::Bytes(format!("g{} v{}", r / 100, [0, 2, 4][(r % 100 % 3) as usize]).into()),
                Value::Int64(2 * r),
            ])
        })
        .collect();
    let options = WriteOptions::default()
        .row_group_rows(100)
        .max_rows_per_page(10)
        .column("u", |c| {
            c.dictionary(false)
                .codec(Codec::Uncompressed)
                .bloom_filter(Some(BloomFilterOptions {
                    fpp: 0.01,
                    ndv: Some(100),
                }))
        });
    let mut w = FileWriter::new(Vec::new(), schema.clone(), options).unwrap();
    w.write_records(&records).unwrap();
    w.finish().unwrap();
    (schema, w.into_inner())
}

fn explain(file: &FileReader<'_>, text: &str, columns: &[&str], page_index: bool) -> Explain {
    let p = Predicate::parse(text, file.schema()).unwrap();
    file.scan()
        .columns(columns)
        .predicate(p)
        .use_page_index(page_index)
        .explain()
        .unwrap()
}

/// Rows the scan returns (the explain's counts are of what it reads, not of what matches).
fn matches(file: &FileReader<'_>, text: &str) -> u64 {
    let p = Predicate::parse(text, file.schema()).unwrap();
    file.scan()
        .predicate(p)
        .build()
        .unwrap()
        .map(|b| b.unwrap().num_rows())
        .sum()
}

#[test]
fn the_file_is_as_described() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    assert_eq!(file.num_row_groups(), 4);
    for g in 0..4 {
        let u = file.metadata().row_groups[g].columns[2]
            .meta_data
            .as_ref()
            .unwrap();
        let filter = file.bloom_filter(g, 2).unwrap().unwrap();
        assert_eq!(filter.num_bytes(), 128, "row group {g}");
        // The filter with its header, and the chunk: ten pages of 80 value bytes each.
        let len = u.bloom_filter_length.unwrap() as u64;
        assert!((128..160).contains(&len), "{len}");
        assert!(u.total_compressed_size > 800);
        let oi = file.offset_index(g, 2).unwrap().unwrap();
        assert_eq!(oi.page_locations.len(), 10);
        for loc in &oi.page_locations {
            assert!(
                (80..128).contains(&loc.compressed_page_size),
                "{}",
                loc.compressed_page_size
            );
        }
    }
}

#[test]
fn statistics_prune_every_row_group() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = explain(&file, "id = 1000000", &["id"], true);
    assert_eq!(e.file_bytes, bytes.len() as u64);
    assert_eq!((e.row_groups_total, e.rows_total), (4, 400));
    assert_eq!((e.row_groups_selected, e.pruned_by_statistics), (4, 4));
    assert_eq!((e.row_groups, e.rows, e.chunks, e.bytes), (0, 0, 0, 0));
    assert_eq!(matches(&file, "id = 1000000"), 0);
}

/// `s = 'g1 v1'`: outside the bounds of row groups 0, 2, 3 ("g0 v4" < "g1 v1" < "g2 v0"),
/// inside those of row group 1 ("g1 v0" ..= "g1 v4") but not in its dictionary.
#[test]
fn a_dictionary_prunes_what_the_statistics_let_through() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = explain(&file, "s = 'g1 v1'", &["id"], true);
    assert_eq!(e.pruned_by_statistics, 3);
    assert_eq!(e.pruned_by_dictionary, 1);
    assert_eq!((e.pruned_by_page_index, e.pruned_by_bloom_filter), (0, 0));
    assert_eq!((e.row_groups, e.rows), (0, 0));
    // 'g1 v2' is in it: the page index (every page of s holds v0..v4) keeps all 100 rows.
    let e = explain(&file, "s = 'g1 v2'", &["id"], true);
    assert_eq!((e.pruned_by_statistics, e.pruned_by_dictionary), (3, 0));
    assert_eq!((e.row_groups, e.rows_after_pruning, e.rows), (1, 100, 100));
    assert_eq!(matches(&file, "s = 'g1 v2'"), 33); // k % 3 == 1 for k in 0..100
}

/// `id = 505`: inside row group 0's bounds (0 ..= 9009), in none of its pages' (page p holds
/// p*1000 ..= p*1000 + 9).
#[test]
fn the_page_index_prunes_a_row_group_whose_pages_all_miss() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = explain(&file, "id = 505", &["id", "s", "u"], true);
    assert_eq!((e.pruned_by_statistics, e.pruned_by_page_index), (3, 1));
    assert_eq!((e.row_groups, e.chunks, e.bytes), (0, 0, 0));
    assert_eq!(matches(&file, "id = 505"), 0);
}

/// `id >= 15000 AND id < 16005`: row group 1 only (10000 ..= 19009), and in it pages 5
/// (15000..=15009) and 6 (16000..=16009): 20 rows, 2 of the 10 pages of each of the 3 chunks.
#[test]
fn the_page_index_narrows_a_range_to_its_pages() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let text = "id >= 15000 AND id < 16005";
    let e = explain(&file, text, &["id", "s", "u"], true);
    assert_eq!((e.row_groups_selected, e.pruned_by_statistics), (4, 3));
    assert_eq!((e.row_groups, e.rows_after_pruning, e.rows), (1, 20, 20));
    assert_eq!((e.chunks, e.indexed_chunks), (3, 3));
    assert_eq!((e.index_pages, e.pages), (30, 6));
    // No `=` or `IN`: no filter is probed, none is read.
    assert_eq!((e.bloom_filters_read, e.bloom_filters_skipped), (0, 0));
    // The bytes: pages 5 and 6 of each chunk (adjacent), and s's dictionary page.
    let mut want = 0;
    for c in 0..3 {
        let oi = file.offset_index(1, c).unwrap().unwrap();
        let l = &oi.page_locations;
        want += (l[7].offset - l[5].offset) as u64;
        let m = file.metadata().row_groups[1].columns[c]
            .meta_data
            .as_ref()
            .unwrap();
        if let Some(d) = m.dictionary_page_offset {
            want += (m.data_page_offset - d) as u64;
        }
    }
    assert_eq!(e.bytes, want);
    assert!(e.bytes < e.file_bytes / 10);
    assert_eq!(matches(&file, text), 15);
}

/// `u = 201` (u is even): inside row group 1's bounds (200 ..= 398) and its page 0's
/// (200 ..= 218). Without the page index the filter (128 bytes) is smaller than the u chunk
/// (10 pages of 80+ bytes): it is read and rules the row group out. With the page index, the
/// one page left (80 bytes and a header under 48) is smaller than the filter: not read.
#[test]
fn a_bloom_filter_is_read_when_smaller_than_the_pages_left() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let e = explain(&file, "u = 201", &["u"], false);
    assert_eq!((e.pruned_by_statistics, e.pruned_by_dictionary), (3, 0));
    assert_eq!((e.bloom_filters_read, e.bloom_filters_skipped), (1, 0));
    assert_eq!(e.pruned_by_bloom_filter, 1);
    assert_eq!((e.row_groups, e.rows, e.bytes), (0, 0, 0));
    let len = file.metadata().row_groups[1].columns[2]
        .meta_data
        .as_ref()
        .unwrap()
        .bloom_filter_length
        .unwrap() as u64;
    assert_eq!(e.bloom_filter_bytes, len);

    let e = explain(&file, "u = 201", &["u"], true);
    assert_eq!((e.pruned_by_statistics, e.pruned_by_page_index), (3, 0));
    assert_eq!((e.bloom_filters_read, e.bloom_filters_skipped), (0, 1));
    assert_eq!((e.row_groups, e.rows, e.pages), (1, 10, 1));
    assert_eq!(matches(&file, "u = 201"), 0);

    // u = 200 is there: the filter lets it through (without the page index), one row.
    let e = explain(&file, "u = 200", &["u"], false);
    assert_eq!((e.bloom_filters_read, e.pruned_by_bloom_filter), (1, 0));
    assert_eq!(
        (e.row_groups, e.rows, e.chunks, e.indexed_chunks),
        (1, 100, 1, 0)
    );
    assert_eq!(matches(&file, "u = 200"), 1);
}

/// A row group selection comes first: the stages count only the row groups it leaves.
#[test]
fn the_row_group_selection_comes_first() {
    let (_, bytes) = file();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let p = Predicate::parse("id >= 0", file.schema()).unwrap();
    let e = file
        .scan()
        .row_groups([1, 3])
        .predicate(p)
        .explain()
        .unwrap();
    assert_eq!((e.row_groups_total, e.row_groups_selected), (4, 2));
    assert_eq!((e.pruned_by_statistics, e.row_groups, e.rows), (0, 2, 200));
    assert_eq!(
        (e.chunks, e.indexed_chunks, e.index_pages, e.pages),
        (6, 6, 60, 60)
    );
}

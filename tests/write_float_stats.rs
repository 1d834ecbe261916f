//! Float statistics as the 2026 spec asks writers to write them (parquet.thrift, `Statistics`,
//! `ColumnOrder`, `ColumnIndex`, `FileMetaData.version`), with hand-worked expectations.
#![cfg(all(feature = "std", feature = "write"))]

use parket::compression::Codec;
use parket::format::{ColumnIndex, ColumnOrder, FileMetaData, Statistics};
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{FileWriter, WriteOptions};

/// Writes `pages` (each a list of optional doubles, one page each) as one row group of
/// `optional double d`; returns the footer and the column index.
fn write(pages: &[&[Option<f64>]], options: WriteOptions) -> (FileMetaData, Option<ColumnIndex>) {
    let schema = Schema::parse("message m { optional double d; }").unwrap();
    let options = options.codec(Codec::Uncompressed).max_rows_per_page(3);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    for page in pages {
        assert_eq!(page.len(), 3, "three rows a page");
        let vals: Vec<f64> = page.iter().flatten().copied().collect();
        let def: Vec<u16> = page.iter().map(|v| v.is_some() as u16).collect();
        rg.column(0)
            .unwrap()
            .write(ValuesRef::Double(&vals), &def, &[])
            .unwrap();
    }
    rg.finish().unwrap();
    let meta = w.finish().unwrap();
    let file = w.into_inner();
    let c = &meta.row_groups[0].columns[0];
    let ci = c.column_index_offset.map(|o| {
        let o = o as usize;
        ColumnIndex::decode(&file[o..]).unwrap().0
    });
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    let footer = FileMetaData::decode(&file[n - 8 - len..n - 8]).unwrap();
    (footer, ci)
}

/// The statistics of the first column chunk.
fn chunk_stats(meta: &FileMetaData) -> Statistics {
    let c = &meta.row_groups[0].columns[0];
    c.meta_data.as_ref().unwrap().statistics.clone().unwrap()
}

fn le(x: f64) -> Vec<u8> {
    x.to_le_bytes().to_vec()
}

const NAN: f64 = f64::NAN;

/// Default order (TYPE_ORDER): page 1 `[1.5, NaN, null]`, page 2 `[NaN, -0.0, 2.0]`.
/// Chunk: 2 NaNs, 1 null, min -0.0, max 2.0. Column index: nan_counts [1, 1].
/// A third page of only NaNs would drop the column index (spec), checked below.
#[test]
fn type_order_nan_counts_and_version() {
    let (meta, ci) = write(
        &[
            &[Some(1.5), Some(NAN), None],
            &[Some(NAN), Some(-0.0), Some(2.0)],
        ],
        WriteOptions::default(),
    );
    // Spec (Dec 2025): "writers should always populate 1 for version".
    assert_eq!(meta.version, 1);
    assert_eq!(meta.column_orders, Some(vec![ColumnOrder::TypeOrder]));
    let st = chunk_stats(&meta);
    assert_eq!(st.nan_count, Some(2));
    assert_eq!(st.null_count, Some(1));
    assert_eq!(st.min_value, Some(le(-0.0)));
    assert_eq!(st.max_value, Some(le(2.0)));
    let ci = ci.unwrap();
    assert_eq!(ci.nan_counts, Some(vec![1, 1]));
    assert_eq!(ci.min_values, [le(1.5), le(-0.0)]);
    assert_eq!(ci.max_values, [le(1.5), le(2.0)]);

    // No NaNs: nan_count still written, as 0 ("even if it is zero").
    let (meta, ci) = write(&[&[Some(1.0), None, Some(3.0)]], WriteOptions::default());
    let st = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    assert_eq!(st.statistics.as_ref().unwrap().nan_count, Some(0));
    assert_eq!(ci.unwrap().nan_counts, Some(vec![0]));

    // A page of only NaNs: no column index under TYPE_ORDER, and no chunk min/max when
    // every value is NaN.
    let (meta, ci) = write(&[&[Some(NAN), None, Some(NAN)]], WriteOptions::default());
    let st = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    let st = st.statistics.as_ref().unwrap();
    assert_eq!((st.nan_count, st.min_value.as_ref()), (Some(2), None));
    assert!(ci.is_none());
}

/// IEEE_754_TOTAL_ORDER: zeros keep their sign (-0.0 < +0.0), and a page of only NaNs has
/// the smallest and largest NaN by totalOrder as its bounds: `-NaN` (bits
/// fff8000000000000) < `+NaN` (7ff8000000000000) < `+NaN` with payload 1 (7ff8000000000001).
#[test]
fn total_order_bounds() {
    let neg_nan = f64::from_bits(0xfff8_0000_0000_0000);
    let nan1 = f64::from_bits(0x7ff8_0000_0000_0001);
    let (meta, ci) = write(
        &[
            &[Some(0.0), Some(NAN), Some(0.5)],
            &[Some(nan1), None, Some(neg_nan)],
        ],
        WriteOptions::default().ieee_754_total_order(true),
    );
    assert_eq!(
        meta.column_orders,
        Some(vec![ColumnOrder::Ieee754TotalOrder])
    );
    let st = chunk_stats(&meta);
    // Chunk: non-NaN values 0.0 and 0.5; +0.0 stays +0.0 (no -0.0 rewrite).
    assert_eq!(st.nan_count, Some(3));
    assert_eq!(st.min_value, Some(le(0.0)));
    assert_eq!(st.max_value, Some(le(0.5)));
    // The deprecated fields are TYPE_ORDER's: not written.
    assert_eq!((st.min, st.max), (None, None));
    let ci = ci.expect("a NaN page has bounds under total order");
    assert_eq!(ci.null_pages, [false, false]);
    assert_eq!(ci.nan_counts, Some(vec![1, 2]));
    assert_eq!(ci.min_values[0], le(0.0));
    assert_eq!(ci.max_values[0], le(0.5));
    assert_eq!(ci.min_values[1], 0xfff8_0000_0000_0000u64.to_le_bytes());
    assert_eq!(ci.max_values[1], 0x7ff8_0000_0000_0001u64.to_le_bytes());

    // -0.0 and +0.0 both seen: min -0.0, max +0.0 by totalOrder; all-NaN chunk: NaN bounds.
    let (meta, _) = write(
        &[&[Some(0.0), Some(-0.0), None]],
        WriteOptions::default().ieee_754_total_order(true),
    );
    let st = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    let st = st.statistics.as_ref().unwrap();
    assert_eq!(st.min_value, Some(le(-0.0)));
    assert_eq!(st.max_value, Some(le(0.0)));
    let (meta, _) = write(
        &[&[Some(nan1), Some(NAN), None]],
        WriteOptions::default().ieee_754_total_order(true),
    );
    let st = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
    let st = st.statistics.as_ref().unwrap();
    assert_eq!(
        st.min_value,
        Some(0x7ff8_0000_0000_0000u64.to_le_bytes().to_vec())
    );
    assert_eq!(
        st.max_value,
        Some(0x7ff8_0000_0000_0001u64.to_le_bytes().to_vec())
    );
}

//! Row selection: predicates over leaf columns, their evaluation on decoded rows, and the
//! metadata that proves a row group or a run of pages holds no match. Pure logic, no I/O.
//!
//! Semantics (json-mapping.md, "Row selection"): comparisons (`= != <> < <= > >=`) of a leaf
//! column with a literal, `IN (...)`, `IS [NOT] NULL`, `AND`, `OR`, `NOT`. A literal is typed
//! by its column ([`bind`]: integers signed and unsigned, floats, strings, binary, DECIMAL
//! exactly, DATE, TIME, TIMESTAMP, UUID, BOOLEAN). Order is the column's logical order
//! (parquet.thrift `ColumnOrder`); floats compare as IEEE 754 (NaN equals nothing, so
//! `x != 1` is true for NaN; `-0.0 = 0.0`). Nulls follow SQL's three-valued logic and a row
//! is selected only when the predicate is *true*. A column inside a repeated field is an
//! error: a predicate tests one value per row.
//!
//! One file per concept:
//!
//! | file | owns |
//! |---|---|
//! | [`expr`] | the unbound [`Expr`] and its Rust builder ([`col`], [`not`]) |
//! | [`parse`] | the text grammar ([`parse_expr`]) |
//! | [`bind`] | [`Predicate`]: columns resolved, literals typed |
//! | [`eval`] | row evaluation ([`Predicate::evaluate`]) |
//! | [`prune`] | statistics, dictionary, Bloom filter and page-index pruning |
//! | [`row_ranges`] | [`RowRanges`], the row sets page pruning yields |
//!
//! # How a reader uses it
//!
//! 1. Bind: `let p = Predicate::parse(text, file.schema())?` (or [`Predicate::new`] with an
//!    [`Expr`]). [`Predicate::columns`] lists the leaf columns (schema indexes) it needs;
//!    every per-column argument below is aligned with that list.
//! 2. For each row group, in this order, each stage only if the earlier kept it:
//!    - statistics: [`Predicate::row_group_may_match`]`(row_group, metadata.column_orders)`;
//!    - dictionaries: for the predicate's columns whose chunk is dictionary-encoded in every
//!      data page (per `encoding_stats`), read and decode the dictionary page and call
//!      [`Predicate::dictionaries_may_match`];
//!    - Bloom filters: [`Predicate::bloom_may_match`] with a probe over the chunks'
//!      filters (only `=` and `IN` probe);
//!    - page index: with the `ColumnIndex` and `OffsetIndex` of the predicate's columns,
//!      [`Predicate::page_row_ranges`] gives the rows that may match; read only the pages
//!      (of every selected column) whose rows overlap them ([`RowRanges::overlaps`]),
//!      skipping rows inside those pages.
//! 3. Rows: decode the predicate's columns for the surviving rows and call
//!    [`Predicate::evaluate`] with one [`ColumnBatch`] per column (values and one definition
//!    level per row); it says which rows are true. Each stage above is conservative (it
//!    never drops a matching row), so this last step makes the result exact.
//!
//! ```
//! use parket::predicate::{col, ColumnBatch, Predicate};
//! use parket::schema::Schema;
//! use parket::values::ValuesRef;
//! let schema = Schema::parse("message m { required int64 id; optional double x; }")?;
//! let p = Predicate::new(col("id").ge(2).and(col("x").lt(1.5)), &schema)?;
//! assert_eq!(p, Predicate::parse("id >= 2 AND x < 1.5", &schema)?);
//! assert_eq!(p.columns(), &[0, 1]);
//! let mut keep = Vec::new();
//! p.evaluate(
//!     &[
//!         ColumnBatch { values: ValuesRef::Int64(&[1, 2, 3, 4]), def_levels: &[] },
//!         ColumnBatch { values: ValuesRef::Double(&[0.5, 1.0, f64::NAN]), def_levels: &[1, 1, 0, 1] },
//!     ],
//!     &mut keep,
//! )?;
//! assert_eq!(keep, [false, true, false, false]);
//! # Ok::<(), parket::Error>(())
//! ```
//!
//! Two documented differences from `pyarrow.parquet.read_table(filters=...)`: `x IN (..)`
//! is unknown (not false) for a null `x`, so `NOT x IN (..)` drops such rows; and a literal
//! for a FLOAT column is read as a FLOAT (pyarrow widens the column to DOUBLE instead).

pub mod bind;
pub mod eval;
pub mod expr;
pub mod parse;
pub mod prune;
pub mod row_ranges;

pub use bind::Predicate;
pub use eval::ColumnBatch;
pub use expr::{col, col_path, not, Column, CompareOp, Expr, Literal};
pub use parse::parse_expr;
pub use row_ranges::RowRanges;

// A bound predicate is plain data: several threads may share one.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Predicate>();
    shared::<RowRanges>();
};

/// A row group whose column chunks have these statistics and `num_values` (for examples
/// and tests).
#[doc(hidden)]
pub fn testing_row_group(columns: &[(crate::format::Statistics, i64)]) -> crate::format::RowGroup {
    use crate::format::{ColumnChunk, ColumnMetaData, CompressionCodec, PhysicalType, RowGroup};
    let rows = columns.iter().map(|c| c.1).max().unwrap_or(0);
    RowGroup {
        columns: columns
            .iter()
            .map(|(s, n)| ColumnChunk {
                file_path: None,
                file_offset: 0,
                meta_data: Some(ColumnMetaData {
                    type_: PhysicalType::Int32,
                    encodings: alloc::vec::Vec::new(),
                    path_in_schema: alloc::vec::Vec::new(),
                    codec: CompressionCodec::Uncompressed,
                    num_values: *n,
                    total_uncompressed_size: 0,
                    total_compressed_size: 0,
                    key_value_metadata: None,
                    data_page_offset: 4,
                    index_page_offset: None,
                    dictionary_page_offset: None,
                    statistics: Some(s.clone()),
                    encoding_stats: None,
                    bloom_filter_offset: None,
                    bloom_filter_length: None,
                    size_statistics: None,
                    geospatial_statistics: None,
                }),
                offset_index_offset: None,
                offset_index_length: None,
                column_index_offset: None,
                column_index_length: None,
                crypto_metadata: None,
                encrypted_column_metadata: None,
            })
            .collect(),
        total_byte_size: 0,
        num_rows: rows,
        sorting_columns: None,
        file_offset: None,
        total_compressed_size: None,
        ordinal: None,
    }
}

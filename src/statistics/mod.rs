//! Layer 4: column statistics — sort orders, min/max/null_count accumulation, the PLAIN
//! encoding of min/max in `format::Statistics`, truncation, and the reverse for readers.
//!
//! This module owns the *meaning* of `Statistics` and `ColumnIndex` min/max bytes; the Thrift
//! structs themselves are in [`crate::format`].
//!
//! One concept per file:
//!
//! - `order`: the sort order of each column type ([`StatKind`], [`SortOrder`]), the typed
//!   min/max value ([`Scalar`]) and the comparisons (parquet.thrift `ColumnOrder`,
//!   LogicalTypes.md "Sort order");
//! - `builder`: [`StatisticsBuilder`], the writer's accumulation of null and NaN counts, min
//!   and max, written as `format::Statistics`;
//! - `truncate`: [`truncate_min`] / [`truncate_max`], byte-string bounds cut to a budget
//!   (`is_min_value_exact` / `is_max_value_exact`);
//! - `decode`: [`decode()`], what a reader may trust of the statistics in a file.
//!
//! Writing, the floating-point kinds also count NaNs (`nan_count`, written "even if it is
//! zero"), and may use the `IEEE_754_TOTAL_ORDER` column order instead
//! ([`StatisticsBuilder::with_total_order`]): totalOrder min/max, zeros kept as they are,
//! NaN bounds when every value is NaN.
//!
//! `min_value` / `max_value` hold the PLAIN encoding of the value *without* the 4-byte length
//! prefix of BYTE_ARRAY. Worked example: an OPTIONAL DOUBLE column holding
//! `[1.5, -0.0, NaN, null]` has
//!
//! ```text
//! null_count = 1
//! min_value  = 00 00 00 00 00 00 00 80     -0.0 (the NaN is ignored)
//! max_value  = 00 00 00 00 00 00 f8 3f     1.5
//! ```
//!
//! ```
//! use parket::statistics::{StatKind, StatisticsBuilder};
//! use parket::values::ValuesRef;
//! let mut s = StatisticsBuilder::new(StatKind::Double);
//! s.update(ValuesRef::Double(&[1.5, -0.0, f64::NAN])).unwrap();
//! s.add_nulls(1);
//! let f = s.to_format(None);
//! assert_eq!(f.null_count, Some(1));
//! assert_eq!(f.min_value.unwrap(), [0, 0, 0, 0, 0, 0, 0, 0x80]);
//! assert_eq!(f.max_value.unwrap(), [0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
//! ```
//!
//! The deprecated `min` / `max` fields were computed by old writers in *signed* order (also for
//! byte arrays, compared as signed bytes). This crate writes them only where that order is the
//! column's (BOOLEAN, signed integers, FLOAT, DOUBLE), as parquet-cpp does, and [`decode()`]
//! reads them only there.

mod builder;
mod decode;
mod order;
mod truncate;

pub use builder::StatisticsBuilder;
pub use decode::{decode, orders_min_max, DecodedStatistics};
pub use order::{
    compare, compare_bytes, compare_decimal, compare_in, half_of, Scalar, SortOrder, StatKind,
};
pub use truncate::{truncate_max, truncate_min};

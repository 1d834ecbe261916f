//! Statistics structs: `Statistics`, `SizeStatistics`, `BoundingBox`, `GeospatialStatistics`.
//!
//! Spec: parquet.thrift. `Statistics` keeps both the deprecated `max`/`min` (signed order, as
//! old writers computed them) and `max_value`/`min_value` (the column order's), plus
//! `is_max_value_exact` / `is_min_value_exact` and `nan_count`. Interpreting them (sort order,
//! NaN rules) is the `statistics` module's job, not this one's.
//!
//! ```text
//! struct Statistics {
//!   1: optional binary max  2: optional binary min  3: optional i64 null_count
//!   4: optional i64 distinct_count  5: optional binary max_value  6: optional binary min_value
//!   7: optional bool is_max_value_exact  8: optional bool is_min_value_exact
//!   9: optional i64 nan_count
//! }
//! ```
//!
//! Worked example, `Statistics { null_count: 0, max_value: [7], is_max_value_exact: true }`:
//!
//! ```text
//! 36 00      field 3 (delta 3), I64: null_count, zigzag 0
//! 28 01 07   field 5 (delta 2), BINARY: max_value, length 1, 0x07
//! 21         field 7 (delta 2), BOOL_TRUE: is_max_value_exact
//! 00         stop
//! ```
//!
//! ```
//! use parket::format::Statistics;
//! let s = Statistics {
//!     null_count: Some(0),
//!     max_value: Some(vec![7]),
//!     is_max_value_exact: Some(true),
//!     ..Default::default()
//! };
//! let mut out = Vec::new();
//! s.encode(&mut out);
//! assert_eq!(out, [0x36, 0x00, 0x28, 0x01, 0x07, 0x21, 0x00]);
//! ```

use alloc::vec::Vec;

use crate::thrift::thrift_struct;

thrift_struct! {
    /// Statistics of a column chunk or a page (Thrift struct `Statistics`). Counts are kept as
    /// the file says them, negative ones included; validating them is the reader's job.
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct Statistics {
        /// 1: deprecated maximum, in signed order.
        1: optional max: Vec<u8>,
        /// 2: deprecated minimum, in signed order.
        2: optional min: Vec<u8>,
        /// 3: number of nulls.
        3: optional null_count: i64,
        /// 4: number of distinct values.
        4: optional distinct_count: i64,
        /// 5: maximum, in the column order.
        5: optional max_value: Vec<u8>,
        /// 6: minimum, in the column order.
        6: optional min_value: Vec<u8>,
        /// 7: whether `max_value` is the real maximum (not truncated).
        7: optional is_max_value_exact: bool,
        /// 8: whether `min_value` is the real minimum (not truncated).
        8: optional is_min_value_exact: bool,
        /// 9: number of NaN values.
        9: optional nan_count: i64,
    }
}

thrift_struct! {
    /// Sizes that help plan reads (Thrift struct `SizeStatistics`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct SizeStatistics {
        /// 1: bytes of BYTE_ARRAY data, unencoded, without length prefixes.
        1: optional unencoded_byte_array_data_bytes: i64,
        /// 2: count of each repetition level, index = level.
        2: optional repetition_level_histogram: Vec<i64>,
        /// 3: count of each definition level, index = level.
        3: optional definition_level_histogram: Vec<i64>,
    }
}

thrift_struct! {
    /// A bounding box of geospatial values (Thrift struct `BoundingBox`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct BoundingBox {
        /// 1: minimum x.
        1: required xmin: f64,
        /// 2: maximum x.
        2: required xmax: f64,
        /// 3: minimum y.
        3: required ymin: f64,
        /// 4: maximum y.
        4: required ymax: f64,
        /// 5: minimum z.
        5: optional zmin: f64,
        /// 6: maximum z.
        6: optional zmax: f64,
        /// 7: minimum m.
        7: optional mmin: f64,
        /// 8: maximum m.
        8: optional mmax: f64,
    }
}

thrift_struct! {
    /// Statistics of GEOMETRY / GEOGRAPHY columns (Thrift struct `GeospatialStatistics`).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct GeospatialStatistics {
        /// 1: bounding box.
        1: optional bbox: BoundingBox,
        /// 2: ISO WKB geometry type codes present (empty = unknown).
        2: optional geospatial_types: Vec<i32>,
    }
}

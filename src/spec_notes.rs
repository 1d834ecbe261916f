//! Spec notes: Parquet explained one concept at a time, in the order a learner needs them.
//!
//! Each submodule is one note from `spec-notes/` at the top of the repository, compiled into
//! this documentation so that every byte sequence a note shows is checked by `cargo test`
//! (its ```` ```rust ```` blocks are doctests; `tests/spec_notes.rs` checks that every hex run
//! of a ```` ```text ```` block also appears in a rust block of the same note, and that every
//! note is included here).
//!
//! Reading order:
//!
//! 1. [`file_layout`]: magic, row groups, column chunks, pages, footer, the 8-byte tail.
//! 2. [`thrift_compact`]: the Thrift compact protocol, one footer decoded byte by byte.
//! 3. [`schema`]: the flat SchemaElement list, the tree, the message text, the max levels.
//! 4. [`levels`]: Dremel definition and repetition levels, shredding and assembly.
//! 5. [`plain`]: PLAIN, values back to back.
//! 6. [`rle_hybrid`]: the RLE / bit-packing hybrid, and the legacy BIT_PACKED.
//! 7. [`dictionary`]: dictionary page + indices, and the fallback when it overflows.
//! 8. `delta_binary_packed`: DELTA_BINARY_PACKED, integers as bit-packed deltas (with the
//!    `delta` feature).
//! 9. `delta_byte_arrays`: DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (with `delta`).
//! 10. `byte_stream_split`: BYTE_STREAM_SPLIT, byte `k` of every value in stream `k` (with the
//!     `byte-stream-split` feature).
//! 11. [`pages_v1_v2`]: the same values as a V1 and a V2 data page, byte by byte.
//! 12. [`compression`]: the codecs, and the LZ4 framing trap.
//! 13. [`statistics`]: min/max, sort orders, NaN and -0.0, truncation.
//! 14. [`page_index`]: ColumnIndex and OffsetIndex.
//! 15. [`bloom_filters`]: the split-block Bloom filter and xxHash64.
//! 16. [`list_map_compat`]: LIST and MAP, the standard and the legacy shapes.
//! 17. [`logical_types`]: what the physical types mean: annotations, ConvertedType, values.
//! 18. [`variant`]: VARIANT, the binary encoding and shredding into typed columns.
//! 19. `alp`: ALP, floats stored as small integers with exceptions (with the `alp` feature).
//! 20. [`page_skipping`]: skipping pages across columns, by rows.
//! 21. [`statistics_in_full`]: null and NaN counts, exactness, size statistics, page vs chunk.
//! 22. [`versions`]: the file version, the data page version and the writer version.
//! 23. `encryption`: modular encryption, keys, AADs and the footer modes (with the
//!     `encryption` feature).
//! 24. `geospatial`: GEOMETRY and GEOGRAPHY, WKB and their bounding boxes (with `std`).

#[doc = include_str!("../spec-notes/01-file-layout.md")]
pub mod file_layout {}

#[doc = include_str!("../spec-notes/02-thrift-compact.md")]
pub mod thrift_compact {}

#[doc = include_str!("../spec-notes/03-schema.md")]
pub mod schema {}

#[doc = include_str!("../spec-notes/04-levels.md")]
pub mod levels {}

#[doc = include_str!("../spec-notes/05-plain.md")]
pub mod plain {}

#[doc = include_str!("../spec-notes/06-rle-hybrid.md")]
pub mod rle_hybrid {}

#[doc = include_str!("../spec-notes/07-dictionary.md")]
pub mod dictionary {}

#[cfg(feature = "delta")]
#[doc = include_str!("../spec-notes/08-delta-binary-packed.md")]
pub mod delta_binary_packed {}

#[cfg(feature = "delta")]
#[doc = include_str!("../spec-notes/09-delta-byte-arrays.md")]
pub mod delta_byte_arrays {}

#[cfg(feature = "byte-stream-split")]
#[doc = include_str!("../spec-notes/10-byte-stream-split.md")]
pub mod byte_stream_split {}

#[doc = include_str!("../spec-notes/11-pages-v1-v2.md")]
pub mod pages_v1_v2 {}

#[doc = include_str!("../spec-notes/12-compression.md")]
pub mod compression {}

#[doc = include_str!("../spec-notes/13-statistics.md")]
pub mod statistics {}

#[doc = include_str!("../spec-notes/14-page-index.md")]
pub mod page_index {}

#[doc = include_str!("../spec-notes/15-bloom-filters.md")]
pub mod bloom_filters {}

#[doc = include_str!("../spec-notes/16-list-map-compat.md")]
pub mod list_map_compat {}

#[doc = include_str!("../spec-notes/17-logical-types.md")]
pub mod logical_types {}

#[doc = include_str!("../spec-notes/18-variant.md")]
pub mod variant {}

#[cfg(feature = "alp")]
#[doc = include_str!("../spec-notes/19-alp.md")]
pub mod alp {}

#[doc = include_str!("../spec-notes/20-page-skipping.md")]
pub mod page_skipping {}

#[doc = include_str!("../spec-notes/21-statistics-in-full.md")]
pub mod statistics_in_full {}

#[doc = include_str!("../spec-notes/22-versions.md")]
pub mod versions {}

#[cfg(feature = "encryption")]
#[doc = include_str!("../spec-notes/23-encryption.md")]
pub mod encryption {}

#[cfg(feature = "std")]
#[doc = include_str!("../spec-notes/24-geospatial.md")]
pub mod geospatial {}

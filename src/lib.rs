//! # parket: Apache Parquet, written from the specification
//!
//! A Parquet file is a sequence of column chunks, grouped in row groups, followed by a footer
//! that describes them:
//!
//! ```text
//! "PAR1" | row group 0: [column chunk 0: pages...] [column chunk 1: pages...] ...
//!        | row group 1: ...
//!        | (column indexes, offset indexes, bloom filters)
//!        | footer: FileMetaData (Thrift compact protocol) | 4-byte LE footer length | "PAR1"
//! ```
//!
//! Data flows one way through the crate's layers:
//!
//! ```text
//! read:   bytes -> footer (thrift -> format) -> schema -> column chunk -> page -> decompress
//!               -> levels + values (encoding) -> records (assembly)
//! write:  records -> (shredding) levels + values -> column chunk (cut into pages) -> page
//!               (levels + values encoded, compressed, header, CRC) -> row group -> footer -> bytes
//! ```
//!
//! Without its `std` feature the crate is `#![no_std]` + `alloc` and reads from byte slices.
//!
//! Write a file, then read it back by column and by record:
//!
//! ```
//! # #[cfg(all(feature = "write", feature = "std"))]
//! # fn main() -> parket::Result<()> {
//! use parket::{FileReader, FileWriter, Schema, Value, ValuesRef, WriteOptions};
//!
//! let schema = Schema::parse(
//!     "message m { required int64 id; optional group tags (LIST) {
//!        repeated group list { optional binary element (STRING); } } }",
//! )?;
//! let mut writer = FileWriter::new(Vec::new(), schema, WriteOptions::default())?;
//! writer.write_records(&[
//!     Value::Group(vec![Value::Int64(1), Value::List(vec![Value::Bytes(b"a".to_vec())])]),
//!     Value::Group(vec![Value::Int64(2), Value::Null]),
//! ])?;
//! writer.finish()?;
//! let bytes = writer.into_inner();
//!
//! let file = FileReader::from_bytes(&bytes)?;
//! assert_eq!(file.metadata().num_rows, 2);
//! // A column chunk, page by page: values plus definition / repetition levels.
//! let mut ids = file.column_chunk(0, "id")?;
//! while let Some(batch) = ids.next_batch(1024)? {
//!     assert_eq!(batch.values(), ValuesRef::Int64(&[1, 2]));
//! }
//! // Records, assembled from the levels.
//! let rows: Vec<Value> = file.records(None)?.collect::<parket::Result<_>>()?;
//! assert_eq!(rows[1], Value::Group(vec![Value::Int64(2), Value::Null]));
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "write", feature = "std")))]
//! # fn main() {}
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
// No `unsafe` anywhere, except two calls in `arrow/unchecked.rs` (Arrow arrays built
// without arrow-rs's checks, which the reader has made): builds without the `arrow` feature,
// the core and `no_std` ones among them, forbid it; with it, it is denied everywhere else.
#![cfg_attr(not(feature = "arrow"), forbid(unsafe_code))]
#![cfg_attr(feature = "arrow", deny(unsafe_code))]
#![warn(missing_docs)]

extern crate alloc;

#[cfg(feature = "arrow")]
pub mod arrow;
pub mod bloom;
pub mod bytes;
pub mod compression;
pub mod encoding;
#[cfg(feature = "encryption")]
pub mod encryption;
pub mod error;
pub mod format;
pub mod geospatial;
pub mod levels;
pub mod limits;
pub mod page;
pub mod predicate;
pub mod read;
pub mod record;
pub mod schema;
pub mod spec_notes;
pub mod statistics;
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod testing;
pub mod thrift;
pub mod typed;
pub mod values;
pub mod variant;
#[cfg(feature = "write")]
pub mod write;

pub use error::{Error, ErrorKind, Location, Result};
pub use limits::Limits;
// What a first program needs, at the crate root (the modules keep their full paths).
#[cfg(feature = "derive")]
pub use parket_derive::Record;
pub use read::FileReader;
pub use record::Value;
pub use schema::Schema;
pub use typed::Record;
pub use values::{Values, ValuesRef};
#[cfg(feature = "write")]
pub use write::{FileWriter, WriteOptions};

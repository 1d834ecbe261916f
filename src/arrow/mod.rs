//! Arrow: [`RecordBatch`](arrow_array::RecordBatch)es read from Parquet files
//! ([`BatchReader`]) and written to them ([`BatchWriter`]), with the schema mapped as pyarrow
//! maps it ([`schema`] has the table) and the Arrow schema pyarrow stores in the footer's
//! `ARROW:schema` key honoured and written ([`ipc`]). Behind the `arrow` feature, which
//! depends on `arrow-array`, `arrow-schema` and `arrow-buffer` only.
//!
//! Reading decodes each column through a [`Scan`](crate::read::Scan) (so projection, row
//! selection, predicates and page pruning apply) and builds the arrays from its levels and
//! values ([`read`]); writing shreds the arrays into levels and values for the column writers
//! ([`write`](mod@write)).
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use parket::arrow::{BatchReader, BatchWriter};
//! use parket::read::FileReader;
//! use parket::write::WriteOptions;
//!
//! let ids: ArrayRef = Arc::new(Int64Array::from(vec![1, 2, 3]));
//! let names: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None, Some("c")]));
//! let batch = RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap();
//!
//! let mut writer = BatchWriter::new(Vec::new(), batch.schema(), WriteOptions::default())?;
//! writer.write(&batch)?;
//! let bytes = writer.finish()?;
//!
//! let file = FileReader::from_bytes(&bytes)?;
//! let back: Vec<RecordBatch> = BatchReader::new(&file)?.collect::<parket::Result<_>>()?;
//! assert_eq!(back, [batch]);
//! # Ok(()) }
//! ```

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzz;
pub mod ipc;
pub mod read;
pub mod schema;
mod unchecked;
pub mod write;

pub use read::{arrow_schema, BatchReader};
pub use write::BatchWriter;

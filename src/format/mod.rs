//! Layer 2: the Rust mirror of `thrift/parquet.thrift`, named as the IDL names it.
//!
//! Plain data types with (de)serialization to the Thrift compact protocol and nothing else:
//! no validation beyond what decoding needs, no knowledge of pages or values.

mod enums;
mod logical_type;
mod schema_element;

pub use enums::*;
pub use logical_type::{LogicalType, TimeUnit};
pub use schema_element::SchemaElement;

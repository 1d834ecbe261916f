//! Layer 4: pages. A page is a Thrift `PageHeader` followed by `compressed_page_size` bytes;
//! this layer is the only one that knows a Data Page V1 from a V2, where the levels go, what
//! is compressed, and what the CRC covers.
//!
//! Spec: parquet.thrift (`PageHeader`, `DataPageHeader`, `DataPageHeaderV2`,
//! `DictionaryPageHeader`) and the README's "Data Pages" section.
//!
//! - [`decode`]: a page's bytes to levels and values (the reader's side);
//! - `encode` (feature `write`): levels and values to a page's bytes, through a `PageEncoder`
//!   that keeps its buffers and codec state from page to page (the writer's side: the writer
//!   builds every page with it).

pub mod decode;
#[cfg(feature = "write")]
pub mod encode;

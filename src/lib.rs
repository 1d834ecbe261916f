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
//! write:  records -> (shredding) levels + values -> encoding -> page -> compress
//!               -> column chunk -> row group -> footer -> bytes
//! ```
//!
//! Without its `std` feature the crate is `#![no_std]` + `alloc` and reads from byte slices.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod bloom;
pub mod bytes;
pub mod compression;
pub mod encoding;
pub mod error;
pub mod format;
pub mod levels;
pub mod limits;
pub mod page;
pub mod read;
pub mod record;
pub mod schema;
pub mod spec_notes;
pub mod statistics;
#[cfg(feature = "std")]
#[doc(hidden)]
pub mod testing;
pub mod thrift;
pub mod values;
#[cfg(feature = "write")]
pub mod write;

pub use error::{Error, ErrorKind, Location, Result};
pub use limits::Limits;

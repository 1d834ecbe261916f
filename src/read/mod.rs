//! Layer 6: reading files. The only reading code that does I/O.
//!
//! - [`footer`]: the file's tail (`FileMetaData | 4-byte LE length | "PAR1"`), from a byte
//!   slice or from any `Read + Seek`.
//!
//! Spec: the README of apache/parquet-format, "File Format": a file starts and ends with the
//! 4-byte magic `PAR1`; the footer is the Thrift-encoded FileMetaData followed by its length as
//! a 4-byte little-endian integer. For example a file whose footer is 13 bytes ends with
//!
//! ```text
//! ... <13 bytes of FileMetaData> 0d 00 00 00 50 41 52 31
//!                                 length 13   "PAR1"
//! ```

pub mod footer;

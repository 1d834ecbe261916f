//! Errors: what went wrong, and where.
//!
//! An [`Error`] is a small [`ErrorKind`] (a static noun saying *what* was being read, plus the
//! numbers involved) and a [`Location`] (row group, column path, page ordinal, byte offset) that
//! is filled in as the error travels up through the layers. Low layers never know where they
//! are: a decoder says "RLE run header: needed 4 bytes, 2 available"; the page reader adds
//! "page 3 at byte offset 1234"; the column reader adds "column a.b, row group 0".
//!
//! ```
//! use parket::{Error, ErrorKind};
//! let e = Error::truncated("BYTE_ARRAY length prefix", 4, 1).at_offset(120).in_column("a.b");
//! assert_eq!(
//!     e.to_string(),
//!     "truncated BYTE_ARRAY length prefix: needed 4 bytes, 1 available (column a.b, byte offset 120)"
//! );
//! assert!(matches!(e.kind(), ErrorKind::Truncated { .. }));
//! ```

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

/// The result type of every fallible function in this crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// What went wrong. Each variant carries a static description of the thing being read and
/// the numbers that show the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before `what` was complete.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes that remained.
        available: u64,
    },
    /// A number read from the input is outside the range that the spec or the context allows.
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The number found.
        value: i64,
    },
    /// The input breaks a rule of the format.
    OutOfSpec {
        /// The rule that is broken.
        what: &'static str,
    },
    /// A required field of a Thrift struct is missing (the file breaks the format). The
    /// message names it `Struct.field`: `RowGroup.num_rows`.
    MissingField {
        /// The struct, as parquet.thrift names it: `"RowGroup"`.
        structure: &'static str,
        /// The field, as parquet.thrift names it: `"num_rows"`.
        field: &'static str,
    },
    /// Honouring the input would exceed one of the reader's [`crate::Limits`].
    LimitExceeded {
        /// Which limit.
        what: &'static str,
        /// What the input asked for.
        requested: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A valid feature of the format that this crate does not implement.
    Unsupported {
        /// The feature.
        what: &'static str,
    },
    /// A feature of the format that needs a cargo feature which is not enabled in this build.
    FeatureDisabled {
        /// What needed it (e.g. "SNAPPY").
        what: &'static str,
        /// The cargo feature to enable.
        feature: &'static str,
    },
    /// The allocator could not give the memory that the input asks for (a buffer whose size
    /// comes from the file: a decompressed page, a dictionary, the values or levels of a
    /// page). Reported instead of aborting, for embedders with a small heap.
    OutOfMemory {
        /// What the memory was for.
        what: &'static str,
        /// Bytes requested.
        bytes: u64,
    },
    /// A page checksum did not match its contents.
    Checksum {
        /// The CRC stored in the page header.
        expected: u32,
        /// The CRC of the bytes read.
        actual: u32,
    },
    /// The file or column chunk is encrypted (Parquet Modular Encryption) and no keys were
    /// given (or this build lacks the `encryption` feature).
    Encrypted,
    /// Decrypting a module failed: a key or AAD prefix is missing, or the module does not
    /// authenticate. Never carries key material.
    #[cfg(feature = "encryption")]
    Decryption {
        /// The module (`footer`, `data page header`, ...) or the key concerned.
        module: &'static str,
        /// What went wrong.
        what: &'static str,
    },
    /// A caller passed an argument that does not fit (a schema text that does not parse,
    /// values that do not match their column, ...). The message says what and why.
    InvalidArgument(String),
    /// An I/O error from a `std::io` source or sink.
    Io(String),
}

/// Where in a file an error happened. Each part is filled in by the layer that knows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// Row group ordinal.
    pub row_group: Option<usize>,
    /// Column path, dotted (`a.list.element`).
    pub column: Option<String>,
    /// Page ordinal within the column chunk (0 is the first page, dictionary included).
    pub page: Option<usize>,
    /// Byte offset in the file (or in the buffer being decoded when no file is involved).
    pub offset: Option<u64>,
}

impl Location {
    fn is_empty(&self) -> bool {
        self.row_group.is_none()
            && self.column.is_none()
            && self.page.is_none()
            && self.offset.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    location: Location,
    /// The `std::io::ErrorKind` of an [`ErrorKind::Io`], kept for [`Error::io_kind`].
    #[cfg(feature = "std")]
    io_kind: Option<std::io::ErrorKind>,
}

/// An error: an [`ErrorKind`] and the [`Location`] where it happened.
///
/// Boxed so that `Result<T, Error>` stays one pointer wide on the hot paths.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

impl Error {
    /// An error of this kind, at no location yet.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            location: Location::default(),
            #[cfg(feature = "std")]
            io_kind: None,
        }))
    }

    /// The input ended before `what` was complete.
    #[cold]
    pub fn truncated(what: &'static str, needed: u64, available: u64) -> Self {
        Self::new(ErrorKind::Truncated {
            what,
            needed,
            available,
        })
    }

    /// A number is outside the allowed range.
    #[cold]
    pub fn out_of_range(what: &'static str, value: i64) -> Self {
        Self::new(ErrorKind::OutOfRange { what, value })
    }

    /// The input breaks a rule of the format.
    #[cold]
    pub fn out_of_spec(what: &'static str) -> Self {
        Self::new(ErrorKind::OutOfSpec { what })
    }

    /// A required field of a Thrift struct is missing: `field` of `structure`, as
    /// parquet.thrift names them (`"RowGroup"`, `"num_rows"`).
    #[cold]
    pub fn missing_field(structure: &'static str, field: &'static str) -> Self {
        Self::new(ErrorKind::MissingField { structure, field })
    }

    /// A limit would be exceeded.
    #[cold]
    pub fn limit(what: &'static str, requested: u64, limit: u64) -> Self {
        Self::new(ErrorKind::LimitExceeded {
            what,
            requested,
            limit,
        })
    }

    /// An allocation of `bytes` bytes for `what` failed.
    #[cold]
    pub fn out_of_memory(what: &'static str, bytes: u64) -> Self {
        Self::new(ErrorKind::OutOfMemory { what, bytes })
    }

    /// A feature of the format this crate does not implement.
    #[cold]
    pub fn unsupported(what: &'static str) -> Self {
        Self::new(ErrorKind::Unsupported { what })
    }

    /// A cargo feature is needed.
    #[cold]
    pub fn feature_disabled(what: &'static str, feature: &'static str) -> Self {
        Self::new(ErrorKind::FeatureDisabled { what, feature })
    }

    /// A caller's argument does not fit.
    #[cold]
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument(message.into()))
    }

    /// [`Error::invalid_argument`] with a formatted message: `format!` without
    /// `alloc::fmt::format`, which the readers would otherwise link for these messages alone.
    #[cold]
    pub(crate) fn invalid_argument_fmt(message: fmt::Arguments<'_>) -> Self {
        Self::new(ErrorKind::InvalidArgument(text(message)))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Where it went wrong, as far as known.
    pub fn location(&self) -> &Location {
        &self.0.location
    }

    /// The `std::io::ErrorKind` of an I/O error (`None` for the other kinds), so that a
    /// caller can tell `NotFound` from `PermissionDenied` or `UnexpectedEof`.
    #[cfg(feature = "std")]
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        self.0.io_kind
    }

    /// Sets the byte offset, unless a lower layer already set a more precise one.
    ///
    /// This and the other location setters stay out of line (`#[inline(never)]`): they run on
    /// error paths only, from many places, where an inlined copy each cost the size probe
    /// 544 bytes (issue 23).
    #[must_use]
    #[inline(never)]
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.0.location.offset.get_or_insert(offset);
        self
    }

    /// Adds `base` to the byte offset (a lower layer counted from the start of its buffer; the
    /// caller knows where that buffer starts), or sets it to `base` when none is known.
    #[must_use]
    #[inline(never)]
    pub fn offset_by(mut self, base: u64) -> Self {
        let o = self.0.location.offset.get_or_insert(0);
        *o = o.saturating_add(base);
        self
    }

    /// Forgets the byte offset (one counted in bytes that are not the file's, such as
    /// decompressed ones), keeping the rest of the location.
    #[must_use]
    #[inline(never)]
    pub(crate) fn without_offset(mut self) -> Self {
        self.0.location.offset = None;
        self
    }

    /// Sets the page ordinal, unless already set.
    #[must_use]
    #[inline(never)]
    pub fn in_page(mut self, page: usize) -> Self {
        self.0.location.page.get_or_insert(page);
        self
    }

    /// Sets the column path, unless already set.
    #[must_use]
    #[inline(never)]
    pub fn in_column(mut self, path: &str) -> Self {
        if self.0.location.column.is_none() {
            self.0.location.column = Some(String::from(path));
        }
        self
    }

    /// Sets the row group ordinal, unless already set.
    #[must_use]
    #[inline(never)]
    pub fn in_row_group(mut self, row_group: usize) -> Self {
        self.0.location.row_group.get_or_insert(row_group);
        self
    }
}

/// `message` as a `String`: `to_string` without its panic path (writing into a String cannot
/// fail), and through a writer of `str`s only. `String`'s own `fmt::Write` brings a
/// `write_char` of its own (217 bytes of the size probe); this one the default, small one.
#[cold]
fn text(message: fmt::Arguments<'_>) -> String {
    struct Text(String);
    impl fmt::Write for Text {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0.push_str(s);
            Ok(())
        }
    }
    let mut t = Text(String::new());
    let _ = fmt::Write::write_fmt(&mut t, message);
    t.0
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "truncated {what}: needed {needed} bytes, {available} available"
            ),
            ErrorKind::OutOfRange { what, value } => {
                // The sign and the magnitude: `u64`'s formatting, which every program that
                // prints a number links, instead of `i64`'s too.
                let sign = if *value < 0 { "-" } else { "" };
                let magnitude = value.unsigned_abs();
                write!(f, "{what} out of range: {sign}{magnitude}")
            }
            ErrorKind::OutOfSpec { what } => write!(f, "invalid file: {what}"),
            ErrorKind::MissingField { structure, field } => {
                write!(f, "invalid file: missing required field {structure}.{field}")
            }
            ErrorKind::LimitExceeded {
                what,
                requested,
                limit,
            } => write!(f, "{what} of {requested} exceeds the limit of {limit}"),
            ErrorKind::OutOfMemory { what, bytes } => {
                write!(f, "cannot allocate {bytes} bytes for {what}")
            }
            ErrorKind::Unsupported { what } => write!(f, "not supported: {what}"),
            ErrorKind::FeatureDisabled { what, feature } => write!(
                f,
                "{what} needs the cargo feature `{feature}`, which this build does not enable"
            ),
            ErrorKind::Checksum { expected, actual } => {
                // As `u64`s: the same digits through the formatting of `u64`, as above.
                let (expected, actual) = (u64::from(*expected), u64::from(*actual));
                write!(
                    f,
                    "page CRC mismatch: header says {expected:#010x}, data has {actual:#010x}"
                )
            }
            ErrorKind::Encrypted => f.write_str(if cfg!(feature = "encryption") {
                "the file is encrypted (Parquet Modular Encryption): reading it needs its keys"
            } else {
                // No longer than it was before the feature (the size budget).
                "the file is encrypted (Parquet Modular Encryption): reading needs the `encryption` feature"
            }),
            #[cfg(feature = "encryption")]
            ErrorKind::Decryption { module, what } => {
                write!(f, "cannot decrypt the {module}: {what}")
            }
            ErrorKind::InvalidArgument(m) => f.write_str(m),
            ErrorKind::Io(m) => write!(f, "I/O error: {m}"),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(rg) = self.row_group {
            write!(f, "{sep}row group {rg}")?;
            sep = ", ";
        }
        if let Some(c) = &self.column {
            write!(f, "{sep}column {c}")?;
            sep = ", ";
        }
        if let Some(p) = self.page {
            write!(f, "{sep}page {p}")?;
            sep = ", ";
        }
        if let Some(o) = self.offset {
            write!(f, "{sep}byte offset {o}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.kind)?;
        if !self.0.location.is_empty() {
            write!(f, " ({})", self.0.location)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    #[cold]
    fn from(e: std::io::Error) -> Self {
        let mut err = Error::new(ErrorKind::Io(text(format_args!("{e}"))));
        err.0.io_kind = Some(e.kind());
        err
    }
}

/// Back to an `std::io::Error`: an I/O error keeps its `std::io::ErrorKind`, the others are
/// `InvalidData` (a file that does not decode) or `InvalidInput` (a caller's argument).
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> Self {
        let kind = match (e.io_kind(), e.kind()) {
            (Some(k), _) => k,
            (None, ErrorKind::InvalidArgument(_)) => std::io::ErrorKind::InvalidInput,
            (None, ErrorKind::Unsupported { .. } | ErrorKind::FeatureDisabled { .. }) => {
                std::io::ErrorKind::Unsupported
            }
            (None, _) => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, e)
    }
}

#[cfg(all(test, feature = "std"))]
mod io_tests {
    use super::*;

    #[test]
    fn io_errors_keep_their_kind() {
        let e: Error = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file").into();
        assert_eq!(e.io_kind(), Some(std::io::ErrorKind::NotFound));
        let e = e.in_column("a");
        assert_eq!(e.io_kind(), Some(std::io::ErrorKind::NotFound));
        assert_eq!(std::io::Error::from(e).kind(), std::io::ErrorKind::NotFound);
        let e = Error::out_of_spec("x");
        assert_eq!(e.io_kind(), None);
        assert_eq!(
            std::io::Error::from(e).kind(),
            std::io::ErrorKind::InvalidData
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn location_is_added_once_from_the_bottom_up() {
        let e = Error::out_of_range("bit width", 254)
            .at_offset(7)
            .in_page(2)
            .offset_by(100)
            .in_column("x.y")
            .in_row_group(1)
            .in_column("ignored");
        assert_eq!(
            e.to_string(),
            "bit width out of range: 254 (row group 1, column x.y, page 2, byte offset 107)"
        );
    }

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(
            core::mem::size_of::<Result<()>>(),
            core::mem::size_of::<usize>()
        );
    }
}

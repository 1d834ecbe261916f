//! Writing Rust structs that implement [`Record`]: each batch of rows is striped straight
//! from the structs into one [`LeafData`](crate::values::LeafData) per leaf column (no
//! `Value` tree) and handed to [`FileWriter::write_columns`], so row groups, pages and
//! streaming follow the same rules as [`FileWriter::write_records`].

use core::marker::PhantomData;

use super::{FileWriter, Sink, WriteOptions, SLICE_LEVELS};
use crate::error::Result;
use crate::format::FileMetaData;
use crate::typed::{schema_and_encodings, Record, Shredder};

/// A streaming writer of rows of a `#[derive(Record)]` type.
///
/// ```
/// # #[cfg(feature = "derive")]
/// # fn main() -> parket::Result<()> {
/// use parket::Record;
/// use parket::read::FileReader;
/// use parket::write::{TypedWriter, WriteOptions};
///
/// #[derive(Record, Debug, PartialEq)]
/// struct Trip {
///     id: i64,
///     #[parket(timestamp(unit = "micros", utc = true))]
///     pickup: i64,
///     tags: Vec<String>,
///     tip: Option<f64>,
/// }
///
/// let trips = vec![
///     Trip { id: 1, pickup: 1_700_000_000_000_000, tags: vec!["a".into()], tip: None },
///     Trip { id: 2, pickup: 1_700_000_060_000_000, tags: vec![], tip: Some(1.5) },
/// ];
/// let mut w = TypedWriter::<Trip, _>::new(Vec::new(), WriteOptions::default())?;
/// w.write(&trips)?;
/// w.finish()?;
/// let bytes = w.into_inner();
///
/// let file = FileReader::from_bytes(&bytes)?;
/// let back: Vec<Trip> = file.read_typed::<Trip>()?.collect::<parket::Result<_>>()?;
/// assert_eq!(back, trips);
/// # Ok(()) }
/// # #[cfg(not(feature = "derive"))]
/// # fn main() {}
/// ```
#[must_use = "a TypedWriter writes the footer only when finished"]
pub struct TypedWriter<T: Record, W: Sink> {
    file: FileWriter<W>,
    shredder: Shredder,
    /// Rows in the row group `file` has open.
    open_rows: usize,
    row_group_rows: usize,
    _rows: PhantomData<fn(&T)>,
}

impl<T: Record, W: Sink> TypedWriter<T, W> {
    /// Starts a file of `T` rows: the schema is `T::schema()`, and the fields' `encoding`
    /// attributes become column options (over any `options` gives for the same column).
    pub fn new(sink: W, options: WriteOptions) -> Result<Self> {
        let name = alloc::string::String::from(T::schema()?.name());
        let (schema, encodings) = schema_and_encodings::<T>(&name)?;
        let mut options = options;
        for (path, e) in encodings {
            options = options.column(&path, |c| c.encoding(e));
        }
        let row_group_rows = options.row_group_rows;
        let shredder = Shredder::new(&schema);
        Ok(TypedWriter {
            file: FileWriter::new(sink, schema, options)?,
            shredder,
            open_rows: 0,
            row_group_rows,
            _rows: PhantomData,
        })
    }

    /// Writes rows, starting a new row group whenever the open one reaches
    /// [`WriteOptions::row_group_rows`] rows or `row_group_bytes` of encoded pages. On an
    /// error (a decimal too wide for its column, a failed write), the rows of the batches
    /// before the failing one are written.
    pub fn write(&mut self, rows: &[T]) -> Result<()> {
        let mut rest = rows;
        while !rest.is_empty() {
            let room = self.row_group_rows.saturating_sub(self.open_rows).max(1);
            let n = rest.len().min(room).min(SLICE_LEVELS);
            let (batch, tail) = rest.split_at(n);
            self.shredder.clear();
            self.shredder.write_rows(batch)?;
            let before = self.file.bytes_written();
            self.file.write_columns(&self.shredder.leaves)?;
            // write_columns writes bytes only when it closes the open row group.
            if self.file.bytes_written() == before {
                self.open_rows += n;
            } else {
                self.open_rows = 0;
            }
            rest = tail;
        }
        Ok(())
    }

    /// Writes the open row group, the page indexes and the footer; returns the footer.
    pub fn finish(&mut self) -> Result<FileMetaData> {
        self.open_rows = 0;
        self.file.finish()
    }

    /// The file writer underneath (its schema, bytes written).
    pub fn file(&self) -> &FileWriter<W> {
        &self.file
    }

    /// The sink (call [`TypedWriter::finish`] first for a complete file).
    pub fn into_inner(self) -> W {
        self.file.into_inner()
    }
}

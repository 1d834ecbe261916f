//! Records streamed page by page: [`FileReader::records`](super::FileReader::records).
//!
//! Record assembly ([`mod@crate::levels::assemble`]) needs, for every selected column, the entries
//! of a record up to the first entry of the next record (repetition level 0) or the end of
//! the chunk. So each column keeps a buffer of decoded pages and a count of the record starts
//! it holds; a column's records are complete up to its last buffered start (all of them once
//! its chunk is read, and every entry is a record when it has no repetition levels). Pages are
//! read one at a time for the column with the fewest complete records, until every column
//! holds [`RECORDS_PER_STEP`] of them or cannot grow; those records are assembled and the
//! consumed front of the buffers is dropped.
//!
//! Memory is therefore a few pages per column plus one step of records, whatever the size of
//! the row group; a single record larger than that (a list of millions of elements) is held
//! whole, and a column that would hold more than
//! [`Limits::values_per_read`](crate::Limits::values_per_read) entries before its next page
//! is an error.
//!
//! For example, with columns `id` (required, 3 pages of 2 values) and `tags.list.element`
//! (max_rep_level 1; one page whose repetition levels are `0 1 0 0 1 1`, i.e. 3 records),
//! the first step reads a page of each: `id` has 2 complete records, `tags` 2 (the third
//! record may continue on its next page); 2 records are assembled. Then `tags` is at the end
//! of its chunk and `id` reads its next pages until the records run out together.

use alloc::vec::Vec;

use super::chunk::ColumnChunkReader;
use super::FileReader;
use crate::error::{Error, Result};
use crate::levels::assemble::{assemble_records, check_all_assembled, level_count, Position};
use crate::levels::LeafData;
use crate::record::Value;
use crate::schema::Schema;

/// Records assembled per step, once every column holds that many complete ones.
pub const RECORDS_PER_STEP: usize = 1024;

/// The records of a file, row group by row group: see [`FileReader::records`].
pub struct Records<'f, 'a> {
    file: &'f FileReader<'a>,
    schema: Schema,
    leaves: Vec<usize>,
    /// The next row group to open.
    row_group: usize,
    /// The row group being read, when one is open.
    open: Option<RowGroupRecords<'f>>,
    ready: alloc::vec::IntoIter<Value>,
    failed: bool,
}

impl<'f, 'a> Records<'f, 'a> {
    pub(super) fn new(file: &'f FileReader<'a>, schema: Schema, leaves: Vec<usize>) -> Self {
        Records {
            file,
            schema,
            leaves,
            row_group: 0,
            open: None,
            ready: Vec::new().into_iter(),
            failed: false,
        }
    }

    /// The projected schema the records follow.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The next step of records (empty when the open row group is finished).
    fn step(&mut self) -> Result<Vec<Value>> {
        let Some(open) = self.open.as_mut() else {
            return Ok(Vec::new());
        };
        let mut records = Vec::new();
        if !open.step(&self.schema, self.file, &mut records)? {
            self.open = None;
        }
        Ok(records)
    }
}

impl Iterator for Records<'_, '_> {
    type Item = Result<Value>;

    fn next(&mut self) -> Option<Result<Value>> {
        loop {
            if let Some(v) = self.ready.next() {
                return Some(Ok(v));
            }
            if self.failed {
                return None;
            }
            if self.open.is_none() {
                if self.row_group >= self.file.num_row_groups() || self.leaves.is_empty() {
                    return None;
                }
                let rg = self.row_group;
                self.row_group += 1;
                match RowGroupRecords::open(self.file, rg, &self.leaves) {
                    Ok(open) => self.open = Some(open),
                    Err(e) => {
                        self.failed = true;
                        return Some(Err(e.in_row_group(rg)));
                    }
                }
            }
            let rg = self.row_group - 1;
            match self.step() {
                Ok(records) => self.ready = records.into_iter(),
                Err(e) => {
                    self.failed = true;
                    self.open = None;
                    return Some(Err(e.in_row_group(rg)));
                }
            }
        }
    }
}

/// One selected column of the open row group: its reader and where it stands.
struct Column<'f> {
    reader: ColumnChunkReader<'f>,
    max_def: u16,
    max_rep: u16,
    /// Record starts (repetition level 0) among the buffered entries not yet assembled.
    starts: usize,
    /// The chunk has no page left.
    done: bool,
}

/// The open row group: per column a reader, a buffer of decoded entries and the position of
/// its next record in that buffer (three parallel vectors: assembly takes the buffers as one
/// slice).
struct RowGroupRecords<'f> {
    columns: Vec<Column<'f>>,
    buffers: Vec<LeafData>,
    at: Vec<Position>,
}

impl<'f> RowGroupRecords<'f> {
    fn open(file: &'f FileReader<'_>, row_group: usize, leaves: &[usize]) -> Result<Self> {
        let mut columns = Vec::with_capacity(leaves.len());
        let mut buffers = Vec::with_capacity(leaves.len());
        for &leaf in leaves {
            let desc = file
                .schema()
                .column(leaf)
                .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
            let (max_def, max_rep) = (desc.max_def_level, desc.max_rep_level);
            let reader = file.column_chunk(row_group, leaf)?;
            buffers.push(reader.new_leaf_data());
            columns.push(Column {
                reader,
                max_def,
                max_rep,
                starts: 0,
                done: false,
            });
        }
        Ok(RowGroupRecords {
            at: alloc::vec![Position::default(); columns.len()],
            columns,
            buffers,
        })
    }

    /// Records of column `i` that are wholly buffered and not yet assembled.
    fn complete(&self, i: usize) -> usize {
        let (Some(c), Some(data), Some(at)) =
            (self.columns.get(i), self.buffers.get(i), self.at.get(i))
        else {
            return 0;
        };
        if c.max_rep == 0 {
            level_count(data, c.max_def).saturating_sub(at.level)
        } else if c.done {
            c.starts
        } else {
            // The last record started may continue on the next page.
            c.starts.saturating_sub(1)
        }
    }

    /// Decodes the next page of column `i` into its buffer.
    ///
    /// A column reads another page only while its records are incomplete, so its buffer
    /// grows past a page or two only when one record spans many pages: the entries it holds
    /// before reading are bounded by [`Limits::values_per_read`](crate::Limits) (a single
    /// page is bounded by `values_per_page`, as for page-by-page reads).
    fn read_page(&mut self, i: usize, file: &FileReader<'_>) -> Result<()> {
        let (Some(c), Some(data), Some(at)) = (
            self.columns.get_mut(i),
            self.buffers.get_mut(i),
            self.at.get(i),
        ) else {
            return Ok(());
        };
        let held = level_count(data, c.max_def).saturating_sub(at.level);
        file.limits().check_values_per_read(held as u64)?;
        let before = data.rep_levels.len();
        if !c.reader.append_page(data)? {
            c.done = true;
            return Ok(());
        }
        let new = data.rep_levels.get(before..).unwrap_or(&[]);
        c.starts += crate::levels::count_level(new, 0);
        Ok(())
    }

    /// Assembles the next records into `out`. Returns false once the row group is finished
    /// (every column read to its end and every entry assembled).
    fn step(
        &mut self,
        schema: &Schema,
        file: &FileReader<'_>,
        out: &mut Vec<Value>,
    ) -> Result<bool> {
        let n = self.columns.len();
        loop {
            let Some((least, target)) = (0..n).map(|i| (i, self.complete(i))).min_by_key(|p| p.1)
            else {
                return Ok(false);
            };
            let stuck = self.columns.get(least).is_none_or(|c| c.done);
            if target >= RECORDS_PER_STEP || (stuck && target > 0) {
                self.assemble(schema, target.min(RECORDS_PER_STEP), out)?;
                return Ok(true);
            }
            if stuck {
                return self.finish(schema, file).map(|()| false);
            }
            self.read_page(least, file)?;
        }
    }

    fn assemble(&mut self, schema: &Schema, records: usize, out: &mut Vec<Value>) -> Result<()> {
        let before = out.len();
        assemble_records(schema, &self.buffers, &mut self.at, records, out)?;
        let made = out.len() - before;
        for ((c, data), at) in self
            .columns
            .iter_mut()
            .zip(&mut self.buffers)
            .zip(&mut self.at)
        {
            if c.max_rep > 0 {
                c.starts = c.starts.saturating_sub(made);
            }
            compact(data, at, c.max_def);
        }
        Ok(())
    }

    /// A column has no record left and no page to read: the others must end here too.
    fn finish(&mut self, schema: &Schema, file: &FileReader<'_>) -> Result<()> {
        for i in 0..self.columns.len() {
            while self.columns.get(i).is_some_and(|c| !c.done) {
                self.read_page(i, file)?;
            }
        }
        check_all_assembled(schema, &self.buffers, &self.at)
    }
}

/// Drops the assembled front of a column's buffer once it is at least half of it (so each
/// entry is moved at most a constant number of times on average).
fn compact(data: &mut LeafData, at: &mut Position, max_def: u16) {
    let levels = level_count(data, max_def);
    if at.level == 0 || at.level * 2 < levels {
        return;
    }
    let n = at.level;
    data.def_levels.drain(..n.min(data.def_levels.len()));
    data.rep_levels.drain(..n.min(data.rep_levels.len()));
    let v = data.values.len();
    if at.value >= v {
        data.values.clear();
    } else if at.value > 0 {
        data.values = data.values.as_ref().slice(at.value..v).to_owned();
    }
    *at = Position::default();
}

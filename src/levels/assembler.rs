//! Streaming record assembly: a [`RecordAssembler`] takes the decoded pages of a row group's
//! selected columns in and gives records out, a step at a time, so that memory is a few pages
//! per column plus one step of records whatever the size of the row group. It never sees
//! bytes: whoever reads the pages ([`FileReader::records`](crate::read::FileReader::records))
//! answers its [`Want::Page`] by appending the column's next page to the buffer it is lent.
//!
//! Record assembly ([`mod@crate::levels::assemble`]) needs, for every column, the entries of
//! a record up to the first entry of the next record (repetition level 0) or the end of the
//! chunk. So each column keeps a buffer of decoded pages and a count of the record starts it
//! holds; a column's records are complete up to its last buffered start (all of them once its
//! chunk is read, and every entry is a record when it has no repetition levels). The
//! assembler asks for a page of the column with the fewest complete records, until every
//! column holds [`RECORDS_PER_STEP`] of them or cannot grow; those records are assembled and
//! the consumed front of the buffers is dropped.
//!
//! For example, with columns `id` (required, 3 pages of 2 values) and `tags.list.element`
//! (max_rep_level 1; one page whose repetition levels are `0 1 0 0 1 1`, i.e. 3 records), the
//! first steps ask for a page of each: `id` has 2 complete records, `tags` 2 (the third record
//! may continue on its next page); 2 records are assembled. Then `tags` is at the end of its
//! chunk and `id` is asked for its next pages until the records run out together.
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! use parket::levels::assembler::{RecordAssembler, Want};
//! use parket::levels::LeafData;
//! use parket::record::Value;
//! use parket::schema::Schema;
//! use parket::values::Values;
//! let schema = Schema::parse("message m { required int32 id; }")?;
//! let mut pages = vec![vec![1, 2], vec![3]].into_iter();
//! let mut asm = RecordAssembler::new(schema, &parket::Limits::default());
//! let mut records = Vec::new();
//! loop {
//!     match asm.step(&mut records)? {
//!         Want::Page(0) => asm.push_page(0, |buf: &mut LeafData| {
//!             let Some(page) = pages.next() else { return Ok(false) };
//!             buf.values.extend_from(Values::Int32(page).as_ref());
//!             Ok(true)
//!         })?,
//!         Want::Page(_) => unreachable!(),
//!         Want::Records => {}
//!         Want::Done => break,
//!     }
//! }
//! let id = |v| Value::Group(vec![Value::Int32(v)]);
//! assert_eq!(records, [id(1), id(2), id(3)]);
//! # Ok(()) }
//! ```
//!
//! A single record larger than a step (a list of millions of elements) is held whole, and a
//! column that would hold more than [`Limits::values_per_read`] entries before its next page
//! is an error.

use alloc::vec::Vec;

use super::assemble::{assemble_records, check_all_assembled, level_count, Position};
use super::LeafData;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::record::Value;
use crate::schema::Schema;

/// Records assembled per step, once every column holds that many complete ones.
pub const RECORDS_PER_STEP: usize = 1024;

/// What [`RecordAssembler::step`] wants next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// The next page of this column (its index among the schema's leaves): answer with
    /// [`RecordAssembler::push_page`].
    Page(usize),
    /// Records were appended to the caller's vector; step again for more.
    Records,
    /// Every column was read to its end and every entry assembled.
    Done,
}

/// One column's buffered entries and where it stands.
#[derive(Debug, Clone)]
struct Column {
    max_def: u16,
    max_rep: u16,
    /// Record starts (repetition level 0) among the buffered entries not yet assembled.
    starts: usize,
    /// The column's chunk has no page left.
    done: bool,
}

/// Assembles the records of one row group from its columns' pages: see the
/// [module documentation](self).
#[derive(Debug, Clone)]
pub struct RecordAssembler {
    schema: Schema,
    columns: Vec<Column>,
    /// Parallel to `columns` (assembly takes the buffers as one slice).
    buffers: Vec<LeafData>,
    at: Vec<Position>,
    limits: Limits,
}

impl RecordAssembler {
    /// An assembler of records of `schema` (one column per leaf, in order), that lets no
    /// column hold more than [`Limits::values_per_read`] entries before taking its next page.
    pub fn new(schema: Schema, limits: &Limits) -> Self {
        let mut columns = Vec::with_capacity(schema.columns().len());
        let mut buffers = Vec::with_capacity(schema.columns().len());
        for d in schema.columns() {
            columns.push(Column {
                max_def: d.max_def_level,
                max_rep: d.max_rep_level,
                starts: 0,
                done: false,
            });
            buffers.push(crate::page::decode::PageColumn::from(d).new_leaf_data());
        }
        RecordAssembler {
            at: alloc::vec![Position::default(); columns.len()],
            schema,
            columns,
            buffers,
            limits: *limits,
        }
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

    /// Gives column `i` its next page: `append` appends the page's levels and values to the
    /// buffer it is lent (levels only for max levels above 0) and returns true, or returns
    /// false when the column's chunk has no page left.
    ///
    /// Errors when the column already holds more than [`Limits::values_per_read`] entries
    /// (one record spans too many pages), and with what `append` returns.
    pub fn push_page(
        &mut self,
        i: usize,
        append: impl FnOnce(&mut LeafData) -> Result<bool>,
    ) -> Result<()> {
        let (Some(c), Some(data), Some(at)) = (
            self.columns.get_mut(i),
            self.buffers.get_mut(i),
            self.at.get(i),
        ) else {
            return Err(Error::invalid_argument("push_page: no such column"));
        };
        let held = level_count(data, c.max_def).saturating_sub(at.level);
        self.limits.check_values_per_read(held as u64)?;
        let before = data.rep_levels.len();
        if !append(data)? {
            c.done = true;
            return Ok(());
        }
        let new = data.rep_levels.get(before..).unwrap_or(&[]);
        c.starts += super::count_level(new, 0);
        Ok(())
    }

    /// Assembles the next records into `out` when the columns hold them ([`Want::Records`]),
    /// or says which column needs a page, or that the row group is finished.
    pub fn step(&mut self, out: &mut Vec<Value>) -> Result<Want> {
        let n = self.columns.len();
        let Some((least, target)) = (0..n).map(|i| (i, self.complete(i))).min_by_key(|p| p.1)
        else {
            return Ok(Want::Done);
        };
        let stuck = self.columns.get(least).is_none_or(|c| c.done);
        if target >= RECORDS_PER_STEP || (stuck && target > 0) {
            self.assemble(target.min(RECORDS_PER_STEP), out)?;
            return Ok(Want::Records);
        }
        if !stuck {
            return Ok(Want::Page(least));
        }
        // A column has no record left and no page to read: the others must end here too.
        if let Some(i) = self.columns.iter().position(|c| !c.done) {
            return Ok(Want::Page(i));
        }
        check_all_assembled(&self.schema, &self.buffers, &self.at)?;
        Ok(Want::Done)
    }

    fn assemble(&mut self, records: usize, out: &mut Vec<Value>) -> Result<()> {
        let before = out.len();
        assemble_records(&self.schema, &self.buffers, &mut self.at, records, out)?;
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

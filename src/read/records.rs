//! Records streamed page by page: [`FileReader::records`](super::FileReader::records).
//!
//! The reading half of streamed records: for each row group, a reader per selected column
//! feeds its pages to a [`RecordAssembler`] (in `levels/`, where the Dremel logic lives and no
//! byte is seen) whenever it asks ([`Want::Page`]), and hands out the records it assembles, a
//! thousand or so at a time ([`RECORDS_PER_STEP`]).
//!
//! Memory is therefore a few pages per column plus one step of records, whatever the size of
//! the row group (see [`mod@crate::levels::assembler`] for the exceptions and their limit).

use alloc::vec::Vec;

use super::chunk::ColumnChunkReader;
use super::FileReader;
use crate::error::{Error, Result};
use crate::levels::assembler::{RecordAssembler, Want};
use crate::record::Value;
use crate::schema::Schema;

pub use crate::levels::assembler::RECORDS_PER_STEP;

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
        if !open.step(&mut records)? {
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
                match RowGroupRecords::open(self.file, &self.schema, rg, &self.leaves) {
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

/// The open row group: a reader per selected column, and the assembler their pages go to.
struct RowGroupRecords<'f> {
    readers: Vec<ColumnChunkReader<'f>>,
    assembler: RecordAssembler,
}

impl<'f> RowGroupRecords<'f> {
    fn open(
        file: &'f FileReader<'_>,
        schema: &Schema,
        row_group: usize,
        leaves: &[usize],
    ) -> Result<Self> {
        let readers = leaves
            .iter()
            .map(|&leaf| file.column_chunk(row_group, leaf))
            .collect::<Result<Vec<_>>>()?;
        Ok(RowGroupRecords {
            readers,
            assembler: RecordAssembler::new(schema.clone(), file.limits()),
        })
    }

    /// Assembles the next records into `out`, reading the pages the assembler asks for.
    /// Returns false once the row group is finished.
    fn step(&mut self, out: &mut Vec<Value>) -> Result<bool> {
        loop {
            match self.assembler.step(out)? {
                Want::Records => return Ok(true),
                Want::Done => return Ok(false),
                Want::Page(i) => {
                    let reader = self
                        .readers
                        .get_mut(i)
                        .ok_or_else(|| Error::invalid_argument("column index out of range"))?;
                    self.assembler.push_page(i, |buf| reader.append_page(buf))?;
                }
            }
        }
    }
}

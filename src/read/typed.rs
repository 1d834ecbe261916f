//! Reading rows into Rust structs that implement [`Record`]: the struct is bound to the
//! file's schema by field name ([`crate::typed::Binder`]) before any row, then each row
//! group's bound columns (and only those) are read page by page as the rows need them
//! (a [`PageSource`] per row group): memory is a page or two per column and a batch of at
//! most [`MAX_BATCH`] rows (those the current pages hold whole, read a column at a time,
//! `typed::batch`), whatever the size of the row group.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::marker::PhantomData;

use super::chunk::ColumnChunkReader;
use super::FileReader;
use crate::error::{Error, Result};
use crate::typed::{
    read_field, read_member_many, Attrs, Binder, CursorState, DictStrings, PageSource, Plan,
    Record, Row, MAX_BATCH,
};
use crate::values::LeafData;

impl<'a> FileReader<'a> {
    /// Rows as `T`, matching the struct's fields to the file's columns by name: only the
    /// columns the struct names are read (a struct with fewer fields is a projection). A
    /// missing `Option` field reads `None`; a missing required field, a field whose type
    /// cannot hold the column's, or a required field over an optional column whose
    /// statistics count nulls, is an error here, naming the field, the column and both
    /// types. A null met later in a required field is an error at that row (naming it).
    ///
    /// Allowed conversions: narrower integer columns into wider fields (INT32 into `i64`,
    /// `UINT_32` into `i64`), FLOAT into `f64`, a DECIMAL of any physical type into an
    /// `i32`/`i64`/`i128` field with the same scale, and STRING/ENUM columns into enums by
    /// variant name. Lists and maps read in every shape LogicalTypes.md allows, legacy
    /// 2-level lists and bare repeated fields included.
    pub fn read_typed<T: Record>(&self) -> Result<TypedRecords<'_, 'a, T>> {
        let schema = self.schema();
        let mut b = Binder::new(schema);
        let plan = T::bind(&mut b, 0, &Attrs::NONE)?;
        for (cur, field, column) in &b.required_over_optional {
            let Some(&col) = b.columns.get(*cur) else {
                continue;
            };
            // A chunk's null_count counts every entry below the leaf's full definition
            // level: under a list or an optional group it counts empty lists and absent
            // groups too. Only where the leaf itself is the one optional node on its path
            // are those nulls the field's (elsewhere a null is an error at its row).
            if schema.columns().get(col).map(|c| c.max_def_level) != Some(1) {
                continue;
            }
            for (rg_index, rg) in self.metadata().row_groups.iter().enumerate() {
                let nulls = rg
                    .columns
                    .get(col)
                    .and_then(|c| c.meta_data.as_ref())
                    .and_then(|m| m.statistics.as_ref())
                    .and_then(|s| s.null_count)
                    .unwrap_or(0);
                if nulls > 0 {
                    return Err(Error::invalid_argument(format!(
                        "field {field} is not an Option, but column {column} holds \
                         {nulls} nulls (make the field an Option)"
                    ))
                    .in_row_group(rg_index));
                }
            }
        }
        let cols = schema.columns();
        let max_defs = b
            .columns
            .iter()
            .map(|&c| cols.get(c).map_or(0, |d| d.max_def_level))
            .collect();
        let paths = b
            .columns
            .iter()
            .map(|&c| cols.get(c).map_or_else(String::new, |d| d.path_string()))
            .collect();
        Ok(TypedRecords {
            file: self,
            plan,
            columns: b.columns,
            text: b.text,
            max_defs,
            paths,
            next_rg: 0,
            rg_left: 0,
            row: 0,
            ready: Vec::new().into_iter(),
            one_by_one: 0,
            cursors: CursorState::default(),
            chunks: Chunks(Vec::new()),
            done: false,
            _rows: PhantomData,
        })
    }
}

/// The rows of a file as `T` ([`FileReader::read_typed`]). The bound columns of one row
/// group are read page by page, as the rows need them. After an error the iterator ends.
pub struct TypedRecords<'f, 'a, T> {
    file: &'f FileReader<'a>,
    plan: Plan,
    columns: Vec<usize>,
    /// The cursors of `String` fields ([`Binder::text`]).
    text: Vec<usize>,
    max_defs: Vec<u16>,
    paths: Vec<String>,
    next_rg: usize,
    rg_left: u64,
    /// Rows of the file read so far.
    row: u64,
    /// Rows read as a batch, not yet given out.
    ready: alloc::vec::IntoIter<T>,
    /// Rows to read one by one before the next batch (those of a batch that failed).
    one_by_one: usize,
    cursors: CursorState,
    chunks: Chunks<'f>,
    done: bool,
    _rows: PhantomData<fn() -> T>,
}

impl<T> TypedRecords<'_, '_, T> {
    /// The leaf columns read (indices into the file schema's columns), in binding order.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }
}

impl<T: Record> Iterator for TypedRecords<'_, '_, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if let Some(row) = self.ready.next() {
            return Some(Ok(row));
        }
        if self.done {
            return None;
        }
        while self.rg_left == 0 {
            let rg = self.next_rg;
            let Some(meta) = self.file.metadata().row_groups.get(rg) else {
                self.done = true;
                return None;
            };
            self.rg_left = meta.num_rows.max(0) as u64;
            self.next_rg += 1;
            if self.rg_left == 0 {
                continue;
            }
            let readers = self
                .columns
                .iter()
                .map(|&c| self.file.column_chunk(rg, c))
                .collect::<Result<Vec<_>>>();
            match readers {
                Ok(readers) => {
                    let empty = readers.iter().map(|r| r.new_leaf_data()).collect();
                    self.cursors =
                        CursorState::new(empty, &self.max_defs, &self.paths).with_text(&self.text);
                    self.chunks = Chunks(readers);
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        if self.one_by_one == 0 {
            if let Some(row) = self.batch() {
                return Some(Ok(row));
            }
        }
        self.one_by_one = self.one_by_one.saturating_sub(1);
        self.rg_left -= 1;
        let mut cursors = self.cursors.cursors(Some(&mut self.chunks), Row(self.row));
        self.row += 1;
        let row = read_field::<T>(Some(&self.plan), &mut cursors);
        if row.is_err() {
            self.done = true;
        }
        Some(row.map_err(|e| e.in_row_group(self.next_rg - 1)))
    }
}

impl<T: Record> TypedRecords<'_, '_, T> {
    /// Reads the rows every bound column's current page holds whole (up to
    /// [`MAX_BATCH`]) a column at a time (`typed::batch`), and gives the first. `None` where
    /// there are not two such rows, or the batch failed: then the cursors are put back and
    /// those rows are read one by one (which reports the error at its row).
    fn batch(&mut self) -> Option<T> {
        let most = usize::try_from(self.rg_left)
            .unwrap_or(usize::MAX)
            .min(MAX_BATCH);
        let n = self.cursors.whole_rows(most);
        if n < 2 {
            return None;
        }
        let at = self.cursors.snapshot();
        let slots = alloc::vec![true; n];
        let mut rows = Vec::with_capacity(n);
        // No page source: a batch never refills, so putting the positions back undoes it.
        let mut cursors = self.cursors.cursors(None, Row(self.row));
        let read = read_member_many::<T>(&self.plan, &mut cursors, &slots, &mut rows);
        if read.is_err() || rows.len() != n {
            self.cursors.restore(&at);
            self.one_by_one = n;
            return None;
        }
        self.rg_left -= n as u64;
        self.row += n as u64;
        self.ready = rows.into_iter();
        self.ready.next()
    }
}

/// The bound column chunks of one row group, cursor by cursor.
struct Chunks<'f>(Vec<ColumnChunkReader<'f>>);

impl PageSource for Chunks<'_> {
    fn next_page(
        &mut self,
        i: usize,
        out: &mut LeafData,
        strs: Option<&mut DictStrings>,
    ) -> Result<bool> {
        let Some(r) = self.0.get_mut(i) else {
            return Err(Error::invalid_argument("plan cursor out of range"));
        };
        let Some(strs) = strs else {
            return r.append_page(out);
        };
        if !r.append_page_indices(out)? {
            return Ok(false);
        }
        let Some(n) = r.deferred_indices().map(<[u32]>::len) else {
            return Ok(true);
        };
        if strs.text_ready(|| r.dictionary()) {
            if strs.take_page(|into| r.swap_deferred_indices(into)) {
                return Ok(true);
            }
            // Not reached: the page's indices were there.
            return Err(Error::out_of_spec(
                "dictionary indices without a dictionary",
            ));
        }
        // A dictionary that is not UTF-8: the values, for the reads to find which is not.
        r.gather_deferred(0..n, n, &mut out.values)?;
        Ok(true)
    }
}

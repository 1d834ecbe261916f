//! Reading rows into Rust structs that implement [`Record`]: the struct is bound to the
//! file's schema by field name ([`crate::typed::Binder`]) before any row, then each row
//! group's bound columns (and only those) are read page by page as the rows need them
//! (a [`PageSource`] per row group): memory is a page or two per column, whatever the size
//! of the row group.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::marker::PhantomData;

use super::chunk::ColumnChunkReader;
use super::FileReader;
use crate::error::{Error, Result};
use crate::typed::{read_field, Attrs, Binder, CursorState, PageSource, Plan, Record, Row};
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
            max_defs,
            paths,
            next_rg: 0,
            rg_left: 0,
            row: 0,
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
    max_defs: Vec<u16>,
    paths: Vec<String>,
    next_rg: usize,
    rg_left: u64,
    /// Rows of the file read so far.
    row: u64,
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
                    self.cursors = CursorState::new(empty, &self.max_defs, &self.paths);
                    self.chunks = Chunks(readers);
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
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

/// The bound column chunks of one row group, cursor by cursor.
struct Chunks<'f>(Vec<ColumnChunkReader<'f>>);

impl PageSource for Chunks<'_> {
    fn next_page(&mut self, i: usize, out: &mut LeafData) -> Result<bool> {
        match self.0.get_mut(i) {
            Some(r) => r.append_page(out),
            None => Err(Error::invalid_argument("plan cursor out of range")),
        }
    }
}

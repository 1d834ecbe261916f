//! Naming a leaf column: by its index in [`Schema::columns`] or by its dotted path, with the
//! error a person can act on when there is no such column.
//!
//! ```
//! use parket::schema::{ColumnSelector, Schema};
//! # let schema = Schema::parse("message m { required int64 a; optional group g { optional binary b; } }").unwrap();
//! assert_eq!("g.b".column_index(&schema).unwrap(), 1);
//! assert_eq!(0usize.column_index(&schema).unwrap(), 0);
//! assert!("g".column_index(&schema).is_err());
//! ```

use alloc::string::String;

use super::Schema;
use crate::error::{Error, Result};

/// Names a leaf column: its index in [`Schema::columns`] or its dotted path (`"a.b.c"`). The
/// readers and the writer take one wherever a column is named (`parket::read::ColumnSelector`
/// and `parket::write::ColumnSelector` are this trait).
pub trait ColumnSelector {
    /// The column's index in `schema`, or an error naming what was asked for.
    fn column_index(&self, schema: &Schema) -> Result<usize>;
}

impl ColumnSelector for usize {
    fn column_index(&self, schema: &Schema) -> Result<usize> {
        if *self < schema.columns().len() {
            Ok(*self)
        } else {
            Err(Error::invalid_argument_fmt(format_args!(
                "column {} does not exist: the schema has {} leaf columns",
                self,
                schema.columns().len()
            )))
        }
    }
}

impl ColumnSelector for &str {
    fn column_index(&self, schema: &Schema) -> Result<usize> {
        schema.column_index(self).ok_or_else(|| {
            Error::invalid_argument_fmt(format_args!("no leaf column with the path {self:?}"))
        })
    }
}

impl ColumnSelector for String {
    fn column_index(&self, schema: &Schema) -> Result<usize> {
        self.as_str().column_index(schema)
    }
}

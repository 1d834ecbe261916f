//! Naming a leaf column: by its index in [`Schema::columns`] or by its dotted path, with the
//! error a person can act on when there is no such column.
//!
//! ```
//! use parket::schema::{ColumnSelector, Schema};
//! # let schema = Schema::parse("message m { required int64 a; optional group g { optional binary b; } }").unwrap();
//! assert_eq!("g.b".column_index(&schema).unwrap(), 1);
//! assert_eq!(0usize.column_index(&schema).unwrap(), 0);
//! let e = "g".column_index(&schema).unwrap_err().to_string();
//! assert!(e.contains("\"g\" is a group, not a leaf column; its leaf columns are g.b"), "{e}");
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

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

/// Leaf paths listed in an error at most.
const SHOWN: usize = 8;

/// `a, b, c` of at most [`SHOWN`] paths, then `and N more`.
fn list(paths: &[String]) -> String {
    let mut s = paths
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > SHOWN {
        s.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    s
}

impl ColumnSelector for &str {
    fn column_index(&self, schema: &Schema) -> Result<usize> {
        if let Some(i) = schema.column_index(self) {
            return Ok(i);
        }
        let all: Vec<String> = schema.columns().iter().map(|c| c.path_string()).collect();
        // A group's path: its leaves are what can be written.
        let prefix = format!("{self}.");
        let under: Vec<String> = all
            .iter()
            .filter(|p| p.starts_with(&prefix))
            .cloned()
            .collect();
        let msg = if !under.is_empty() {
            format!(
                "{self:?} is a group, not a leaf column; its leaf columns are {}",
                list(&under)
            )
        } else if all.is_empty() {
            format!("no leaf column with the path {self:?}: the schema has no columns")
        } else {
            format!(
                "no leaf column with the path {self:?}; the leaf columns are {}",
                list(&all)
            )
        };
        Err(Error::invalid_argument(msg))
    }
}

impl ColumnSelector for String {
    fn column_index(&self, schema: &Schema) -> Result<usize> {
        self.as_str().column_index(schema)
    }
}

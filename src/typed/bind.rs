//! Binding a Rust type to a file's schema by field name ([`Binder`]): which leaf columns to
//! read, in cursor order, and the [`Plan`] that tells the generated code which column feeds
//! which field, so that a missing required field or an incompatible type is an error before
//! any row.

use super::*;
/// Binds a Rust type to a file schema: the columns to read and the [`Plan`].
#[doc(hidden)]
#[derive(Debug)]
pub struct Binder<'s> {
    /// The file's schema.
    pub schema: &'s Schema,
    /// Leaf columns to read, in cursor order.
    pub columns: Vec<usize>,
    /// Rust field path (for errors).
    fields: Vec<String>,
    /// ColumnCursors of leaf-level nullable plans under required fields: (cursor, field, column).
    pub required_over_optional: Vec<(usize, String, String)>,
    /// The cursors of `String` fields, whose values are read as text only.
    pub text: Vec<usize>,
}

impl<'s> Binder<'s> {
    /// A binder over `schema`.
    pub fn new(schema: &'s Schema) -> Self {
        Binder {
            schema,
            columns: Vec::new(),
            fields: Vec::new(),
            required_over_optional: Vec::new(),
            text: Vec::new(),
        }
    }

    fn node(&self, i: usize) -> Result<&'s crate::schema::Node> {
        self.schema
            .node(i)
            .ok_or_else(|| Error::invalid_argument("schema node out of range"))
    }

    /// The Rust field path being bound.
    pub fn field_path(&self) -> String {
        if self.fields.is_empty() {
            return String::from("(record)");
        }
        self.fields.join(".")
    }

    /// The error for a Rust type that cannot read node `i`.
    pub fn incompatible(&self, i: usize, rust: &str) -> Error {
        Error::invalid_argument(format!(
            "field {} ({rust}) cannot read column {} ({})",
            self.field_path(),
            self.schema.node_path_string(i),
            self.schema.node_text(i).unwrap_or_default()
        ))
    }

    /// Checks that node `i` is a plain group a struct can read.
    pub fn check_group(&self, i: usize, attrs: &Attrs, rust: &str) -> Result<()> {
        let n = self.node(i)?;
        if !n.is_group() || *attrs != Attrs::NONE {
            return Err(self.incompatible(i, rust));
        }
        Ok(())
    }

    /// Binds the field `name` of the struct at group node `group`.
    pub fn bind_member<T: Field>(
        &mut self,
        group: usize,
        name: &str,
        rust_name: &str,
        attrs: &Attrs,
    ) -> Result<Plan> {
        self.fields.push(rust_name.to_string());
        let child = self
            .node(group)?
            .children()
            .iter()
            .copied()
            .find(|&c| self.schema.node(c).is_some_and(|n| n.name == name));
        let out = match child {
            Some(c) => self.bind_field::<T>(c, attrs),
            None if T::NULLABLE => Ok(Plan::Absent),
            None => {
                let parent = if group == 0 {
                    String::from("the file's schema")
                } else {
                    format!("group {}", self.schema.node_path_string(group))
                };
                Err(Error::invalid_argument(format!(
                    "field {}: {parent} has no column {name:?} (make the field an Option to read None)",
                    self.field_path()
                )))
            }
        };
        self.fields.pop();
        out
    }

    /// Binds `T` to node `i`, wrapping it when the node is OPTIONAL.
    pub fn bind_field<T: Field>(&mut self, i: usize, attrs: &Attrs) -> Result<Plan> {
        let n = self.node(i)?;
        let start = self.columns.len();
        let inner = T::bind(self, i, attrs)?;
        if n.repetition != Rep::Optional {
            return Ok(inner);
        }
        let leaf_level = matches!(inner, Plan::Leaf { .. });
        let column = self.schema.node_path_string(i);
        if !T::NULLABLE && leaf_level {
            self.required_over_optional
                .push((start, self.field_path(), column.clone()));
        }
        Ok(Plan::Nullable {
            curs: start..self.columns.len(),
            def: n.max_def_level,
            rep: n.max_rep_level,
            inner: Box::new(inner),
            what: Box::new((self.field_path(), column)),
        })
    }

    /// Adds leaf node `i`'s column to those read; its cursor index.
    pub(crate) fn leaf_cursor(&mut self, i: usize) -> Result<(usize, &'s crate::schema::Node)> {
        let n = self.node(i)?;
        match n.kind {
            NodeKind::Primitive { column, .. } => {
                self.columns.push(column);
                Ok((self.columns.len() - 1, n))
            }
            NodeKind::Group { .. } => Err(self.incompatible(i, "a leaf type")),
        }
    }

    /// Binds a list (`V = None`) or map to node `i`.
    pub(super) fn bind_repeated<K: Field, V: Field>(
        &mut self,
        i: usize,
        attrs: &Attrs,
        map: bool,
        rust: &str,
    ) -> Result<Plan> {
        let n = self.node(i)?;
        let start = self.columns.len();
        let (rep_node, elem) = match shape_of(self.schema, i) {
            Shape::List {
                repeated,
                three_level,
            } if !map => {
                let r = self.node(repeated)?;
                let elem = if three_level {
                    r.children().first().copied().unwrap_or(repeated)
                } else {
                    repeated
                };
                (repeated, elem)
            }
            Shape::Map { repeated } if map => (repeated, repeated),
            Shape::KeyValue if map => (i, i),
            // A repeated field outside any LIST/MAP group is a list of itself.
            _ if n.repetition == Rep::Repeated && !map => (i, i),
            _ => return Err(self.incompatible(i, rust)),
        };
        let r = self.node(rep_node)?;
        let (first, second) = if map {
            let kv = r.children();
            let (Some(&k), Some(&v)) = (kv.first(), kv.get(1)) else {
                return Err(self.incompatible(i, rust));
            };
            self.fields.push(String::from("key"));
            let key = self.bind_field::<K>(k, &Attrs::NONE);
            self.fields.pop();
            let key = key?;
            self.fields.push(String::from("value"));
            let value = self.bind_field::<V>(v, attrs);
            self.fields.pop();
            (key, Some(Box::new(value?)))
        } else if elem == rep_node {
            // The element is the repeated node itself (2-level, or a bare repeated field).
            (K::bind(self, elem, attrs)?, None)
        } else {
            (self.bind_field::<K>(elem, attrs)?, None)
        };
        Ok(Plan::Repeated {
            curs: start..self.columns.len(),
            def: r.max_def_level,
            rep: r.max_rep_level,
            first: Box::new(first),
            second,
        })
    }
}

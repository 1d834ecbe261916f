//! Shredding a batch of rows a column at a time ([`Field::write_many`]): each leaf column is
//! filled by one pass over the batch that follows the path from the row down to that leaf,
//! instead of one pass over the rows that visits every column per row. The entries a pass
//! sees are `(value or None, levels)` pairs: a struct maps them to one field, an `Option`
//! to its value (one definition level deeper when present), a list or map flattens them to
//! its entries ([`Entries`]); the leaf pushes the levels and the values present in a tight
//! loop into its column's buffers, the buffers and the column's physical type looked up once
//! per pass instead of once per value.
//!
//! Each column receives the same levels and values in the same order as the row-at-a-time
//! [`Field::write`] gives it (the test `column_at_a_time_matches_row_at_a_time` checks
//! this), so the files are byte-identical. For the rows `{a: Some(7), b: [1, 2]}`,
//! `{a: None, b: []}` of the module's worked example, the pass of column `b.list.element`
//! sees `(Some(1), def 1 rep 0)`, `(Some(2), def 1 rep 1)`, `(None, def 0 rep 0)`.

use super::{Field, Lv, Shredder};
use crate::error::Result;
use crate::values::Values;

impl Shredder {
    /// Appends the rows of a batch, a column at a time.
    pub fn write_rows<T: Field>(&mut self, rows: &[T]) -> Result<()> {
        let root = Lv {
            def: 0,
            rep: 0,
            depth: 0,
        };
        T::write_many(rows.iter().map(move |r| (Some(r), root)), self, 0)
    }

    /// One leaf column's pass: the levels of every entry of `items` and, through `push`,
    /// the values present. `pick` finds the column's value buffer of the leaf's physical
    /// type (`None`: the column is of another type, an error); `push` appends one value
    /// (false: it does not fit the column, an error).
    #[inline]
    pub(crate) fn leaf_many<'a, X, O, I>(
        &mut self,
        col: usize,
        items: I,
        pick: fn(&mut Values) -> Option<&mut O>,
        mut push: impl FnMut(&mut O, &'a X) -> bool,
    ) -> Result<()>
    where
        X: 'a + ?Sized,
        O: ?Sized,
        I: Iterator<Item = (Option<&'a X>, Lv)>,
    {
        let (leaf, d, r) = self.column(col)?;
        let Some(out) = pick(&mut leaf.values) else {
            return Err(self.mismatch(col));
        };
        let (def, rep) = (&mut leaf.def_levels, &mut leaf.rep_levels);
        let mut ok = true;
        // One loop per shape of levels, so that the loop pushes only what the column has.
        match (d, r) {
            (false, false) => items.for_each(|(v, _)| {
                if let Some(v) = v {
                    ok &= push(out, v);
                }
            }),
            (true, false) => items.for_each(|(v, lv)| {
                def.push(lv.def);
                if let Some(v) = v {
                    ok &= push(out, v);
                }
            }),
            (true, true) => items.for_each(|(v, lv)| {
                def.push(lv.def);
                rep.push(lv.rep);
                if let Some(v) = v {
                    ok &= push(out, v);
                }
            }),
            (false, true) => items.for_each(|(v, lv)| {
                rep.push(lv.rep);
                if let Some(v) = v {
                    ok &= push(out, v);
                }
            }),
        }
        if ok {
            Ok(())
        } else {
            Err(self.mismatch(col))
        }
    }
}

/// The entries of one list or map as a column pass sees them: its items, the first at the
/// list's own repetition level and the others at the list's depth, all one definition
/// level deeper than the list; or, for a null or empty list, one entry without a value at
/// the list's levels.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Entries<J> {
    items: Option<J>,
    lv: Lv,
    next_rep: u16,
    null: bool,
}

impl<J> Entries<J> {
    /// The entries of a list at `lv`: `items` (`None`: the list is null) of which there
    /// are none when `empty`.
    #[inline]
    pub fn new(items: Option<J>, empty: bool, lv: Lv) -> Entries<J> {
        if empty || items.is_none() {
            return Entries {
                items: None,
                lv,
                next_rep: 0,
                null: true,
            };
        }
        Entries {
            items,
            lv: Lv {
                def: lv.def + 1,
                rep: lv.rep,
                depth: lv.depth + 1,
            },
            next_rep: lv.depth + 1,
            null: false,
        }
    }
}

impl<'a, X: 'a + ?Sized, J: Iterator<Item = &'a X>> Iterator for Entries<J> {
    type Item = (Option<&'a X>, Lv);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.null {
            self.null = false;
            return Some((None, self.lv));
        }
        let x = self.items.as_mut()?.next()?;
        let lv = self.lv;
        self.lv.rep = self.next_rep;
        Some((Some(x), lv))
    }

    #[inline]
    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        if self.null {
            return f(init, (None, self.lv));
        }
        let Some(items) = self.items else {
            return init;
        };
        let (mut lv, next_rep) = (self.lv, self.next_rep);
        items.fold(init, |acc, x| {
            let out = f(acc, (Some(x), lv));
            lv.rep = next_rep;
            out
        })
    }
}

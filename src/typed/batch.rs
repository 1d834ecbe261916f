//! Reading many rows at a time, a column at a time ([`Field::read_many`]): the Dremel
//! assembly of `levels::assembler` over the cursors of `ColumnCursors`, without a `Value`
//! tree, for rows whose entries the cursors' current pages hold whole.
//!
//! A batch is a run of *slots*, one per value a type is asked for: present (`true`), or
//! absent (`false`: an ancestor is null or an empty list, which is one entry in each of
//! the type's columns, stepped over). A struct is built first, one per present slot, from
//! placeholders ([`Field::placeholder`]), then each of its fields is read into them in
//! place for all the slots (one column after the other, [`Field::read_many_at`]: a leaf's
//! column loop writes straight into the field), and the structs go to their `Vec` or
//! their lists whole ([`Rows::put_all`]); an `Option` or a list looks at
//! its first column's levels to turn its slots into its value's slots (present where the
//! node is there, one per list element). A leaf walks its column's levels and values in
//! one loop, with no lookup per value.
//!
//! A batch never refills a page (the cursors have no page source), so that any error (a
//! null in a required field, a value that does not fit, text that is not UTF-8, rows that
//! are not whole) leaves nothing but positions to undo: the caller (`read_typed`) puts the
//! cursors back ([`CursorState::snapshot`]) and reads the same rows one by one, which
//! gives the error at its row, after the rows before it.

use alloc::vec::Vec;
use core::ops::Range;

use super::leaves::Conv;
use super::{ColumnCursors, CursorState, Field, Plan, Text};
use crate::error::{Error, Result};
use crate::values::Values;
pub(crate) use slices::*;

/// Most rows read as one batch (bounds the memory of the columns' intermediate values).
pub(crate) const MAX_BATCH: usize = 1024;

/// Most level entries of a repeated column a batch takes: the rows whose entries start in
/// the first 8,192 (at least two rows, else they are read one by one), so that the structs
/// of a batch's lists, built in place and filled a column at a time, stay in the core's
/// cache (nested-v1-dict-none: 1,024 rows are about 30,000 list elements, 1.4 MB of them;
/// CPU time per read 110.5 -> 102.9 ms at 256 rows, the same at 128).
const MAX_ENTRIES: usize = 8192;

/// The error that ends a batch: the rows are read again one by one, which says what it is.
#[cold]
pub(crate) fn miss() -> Error {
    Error::invalid_argument("the batch holds what the row-by-row read reports")
}

/// The cursors of a plan (the columns its value reads).
pub(crate) fn plan_curs(plan: &Plan) -> Range<usize> {
    match plan {
        Plan::Leaf { cur, .. } => *cur..*cur + 1,
        Plan::Nullable { curs, .. } | Plan::Repeated { curs, .. } => curs.clone(),
        Plan::Group(fields) => {
            let mut all = fields.iter().map(plan_curs).filter(|r| !r.is_empty());
            match all.next() {
                Some(first) => all.fold(first, |a, r| a.start.min(r.start)..a.end.max(r.end)),
                None => 0..0,
            }
        }
        Plan::Absent => 0..0,
    }
}

/// [`Field::read_many`] one slot at a time (the trait's default, and the fallback of the
/// leaves' column loops): [`Field::read`] per present slot, one entry stepped over in each
/// of the plan's columns per absent one.
pub(crate) fn one_by_one<T: Field>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<T>,
) -> Result<()> {
    let mut curs = None;
    for &present in slots {
        if present {
            out.push(T::read(plan, c)?);
        } else {
            c.skip(curs.get_or_insert_with(|| plan_curs(plan)).clone());
        }
    }
    Ok(())
}

/// [`Field::read_many`] of a field (as [`super::read_member`]): a field that is not an
/// `Option` over an OPTIONAL node ends the batch where the node is null.
#[doc(hidden)]
#[inline]
pub fn read_member_many<T: Field>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<T>,
) -> Result<()> {
    T::read_many(member_plan::<T>(plan, c, slots)?, c, slots, out)
}

/// The plan a field's [`Field::read_many`] reads (see [`read_member_many`]): the value of
/// an OPTIONAL node under a field that is not an `Option`, once no slot's node is null.
#[inline]
fn member_plan<'p, T: Field>(
    plan: &'p Plan,
    c: &ColumnCursors<'_>,
    slots: &[bool],
) -> Result<&'p Plan> {
    if T::NULLABLE {
        return Ok(plan);
    }
    match plan {
        Plan::Nullable {
            curs,
            def,
            rep,
            inner,
            ..
        } => {
            // A leaf that is the optional node finds its nulls itself.
            let leaf = matches!(**inner, Plan::Leaf { .. }) && c.leaf_at(curs.start, *def);
            if !leaf {
                let all = match c.all_reach(curs.start, *rep, *def, slots)? {
                    Some(all) => all,
                    None => {
                        let mut all = true;
                        c.scan(curs.start, *rep, slots.len(), |k, d| {
                            all &= !slots.get(k).copied().unwrap_or(false) || d >= *def;
                        })?;
                        all
                    }
                };
                if !all {
                    return Err(miss());
                }
            }
            Ok(inner)
        }
        Plan::Absent => Err(miss()),
        p => Ok(p),
    }
}

/// Where [`Field::read_many_into`] puts the values it reads, in slot order: a `Vec`, or
/// the lists of a `Vec<T>` field ([`Lists`]), so that a struct is built where it is kept.
#[doc(hidden)]
pub trait Rows<T> {
    /// Takes the values of all the present slots (an error where they are too few or too
    /// many).
    fn put(&mut self, values: impl ExactSizeIterator<Item = T>) -> Result<()>;
    /// [`Rows::put`] of values already in a `Vec` (a struct's, built in place), which a
    /// `Vec` takes as it is and lists take by the block (no value moved one by one).
    #[inline]
    fn put_all(&mut self, values: Vec<T>) -> Result<()> {
        self.put(values.into_iter())
    }
}

impl<T> Rows<T> for Vec<T> {
    #[inline]
    fn put(&mut self, values: impl ExactSizeIterator<Item = T>) -> Result<()> {
        let (before, n) = (self.len(), values.len());
        self.extend(values);
        if self.len() - before != n {
            return Err(miss());
        }
        Ok(())
    }
    #[inline]
    fn put_all(&mut self, mut values: Vec<T>) -> Result<()> {
        if self.is_empty() {
            *self = values;
        } else {
            self.append(&mut values);
        }
        Ok(())
    }
}

/// The lists of `Vec<T>`'s [`Field::read_many`]: `lens[k]` elements for each present slot
/// `k` of `slots`, one list each into `out`.
pub(crate) struct Lists<'o, T> {
    slots: &'o [bool],
    lens: &'o [usize],
    out: &'o mut Vec<Vec<T>>,
}

impl<T> Rows<T> for Lists<'_, T> {
    #[inline]
    fn put(&mut self, mut values: impl ExactSizeIterator<Item = T>) -> Result<()> {
        self.out.reserve(self.slots.len());
        for (&s, &n) in self.slots.iter().zip(self.lens) {
            if s {
                let list: Vec<T> = values.by_ref().take(n).collect();
                if list.len() != n {
                    return Err(miss());
                }
                self.out.push(list);
            }
        }
        if values.len() != 0 {
            return Err(miss());
        }
        Ok(())
    }
    /// Each list split off the end of `values` (an allocation of its length and one copy
    /// of its elements' bytes), the last list first; the first keeps `values`' buffer,
    /// shrunk to fit.
    fn put_all(&mut self, mut values: Vec<T>) -> Result<()> {
        let (slots, lens) = (self.slots, self.lens);
        let present = slots.iter().zip(lens).filter(|(s, _)| **s).map(|(_, &n)| n);
        if present.clone().sum::<usize>() != values.len() {
            return Err(miss());
        }
        let start = self.out.len();
        let mut at = start + present.clone().count();
        self.out.resize_with(at, Vec::new);
        for n in present.rev() {
            at -= 1;
            let list = if at == start {
                values.shrink_to_fit();
                core::mem::take(&mut values)
            } else {
                values.split_off(values.len() - n)
            };
            if let Some(slot) = self.out.get_mut(at) {
                *slot = list;
            }
        }
        Ok(())
    }
}

/// Where a leaf's column loop ([`ColumnCursors::leaf_many`]) puts its values: pushed onto
/// a `Vec`, or written into the field of each row in turn ([`At`]).
pub(crate) trait Put<T> {
    fn reserve(&mut self, n: usize);
    /// An error where there is no row left to write to.
    fn put(&mut self, v: T) -> Result<()>;
    /// Puts the first `m` of `values` (an error where one is `None` or there are fewer).
    fn put_n(&mut self, m: usize, values: impl ExactSizeIterator<Item = Option<T>>) -> Result<()>;
}

impl<T> Put<T> for Vec<T> {
    #[inline(always)]
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n);
    }
    #[inline(always)]
    fn put(&mut self, v: T) -> Result<()> {
        self.push(v);
        Ok(())
    }
    #[inline(always)]
    fn put_n(&mut self, m: usize, values: impl ExactSizeIterator<Item = Option<T>>) -> Result<()> {
        if values.len() < m {
            return Err(miss());
        }
        self.reserve(m);
        for v in values.take(m) {
            self.push(v.ok_or_else(miss)?);
        }
        Ok(())
    }
}

/// A field of rows built in place (`at(row)` is where the value goes), filled in order.
pub(crate) struct At<'r, R, F> {
    rows: core::slice::IterMut<'r, R>,
    at: F,
}

impl<'r, R, F> At<'r, R, F> {
    #[inline(always)]
    pub(crate) fn new(rows: &'r mut [R], at: F) -> Self {
        At {
            rows: rows.iter_mut(),
            at,
        }
    }
    /// An error unless every row got its value.
    #[inline(always)]
    fn done(&self) -> Result<()> {
        if self.rows.len() != 0 {
            return Err(miss());
        }
        Ok(())
    }
}

impl<T, R, F: FnMut(&mut R) -> &mut T> Put<T> for At<'_, R, F> {
    #[inline(always)]
    fn reserve(&mut self, _: usize) {}
    #[inline(always)]
    fn put(&mut self, v: T) -> Result<()> {
        let row = self.rows.next().ok_or_else(miss)?;
        *(self.at)(row) = v;
        Ok(())
    }
    /// The next `m` rows and the values zipped as slices (no check per value of either's
    /// end).
    #[inline(always)]
    fn put_n(&mut self, m: usize, values: impl ExactSizeIterator<Item = Option<T>>) -> Result<()> {
        let rows = core::mem::take(&mut self.rows).into_slice();
        if rows.len() < m || values.len() < m {
            return Err(miss());
        }
        let (head, tail) = rows.split_at_mut(m);
        self.rows = tail.iter_mut();
        for (row, v) in head.iter_mut().zip(values) {
            *(self.at)(row) = v.ok_or_else(miss)?;
        }
        Ok(())
    }
}

/// Values read into a `Vec` put into the rows' fields (what reads in place where no
/// column loop applies).
#[inline]
pub(crate) fn assign<R, T>(
    rows: &mut [R],
    mut at: impl FnMut(&mut R) -> &mut T,
    values: Vec<T>,
) -> Result<()> {
    if values.len() != rows.len() {
        return Err(miss());
    }
    for (r, v) in rows.iter_mut().zip(values) {
        *at(r) = v;
    }
    Ok(())
}

/// [`Field::read_many_at`] of a field (as [`read_member_many`]): the field of each row of
/// `rows`, one per present slot, read in place.
#[doc(hidden)]
#[inline]
pub fn read_member_at<T: Field, R>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    rows: &mut [R],
    at: impl FnMut(&mut R) -> &mut T,
) -> Result<()> {
    T::read_many_at(member_plan::<T>(plan, c, slots)?, c, slots, rows, at)
}

/// `Option<T>`'s [`Field::read_many`].
pub(crate) fn read_options<T: Field>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<Option<T>>,
) -> Result<()> {
    let mut values = Vec::new();
    match plan {
        Plan::Absent => {
            out.extend(slots.iter().filter(|&&s| s).map(|_| None));
            return Ok(());
        }
        Plan::Nullable {
            curs,
            def,
            rep,
            inner,
            ..
        } => {
            let mut there = Vec::with_capacity(slots.len());
            if matches!(**inner, Plan::Leaf { .. }) && c.leaf_at(curs.start, *def) {
                // The leaf is the optional node: one entry per slot.
                let cur = c.cur(curs.start).map_err(|_| miss())?;
                let defs = cur.leaf.def_levels.get(cur.lvl..cur.lvl + slots.len());
                let defs = defs.ok_or_else(miss)?;
                there.extend(slots.iter().zip(defs).map(|(&s, &d)| s && d >= *def));
            } else {
                c.scan(curs.start, *rep, slots.len(), |k, d| {
                    there.push(slots.get(k).copied().unwrap_or(false) && d >= *def);
                })?;
            }
            T::read_many(inner, c, &there, &mut values)?;
            let mut values = values.into_iter();
            for (&s, &t) in slots.iter().zip(&there) {
                if s {
                    out.push(if t {
                        Some(values.next().ok_or_else(miss)?)
                    } else {
                        None
                    });
                }
            }
        }
        p => {
            T::read_many(p, c, slots, &mut values)?;
            out.extend(values.into_iter().map(Some));
        }
    }
    Ok(())
}

/// The entries of a list (or map) for each slot: how many (0 for an absent slot, a null
/// or an empty list) and the element slots (present per entry; absent for the one entry
/// an absent, null or empty list leaves).
pub(crate) fn read_lists(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
) -> Result<(Vec<usize>, Vec<bool>)> {
    let Plan::Repeated { curs, def, rep, .. } = plan else {
        return Err(miss());
    };
    let (def, rep) = (*def, *rep);
    let cur = c.cur(curs.start).map_err(|_| miss())?;
    let lvl = cur.lvl;
    let (defs, reps) = (&cur.leaf.def_levels, &cur.leaf.rep_levels);
    let mut lens = Vec::with_capacity(slots.len());
    // At most one element per entry the page holds from here.
    let mut elems = Vec::with_capacity(defs.len().saturating_sub(lvl).max(slots.len()));
    let mut at = lvl;
    for &s in slots {
        let d = *defs.get(at).ok_or_else(miss)?;
        at += 1;
        // A list's entries run on while the repetition level is at least its own.
        let rest = reps.get(at..).unwrap_or(&[]);
        let len = rest.iter().position(|&r| r < rep).unwrap_or(rest.len());
        at += len;
        if !s || d < def {
            lens.push(0);
            elems.push(false);
            continue;
        }
        // An entry at the list's own level starts an element (deeper ones go on in it);
        // counted without a branch per entry.
        let more = rest.get(..len).unwrap_or(&[]);
        let n = 1 + more.iter().map(|&r| usize::from(r == rep)).sum::<usize>();
        elems.resize(elems.len() + n, true);
        lens.push(n);
    }
    if at > defs.len() {
        return Err(miss());
    }
    Ok((lens, elems))
}

/// `Vec<T>`'s [`Field::read_many`]: the elements of all the slots' lists at once (a
/// struct's built in its list, [`Field::read_many_into`]), then the lists.
pub(crate) fn read_vecs<T: Field>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<Vec<T>>,
) -> Result<()> {
    let Plan::Repeated { first, .. } = plan else {
        return Err(miss());
    };
    let (lens, elems) = read_lists(plan, c, slots)?;
    let mut lists = Lists {
        slots,
        lens: &lens,
        out,
    };
    T::read_many_into(member_plan::<T>(first, c, &elems)?, c, &elems, &mut lists)
}

/// A map's [`Field::read_many`]: the keys of all the slots' maps, their values, then the
/// maps (`new` and `insert` of the map type).
pub(crate) fn read_maps<K: Field, V: Field, M>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<M>,
    new: fn() -> M,
    insert: fn(&mut M, K, V),
) -> Result<()> {
    let Plan::Repeated {
        first,
        second: Some(second),
        ..
    } = plan
    else {
        return Err(miss());
    };
    let (lens, elems) = read_lists(plan, c, slots)?;
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    read_member_many::<K>(first, c, &elems, &mut keys)?;
    read_member_many::<V>(second, c, &elems, &mut values)?;
    let mut entries = keys.into_iter().zip(values);
    for (&s, &n) in slots.iter().zip(&lens) {
        if s {
            let mut m = new();
            for _ in 0..n {
                let (k, v) = entries.next().ok_or_else(miss)?;
                insert(&mut m, k, v);
            }
            out.push(m);
        }
    }
    Ok(())
}

impl CursorState {
    /// Where every cursor is, for [`CursorState::restore`].
    pub fn snapshot(&self) -> Vec<(usize, usize)> {
        self.curs.iter().map(|c| (c.lvl, c.val)).collect()
    }

    /// Puts the cursors back where [`CursorState::snapshot`] saw them (pages unchanged: a
    /// batch refills none).
    pub fn restore(&mut self, at: &[(usize, usize)]) {
        for (c, &(lvl, val)) in self.curs.iter_mut().zip(at) {
            c.lvl = lvl;
            c.val = val;
        }
    }

    /// How many whole rows, up to `most`, every cursor's current page holds from where it
    /// is (a row a page ends with may go on in the next page, so it is not counted).
    pub fn whole_rows(&self, most: usize) -> usize {
        let mut n = most;
        for c in &self.curs {
            let left = if !c.leaf.rep_levels.is_empty() {
                // Rows start at repetition level 0: n whole rows need n + 1 starts. Counted
                // a block at a time (a loop the compiler vectorizes), up to what is needed.
                let rest = c.leaf.rep_levels.get(c.lvl..).unwrap_or(&[]);
                let rest = rest.get(..MAX_ENTRIES).unwrap_or(rest);
                let mut starts = 0;
                for block in rest.chunks(1024) {
                    // Summed as u16 (a block has at most 1,024), which the compiler
                    // vectorizes eight levels to a lane; a usize count widens each first.
                    let zeros: u16 = block.iter().map(|&r| u16::from(r == 0)).sum();
                    starts += usize::from(zeros);
                    if starts > n {
                        break;
                    }
                }
                starts.saturating_sub(1)
            } else if c.max_def > 0 {
                c.leaf.def_levels.len().saturating_sub(c.lvl)
            } else {
                c.nvals.saturating_sub(c.val)
            };
            n = n.min(left);
        }
        n
    }
}

impl ColumnCursors<'_> {
    /// Calls `f(k, def)` with the definition level of the first entry of each of `n` slots
    /// of cursor `i` from where it is, a slot running on while the repetition level is
    /// above `depth` (the node's repeated ancestors). Moves nothing.
    #[inline]
    pub(crate) fn scan(
        &self,
        i: usize,
        depth: u16,
        n: usize,
        mut f: impl FnMut(usize, u16),
    ) -> Result<()> {
        let c = self.cur(i).map_err(|_| miss())?;
        let (defs, reps) = (&c.leaf.def_levels, &c.leaf.rep_levels);
        if c.max_def == 0 {
            // A column with no levels is under no optional node or list.
            return Err(miss());
        }
        let mut at = c.lvl;
        for k in 0..n {
            f(k, *defs.get(at).ok_or_else(miss)?);
            at += 1;
            while reps.get(at).is_some_and(|&r| r > depth) {
                at += 1;
            }
        }
        Ok(())
    }

    /// Whether the entry of every present slot of `slots` in cursor `i` reaches definition
    /// level `def`, where the next entries are one per slot (none repeated deeper than
    /// `depth`, the node's repeated ancestors); `None` where they are not (then
    /// [`ColumnCursors::scan`] walks them). Moves nothing; no early exit (the compiler
    /// vectorizes both passes).
    #[inline]
    pub(crate) fn all_reach(
        &self,
        i: usize,
        depth: u16,
        def: u16,
        slots: &[bool],
    ) -> Result<Option<bool>> {
        let c = self.cur(i).map_err(|_| miss())?;
        if c.max_def == 0 {
            return Err(miss());
        }
        let n = slots.len();
        let defs = c.leaf.def_levels.get(c.lvl..c.lvl + n).ok_or_else(miss)?;
        let reps = &c.leaf.rep_levels;
        if !reps.is_empty() {
            // The entry after the n also starts a slot (or the page ends there).
            let end = (c.lvl + n + 1).min(reps.len());
            let reps = reps.get(c.lvl..end).ok_or_else(miss)?;
            if reps.iter().fold(0, |m, &r| m.max(r)) > depth {
                return Ok(None);
            }
        }
        let all = slots
            .iter()
            .zip(defs)
            .fold(true, |a, (&s, &d)| a & (!s | (d >= def)));
        Ok(Some(all))
    }

    /// A leaf's column loop: for each slot, steps over an absent one's entry, or takes a
    /// present one's value as `conv` makes it (`None`: it does not fit, which ends the
    /// batch), or its null as `S` says (a required field's null ends the batch; an
    /// `Option`'s is `None`). False where `pick` finds no values of its type (the caller
    /// reads one by one, which says why).
    #[inline]
    pub(crate) fn leaf_many<S: Slot<T>, P: Copy, T>(
        &mut self,
        i: usize,
        slots: &[bool],
        out: &mut impl Put<S::Out>,
        pick: impl Fn(&Values) -> Option<&[P]>,
        conv: impl Fn(P) -> Option<T>,
    ) -> Result<bool> {
        let c = self.curs.get_mut(i).ok_or_else(miss)?;
        let Some(values) = pick(&c.leaf.values) else {
            return Ok(false);
        };
        let values = values.get(c.val..).unwrap_or(&[]);
        leaf_loop_at::<S, _>(
            c.max_def,
            &c.leaf.def_levels,
            (&mut c.lvl, &mut c.val),
            slots,
            out,
            values.iter().map(|&x| conv(x)),
        )
    }

    /// [`ColumnCursors::leaf_many`] of a `String` field (as `S` says of nulls): the page's
    /// bytes are checked as UTF-8 once (as for [`ColumnCursors::take_str`]); false where
    /// they are not (or the column holds no BYTE_ARRAY).
    pub(crate) fn strings_many<S: Slot<alloc::string::String>>(
        &mut self,
        i: usize,
        slots: &[bool],
        out: &mut impl Put<S::Out>,
    ) -> Result<bool> {
        let c = self.curs.get_mut(i).ok_or_else(miss)?;
        if let Some(super::DictStrings {
            idx,
            on: true,
            dict: Some(Some(text)),
            entries,
            ..
        }) = &c.strs
        {
            // Straight from the dictionary entries.
            let idx = idx.get(c.val..).unwrap_or(&[]);
            let at = (&mut c.lvl, &mut c.val);
            if entries.is_empty() {
                return leaf_loop_at::<S, _>(
                    c.max_def,
                    &c.leaf.def_levels,
                    at,
                    slots,
                    out,
                    idx.iter().map(|&j| {
                        super::DictStrings::entry(text, j).map(alloc::string::String::from)
                    }),
                );
            }
            // Split into entries: one look-up each.
            return leaf_loop_at::<S, _>(
                c.max_def,
                &c.leaf.def_levels,
                at,
                slots,
                out,
                idx.iter().map(|&j| {
                    entries
                        .get(j as usize)
                        .map(|e| alloc::string::String::from(&**e))
                }),
            );
        }
        let Values::ByteArray(b) = &mut c.leaf.values else {
            return Ok(false);
        };
        super::check_text(&mut c.text, b);
        let Text::Valid(t) = &c.text else {
            return Ok(false);
        };
        let offsets = b.offsets();
        let bounds = offsets.get(c.val..).unwrap_or(&[]);
        leaf_loop_at::<S, _>(
            c.max_def,
            &c.leaf.def_levels,
            (&mut c.lvl, &mut c.val),
            slots,
            out,
            bounds.windows(2).map(|w| match *w {
                [start, end] => t.get(start..end).map(alloc::string::String::from),
                _ => None,
            }),
        )
    }
}

/// What a leaf's column loop ([`ColumnCursors::leaf_many`]) makes of a value and of a null:
/// [`Required`] (the value; a null ends the batch) or [`Nullable`] (`Some`; `None`).
pub(crate) trait Slot<T> {
    const NULLABLE: bool;
    type Out;
    fn value(v: T) -> Self::Out;
    /// A null's value; `None`: the batch ends.
    fn null() -> Option<Self::Out>;
    /// What reads the slots where the column loop does not apply: [`one_by_one`] or
    /// [`read_options`].
    fn fallback(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Self::Out>,
    ) -> Result<()>;
}

/// A leaf's `read_many` (`S`: [`Required`]) or `read_many_opt` (`S`: [`Nullable`]):
/// `fast(cur, conv, c, out)` (a column loop; false where it does not apply) over the
/// leaf [`leaf_of`] finds, else [`Slot::fallback`].
#[inline]
pub(crate) fn leaf_read<S: Slot<T>, T>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    out: &mut Vec<S::Out>,
    fast: impl FnOnce(usize, Conv, &mut ColumnCursors<'_>, &mut Vec<S::Out>) -> Result<bool>,
) -> Result<()> {
    if let Some((cur, conv)) = leaf_of::<S, T>(plan, c) {
        if fast(cur, conv, c, out)? {
            return Ok(());
        }
    }
    S::fallback(plan, c, slots, out)
}

/// [`leaf_read`] into the field `at(row)` of each of `rows` (one per present slot): the
/// column loop `fast` writes there; the fallback reads into a `Vec` first.
#[inline]
pub(crate) fn leaf_read_at<S: Slot<T>, T, R, F: FnMut(&mut R) -> &mut S::Out>(
    plan: &Plan,
    c: &mut ColumnCursors<'_>,
    slots: &[bool],
    rows: &mut [R],
    at: F,
    fast: impl FnOnce(usize, Conv, &mut ColumnCursors<'_>, &mut At<'_, R, F>) -> Result<bool>,
) -> Result<()> {
    let mut put = At::new(rows, at);
    if let Some((cur, conv)) = leaf_of::<S, T>(plan, c) {
        if fast(cur, conv, c, &mut put)? {
            return put.done();
        }
    }
    let mut values = Vec::with_capacity(put.rows.len());
    S::fallback(plan, c, slots, &mut values)?;
    assign(put.rows.into_slice(), put.at, values)
}

/// A field that is not an `Option` ([`Slot`]).
pub(crate) struct Required;
/// An `Option` over a leaf that is its optional node ([`Slot`]).
pub(crate) struct Nullable;

impl<T: Field> Slot<T> for Required {
    const NULLABLE: bool = false;
    type Out = T;
    #[inline(always)]
    fn value(v: T) -> T {
        v
    }
    #[inline(always)]
    fn null() -> Option<T> {
        None
    }
    fn fallback(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<T>,
    ) -> Result<()> {
        one_by_one(plan, c, slots, out)
    }
}

impl<T: Field> Slot<T> for Nullable {
    const NULLABLE: bool = true;
    type Out = Option<T>;
    #[inline(always)]
    fn value(v: T) -> Option<T> {
        Some(v)
    }
    #[inline(always)]
    fn null() -> Option<Option<T>> {
        Some(None)
    }
    fn fallback(
        plan: &Plan,
        c: &mut ColumnCursors<'_>,
        slots: &[bool],
        out: &mut Vec<Option<T>>,
    ) -> Result<()> {
        read_options(plan, c, slots, out)
    }
}

/// The cursor (and conversion) of the leaf a [`ColumnCursors::leaf_many`] of `S` reads:
/// a leaf plan for [`Required`]; for [`Nullable`], an optional node that is the leaf
/// itself. `None` otherwise.
#[inline]
pub(crate) fn leaf_of<S: Slot<T>, T>(plan: &Plan, c: &ColumnCursors<'_>) -> Option<(usize, Conv)> {
    match plan {
        Plan::Leaf { cur, conv } if !S::NULLABLE => Some((*cur, *conv)),
        Plan::Nullable { def, inner, .. } if S::NULLABLE => match **inner {
            Plan::Leaf { cur, conv } if c.leaf_at(cur, *def) => Some((cur, conv)),
            _ => None,
        },
        _ => None,
    }
}

/// The loop of [`ColumnCursors::leaf_many`] over a column whose definition levels from
/// where it is are `defs` (none where `full`, its max definition level, is 0) and whose
/// values left are `values`, as the field's type (`None`: one that does not fit). Gives how
/// many levels and values it went over.
#[inline(always)]
fn leaf_loop<S: Slot<T>, T>(
    full: u16,
    defs: &[u16],
    slots: &[bool],
    out: &mut impl Put<S::Out>,
    values: impl ExactSizeIterator<Item = Option<T>>,
) -> Result<(usize, usize)> {
    let n = slots.len();
    let nvals = values.len();
    let mut values = values.map(|v| v.map(S::value));
    out.reserve(n);
    if full == 0 {
        // No levels: no nulls, and every slot is present.
        if n > nvals || !slots.iter().all(|&s| s) {
            return Err(miss());
        }
        out.put_n(n, values)?;
        return Ok((0, n));
    }
    let defs = defs.get(..n).ok_or_else(miss)?;
    // Where every present slot's entry holds a value and no absent one's does (an absent
    // slot's ancestor is null or an empty list, so its leaf has no value), the values are
    // the next ones, one per present slot in order. Checked and counted without an early
    // exit (a loop the compiler vectorizes).
    let (mut bad, mut m) = (0u8, 0usize);
    for (s, d) in slots.chunks(1024).zip(defs.chunks(1024)) {
        // Narrow lanes (u8, u16 sums of at most 1,024), which the compiler vectorizes.
        bad |= s
            .iter()
            .zip(d)
            .fold(0u8, |b, (&s, &d)| b | u8::from(s != (d == full)));
        m += usize::from(s.iter().map(|&s| u16::from(s)).sum::<u16>());
    }
    if bad == 0 {
        if m > nvals {
            return Err(miss());
        }
        out.put_n(m, values)?;
        return Ok((n, m));
    }
    if !S::NULLABLE {
        // A null in a field that is not an Option (or levels that disagree).
        return Err(miss());
    }
    let mut val = 0;
    for (&d, &s) in defs.iter().zip(slots) {
        if s {
            if d == full {
                out.put(values.next().flatten().ok_or_else(miss)?)?;
                val += 1;
            } else {
                out.put(S::null().ok_or_else(miss)?)?;
            }
        }
    }
    Ok((n, val))
}

/// [`leaf_loop`] from a cursor's level `lvl` (its definition levels `defs`), over its values
/// from `val` on (`values`), stepping both past what it read.
#[inline(always)]
fn leaf_loop_at<S: Slot<T>, T>(
    full: u16,
    defs: &[u16],
    (lvl, val): (&mut usize, &mut usize),
    slots: &[bool],
    out: &mut impl Put<S::Out>,
    values: impl ExactSizeIterator<Item = Option<T>>,
) -> Result<bool> {
    let (l, v) = leaf_loop::<S, _>(full, defs.get(*lvl..).unwrap_or(&[]), slots, out, values)?;
    *lvl += l;
    *val += v;
    Ok(true)
}

/// The values of one physical type, shared (what [`ColumnCursors::leaf_many`] picks).
mod slices {
    use crate::values::Values;

    macro_rules! slices {
        ($($f:ident $variant:ident $t:ty;)*) => {$(
            pub(crate) fn $f(v: &Values) -> Option<&[$t]> {
                match v {
                    Values::$variant(o) => Some(o),
                    _ => None,
                }
            }
        )*};
    }
    slices! {
        bools_of Boolean bool;
        int32s_of Int32 i32;
        int64s_of Int64 i64;
        floats_of Float f32;
        doubles_of Double f64;
    }
}

//! Reading's cursors: one [`ColumnCursor`] per bound column (the levels and values of its
//! current page and where reading is), and [`ColumnCursors`], the set a row or a batch of
//! rows reads from, which loads the next page through a [`PageSource`] and names the row
//! and the column in an error. The generated `Field::read` code and `batch` call it.

use super::*;
/// Where bound columns get their next page: the file reader's column chunks
/// (`read_typed`), so that a row group is read a page per column at a time.
#[doc(hidden)]
pub trait PageSource {
    /// Appends the next page of cursor `i`'s column (levels and values) to `out`; false at
    /// the end of its chunk. With `strs` (a cursor of a `String` field), a
    /// dictionary-encoded page may leave its values as indices into `strs`
    /// ([`DictStrings::take_page`]) instead.
    fn next_page(
        &mut self,
        i: usize,
        out: &mut LeafData,
        strs: Option<&mut DictStrings>,
    ) -> Result<bool>;
}

/// The values of a `String` field's cursor left as dictionary indices: each `String` is
/// made straight from its dictionary entry, with no copy of the page's bytes in between.
/// The chunk's dictionary is checked as UTF-8 once, as a whole (an entry is then UTF-8
/// where its bounds fall on character boundaries, which each read checks).
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct DictStrings {
    /// The current page's values as indices into `dict` (when `on`).
    pub(super) idx: Vec<u32>,
    pub(super) on: bool,
    /// The chunk's dictionary entries, all their bytes and where each starts (`None`: not
    /// read yet; `Some(None)`: not UTF-8, so pages are decoded as values).
    pub(super) dict: Option<Option<(String, Vec<usize>)>>,
    /// The dictionary's entries one by one (empty: not split), once the chunk's pages
    /// have taken [`SPLIT_AFTER`] times as many indices as it has entries: a `String` is
    /// then copied from its entry with no look-up of its bounds and no check that they
    /// fall on character boundaries. (A dictionary of entries read a few times each is
    /// not split: that would copy it all once more.)
    pub(super) entries: Vec<alloc::boxed::Box<str>>,
    /// Indices taken from the chunk's pages so far, until the entries are split.
    taken: usize,
}

/// See [`DictStrings::entries`].
const SPLIT_AFTER: usize = 4;

impl DictStrings {
    /// Whether the chunk's dictionary (`dict` gives it, asked once per chunk) is UTF-8
    /// text, so that a page's indices can be taken ([`DictStrings::take_page`]); false
    /// where it is not (the caller then decodes the page's values).
    pub(crate) fn text_ready<'d>(
        &mut self,
        dict: impl FnOnce() -> Option<alloc::borrow::Cow<'d, Values>>,
    ) -> bool {
        let text = self.dict.get_or_insert_with(|| match dict() {
            Some(d) => match d.into_owned() {
                Values::ByteArray(b) => {
                    let (offsets, data) = b.into_parts();
                    String::from_utf8(data).ok().map(|t| (t, offsets))
                }
                _ => None,
            },
            None => None,
        });
        text.is_some()
    }

    /// Takes a page's dictionary indices, `swap` moving them into the buffer it is given
    /// (false where the page left none), once [`DictStrings::text_ready`].
    pub(crate) fn take_page(&mut self, swap: impl FnOnce(&mut Vec<u32>) -> bool) -> bool {
        self.on = matches!(self.dict, Some(Some(_))) && swap(&mut self.idx);
        if self.on && self.taken != usize::MAX {
            self.taken = self.taken.saturating_add(self.idx.len());
            if let Some(Some((text, offsets))) = &self.dict {
                if self.taken >= offsets.len().saturating_sub(1).saturating_mul(SPLIT_AFTER) {
                    // Once per chunk (an entry that splits a character leaves them unsplit).
                    self.taken = usize::MAX;
                    self.entries = offsets
                        .windows(2)
                        .map(|w| match *w {
                            [start, end] => text.get(start..end).map(alloc::boxed::Box::from),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()
                        .unwrap_or_default();
                }
            }
        }
        self.on
    }

    /// Dictionary entry `j` as text (`None`: past the end, or its bounds split a character).
    #[inline(always)]
    pub(super) fn entry(text: &(String, Vec<usize>), j: u32) -> Option<&str> {
        let j = j as usize;
        let (&start, &end) = (text.1.get(j)?, text.1.get(j + 1)?);
        text.0.get(start..end)
    }
}

/// One bound column: the levels and values of its current page(s), and where reading is.
#[doc(hidden)]
#[derive(Debug)]
pub struct ColumnCursor {
    pub(super) leaf: LeafData,
    pub(super) max_def: u16,
    pub(super) lvl: usize,
    pub(super) val: usize,
    /// Values in `leaf` (its `values.len()`, kept here for the per-value check).
    pub(super) nvals: usize,
    /// The data bytes of a BYTE_ARRAY page read into `String`s, checked as UTF-8 once for
    /// the whole page ([`ColumnCursors::take_str`]) and moved back on refill.
    pub(super) text: Text,
    /// A `String` field's cursor: its pages' values may be dictionary indices instead.
    /// Only `String` reads (`take_str`, `strings_many`) read such a cursor (a cursor feeds
    /// one field).
    pub(super) strs: Option<DictStrings>,
}

/// Whether a cursor's page bytes were checked as UTF-8 ([`ColumnCursors::take_str`]).
#[derive(Debug, Default)]
pub(super) enum Text {
    /// Not yet: the bytes are in the page's values.
    #[default]
    Unchecked,
    /// All UTF-8: the bytes, moved out of the page's values.
    Valid(String),
    /// Some value is not UTF-8: values are checked one by one.
    Invalid,
}

impl ColumnCursor {
    /// Gives the page's bytes taken by [`ColumnCursors::take_str`] back to its values.
    #[cold]
    fn restore_text(&mut self) {
        if let (Text::Valid(t), Values::ByteArray(b)) =
            (core::mem::take(&mut self.text), &mut self.leaf.values)
        {
            *b.parts_mut().1 = t.into_bytes();
        }
    }
}

/// Checks a page's bytes as UTF-8 once, as a whole (see [`ColumnCursors::take_str`]):
/// moves them into `text` where they are.
#[inline]
pub(super) fn check_text(text: &mut Text, b: &mut crate::values::ByteArrays) {
    if matches!(text, Text::Unchecked) {
        let data = core::mem::take(b.parts_mut().1);
        *text = match String::from_utf8(data) {
            Ok(t) => Text::Valid(t),
            Err(e) => {
                *b.parts_mut().1 = e.into_bytes();
                Text::Invalid
            }
        };
    }
}

#[cold]
fn few_values(paths: &[String], i: usize) -> Error {
    Error::out_of_spec("a column has fewer values than its levels say").in_column(path_of(paths, i))
}

/// Column path `i` of `paths` ("?" past their end).
fn path_of(paths: &[String], i: usize) -> &str {
    paths.get(i).map_or("?", |s| s.as_str())
}

#[cold]
fn no_cursor() -> Error {
    Error::invalid_argument("plan cursor out of range")
}

/// The bound columns of one row group: each column's current page(s) and where reading
/// is. Rows are read through [`CursorState::cursors`].
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct CursorState {
    pub(super) curs: Vec<ColumnCursor>,
    pub(super) paths: Vec<String>,
}

/// The row being read (0-based, in the file), for the error of a null in a required field.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Row(pub u64);

impl CursorState {
    /// Cursors over `leaves` (whole columns, or empty ones a [`PageSource`] fills), whose
    /// max definition levels are `max_defs`.
    pub fn new(leaves: Vec<LeafData>, max_defs: &[u16], paths: &[String]) -> CursorState {
        CursorState {
            curs: leaves
                .into_iter()
                .zip(max_defs)
                .map(|(leaf, &max_def)| ColumnCursor {
                    nvals: leaf.values.len(),
                    leaf,
                    max_def,
                    lvl: 0,
                    val: 0,
                    text: Text::Unchecked,
                    strs: None,
                })
                .collect(),
            paths: paths.to_vec(),
        }
    }

    /// Marks `curs` (those of `String` fields, [`Binder::text`]) as cursors whose pages a
    /// [`PageSource`] may give as dictionary indices ([`DictStrings`]).
    pub fn with_text(mut self, curs: &[usize]) -> CursorState {
        for &i in curs {
            if let Some(c) = self.curs.get_mut(i) {
                c.strs = Some(DictStrings::default());
            }
        }
        self
    }

    /// The cursors, refilled from `source` page by page as rows need them (`None`: the
    /// columns are whole), reading from row `row` of the file on.
    pub fn cursors<'c>(
        &'c mut self,
        source: Option<&'c mut (dyn PageSource + 'c)>,
        row: Row,
    ) -> ColumnCursors<'c> {
        ColumnCursors {
            curs: &mut self.curs,
            paths: &self.paths,
            source,
            row,
        }
    }
}

/// The bound columns being read ([`CursorState::cursors`]).
#[doc(hidden)]
pub struct ColumnCursors<'c> {
    pub(super) curs: &'c mut [ColumnCursor],
    pub(super) paths: &'c [String],
    pub(super) source: Option<&'c mut (dyn PageSource + 'c)>,
    /// The row being read.
    pub(super) row: Row,
}

impl core::fmt::Debug for ColumnCursors<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ColumnCursors")
            .field("curs", &self.curs)
            .field("paths", &self.paths)
            .field("row", &self.row)
            .finish_non_exhaustive()
    }
}

impl ColumnCursors<'_> {
    fn path(&self, i: usize) -> &str {
        path_of(self.paths, i)
    }

    #[cold]
    fn short(&self, i: usize) -> Error {
        Error::out_of_spec("a column has fewer level entries than its row group's rows need")
            .in_column(self.path(i))
    }

    /// Replaces cursor `i`'s consumed page(s) by the next page of its column, keeping the
    /// entries [`ColumnCursors::skip`] stepped over past their end; false at the end of the
    /// chunk (or with no source).
    #[cold]
    #[inline(never)]
    fn refill(&mut self, i: usize) -> Result<bool> {
        let Some(source) = self.source.as_mut() else {
            return Ok(false);
        };
        let Some(c) = self.curs.get_mut(i) else {
            return Err(no_cursor());
        };
        loop {
            // Levels are stored only above level 0: without them the values are the entries.
            let (len, at) = if c.max_def > 0 {
                (c.leaf.def_levels.len(), c.lvl)
            } else {
                (c.nvals, c.val)
            };
            if at < len {
                return Ok(true);
            }
            if c.val != c.nvals {
                let path = self.paths.get(i).map_or("?", |s| s.as_str());
                return Err(
                    Error::out_of_spec("a page has more values than its levels say")
                        .in_column(path),
                );
            }
            let over = at - len;
            c.restore_text();
            c.leaf.def_levels.clear();
            c.leaf.rep_levels.clear();
            c.leaf.values.clear();
            c.val = 0;
            c.lvl = 0;
            c.nvals = 0;
            if let Some(s) = &mut c.strs {
                s.on = false;
            }
            if !source.next_page(i, &mut c.leaf, c.strs.as_mut())? {
                return Ok(false);
            }
            c.nvals = match &c.strs {
                Some(s) if s.on => s.idx.len(),
                _ => c.leaf.values.len(),
            };
            if c.max_def > 0 {
                c.lvl = over;
            } else {
                c.val = over;
                c.lvl = over;
            }
        }
    }

    /// The definition level of cursor `i`'s next entry.
    #[inline]
    pub(super) fn peek_def(&mut self, i: usize) -> Result<u16> {
        let c = self.cur(i)?;
        if c.max_def == 0 {
            return Ok(0);
        }
        if let Some(&d) = c.leaf.def_levels.get(c.lvl) {
            return Ok(d);
        }
        if !self.refill(i)? {
            return Err(self.short(i));
        }
        let c = self.cur(i)?;
        c.leaf
            .def_levels
            .get(c.lvl)
            .copied()
            .ok_or_else(|| self.short(i))
    }

    /// The repetition level of cursor `i`'s next entry; `None` at the end.
    #[inline]
    pub(super) fn peek_rep(&mut self, i: usize) -> Result<Option<u16>> {
        let c = self.cur(i)?;
        if let Some(&r) = c.leaf.rep_levels.get(c.lvl) {
            return Ok(Some(r));
        }
        if !self.refill(i)? {
            return Ok(None);
        }
        let c = self.cur(i)?;
        Ok(c.leaf.rep_levels.get(c.lvl).copied())
    }

    #[inline]
    pub(super) fn cur(&self, i: usize) -> Result<&ColumnCursor> {
        match self.curs.get(i) {
            Some(c) => Ok(c),
            None => Err(no_cursor()),
        }
    }

    /// How many entries of the list at repetition level `rep` that starts at cursor `i`'s
    /// next entry its current page holds (1 + the following entries at `rep`, up to the
    /// first entry of a shallower level).
    #[inline]
    pub(super) fn entries_hint(&self, i: usize, rep: u16) -> usize {
        let Some(c) = self.curs.get(i) else {
            return 0;
        };
        let next = c.leaf.rep_levels.get(c.lvl + 1..).unwrap_or(&[]);
        1 + next
            .iter()
            .take_while(|&&r| r >= rep)
            .filter(|&&r| r == rep)
            .count()
    }

    /// Skips one entry (a null or empty list) in each cursor of `curs`.
    #[inline]
    pub(super) fn skip(&mut self, curs: Range<usize>) {
        for c in self.curs.get_mut(curs).into_iter().flatten() {
            c.lvl += 1;
        }
    }

    /// Steps cursor `i` past its next entry, which must be a value (a null is an error);
    /// the index of that value in the cursor's page(s).
    #[inline(always)]
    fn advance(&mut self, i: usize) -> Result<usize> {
        if let Some(c) = self.curs.get_mut(i) {
            let k = c.val;
            let present = c.max_def == 0 || c.leaf.def_levels.get(c.lvl) == Some(&c.max_def);
            if present && k < c.nvals {
                c.val = k + 1;
                c.lvl += 1;
                return Ok(k);
            }
        }
        self.advance_slow(i)
    }

    /// [`ColumnCursors::advance`] at the end of a page, or with an error to report.
    #[cold]
    #[inline(never)]
    fn advance_slow(&mut self, i: usize) -> Result<usize> {
        let Some(c) = self.curs.get(i) else {
            return Err(no_cursor());
        };
        let ready = if c.max_def > 0 {
            c.lvl < c.leaf.def_levels.len()
        } else {
            c.val < c.nvals
        };
        if !ready && !self.refill(i)? {
            return Err(self.short(i));
        }
        let Some(c) = self.curs.get_mut(i) else {
            return Err(no_cursor());
        };
        if c.max_def > 0 && c.leaf.def_levels.get(c.lvl) != Some(&c.max_def) {
            return Err(self.null_in_required(i));
        }
        let k = c.val;
        if k >= c.nvals {
            return Err(few_values(self.paths, i));
        }
        c.val += 1;
        c.lvl += 1;
        Ok(k)
    }

    /// Takes cursor `i`'s next value.
    #[inline(always)]
    pub(crate) fn take(&mut self, i: usize) -> Result<Val<'_>> {
        let k = self.advance(i)?;
        let paths = self.paths;
        let Some(c) = self.curs.get_mut(i) else {
            return Err(no_cursor());
        };
        if matches!(c.text, Text::Valid(_)) {
            c.restore_text();
        }
        let v = match &c.leaf.values {
            Values::Boolean(v) => v.get(k).map(|&x| Val::Bool(x)),
            Values::Int32(v) => v.get(k).map(|&x| Val::I32(x)),
            Values::Int64(v) => v.get(k).map(|&x| Val::I64(x)),
            Values::Int96(v) => v.get(k).map(|&x| Val::Int96(x)),
            Values::Float(v) => v.get(k).map(|&x| Val::F32(x)),
            Values::Double(v) => v.get(k).map(|&x| Val::F64(x)),
            Values::ByteArray(v) => v.get(k).map(Val::Bytes),
            Values::FixedLenByteArray(v) => v.get(k).map(Val::Bytes),
        };
        match v {
            Some(v) => Ok(v),
            None => Err(few_values(paths, i)),
        }
    }

    /// Steps cursor `i` past its next entry, which must be a value, as
    /// [`ColumnCursors::advance`]: the cursor's values and that value's index in them. For
    /// the leaves of fixed-width types, which look at one variant of [`Values`] and so need
    /// neither a [`Val`] nor the text check of [`ColumnCursors::take`] (a cursor feeds one
    /// field, and only `String` fields take its bytes as text).
    #[inline(always)]
    pub(crate) fn advance_ref(&mut self, i: usize) -> Result<(&Values, usize)> {
        let k = self.advance(i)?;
        match self.curs.get(i) {
            Some(c) => Ok((&c.leaf.values, k)),
            None => Err(no_cursor()),
        }
    }

    /// Whether cursor `i`'s column is the node at definition level `def` (a leaf that is
    /// itself the optional node): then its entry is a value exactly where that node is
    /// present.
    #[inline(always)]
    pub(super) fn leaf_at(&self, i: usize, def: u16) -> bool {
        self.curs.get(i).is_some_and(|c| c.max_def == def)
    }

    /// The error of a read of field `what` over cursor `i` that failed with `e`: the
    /// field's own error where the cause is a null there (the entry is below `def`).
    #[cold]
    #[inline(never)]
    pub(super) fn null_or(
        &mut self,
        i: usize,
        def: u16,
        what: &(String, String),
        e: Error,
    ) -> Error {
        match self.peek_def(i) {
            Ok(d) if d < def => self.null_in_field(what),
            _ => e,
        }
    }

    /// Takes cursor `i`'s next value as text: `Ok(None)` when the column is not BYTE_ARRAY
    /// or the value is not UTF-8. The page's bytes are checked as UTF-8 once, as a whole
    /// (a value is then UTF-8 when its bounds fall on character boundaries), not value by
    /// value.
    #[inline]
    pub(crate) fn take_str(&mut self, i: usize) -> Result<Option<&str>> {
        let k = self.advance(i)?;
        let paths = self.paths;
        let Some(c) = self.curs.get_mut(i) else {
            return Err(no_cursor());
        };
        if let Some(DictStrings {
            idx,
            on: true,
            dict: Some(Some(text)),
            ..
        }) = &c.strs
        {
            return match idx.get(k) {
                Some(&j) => Ok(DictStrings::entry(text, j)),
                None => Err(few_values(paths, i)),
            };
        }
        let Values::ByteArray(b) = &mut c.leaf.values else {
            return Ok(None);
        };
        check_text(&mut c.text, b);
        let Text::Valid(t) = &c.text else {
            // Some value of the page is not UTF-8: check this one alone.
            return match b.get(k) {
                Some(v) => Ok(core::str::from_utf8(v).ok()),
                None => Err(few_values(paths, i)),
            };
        };
        let offsets = b.offsets();
        let (Some(&start), Some(&end)) = (offsets.get(k), offsets.get(k + 1)) else {
            return Err(few_values(paths, i));
        };
        Ok(t.get(start..end))
    }

    #[cold]
    fn null_in_required(&self, i: usize) -> Error {
        Error::invalid_argument(format!(
            "null value in a required field at row {} of the file",
            self.row.0
        ))
        .in_column(self.path(i))
    }

    /// The error of a null met in field `what.0` (column `what.1`), which is not an `Option`.
    #[cold]
    pub(super) fn null_in_field(&self, what: &(String, String)) -> Error {
        Error::invalid_argument(format!(
            "field {} is not an Option, but column {} holds a null at row {} of the file",
            what.0, what.1, self.row.0
        ))
    }

    /// Column path of cursor `i`.
    pub(crate) fn column_path(&self, i: usize) -> &str {
        self.path(i)
    }
}

//! Reading: the levels and values of a [`Scan`]'s batches, straight into Arrow arrays.
//!
//! Each Arrow array is built from one leaf's levels (Dremel, the spec's "Nested Encoding"):
//! its slots are the level positions at which its innermost repeated ancestor has an element
//! (`rep <= r` and `def >= d` of that ancestor; every position at the top level), a slot is
//! valid when `def` reaches the node's own definition level, and a list's elements are the
//! positions that follow at its repeated child's level. Values go in without a copy where the
//! layouts agree (required INT32/INT64/FLOAT/DOUBLE columns; BYTE_ARRAY data buffers).
//!
//! For `optional group a (LIST) { repeated group list { optional int32 element; } }` and the
//! rows `[1, null]`, `null`, `[]`:
//!
//! ```text
//! rep   0 1 0 0      list slots at rep 0: 3; valid where def >= 1: [x, -, x]
//! def   3 2 0 1      elements where def >= 2: offsets [0, 2, 2, 2]
//! value 1            element valid where def == 3: [1, null]
//! ```

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::collections::HashMap;

use arrow_array::types::{
    Date32Type, Decimal128Type, Decimal256Type, DurationMicrosecondType, DurationMillisecondType,
    DurationNanosecondType, DurationSecondType, Float16Type, Float32Type, Float64Type, Int16Type,
    Int32Type, Int64Type, Int8Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType,
    Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, BinaryArray, BinaryViewArray, BooleanArray,
    DictionaryArray, FixedSizeBinaryArray, LargeBinaryArray, LargeListArray, LargeStringArray,
    ListArray, MapArray, NullArray, PrimitiveArray, RecordBatch, RecordBatchOptions, StringArray,
    StringViewArray, StructArray,
};
use arrow_buffer::{i256, BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, SchemaRef, TimeUnit};

use super::schema::{plan_schema, Conv, Kind, Plan};
use super::unchecked;
use crate::error::{Error, Result};
use crate::levels::LeafData;
use crate::read::{FileReader, Scan, ScanBuilder};
use crate::schema::Schema;
use crate::values::{ByteArrays, Values};

/// Record batches of a file: an iterator of `Result<RecordBatch>`, one per batch of its
/// [`Scan`] (row groups, rows, predicate and batch size as the [`ScanBuilder`] chose).
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let bytes = parket::testing::corpus_file("alltypes_plain.parquet");
/// use arrow_array::{Array, Int32Array};
/// use parket::arrow::BatchReader;
/// use parket::read::FileReader;
///
/// let file = FileReader::from_bytes(&bytes)?;
/// let mut batches = BatchReader::from_scan(file.scan().columns(&["id"]).batch_size(5))?;
/// let first = batches.next().unwrap()?;
/// assert_eq!(first.num_rows(), 5);
/// let ids = first.column(0).as_any().downcast_ref::<Int32Array>().unwrap();
/// assert_eq!(ids.values(), &[4, 5, 6, 7, 2]);
/// assert_eq!(batches.next().unwrap()?.num_rows(), 3);
/// # Ok(()) }
/// ```
pub struct BatchReader<'f, 'a> {
    scan: Scan<'f, 'a>,
    schema: SchemaRef,
    plans: Vec<Plan>,
    paths: Vec<String>,
    failed: bool,
}

impl<'f, 'a> BatchReader<'f, 'a> {
    /// All columns of `file`, in batches of
    /// [`DEFAULT_BATCH_ROWS`](crate::read::scan::DEFAULT_BATCH_ROWS) rows.
    pub fn new(file: &'f FileReader<'a>) -> Result<Self> {
        Self::from_scan(file.scan())
    }

    /// The columns named by `columns` (dotted leaf or group paths, as
    /// [`ScanBuilder::columns`] takes them), in batches of `batch_size` rows.
    pub fn with_columns(
        file: &'f FileReader<'a>,
        columns: &[&str],
        batch_size: usize,
    ) -> Result<Self> {
        Self::from_scan(file.scan().columns(columns).batch_size(batch_size))
    }

    /// The batches of a scan: its projection, row groups, rows, predicate and batch size.
    pub fn from_scan(scan: ScanBuilder<'f, 'a>) -> Result<Self> {
        let hint = super::ipc::stored_schema(scan.file().metadata())?;
        let mut scan = scan.build()?;
        let (schema, plans) = plan_schema(scan.schema(), hint.as_ref())?;
        let paths: Vec<String> = scan
            .schema()
            .columns()
            .iter()
            .map(|c| c.path_string())
            .collect();
        // The string columns' values are checked as their pages are read (a dictionary's
        // entries once), so that their arrays need no check of Arrow's (see `unchecked`).
        let mut utf8 = alloc::vec![false; paths.len()];
        for p in &plans {
            text_columns(p, &mut utf8);
        }
        scan.check_utf8(utf8)?;
        Ok(BatchReader {
            scan,
            schema: Arc::new(schema),
            plans,
            paths,
            failed: false,
        })
    }

    /// The Arrow schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let Some(batch) = self.scan.next_batch()? else {
            return Ok(None);
        };
        let rows = usize::try_from(batch.num_rows())
            .map_err(|_| Error::out_of_range("rows in a batch", -1))?;
        let mut leaves = Leaves::new(batch.columns, self.scan.schema(), self.scan.checked_utf8());
        let mut columns = Vec::with_capacity(self.plans.len());
        for p in &self.plans {
            let a =
                build(p, &mut leaves, &self.paths).map_err(|e| e.in_row_group(batch.row_group))?;
            columns.push(a);
        }
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(self.schema.clone(), columns, &options)
            .map(Some)
            .map_err(|e| arrow_error(e, ""))
    }
}

impl Iterator for BatchReader<'_, '_> {
    type Item = Result<RecordBatch>;

    /// The next batch; after an error the reader ends.
    fn next(&mut self) -> Option<Result<RecordBatch>> {
        if self.failed {
            return None;
        }
        let r = self.next_batch().transpose();
        self.failed = matches!(r, Some(Err(_)));
        r
    }
}

/// The Arrow schema `file` reads as (all columns): see [`super`]'s mapping table.
pub fn arrow_schema(file: &FileReader<'_>) -> Result<SchemaRef> {
    let hint = super::ipc::stored_schema(file.metadata())?;
    plan_schema(file.schema(), hint.as_ref()).map(|(s, _)| Arc::new(s))
}

pub(crate) fn arrow_error(e: ArrowError, path: &str) -> Error {
    let e = Error::invalid_argument(alloc::format!("Arrow: {e}"));
    if path.is_empty() {
        e
    } else {
        e.in_column(path)
    }
}

/// Whether BYTE_ARRAY values read as Arrow `dt` become a string array ([`bytes_array`]).
fn is_text(dt: &DataType) -> bool {
    matches!(
        dt,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    ) || matches!(dt, DataType::Dictionary(_, v) if **v == DataType::Utf8)
}

/// Marks in `out` (a flag per leaf column) the leaf columns under `p` whose values become
/// string arrays.
fn text_columns(p: &Plan, out: &mut [bool]) {
    match &p.kind {
        Kind::Leaf { column, conv } => {
            if !matches!(conv, Conv::BytesDecimal) && is_text(p.field.data_type()) {
                if let Some(u) = out.get_mut(*column) {
                    *u = true;
                }
            }
        }
        Kind::Struct(children) => children.iter().for_each(|c| text_columns(c, out)),
        Kind::List { child, .. } => text_columns(child, out),
    }
}

/// The levels of each leaf of a batch, and its values until a leaf array takes them.
struct Leaves<'u> {
    def: Vec<Vec<u16>>,
    rep: Vec<Vec<u16>>,
    values: Vec<Option<Values>>,
    max_def: Vec<u16>,
    max_rep: Vec<u16>,
    /// Whether the scan checked the leaf's values as UTF-8 (`Scan::checked_utf8`).
    utf8: &'u [bool],
}

impl<'u> Leaves<'u> {
    fn new(columns: Vec<LeafData>, schema: &Schema, utf8: &'u [bool]) -> Self {
        let n = columns.len();
        let mut l = Leaves {
            def: Vec::with_capacity(n),
            rep: Vec::with_capacity(n),
            values: Vec::with_capacity(n),
            max_def: Vec::with_capacity(n),
            max_rep: Vec::with_capacity(n),
            utf8,
        };
        for (c, d) in columns.into_iter().zip(schema.columns()) {
            l.def.push(c.def_levels);
            l.rep.push(c.rep_levels);
            l.values.push(Some(c.values));
            l.max_def.push(d.max_def_level);
            l.max_rep.push(d.max_rep_level);
        }
        l
    }

    /// Level positions of leaf `c`.
    fn positions(&self, c: usize) -> usize {
        if self.max_def[c] > 0 {
            self.def[c].len()
        } else if self.max_rep[c] > 0 {
            self.rep[c].len()
        } else {
            self.values[c].as_ref().map_or(0, Values::len)
        }
    }
}

/// The slots of an array and which of them are valid, as Arrow's validity bitmap.
struct Slots {
    len: usize,
    /// `None` when every slot is valid.
    valid: Option<BooleanBuffer>,
}

impl Slots {
    fn nulls(&self) -> Option<NullBuffer> {
        self.valid.clone().map(NullBuffer::new)
    }

    fn valid_count(&self) -> usize {
        self.valid
            .as_ref()
            .map_or(self.len, BooleanBuffer::count_set_bits)
    }
}

/// Packs bits into 64-bit words, least significant bit first (Arrow's order): one at a time
/// or a word's worth of them at once.
#[derive(Default)]
struct BitPacker {
    words: Vec<u64>,
    word: u64,
    len: usize,
}

impl BitPacker {
    fn with_capacity(bits: usize) -> Self {
        BitPacker {
            words: Vec::with_capacity(bits.div_ceil(64)),
            word: 0,
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, v: bool) {
        self.word |= u64::from(v) << (self.len & 63);
        self.len += 1;
        if self.len & 63 == 0 {
            self.words.push(self.word);
            self.word = 0;
        }
    }

    /// Appends the 64 bits of `bits`, least significant first.
    #[inline]
    fn push_word(&mut self, bits: u64) {
        let fill = self.len & 63;
        self.words.push(self.word | (bits << fill));
        // The bits that did not fit start the next word (none when the word was empty).
        self.word = if fill == 0 { 0 } else { bits >> (64 - fill) };
        self.len += 64;
    }

    /// Appends the bits of `bits` at the positions set in `keep`, in order.
    #[inline]
    fn push_selected(&mut self, bits: u64, mut keep: u64) {
        if keep == u64::MAX {
            return self.push_word(bits);
        }
        while keep != 0 {
            self.push(bits >> keep.trailing_zeros() & 1 != 0);
            keep &= keep - 1;
        }
    }

    fn finish(mut self) -> Slots {
        if self.len & 63 != 0 {
            self.words.push(self.word);
        }
        slots_of_words(self.words, self.len)
    }
}

/// 64 bytes, each 0 or 1, as the bits of a word (byte `i` in bit `i`).
#[inline]
fn pack_bytes(bytes: &[u8; 64]) -> u64 {
    let mut w = 0u64;
    for (k, ch) in bytes.chunks_exact(8).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(ch);
        let bits = u64::from_le_bytes(b).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        w |= bits << (8 * k);
    }
    w
}

/// The slots of a node whose innermost repeated ancestor is at (`ctx_rep`, `ctx_def`) over
/// the levels `rep`/`def` of a nested leaf (the positions with `rep <= ctx_rep` and
/// `def >= ctx_def`), each valid when its `def >= valid_def`. Works 64 positions at a time:
/// two masks per chunk, and the validity bits of a chunk that is all slots go in as a word.
fn nested_slots(rep: &[u16], def: &[u16], ctx_rep: u16, ctx_def: u16, valid_def: u16) -> Slots {
    let n = rep.len().min(def.len());
    let (rep, def) = (&rep[..n], &def[..n]);
    let mut bits = BitPacker::with_capacity(n);
    // A byte (0 or 1) per position first, a loop the compiler vectorizes; then 8 bytes to
    // 8 bits with one multiplication (byte i lands in bit 56 + i).
    let masks = |r: &[u16], d: &[u16]| {
        let (mut keep, mut valid) = ([0u8; 64], [0u8; 64]);
        for (i, (&r, &d)) in r.iter().zip(d).enumerate().take(64) {
            keep[i] = u8::from(r <= ctx_rep) & u8::from(d >= ctx_def);
            valid[i] = u8::from(d >= valid_def);
        }
        (pack_bytes(&keep), pack_bytes(&valid))
    };
    let mut r64 = rep.chunks_exact(64);
    let mut d64 = def.chunks_exact(64);
    for (r, d) in (&mut r64).zip(&mut d64) {
        let (keep, valid) = masks(r, d);
        bits.push_selected(valid, keep);
    }
    let (keep, valid) = masks(r64.remainder(), d64.remainder());
    bits.push_selected(valid, keep);
    bits.finish()
}

/// `len` slots whose validity bits are `words`; no bitmap when all are set.
fn slots_of_words(words: Vec<u64>, len: usize) -> Slots {
    let set: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    let valid = (set != len).then(|| BooleanBuffer::new(Buffer::from_vec(words), 0, len));
    Slots { len, valid }
}

/// The slots of a node valid at `p.valid_def`, from the levels of leaf `c`.
fn slots(l: &Leaves, c: usize, p: &Plan) -> Slots {
    let def = &l.def[c];
    if l.max_rep[c] > 0 {
        return nested_slots(&l.rep[c], def, p.ctx_rep, p.ctx_def, p.valid_def);
    }
    if def.is_empty() {
        return Slots {
            len: l.positions(c),
            valid: None,
        };
    }
    // One slot per level position: 64 of them to a word, in one pass.
    let vd = p.valid_def;
    slots_of_words(pack_bits(def, |d| d >= vd), def.len())
}

/// `f` of each of `items` as bits, 64 to a word, least significant first: a byte (0 or 1)
/// per item first, a loop the compiler vectorizes, then 8 bytes to 8 bits at a time
/// ([`pack_bytes`]); shifting each bit into place one by one cost about 7 instructions per
/// item, the largest single cost of reading a flat optional column.
fn pack_bits<T: Copy>(items: &[T], f: impl Fn(T) -> bool) -> Vec<u64> {
    let word = |ch: &[T]| {
        let mut bytes = [0u8; 64];
        for (b, &x) in bytes.iter_mut().zip(ch) {
            *b = u8::from(f(x));
        }
        pack_bytes(&bytes)
    };
    let mut chunks = items.chunks_exact(64);
    let mut words = Vec::with_capacity(items.len().div_ceil(64));
    words.extend((&mut chunks).map(word));
    if !chunks.remainder().is_empty() {
        words.push(word(chunks.remainder()));
    }
    words
}

/// Slot count and validity of a node valid at `valid_def`.
fn validity(l: &Leaves, c: usize, p: &Plan) -> (usize, Option<NullBuffer>) {
    let s = slots(l, c, p);
    (s.len, s.nulls())
}

fn build(p: &Plan, l: &mut Leaves, paths: &[String]) -> Result<ArrayRef> {
    match &p.kind {
        Kind::Leaf { column, conv } => {
            let c = *column;
            let path = paths.get(c).map_or("", String::as_str);
            build_leaf(p, conv, l, c).map_err(|e| e.in_column(path))
        }
        Kind::Struct(children) => {
            let c = p.first_column().unwrap_or(0);
            let (n, nulls) = validity(l, c, p);
            let mut arrays = Vec::with_capacity(children.len());
            for ch in children {
                arrays.push(build(ch, l, paths)?);
            }
            let DataType::Struct(fields) = p.field.data_type() else {
                return Err(Error::invalid_argument("struct plan without struct type"));
            };
            StructArray::try_new_with_length(fields.clone(), arrays, nulls, n)
                .map(|a| Arc::new(a) as ArrayRef)
                .map_err(|e| arrow_error(e, paths.get(c).map_or("", String::as_str)))
        }
        Kind::List {
            elem_rep,
            elem_def,
            child,
        } => {
            let c = p.first_column().unwrap_or(0);
            let path = paths.get(c).map_or("", String::as_str);
            let (er, ed) = (*elem_rep, *elem_def);
            let r: core::result::Result<ArrayRef, ArrowError> = match p.field.data_type() {
                DataType::List(f) => {
                    let (o, nulls) = list_offsets::<i32>(l, c, p, er, ed, path)?;
                    let values = build(child, l, paths)?;
                    ListArray::try_new(f.clone(), o, values, nulls).map(|a| Arc::new(a) as _)
                }
                DataType::LargeList(f) => {
                    let (o, nulls) = list_offsets::<i64>(l, c, p, er, ed, path)?;
                    let values = build(child, l, paths)?;
                    LargeListArray::try_new(f.clone(), o, values, nulls).map(|a| Arc::new(a) as _)
                }
                DataType::Map(f, sorted) => {
                    let (o, nulls) = list_offsets::<i32>(l, c, p, er, ed, path)?;
                    let values = build(child, l, paths)?;
                    let entries = values
                        .as_any()
                        .downcast_ref::<StructArray>()
                        .cloned()
                        .ok_or_else(|| Error::invalid_argument("map entries are not a struct"))?;
                    MapArray::try_new(f.clone(), o, entries, nulls, *sorted)
                        .map(|a| Arc::new(a) as _)
                }
                _ => return Err(Error::invalid_argument("list plan without list type")),
            };
            r.map_err(|e| arrow_error(e, path))
        }
    }
}

/// A list's offsets (`slots + 1`, from 0) and validity, from the levels of leaf `c`.
fn list_offsets<O: arrow_array::OffsetSizeTrait>(
    l: &Leaves,
    c: usize,
    p: &Plan,
    elem_rep: u16,
    elem_def: u16,
    path: &str,
) -> Result<(OffsetBuffer<O>, Option<NullBuffer>)> {
    let (rep, def) = (&l.rep[c], &l.def[c]);
    // Elements are level positions: when their count fits, every offset does.
    if O::from_usize(rep.len()).is_none() {
        return Err(Error::limit(
            "offset past what the Arrow offset type holds",
            rep.len() as u64,
            0,
        )
        .in_column(path));
    }
    let at = |n: usize| O::from_usize(n).unwrap_or_default();
    let mut offsets = Vec::new();
    let mut bits = BitPacker::default();
    let mut count = 0usize;
    for (&r, &d) in rep.iter().zip(def.iter()) {
        if r <= p.ctx_rep {
            if d < p.ctx_def {
                continue;
            }
            offsets.push(at(count));
            bits.push(d >= p.valid_def);
            count += usize::from(d >= elem_def);
        } else if r <= elem_rep {
            count += 1;
        }
    }
    offsets.push(at(count));
    let nulls = bits.finish().nulls();
    Ok((unchecked::offsets(offsets, count)?, nulls))
}

/// `values` spread over the slots, `T::default()` in the null ones: unchanged (no copy)
/// when every slot is valid, else copied run by run of valid slots.
fn spread<T: Copy + Default>(values: Vec<T>, s: &Slots) -> Vec<T> {
    let Some(valid) = &s.valid else {
        return values;
    };
    let mut out = Vec::with_capacity(s.len);
    let mut k = 0usize;
    for (start, end) in valid.set_slices() {
        out.resize(start, T::default());
        let run = values.get(k..k + (end - start)).unwrap_or(&[]);
        out.extend_from_slice(run);
        k += end - start;
    }
    out.resize(s.len, T::default());
    out
}

/// `f` of each of `values`, spread over the slots as [`spread`] does, in one pass.
fn spread_map<S: Copy, T: Copy + Default>(values: &[S], s: &Slots, f: impl Fn(S) -> T) -> Vec<T> {
    let mut out = Vec::with_capacity(s.len);
    let Some(valid) = &s.valid else {
        out.extend(values.iter().map(|&x| f(x)));
        return out;
    };
    let mut k = 0usize;
    for (start, end) in valid.set_slices() {
        out.resize(start, T::default());
        let run = values.get(k..k + (end - start)).unwrap_or(&[]);
        out.extend(run.iter().map(|&x| f(x)));
        k += end - start;
    }
    out.resize(s.len, T::default());
    out
}

fn primitive<T: ArrowPrimitiveType>(values: Vec<T::Native>, s: &Slots, dt: &DataType) -> ArrayRef {
    let v = spread(values, s);
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(v), s.nulls()).with_data_type(dt.clone()))
}

fn primitive_map<T: ArrowPrimitiveType, S: Copy>(
    values: &[S],
    s: &Slots,
    f: impl Fn(S) -> T::Native,
    dt: &DataType,
) -> ArrayRef {
    let v = spread_map(values, s, f);
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(v), s.nulls()).with_data_type(dt.clone()))
}

fn build_leaf(p: &Plan, conv: &Conv, l: &mut Leaves, c: usize) -> Result<ArrayRef> {
    let s = slots(l, c, p);
    let values = l.values[c]
        .take()
        .ok_or_else(|| Error::invalid_argument("a leaf column used twice"))?;
    if s.valid_count() != values.len() {
        return Err(Error::out_of_spec(
            "the definition levels do not match the number of values",
        ));
    }
    let s = &s;
    let dt = p.field.data_type();
    Ok(match (values, dt) {
        (_, DataType::Null) => Arc::new(NullArray::new(s.len)),
        (Values::Boolean(v), DataType::Boolean) => {
            let v = spread(v, s);
            let bits = Buffer::from_vec(pack_bits(&v, |b| b));
            Arc::new(BooleanArray::new(
                BooleanBuffer::new(bits, 0, v.len()),
                s.nulls(),
            ))
        }
        (Values::Int32(v), _) => int32_array(v, s, dt)?,
        (Values::Int64(v), _) => int64_array(v, s, dt)?,
        (Values::Int96(v), DataType::Timestamp(TimeUnit::Nanosecond, _)) => {
            primitive_map::<TimestampNanosecondType, _>(&v, s, |x| int96_nanos(&x), dt)
        }
        (Values::Float(v), DataType::Float32) => primitive::<Float32Type>(v, s, dt),
        (Values::Double(v), DataType::Float64) => primitive::<Float64Type>(v, s, dt),
        (Values::ByteArray(v), _) if matches!(conv, Conv::BytesDecimal) => {
            decimal_from_bytes(v.iter(), s, dt)?
        }
        (Values::FixedLenByteArray(v), _) if matches!(conv, Conv::BytesDecimal) => {
            decimal_from_bytes(v.as_ref().iter(), s, dt)?
        }
        (Values::FixedLenByteArray(v), DataType::Float16) => {
            let h = v
                .as_ref()
                .iter()
                .map(|b| {
                    let bits = u16::from_le_bytes([b[0], b.get(1).copied().unwrap_or(0)]);
                    <Float16Type as ArrowPrimitiveType>::Native::from_bits(bits)
                })
                .collect();
            primitive::<Float16Type>(h, s, dt)
        }
        (Values::FixedLenByteArray(v), DataType::FixedSizeBinary(w)) => {
            let width = v.width();
            let data = v.as_ref().data().to_vec();
            let data = match &s.valid {
                None => data,
                Some(valid) => {
                    let mut out = Vec::with_capacity(s.len * width);
                    let mut k = 0usize;
                    for (start, end) in valid.set_slices() {
                        out.resize(start * width, 0);
                        let n = (end - start) * width;
                        out.extend_from_slice(data.get(k..k + n).unwrap_or(&[]));
                        k += n;
                    }
                    out.resize(s.len * width, 0);
                    out
                }
            };
            Arc::new(
                FixedSizeBinaryArray::try_new_with_len(
                    *w,
                    Buffer::from_vec(data),
                    s.nulls(),
                    s.len,
                )
                .map_err(|e| arrow_error(e, ""))?,
            )
        }
        (Values::ByteArray(v), _) => bytes_array(v, s, dt, l.utf8.get(c) == Some(&true))?,
        (v, dt) => {
            return Err(Error::invalid_argument(alloc::format!(
                "{:?} values cannot be read as Arrow {dt}",
                v.physical_type()
            )))
        }
    })
}

/// An INT96 timestamp in nanoseconds, computed as Arrow C++ does: the Julian day an unsigned
/// 32-bit number, wrapping 64-bit arithmetic (so out-of-range days give pyarrow's values).
fn int96_nanos(v: &[u8; 12]) -> i64 {
    const JULIAN_UNIX_EPOCH: u64 = 2_440_588;
    let mut lo = [0u8; 8];
    lo.copy_from_slice(&v[..8]);
    let mut hi = [0u8; 4];
    hi.copy_from_slice(&v[8..]);
    let nanos = u64::from_le_bytes(lo);
    let day = u64::from(u32::from_le_bytes(hi));
    day.wrapping_sub(JULIAN_UNIX_EPOCH)
        .wrapping_mul(86_400_000_000_000)
        .wrapping_add(nanos) as i64
}

fn int32_array(v: Vec<i32>, s: &Slots, dt: &DataType) -> Result<ArrayRef> {
    Ok(match dt {
        DataType::Int32 => primitive::<Int32Type>(v, s, dt),
        DataType::Date32 => primitive::<Date32Type>(v, s, dt),
        DataType::Int8 => primitive_map::<Int8Type, _>(&v, s, |x| x as i8, dt),
        DataType::Int16 => primitive_map::<Int16Type, _>(&v, s, |x| x as i16, dt),
        DataType::UInt8 => primitive_map::<UInt8Type, _>(&v, s, |x| x as u8, dt),
        DataType::UInt16 => primitive_map::<UInt16Type, _>(&v, s, |x| x as u16, dt),
        DataType::UInt32 => primitive_map::<UInt32Type, _>(&v, s, |x| x as u32, dt),
        DataType::Decimal128(..) | DataType::Decimal256(..) => {
            return int64_array(v.into_iter().map(i64::from).collect(), s, dt)
        }
        DataType::Time32(TimeUnit::Second) => primitive::<Time32SecondType>(v, s, dt),
        DataType::Time32(_) => primitive::<Time32MillisecondType>(v, s, dt),
        _ => {
            return Err(Error::invalid_argument(alloc::format!(
                "INT32 cannot be read as Arrow {dt}"
            )))
        }
    })
}

fn int64_array(v: Vec<i64>, s: &Slots, dt: &DataType) -> Result<ArrayRef> {
    Ok(match dt {
        DataType::Int64 => primitive::<Int64Type>(v, s, dt),
        DataType::UInt64 => primitive_map::<UInt64Type, _>(&v, s, |x| x as u64, dt),
        DataType::Decimal128(..) => primitive_map::<Decimal128Type, _>(&v, s, i128::from, dt),
        DataType::Decimal256(..) => {
            primitive_map::<Decimal256Type, _>(&v, s, |x| i256::from_i128(x.into()), dt)
        }
        DataType::Timestamp(u, _) => match u {
            TimeUnit::Second => primitive::<TimestampSecondType>(v, s, dt),
            TimeUnit::Millisecond => primitive::<TimestampMillisecondType>(v, s, dt),
            TimeUnit::Microsecond => primitive::<TimestampMicrosecondType>(v, s, dt),
            TimeUnit::Nanosecond => primitive::<TimestampNanosecondType>(v, s, dt),
        },
        DataType::Time64(u) => match u {
            TimeUnit::Nanosecond => primitive::<Time64NanosecondType>(v, s, dt),
            _ => primitive::<Time64MicrosecondType>(v, s, dt),
        },
        DataType::Duration(u) => match u {
            TimeUnit::Second => primitive::<DurationSecondType>(v, s, dt),
            TimeUnit::Millisecond => primitive::<DurationMillisecondType>(v, s, dt),
            TimeUnit::Microsecond => primitive::<DurationMicrosecondType>(v, s, dt),
            TimeUnit::Nanosecond => primitive::<DurationNanosecondType>(v, s, dt),
        },
        _ => {
            return Err(Error::invalid_argument(alloc::format!(
                "INT64 cannot be read as Arrow {dt}"
            )))
        }
    })
}

/// Big-endian two's complement bytes (at most 32) to decimals.
fn decimal_from_bytes<'b>(
    values: impl Iterator<Item = &'b [u8]>,
    s: &Slots,
    dt: &DataType,
) -> Result<ArrayRef> {
    let wide = matches!(dt, DataType::Decimal256(..));
    let limit = if wide { 32 } else { 16 };
    let mut out128 = Vec::new();
    let mut out256 = Vec::new();
    for b in values {
        if b.len() > limit {
            return Err(Error::out_of_spec(
                "a DECIMAL value wider than its Arrow type",
            ));
        }
        let fill = if b.first().is_some_and(|x| x & 0x80 != 0) {
            0xff
        } else {
            0
        };
        let mut buf = [fill; 32];
        buf[32 - b.len()..].copy_from_slice(b);
        if wide {
            out256.push(i256::from_be_bytes(buf));
        } else {
            let mut x = [0u8; 16];
            x.copy_from_slice(&buf[16..]);
            out128.push(i128::from_be_bytes(x));
        }
    }
    Ok(if wide {
        primitive::<Decimal256Type>(out256, s, dt)
    } else {
        primitive::<Decimal128Type>(out128, s, dt)
    })
}

/// BYTE_ARRAY offsets spread over the slots (a null slot repeats the offset before it), as
/// Arrow offsets `O`: `conv` must not fail for any offset (the caller checks the last).
fn spread_offsets<O: Copy>(offsets: &[usize], s: &Slots, conv: impl Fn(usize) -> O) -> Vec<O> {
    let Some(valid) = &s.valid else {
        return offsets.iter().map(|&o| conv(o)).collect();
    };
    let mut out = Vec::with_capacity(s.len + 1);
    out.push(conv(0));
    let (mut k, mut last) = (0usize, conv(0));
    for (start, end) in valid.set_slices() {
        out.resize(start + 1, last);
        let run = offsets.get(k + 1..k + 1 + (end - start)).unwrap_or(&[]);
        out.extend(run.iter().map(|&o| conv(o)));
        last = out.last().copied().unwrap_or(last);
        k += end - start;
    }
    out.resize(s.len + 1, last);
    out
}

/// BYTE_ARRAY values into a string or binary array (offsets spread over the slots; the
/// data buffer is moved, not copied). `utf8`: the scan checked each value as UTF-8, so a
/// string array is built without Arrow's check ([`unchecked`]); else Arrow checks it.
fn bytes_array(v: ByteArrays, s: &Slots, dt: &DataType, utf8: bool) -> Result<ArrayRef> {
    let nulls = s.nulls();
    let (offsets, data) = v.into_parts();
    let large = matches!(dt, DataType::LargeUtf8 | DataType::LargeBinary);
    if large {
        let o = spread_offsets(&offsets, s, |x| x as i64);
        let o = unchecked::offsets(o, data.len())?;
        let data = Buffer::from_vec(data);
        let a: ArrayRef = match (*dt == DataType::LargeUtf8, utf8) {
            (true, true) => Arc::new(unchecked::string_array(o, data, nulls)?),
            (true, false) => {
                Arc::new(LargeStringArray::try_new(o, data, nulls).map_err(|e| arrow_error(e, ""))?)
            }
            _ => {
                Arc::new(LargeBinaryArray::try_new(o, data, nulls).map_err(|e| arrow_error(e, ""))?)
            }
        };
        return Ok(a);
    }
    if data.len() > i32::MAX as usize {
        return Err(Error::limit(
            "bytes of a BYTE_ARRAY batch for 32-bit Arrow offsets",
            data.len() as u64,
            i32::MAX as u64,
        ));
    }
    let o = spread_offsets(&offsets, s, |x| x as i32);
    let o = unchecked::offsets(o, data.len())?;
    let data = Buffer::from_vec(data);
    let text = is_text(dt);
    let plain: ArrayRef = match (text, utf8) {
        (true, true) => Arc::new(unchecked::string_array(o, data, nulls)?),
        (true, false) => {
            Arc::new(StringArray::try_new(o, data, nulls).map_err(|e| arrow_error(e, ""))?)
        }
        _ => Arc::new(BinaryArray::try_new(o, data, nulls).map_err(|e| arrow_error(e, ""))?),
    };
    Ok(match dt {
        DataType::Utf8View => {
            let a = plain
                .as_any()
                .downcast_ref::<StringArray>()
                .map(StringViewArray::from);
            Arc::new(a.ok_or_else(|| Error::invalid_argument("string view"))?)
        }
        DataType::BinaryView => {
            let a = plain
                .as_any()
                .downcast_ref::<BinaryArray>()
                .map(BinaryViewArray::from);
            Arc::new(a.ok_or_else(|| Error::invalid_argument("binary view"))?)
        }
        DataType::Dictionary(..) => dictionary(&plain, text)?,
        _ => plain,
    })
}

/// A string or binary array as Int32 keys into its distinct values (first-seen order).
fn dictionary(plain: &ArrayRef, text: bool) -> Result<ArrayRef> {
    let (offsets, data, nulls) = match text {
        true => {
            let a = plain.as_any().downcast_ref::<StringArray>();
            let a = a.ok_or_else(|| Error::invalid_argument("dictionary"))?;
            (a.value_offsets(), a.value_data(), a.nulls())
        }
        false => {
            let a = plain.as_any().downcast_ref::<BinaryArray>();
            let a = a.ok_or_else(|| Error::invalid_argument("dictionary"))?;
            (a.value_offsets(), a.value_data(), a.nulls())
        }
    };
    let mut seen: HashMap<&[u8], i32> = HashMap::new();
    let mut distinct = ByteArrays::new();
    let mut keys = Vec::with_capacity(offsets.len().saturating_sub(1));
    for (i, w) in offsets.windows(2).enumerate() {
        if nulls.is_some_and(|n| n.is_null(i)) {
            keys.push(0);
            continue;
        }
        let v = data.get(w[0] as usize..w[1] as usize).unwrap_or(&[]);
        let next = seen.len() as i32;
        let k = *seen.entry(v).or_insert_with(|| {
            distinct.push(v);
            next
        });
        keys.push(k);
    }
    let dt = if text {
        DataType::Utf8
    } else {
        DataType::Binary
    };
    let all = Slots {
        len: distinct.len(),
        valid: None,
    };
    // Whole values of `plain`, a valid array: valid UTF-8 when it is a string array.
    let values = bytes_array(distinct, &all, &dt, text)?;
    let keys = PrimitiveArray::<Int32Type>::new(ScalarBuffer::from(keys), nulls.cloned());
    Ok(Arc::new(
        DictionaryArray::<Int32Type>::try_new(keys, values).map_err(|e| arrow_error(e, ""))?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slots by their definition, one position at a time.
    fn naive(rep: &[u16], def: &[u16], ctx: (u16, u16), valid_def: u16) -> (usize, Vec<bool>) {
        let bits: Vec<bool> = rep
            .iter()
            .zip(def)
            .filter(|&(&r, &d)| r <= ctx.0 && d >= ctx.1)
            .map(|(_, &d)| d >= valid_def)
            .collect();
        (bits.len(), bits)
    }

    #[test]
    fn flat_validity_bits_match_the_levels() {
        // Lengths around the 64-bit words and the 8-byte groups; bit i of word i / 64 is
        // position i, least significant first (Arrow's order).
        for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 1000] {
            let def: Vec<u16> = (0..len).map(|i| ((i * 7 + i / 3) % 3) as u16).collect();
            for vd in 0..4 {
                let words = pack_bits(&def, |d| d >= vd);
                assert_eq!(words.len(), len.div_ceil(64), "len {len}");
                for (i, &d) in def.iter().enumerate() {
                    let bit = words[i / 64] >> (i % 64) & 1 == 1;
                    assert_eq!(bit, d >= vd, "len {len} position {i} valid_def {vd}");
                }
                // Nothing set past the end.
                if len % 64 != 0 {
                    assert_eq!(words[len / 64] >> (len % 64), 0, "len {len}");
                }
            }
        }
    }

    #[test]
    fn nested_slots_match_their_definition() {
        // Lengths around the 64-position chunks, levels from a small xorshift.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as u16
        };
        for len in [0, 1, 63, 64, 65, 127, 128, 200, 1000] {
            for dense in [false, true] {
                let rep: Vec<u16> = (0..len).map(|_| next(3)).collect();
                let def: Vec<u16> = (0..len)
                    .map(|_| if dense { 3 - next(2) } else { next(4) })
                    .collect();
                for ctx in [(0, 0), (1, 2), (2, 3), (1, 1)] {
                    for valid_def in 0..4 {
                        let s = nested_slots(&rep, &def, ctx.0, ctx.1, valid_def);
                        let (n, want) = naive(&rep, &def, ctx, valid_def);
                        assert_eq!(s.len, n, "len {len} ctx {ctx:?}");
                        let got: Vec<bool> = match &s.valid {
                            None => vec![true; n],
                            Some(v) => v.iter().collect(),
                        };
                        assert_eq!(got, want, "len {len} ctx {ctx:?} valid_def {valid_def}");
                    }
                }
            }
        }
    }
}

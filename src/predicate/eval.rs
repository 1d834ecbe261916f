//! Row evaluation: which rows of a batch the predicate keeps.
//!
//! The input is, for each column of [`Predicate::columns`], the rows' values as the reader
//! decodes them: the non-null values ([`ValuesRef`]) and one definition level per row (empty
//! when the column's `max_def_level` is 0). A row is kept when the predicate is *true* for it;
//! *unknown* (SQL's null) and *false* drop it. Each node of the tree holds two masks over the
//! rows, "true" and "false" (a row in neither is unknown):
//!
//! ```text
//! leaf  true = value present and test holds     false = value present and test fails
//!       IS NULL: true = level < max, false = level = max
//! AND   true = t1 & t2      false = f1 | f2
//! OR    true = t1 | t2      false = f1 & f2
//! NOT   true = f            false = t
//! ```
//!
//! Worked example, `x > 1 OR y IS NULL` over three rows, `x` optional (max level 1) with
//! levels `[1, 0, 1]` and values `[5, 0]`, `y` required with values `[7, 8, 9]`:
//!
//! ```text
//! x > 1      true [1 0 0]  false [0 0 1]     (row 1 is null: unknown)
//! y IS NULL  true [0 0 0]  false [1 1 1]
//! OR         true [1 0 0]  false [0 0 1]     rows kept: [true, false, false]
//! ```
//!
//! ```
//! use parket::predicate::{ColumnBatch, Predicate};
//! use parket::schema::Schema;
//! use parket::values::ValuesRef;
//! let schema = Schema::parse("message m { optional int32 x; required int32 y; }")?;
//! let p = Predicate::parse("x > 1 OR y IS NULL", &schema)?;
//! let mut keep = Vec::new();
//! p.evaluate(
//!     &[
//!         ColumnBatch { values: ValuesRef::Int32(&[5, 0]), def_levels: &[1, 0, 1] },
//!         ColumnBatch { values: ValuesRef::Int32(&[7, 8, 9]), def_levels: &[] },
//!     ],
//!     &mut keep,
//! )?;
//! assert_eq!(keep, [true, false, false]);
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::format;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::bind::{order_bytes, Kind, Node, Predicate, Slot, Test};
use super::CompareOp;
use crate::encoding::dictionary::Dict;
use crate::error::{Error, Result};
use crate::format::PhysicalType;
use crate::statistics::Scalar;
use crate::values::ValuesRef;

/// One column's values for a run of rows: the non-null values and one definition level per
/// row (empty when the column is required all the way up, `max_def_level` 0).
#[derive(Debug, Clone, Copy)]
pub struct ColumnBatch<'a> {
    /// The non-null values, in row order.
    pub values: ValuesRef<'a>,
    /// One definition level per row; a row whose level is below the column's maximum is null.
    pub def_levels: &'a [u16],
}

struct Masks {
    t: Vec<bool>,
    f: Vec<bool>,
}

/// One predicate column's rows as a scan holds them: decoded values, or the dictionary ids
/// of a page whose values are left as ids (a dictionary-encoded BYTE_ARRAY page), tested
/// through [`Predicate::dictionary_truths`] of the chunk's dictionary: each entry is
/// compared once per chunk, and each row then only looks its id up.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Input<'a> {
    Values(ColumnBatch<'a>),
    Ids {
        /// The non-null values' dictionary ids, in row order.
        ids: &'a [u32],
        /// One definition level per row (empty when the column's `max_def_level` is 0).
        def_levels: &'a [u16],
        /// Per leaf of the predicate: the truth of its test for each dictionary entry, for
        /// the leaves of this column that test values (`None` for the others).
        truths: &'a [Option<Vec<bool>>],
    },
}

impl Input<'_> {
    fn def_levels(&self) -> &[u16] {
        match self {
            Input::Values(b) => b.def_levels,
            Input::Ids { def_levels, .. } => def_levels,
        }
    }
}

impl Predicate {
    /// Sets `keep` to one entry per row: whether the predicate is true for that row.
    /// `batches` is aligned with [`Predicate::columns`]. Errors when a batch does not fit its
    /// column (physical type, row count, values against levels).
    pub fn evaluate(&self, batches: &[ColumnBatch<'_>], keep: &mut Vec<bool>) -> Result<()> {
        let inputs: Vec<Input<'_>> = batches.iter().map(|b| Input::Values(*b)).collect();
        self.evaluate_inputs(&inputs, keep)
    }

    /// [`Predicate::evaluate`] over columns given as values or as dictionary ids.
    pub(crate) fn evaluate_inputs(&self, inputs: &[Input<'_>], keep: &mut Vec<bool>) -> Result<()> {
        if inputs.len() != self.slots.len() {
            return Err(Error::invalid_argument(format!(
                "predicate: {} column batches given for {} columns",
                inputs.len(),
                self.slots.len()
            )));
        }
        let mut rows = None;
        for (slot, b) in self.slots.iter().zip(inputs) {
            let n = check_input(slot, b)?;
            if *rows.get_or_insert(n) != n {
                return Err(Error::invalid_argument(format!(
                    "predicate: column {} has {n} rows in its batch, another column {}",
                    slot.path,
                    rows.unwrap_or(0)
                ))
                .in_column(&slot.path));
            }
        }
        let rows = rows.unwrap_or(0);
        let mut scratch = Vec::new();
        let m = self.masks(&self.root, inputs, rows, &mut scratch)?;
        keep.clear();
        keep.extend_from_slice(&m.t);
        Ok(())
    }

    /// For each leaf (in the predicate's leaf order) that tests the values of predicate
    /// column `slot` (an index into [`Predicate::columns`]), whether its test holds for each
    /// entry of `dictionary`, the column chunk's; `None` for the other leaves. What
    /// [`Input::Ids`] takes.
    pub(crate) fn dictionary_truths(
        &self,
        slot: usize,
        dictionary: Dict<'_>,
    ) -> Result<Vec<Option<Vec<bool>>>> {
        let Some(s) = self.slots.get(slot) else {
            return Err(Error::invalid_argument("predicate column out of range"));
        };
        let mut out = Vec::with_capacity(self.leaves.len());
        for leaf in &self.leaves {
            if leaf.slot != slot || leaf.test == Test::IsNull {
                out.push(None);
                continue;
            }
            let mut t = Vec::new();
            match dictionary {
                Dict::Values(v) => value_truth(s, v, &leaf.test, &mut t)?,
                Dict::Bytes(e) => {
                    let entries = (0..e.len()).map(|i| e.get(i).unwrap_or(&[]));
                    if s.physical != PhysicalType::ByteArray
                        || !bytes(entries, s.kind, &leaf.test, &mut t)
                    {
                        return Err(Error::invalid_argument(format!(
                            "predicate: column {}: a BYTE_ARRAY dictionary does not fit the bound literal",
                            s.path
                        ))
                        .in_column(&s.path));
                    }
                }
            }
            out.push(Some(t));
        }
        Ok(out)
    }

    fn masks(
        &self,
        node: &Node,
        inputs: &[Input<'_>],
        rows: usize,
        scratch: &mut Vec<bool>,
    ) -> Result<Masks> {
        Ok(match node {
            Node::Leaf(i) => {
                let leaf = &self.leaves[*i];
                let slot = &self.slots[leaf.slot];
                let b = &inputs[leaf.slot];
                let levels = b.def_levels();
                let valid = |r: usize| levels.get(r).is_none_or(|&d| d == slot.max_def);
                if leaf.test == Test::IsNull {
                    let t: Vec<bool> = (0..rows).map(|r| !valid(r)).collect();
                    let f = t.iter().map(|x| !x).collect();
                    return Ok(Masks { t, f });
                }
                match b {
                    Input::Values(b) => value_truth(slot, b.values, &leaf.test, scratch)?,
                    Input::Ids { ids, truths, .. } => {
                        let Some(Some(table)) = truths.get(*i) else {
                            return Err(Error::invalid_argument(
                                "predicate: no dictionary truths for a leaf",
                            ));
                        };
                        scratch.clear();
                        let mut inside = true;
                        scratch.extend(ids.iter().map(|&id| match table.get(id as usize) {
                            Some(&v) => v,
                            None => {
                                inside = false;
                                false
                            }
                        }));
                        if !inside {
                            return Err(Error::invalid_argument(format!(
                                "predicate: column {}: a dictionary id past the dictionary's {} entries",
                                slot.path,
                                table.len()
                            ))
                            .in_column(&slot.path));
                        }
                    }
                }
                if levels.is_empty() {
                    let f = scratch.iter().map(|x| !x).collect();
                    Masks {
                        t: scratch.clone(),
                        f,
                    }
                } else {
                    let (mut t, mut f) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
                    let mut k = 0;
                    for &d in levels {
                        if d == slot.max_def {
                            let v = scratch.get(k).copied().unwrap_or(false);
                            t.push(v);
                            f.push(!v);
                            k += 1;
                        } else {
                            t.push(false);
                            f.push(false);
                        }
                    }
                    Masks { t, f }
                }
            }
            Node::Not(a) => {
                let m = self.masks(a, inputs, rows, scratch)?;
                Masks { t: m.f, f: m.t }
            }
            Node::And(a, b) => {
                let mut x = self.masks(a, inputs, rows, scratch)?;
                let y = self.masks(b, inputs, rows, scratch)?;
                x.t.iter_mut().zip(&y.t).for_each(|(a, b)| *a &= b);
                x.f.iter_mut().zip(&y.f).for_each(|(a, b)| *a |= b);
                x
            }
            Node::Or(a, b) => {
                let mut x = self.masks(a, inputs, rows, scratch)?;
                let y = self.masks(b, inputs, rows, scratch)?;
                x.t.iter_mut().zip(&y.t).for_each(|(a, b)| *a |= b);
                x.f.iter_mut().zip(&y.f).for_each(|(a, b)| *a &= b);
                x
            }
        })
    }
}

/// The row count of an input, after checking it against its column (ids past the truth
/// tables are an error where they are looked up).
fn check_input(slot: &Slot, input: &Input<'_>) -> Result<usize> {
    let (ids, def_levels) = match input {
        Input::Values(b) => return check_batch(slot, b),
        Input::Ids {
            ids, def_levels, ..
        } => (ids, def_levels),
    };
    let bad = |what: alloc::string::String| {
        Error::invalid_argument(format!("predicate: column {}: {what}", slot.path))
            .in_column(&slot.path)
    };
    if slot.max_def == 0 && def_levels.is_empty() {
        return Ok(ids.len());
    }
    let present = def_levels.iter().filter(|&&d| d == slot.max_def).count();
    if present != ids.len() {
        return Err(bad(format!(
            "{} ids for {present} rows whose level says present",
            ids.len()
        )));
    }
    Ok(def_levels.len())
}

/// The row count of a batch, after checking it against its column.
fn check_batch(slot: &Slot, b: &ColumnBatch<'_>) -> Result<usize> {
    let bad = |what: alloc::string::String| {
        Error::invalid_argument(format!("predicate: column {}: {what}", slot.path))
            .in_column(&slot.path)
    };
    if b.values.physical_type() != slot.physical {
        return Err(bad(format!(
            "the batch holds {} values, the column is {}",
            b.values.physical_type(),
            slot.physical
        )));
    }
    if slot.max_def == 0 && b.def_levels.is_empty() {
        return Ok(b.values.len());
    }
    let present = b.def_levels.iter().filter(|&&d| d == slot.max_def).count();
    if present != b.values.len() {
        return Err(bad(format!(
            "{} values for {present} rows whose level says present",
            b.values.len()
        )));
    }
    Ok(b.def_levels.len())
}

/// Sets `out` to whether `test` holds for each value (non-null values: true or false).
pub(crate) fn value_truth(
    slot: &Slot,
    values: ValuesRef<'_>,
    test: &Test,
    out: &mut Vec<bool>,
) -> Result<()> {
    out.clear();
    let kind = slot.kind;
    let ok = match values {
        ValuesRef::Boolean(v) => num(
            v.iter().copied(),
            test,
            |s| match s {
                Scalar::Boolean(b) => Some(*b),
                _ => None,
            },
            out,
        ),
        ValuesRef::Int32(v) if kind == Kind::U32 => num(
            v.iter().map(|&x| x as u32),
            test,
            |s| match s {
                Scalar::Int32(l) => Some(*l as u32),
                _ => None,
            },
            out,
        ),
        ValuesRef::Int32(v) => num(
            v.iter().copied(),
            test,
            |s| match s {
                Scalar::Int32(l) => Some(*l),
                _ => None,
            },
            out,
        ),
        ValuesRef::Int64(v) if kind == Kind::U64 => num(
            v.iter().map(|&x| x as u64),
            test,
            |s| match s {
                Scalar::Int64(l) => Some(*l as u64),
                _ => None,
            },
            out,
        ),
        ValuesRef::Int64(v) => num(
            v.iter().copied(),
            test,
            |s| match s {
                Scalar::Int64(l) => Some(*l),
                _ => None,
            },
            out,
        ),
        ValuesRef::Float(v) => num(
            v.iter().copied(),
            test,
            |s| match s {
                Scalar::Float(l) => Some(*l),
                _ => None,
            },
            out,
        ),
        ValuesRef::Double(v) => num(
            v.iter().copied(),
            test,
            |s| match s {
                Scalar::Double(l) => Some(*l),
                _ => None,
            },
            out,
        ),
        ValuesRef::ByteArray(v) => bytes(v.iter(), kind, test, out),
        ValuesRef::FixedLenByteArray(v) => bytes(v.iter(), kind, test, out),
        ValuesRef::Int96(_) => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!(
            "predicate: column {}: {} values do not fit the bound literal",
            slot.path,
            values.physical_type()
        ))
        .in_column(&slot.path))
    }
}

/// Numbers (and booleans) in IEEE / integer order: `partial_cmp` is `None` only for NaN.
fn num<T: Copy + PartialOrd>(
    v: impl Iterator<Item = T>,
    test: &Test,
    get: impl Fn(&Scalar) -> Option<T>,
    out: &mut Vec<bool>,
) -> bool {
    match test {
        Test::Cmp(op, s) => {
            let Some(l) = get(s) else { return false };
            // One loop per operator (what `CompareOp::holds` gives for `partial_cmp`: IEEE
            // comparisons, NaN unequal to everything), which the compiler vectorises; the
            // operator matched per value cost about 14 instructions a value.
            match *op {
                CompareOp::Eq => out.extend(v.map(|x| x == l)),
                CompareOp::Ne => out.extend(v.map(|x| x != l)),
                CompareOp::Lt => out.extend(v.map(|x| x < l)),
                CompareOp::Le => out.extend(v.map(|x| x <= l)),
                CompareOp::Gt => out.extend(v.map(|x| x > l)),
                CompareOp::Ge => out.extend(v.map(|x| x >= l)),
            }
        }
        Test::In(list) => {
            let Some(ls) = list.iter().map(&get).collect::<Option<Vec<T>>>() else {
                return false;
            };
            out.extend(v.map(|x| ls.contains(&x)));
        }
        Test::IsNull => out.extend(v.map(|_| false)),
    }
    true
}

fn bytes<'a, 'b>(
    v: impl Iterator<Item = &'a [u8]>,
    kind: Kind,
    test: &'b Test,
    out: &mut Vec<bool>,
) -> bool {
    let get = |s: &'b Scalar| match s {
        Scalar::Bytes(b) => Some(b.as_slice()),
        _ => None,
    };
    match test {
        Test::Cmp(op, s) => {
            let Some(l) = get(s) else { return false };
            let op = *op;
            if kind == Kind::Bytes && op == super::CompareOp::Eq {
                out.extend(v.map(|x| x == l));
            } else {
                out.extend(v.map(|x| op.holds(order_bytes(kind, x, l))));
            }
        }
        Test::In(list) => {
            let Some(ls) = list.iter().map(get).collect::<Option<Vec<&[u8]>>>() else {
                return false;
            };
            out.extend(v.map(|x| {
                ls.iter()
                    .any(|l| order_bytes(kind, x, l) == Some(Ordering::Equal))
            }));
        }
        Test::IsNull => out.extend(v.map(|_| false)),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;
    use crate::values::{ByteArrays, FixedLenByteArraysRef};

    /// Evaluates `text` given a batch for every column of the schema.
    fn run(schema: &str, text: &str, batches: &[ColumnBatch<'_>]) -> Vec<bool> {
        let s = Schema::parse(schema).unwrap();
        let p = Predicate::parse(text, &s).unwrap();
        let mut keep = Vec::new();
        let mine: Vec<ColumnBatch<'_>> = p.columns().iter().map(|&c| batches[c]).collect();
        p.evaluate(&mine, &mut keep).unwrap();
        keep
    }

    const D: &str = "message m { optional double x; }";

    fn dbl<'a>(v: &'a [f64], d: &'a [u16]) -> [ColumnBatch<'a>; 1] {
        [ColumnBatch {
            values: ValuesRef::Double(v),
            def_levels: d,
        }]
    }

    #[test]
    fn operators_on_doubles_with_nan_null_and_zeros() {
        // rows: 1.0, NaN, null, -0.0, 2.5
        let v = [1.0, f64::NAN, -0.0, 2.5];
        let d = [1, 1, 0, 1, 1];
        let b = dbl(&v, &d);
        let f = |t: &str| run(D, t, &b);
        let (t, x) = (true, false);
        assert_eq!(f("x = 1"), [t, x, x, x, x]);
        assert_eq!(f("x != 1"), [x, t, x, t, t]); // NaN != 1 is true
        assert_eq!(f("x < 1"), [x, x, x, t, x]);
        assert_eq!(f("x <= 1"), [t, x, x, t, x]);
        assert_eq!(f("x > 1"), [x, x, x, x, t]);
        assert_eq!(f("x >= 1"), [t, x, x, x, t]);
        assert_eq!(f("x = 0"), [x, x, x, t, x]); // -0.0 = 0
        assert_eq!(f("x = 'NaN'"), [x, x, x, x, x]);
        assert_eq!(f("x != 'NaN'"), [t, t, x, t, t]);
        assert_eq!(f("x in (2.5, 0)"), [x, x, x, t, t]);
        assert_eq!(f("x not in (2.5, 0)"), [t, t, x, x, x]); // null x: unknown
        assert_eq!(f("x is null"), [x, x, t, x, x]);
        assert_eq!(f("x is not null"), [t, t, x, t, t]);
        assert_eq!(f("not x = 1"), [x, t, x, t, t]);
        // Three-valued: unknown AND false is false, so NOT of it is true.
        assert_eq!(f("not (x = 1 and x < 0)"), [t, t, x, t, t]);
        assert_eq!(f("x = 1 or x is null"), [t, x, t, x, x]);
        assert_eq!(f("not (x > 0 or x < 0)"), [x, t, x, t, x]);
    }

    #[test]
    fn unsigned_signed_and_bytes() {
        let s = "message m { required int32 u (INTEGER(32, false)); required int32 i;
                 required binary s (STRING); required fixed_len_byte_array(2) d (DECIMAL(4, 1)); }";
        let strs: ByteArrays = ["", "b", "ab", "\u{e9}"].into_iter().collect();
        let dec = [0x80u8, 0x00, 0xff, 0xff, 0x00, 0x01, 0x7f, 0xff];
        let batches = [
            ColumnBatch {
                values: ValuesRef::Int32(&[-1, 0, 5, i32::MIN]),
                def_levels: &[],
            },
            ColumnBatch {
                values: ValuesRef::Int32(&[-1, 0, 5, i32::MIN]),
                def_levels: &[],
            },
            ColumnBatch {
                values: ValuesRef::ByteArray(strs.as_ref()),
                def_levels: &[],
            },
            ColumnBatch {
                values: ValuesRef::FixedLenByteArray(FixedLenByteArraysRef::new(2, &dec).unwrap()),
                def_levels: &[],
            },
        ];
        let (t, x) = (true, false);
        assert_eq!(run(s, "u > 5", &batches), [t, x, x, t]);
        assert_eq!(run(s, "i > 5", &batches), [x, x, x, x]);
        assert_eq!(run(s, "u = 4294967295", &batches), [t, x, x, x]);
        assert_eq!(run(s, "s >= 'b'", &batches), [x, t, x, t]); // é is c3 a9 > b
        assert_eq!(run(s, "s < 'ab'", &batches), [t, x, x, x]);
        assert_eq!(run(s, "s in ('', 'ab')", &batches), [t, x, t, x]);
        // -3276.8, -0.1, 0.1, 3276.7
        assert_eq!(run(s, "d < 0", &batches), [t, t, x, x]);
        assert_eq!(run(s, "d >= -0.1", &batches), [x, t, t, t]);
        assert_eq!(run(s, "d in (0.1, '-0.1', 999.9)", &batches), [x, t, t, x]);
    }

    #[test]
    fn booleans_halves_times_and_binary() {
        let s = "message m { optional boolean b; required fixed_len_byte_array(2) h (FLOAT16);
                 required int64 ts (TIMESTAMP(MILLIS, true)); required binary raw;
                 required float f; }";
        // FLOAT16: 1.0 = 0x3c00, -2.0 = 0xc000, NaN = 0x7e00, -0.0 = 0x8000.
        let halves = [0x00u8, 0x3c, 0x00, 0xc0, 0x00, 0x7e, 0x00, 0x80];
        let raw: ByteArrays = [&[0u8][..], &[0xff], &[], &[0, 1]].into_iter().collect();
        let batches = [
            ColumnBatch {
                values: ValuesRef::Boolean(&[true, false, true]),
                def_levels: &[1, 1, 0, 1],
            },
            ColumnBatch {
                values: ValuesRef::FixedLenByteArray(
                    FixedLenByteArraysRef::new(2, &halves).unwrap(),
                ),
                def_levels: &[],
            },
            // 1970-01-01T00:00:00.001Z, one day, -1 ms, 0.
            ColumnBatch {
                values: ValuesRef::Int64(&[1, 86_400_000, -1, 0]),
                def_levels: &[],
            },
            ColumnBatch {
                values: ValuesRef::ByteArray(raw.as_ref()),
                def_levels: &[],
            },
            ColumnBatch {
                values: ValuesRef::Float(&[0.1, f32::NAN, 1e30, -0.0]),
                def_levels: &[],
            },
        ];
        let (t, x) = (true, false);
        assert_eq!(run(s, "b = true", &batches), [t, x, x, t]);
        assert_eq!(run(s, "b != true", &batches), [x, t, x, x]);
        assert_eq!(run(s, "b > false", &batches), [t, x, x, t]);
        assert_eq!(run(s, "h > -2", &batches), [t, x, x, t]);
        assert_eq!(run(s, "h = 0", &batches), [x, x, x, t]);
        assert_eq!(run(s, "h != 1", &batches), [x, t, t, t]);
        assert_eq!(
            run(s, "ts >= '1970-01-01T00:00:00.001Z'", &batches),
            [t, t, x, x]
        );
        assert_eq!(
            run(s, "ts < '1970-01-02T00:00:00Z'", &batches),
            [t, x, t, t]
        );
        assert_eq!(run(s, "ts in (0, -1)", &batches), [x, x, t, t]);
        assert_eq!(run(s, "raw = 'AAE='", &batches), [x, x, x, t]);
        assert_eq!(run(s, "raw > 'AA=='", &batches), [x, t, x, t]);
        assert_eq!(run(s, "raw = ''", &batches), [x, x, t, x]);
        // The FLOAT literal 0.1 is the f32 nearest 0.1 (not the double widened).
        assert_eq!(run(s, "f = 0.1", &batches), [t, x, x, x]);
        assert_eq!(run(s, "f >= 1e30", &batches), [x, x, t, x]);
        assert_eq!(run(s, "f <= 0", &batches), [x, x, x, t]);
    }

    #[test]
    fn dictionary_ids_are_looked_up_and_checked() {
        let s = Schema::parse("message m { optional binary s (STRING); }").unwrap();
        let p = Predicate::parse("s IN ('b', 'c') OR s IS NULL", &s).unwrap();
        let dict: ByteArrays = ["a", "b", "c"].into_iter().collect();
        let truths = p
            .dictionary_truths(0, Dict::from(ValuesRef::ByteArray(dict.as_ref())))
            .unwrap();
        assert_eq!(truths, [Some(vec![false, true, true]), None]);
        let ids = |ids, def_levels| Input::Ids {
            ids,
            def_levels,
            truths: &truths,
        };
        let mut keep = Vec::new();
        // rows: a, null, c, b
        p.evaluate_inputs(&[ids(&[0, 2, 1], &[1, 0, 1, 1])], &mut keep)
            .unwrap();
        assert_eq!(keep, [false, true, true, true]);
        // An id past the dictionary, ids that do not fit the levels: errors.
        let e = p
            .evaluate_inputs(&[ids(&[0, 3, 1], &[1, 0, 1, 1])], &mut keep)
            .unwrap_err();
        assert!(
            e.to_string().contains("past the dictionary's 3 entries"),
            "{e}"
        );
        assert!(p
            .evaluate_inputs(&[ids(&[0, 2], &[1, 0, 1, 1])], &mut keep)
            .is_err());
        // A dictionary of another type.
        assert!(p
            .dictionary_truths(0, Dict::from(ValuesRef::Int32(&[1])))
            .is_err());
    }

    #[test]
    fn bad_batches_are_errors() {
        let s = Schema::parse("message m { optional int32 x; required int64 y; }").unwrap();
        let p = Predicate::parse("x = 1 and y = 2", &s).unwrap();
        let mut k = Vec::new();
        let x = ColumnBatch {
            values: ValuesRef::Int32(&[1]),
            def_levels: &[1, 0],
        };
        let y2 = ColumnBatch {
            values: ValuesRef::Int64(&[1, 2]),
            def_levels: &[],
        };
        let y3 = ColumnBatch {
            values: ValuesRef::Int64(&[1, 2, 3]),
            def_levels: &[],
        };
        p.evaluate(&[x, y2], &mut k).unwrap();
        assert_eq!(k, [false, false]);
        assert!(p.evaluate(&[x, y3], &mut k).is_err());
        assert!(p.evaluate(&[y2, x], &mut k).is_err());
        assert!(p.evaluate(&[x], &mut k).is_err());
        let short = ColumnBatch {
            values: ValuesRef::Int32(&[1, 2]),
            def_levels: &[1, 0],
        };
        assert!(p.evaluate(&[short, y2], &mut k).is_err());
    }
}

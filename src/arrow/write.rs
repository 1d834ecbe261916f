//! Writing: Arrow record batches shredded into levels and values for parket's column
//! writers, under the Parquet schema pyarrow would write for the Arrow schema.
//!
//! | Arrow | Parquet |
//! |---|---|
//! | Int8, Int16, UInt8, UInt16, UInt32 / Int32 / Int64 / UInt64 | INT32 INT(w, s) / INT32 / INT64 / INT64 INT(64, false) |
//! | Date32, Date64 / Time32 / Time64 | INT32 DATE / INT32 TIME(MILLIS) / INT64 TIME(MICROS/NANOS) |
//! | Timestamp(s, ms, us, ns, tz) / Duration | INT64 TIMESTAMP(MILLIS for s, else the unit; utc when tz) / INT64 |
//! | Float16 / Float32 / Float64 | FIXED_LEN_BYTE_ARRAY(2) FLOAT16 / FLOAT / DOUBLE |
//! | Utf8, LargeUtf8, Utf8View / Binary, LargeBinary, BinaryView | BYTE_ARRAY STRING / BYTE_ARRAY |
//! | FixedSizeBinary(n) (UUID for the `arrow.uuid` extension) | FIXED_LEN_BYTE_ARRAY(n) |
//! | Decimal128/256(p, s) | FIXED_LEN_BYTE_ARRAY DECIMAL(p, s), the fewest bytes that hold p digits |
//! | Dictionary(k, v) | v (the values, materialised) |
//! | Null | optional INT32 UNKNOWN |
//! | Struct / List, LargeList / Map | group / 3-level LIST / MAP (`key_value`) |
//!
//! The Arrow schema is stored under `ARROW:schema`, as pyarrow does, so that readers get
//! back time zones, units, large, view and dictionary types.
//!
//! Shredding, for `a: List(Int32)` and the rows `[1, null]`, `null`, `[]`:
//!
//! ```text
//! rep   0 1 0 0
//! def   3 2 0 1
//! value 1
//! ```

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_buffer::ArrowNativeType;
use arrow_schema::{DataType, Field, SchemaRef, TimeUnit as AU};

use crate::error::{Error, Result};
use crate::format::{FieldRepetitionType as Rep, LogicalType, PhysicalType as P, TimeUnit};
use crate::levels::LeafData;
use crate::schema::{Schema, Type};
use crate::values::{ByteArrays, FixedLenByteArrays, Values};
use crate::write::{FileWriter, Sink, WriteOptions};

/// Writes Arrow record batches as a Parquet file.
///
/// Rows go to the open row group until it holds
/// [`WriteOptions::row_group_rows`] rows (batches are split where needed) or `row_group_bytes`
/// of pages; `finish` writes the footer and gives back the sink.
#[must_use]
pub struct BatchWriter<W: Sink> {
    writer: FileWriter<W>,
    schema: SchemaRef,
    /// Rows in the open row group (as far as this writer knows).
    open_rows: usize,
}

impl<W: Sink> BatchWriter<W> {
    /// A writer of batches of `schema` into `sink`. Errors name a field whose type has no
    /// Parquet mapping.
    pub fn new(sink: W, schema: SchemaRef, options: WriteOptions) -> Result<Self> {
        let parquet = parquet_schema(&schema)?;
        let options = match super::ipc::schema_to_metadata(&schema) {
            Some(v) => options.key_value_metadata(super::ipc::ARROW_SCHEMA_KEY, Some(&v)),
            None => options,
        };
        Ok(BatchWriter {
            writer: FileWriter::new(sink, parquet, options)?,
            schema,
            open_rows: 0,
        })
    }

    /// The Parquet schema the file is written with.
    pub fn parquet_schema(&self) -> &Schema {
        self.writer.schema()
    }

    /// Writes the rows of `batch` (whose schema must equal the writer's).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.schema().fields() != self.schema.fields() {
            return Err(Error::invalid_argument(
                "the batch's schema differs from the writer's",
            ));
        }
        let limit = self.writer.options().row_group_rows.max(1);
        let mut at = 0;
        let n = batch.num_rows();
        while at < n {
            let room = limit.saturating_sub(self.open_rows).max(1);
            let take = room.min(n - at);
            let part = batch.slice(at, take);
            let mut leaves = Vec::with_capacity(self.writer.schema().columns().len());
            for (array, field) in part.columns().iter().zip(self.schema.fields()) {
                let items = Items {
                    idx: (0..take).map(Some).collect(),
                    def: alloc::vec![0; take],
                    rep: alloc::vec![0; take],
                };
                shred(array, field, items, 0, 0, &mut leaves)?;
            }
            for (leaf, c) in leaves.iter_mut().zip(self.writer.schema().columns()) {
                if c.max_def_level == 0 {
                    leaf.def_levels.clear();
                }
                if c.max_rep_level == 0 {
                    leaf.rep_levels.clear();
                }
            }
            self.writer.write_columns(&leaves)?;
            self.open_rows += take;
            if self.open_rows >= limit {
                self.open_rows = 0;
            }
            at += take;
        }
        Ok(())
    }

    /// Writes the last row group and the footer; gives back the sink.
    pub fn finish(mut self) -> Result<W> {
        self.writer.finish()?;
        Ok(self.writer.into_inner())
    }
}

fn unsupported(field: &Field, what: &str) -> Error {
    Error::invalid_argument(alloc::format!(
        "Arrow field `{}` of type {}: {what}",
        field.name(),
        field.data_type()
    ))
}

/// The Parquet schema pyarrow writes for `schema` (see the module documentation).
pub fn parquet_schema(schema: &arrow_schema::Schema) -> Result<Schema> {
    let mut fields = Vec::with_capacity(schema.fields().len());
    for f in schema.fields() {
        fields.push(parquet_type(f, f.name())?);
    }
    Schema::new("schema", fields)
}

/// Bytes of the smallest FIXED_LEN_BYTE_ARRAY holding `precision` decimal digits.
fn decimal_bytes(precision: u8) -> usize {
    (1..=32)
        .find(|&n| crate::schema::max_decimal_precision_for_flba(n) >= u64::from(precision))
        .unwrap_or(32) as usize
}

fn parquet_type(f: &Field, name: &str) -> Result<Type> {
    let rep = if f.is_nullable() {
        Rep::Optional
    } else {
        Rep::Required
    };
    let prim = |p: P| Type::primitive(name, rep, p);
    let int = |p: P, bits: i8, signed: bool| {
        Type::primitive(name, rep, p).logical_type(LogicalType::Integer {
            bit_width: bits,
            is_signed: signed,
        })
    };
    let unit = |u: &AU| match u {
        AU::Second | AU::Millisecond => TimeUnit::Millis,
        AU::Microsecond => TimeUnit::Micros,
        AU::Nanosecond => TimeUnit::Nanos,
    };
    let value_type = match f.data_type() {
        DataType::Dictionary(_, v) => &**v,
        t => t,
    };
    Ok(match value_type {
        DataType::Null => {
            Type::primitive(name, Rep::Optional, P::Int32).logical_type(LogicalType::Unknown)
        }
        DataType::Boolean => prim(P::Boolean),
        DataType::Int8 => int(P::Int32, 8, true),
        DataType::Int16 => int(P::Int32, 16, true),
        DataType::Int32 => prim(P::Int32),
        DataType::Int64 => prim(P::Int64),
        DataType::UInt8 => int(P::Int32, 8, false),
        DataType::UInt16 => int(P::Int32, 16, false),
        DataType::UInt32 => int(P::Int32, 32, false),
        DataType::UInt64 => int(P::Int64, 64, false),
        DataType::Float16 => {
            Type::fixed_len_byte_array(name, rep, 2).logical_type(LogicalType::Float16)
        }
        DataType::Float32 => prim(P::Float),
        DataType::Float64 => prim(P::Double),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            prim(P::ByteArray).logical_type(LogicalType::String)
        }
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView => prim(P::ByteArray),
        DataType::FixedSizeBinary(n) => {
            let n = usize::try_from(*n).map_err(|_| unsupported(f, "negative width"))?;
            let t = Type::fixed_len_byte_array(name, rep, n);
            let uuid =
                f.metadata().get("ARROW:extension:name").map(String::as_str) == Some("arrow.uuid");
            if uuid && n == 16 {
                t.logical_type(LogicalType::Uuid)
            } else {
                t
            }
        }
        DataType::Date32 | DataType::Date64 => prim(P::Int32).logical_type(LogicalType::Date),
        DataType::Time32(u) => prim(P::Int32).logical_type(LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: unit(u),
        }),
        DataType::Time64(u) => prim(P::Int64).logical_type(LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: unit(u),
        }),
        DataType::Timestamp(u, tz) => prim(P::Int64).logical_type(LogicalType::Timestamp {
            is_adjusted_to_utc: tz.is_some(),
            unit: unit(u),
        }),
        DataType::Duration(_) => prim(P::Int64),
        DataType::Decimal128(p, s) | DataType::Decimal256(p, s) => {
            Type::fixed_len_byte_array(name, rep, decimal_bytes(*p)).logical_type(
                LogicalType::Decimal {
                    scale: i32::from(*s),
                    precision: i32::from(*p),
                },
            )
        }
        DataType::Struct(fields) => {
            if fields.is_empty() {
                return Err(unsupported(
                    f,
                    "a struct without fields has no Parquet type",
                ));
            }
            let mut children = Vec::with_capacity(fields.len());
            for c in fields {
                children.push(parquet_type(c, c.name())?);
            }
            Type::group(name, rep, children)
        }
        DataType::List(c) | DataType::LargeList(c) => {
            Type::list(name, rep, parquet_type(c, "element")?)
        }
        DataType::Map(entries, _) => {
            let DataType::Struct(kv) = entries.data_type() else {
                return Err(unsupported(f, "map entries are not a struct"));
            };
            let (Some(k), Some(v)) = (kv.first(), kv.get(1)) else {
                return Err(unsupported(f, "map entries without key and value"));
            };
            let key = parquet_type(&k.as_ref().clone().with_nullable(false), "key")?;
            Type::map(name, rep, key, Some(parquet_type(v, "value")?))
        }
        _ => return Err(unsupported(f, "no Parquet mapping")),
    })
}

/// Level positions of one node being shredded: the index into the node's array, or `None`
/// where an ancestor is null or an empty list (its levels are final).
#[derive(Clone)]
struct Items {
    idx: Vec<Option<usize>>,
    def: Vec<u16>,
    rep: Vec<u16>,
}

/// Shreds `array` (field `f`) at `items`; `def`/`rep` are the levels its present slots have
/// reached. Appends one [`LeafData`] per leaf, in schema order.
fn shred(
    array: &ArrayRef,
    f: &Field,
    mut items: Items,
    def: u16,
    rep: u16,
    out: &mut Vec<LeafData>,
) -> Result<()> {
    let mut def = def;
    if f.is_nullable() || matches!(f.data_type(), DataType::Null) {
        def += 1;
        let nulls = array.logical_nulls();
        for (i, d) in items.idx.iter_mut().zip(items.def.iter_mut()) {
            if let Some(k) = *i {
                if nulls.as_ref().is_some_and(|n| n.is_null(k)) {
                    *i = None;
                } else {
                    *d = def;
                }
            }
        }
    }
    match f.data_type() {
        DataType::Struct(fields) => {
            let s = array.as_struct();
            for (c, cf) in s.columns().iter().zip(fields) {
                shred(c, cf, items.clone(), def, rep, out)?;
            }
            Ok(())
        }
        DataType::List(c) => {
            let l = array.as_list::<i32>();
            let items = expand(&items, &ranges(l.offsets()), def, rep);
            shred(l.values(), c, items, def + 1, rep + 1, out)
        }
        DataType::LargeList(c) => {
            let l = array.as_list::<i64>();
            let items = expand(&items, &ranges(l.offsets()), def, rep);
            shred(l.values(), c, items, def + 1, rep + 1, out)
        }
        DataType::Map(e, _) => {
            let m = array.as_map();
            let items = expand(&items, &ranges(m.offsets()), def, rep);
            let entries: ArrayRef = Arc::new(m.entries().clone());
            let DataType::Struct(kv) = e.data_type() else {
                return Err(unsupported(f, "map entries are not a struct"));
            };
            let key = kv.first().map(|k| k.as_ref().clone().with_nullable(false));
            let (Some(key), Some(value)) = (key, kv.get(1)) else {
                return Err(unsupported(f, "map entries without key and value"));
            };
            let s = entries.as_struct();
            shred(s.column(0), &key, items.clone(), def + 1, rep + 1, out)?;
            shred(s.column(1), value, items, def + 1, rep + 1, out)
        }
        _ => {
            out.push(leaf(array, f, &items, def)?);
            Ok(())
        }
    }
}

/// Each list slot's range of child indices.
fn ranges<O: ArrowNativeType>(offsets: &arrow_buffer::OffsetBuffer<O>) -> Vec<(usize, usize)> {
    offsets
        .windows(2)
        .map(|w| (w[0].as_usize(), w[1].as_usize()))
        .collect()
}

/// The positions of a list's elements: each present list slot becomes its elements (the
/// first keeps the slot's repetition level, the others repeat at `rep + 1`); an empty list
/// stays one position at the list's definition level.
fn expand(items: &Items, offsets: &[(usize, usize)], def: u16, rep: u16) -> Items {
    let mut out = Items {
        idx: Vec::with_capacity(items.idx.len()),
        def: Vec::with_capacity(items.idx.len()),
        rep: Vec::with_capacity(items.idx.len()),
    };
    for ((i, &d), &r) in items.idx.iter().zip(&items.def).zip(&items.rep) {
        let range = i.and_then(|k| offsets.get(k)).filter(|(a, b)| b > a);
        match range {
            Some(&(a, b)) => {
                for (n, j) in (a..b).enumerate() {
                    out.idx.push(Some(j));
                    out.def.push(def + 1);
                    out.rep.push(if n == 0 { r } else { rep + 1 });
                }
            }
            None => {
                out.idx.push(None);
                out.def.push(if i.is_some() { def } else { d });
                out.rep.push(r);
            }
        }
    }
    out
}

/// A leaf's levels and the values of its present slots.
fn leaf(array: &ArrayRef, f: &Field, items: &Items, def: u16) -> Result<LeafData> {
    let mut present = Vec::with_capacity(items.idx.len());
    let mut def_levels = items.def.clone();
    for (i, d) in items.idx.iter().zip(def_levels.iter_mut()) {
        if let Some(k) = i {
            present.push(*k);
            *d = def;
        }
    }
    // A dictionary: the values at the keys.
    let (array, present) = match array.data_type() {
        DataType::Dictionary(k, _) => {
            let keys: Vec<usize> = match **k {
                DataType::Int8 => dict_keys::<Int8Type>(array, &present),
                DataType::Int16 => dict_keys::<Int16Type>(array, &present),
                DataType::Int32 => dict_keys::<Int32Type>(array, &present),
                DataType::Int64 => dict_keys::<Int64Type>(array, &present),
                DataType::UInt8 => dict_keys::<UInt8Type>(array, &present),
                DataType::UInt16 => dict_keys::<UInt16Type>(array, &present),
                DataType::UInt32 => dict_keys::<UInt32Type>(array, &present),
                DataType::UInt64 => dict_keys::<UInt64Type>(array, &present),
                _ => return Err(unsupported(f, "dictionary key type")),
            };
            let values = array.as_any_dictionary().values().clone();
            (values, keys)
        }
        _ => (array.clone(), present),
    };
    let values = leaf_values(&array, f, &present)?;
    Ok(LeafData {
        def_levels,
        rep_levels: items.rep.clone(),
        values,
    })
}

fn dict_keys<K: ArrowDictionaryKeyType>(array: &ArrayRef, at: &[usize]) -> Vec<usize> {
    let d = array.as_dictionary::<K>();
    let keys = d.keys().values();
    at.iter()
        .map(|&i| keys.get(i).map_or(0, |k| k.as_usize()))
        .collect()
}

fn gather<T: ArrowPrimitiveType, U>(
    a: &ArrayRef,
    at: &[usize],
    f: impl Fn(T::Native) -> U,
) -> Vec<U> {
    let v = a.as_primitive::<T>().values();
    if at.len() == v.len() && at.first() == Some(&0) && at.last() == Some(&(v.len() - 1)) {
        return v.iter().map(|&x| f(x)).collect();
    }
    at.iter().map(|&i| f(v[i])).collect()
}

fn bytes<'b>(at: &[usize], get: impl Fn(usize) -> &'b [u8]) -> Values {
    let mut out = ByteArrays::with_capacity(at.len(), 0);
    for &i in at {
        out.push(get(i));
    }
    Values::ByteArray(out)
}

fn leaf_values(a: &ArrayRef, f: &Field, at: &[usize]) -> Result<Values> {
    let bad = || unsupported(f, "no Parquet mapping");
    Ok(match a.data_type() {
        DataType::Null => Values::Int32(Vec::new()),
        DataType::Boolean => {
            let b = a.as_boolean();
            Values::Boolean(at.iter().map(|&i| b.value(i)).collect())
        }
        DataType::Int8 => Values::Int32(gather::<Int8Type, _>(a, at, i32::from)),
        DataType::Int16 => Values::Int32(gather::<Int16Type, _>(a, at, i32::from)),
        DataType::Int32 => Values::Int32(gather::<Int32Type, _>(a, at, |x| x)),
        DataType::UInt8 => Values::Int32(gather::<UInt8Type, _>(a, at, i32::from)),
        DataType::UInt16 => Values::Int32(gather::<UInt16Type, _>(a, at, i32::from)),
        DataType::UInt32 => Values::Int32(gather::<UInt32Type, _>(a, at, |x| x as i32)),
        DataType::Int64 => Values::Int64(gather::<Int64Type, _>(a, at, |x| x)),
        DataType::UInt64 => Values::Int64(gather::<UInt64Type, _>(a, at, |x| x as i64)),
        DataType::Float16 => {
            let mut out = FixedLenByteArrays::new(2);
            for b in gather::<Float16Type, _>(a, at, |x| x.to_bits().to_le_bytes()) {
                out.push(&b).ok_or_else(bad)?;
            }
            Values::FixedLenByteArray(out)
        }
        DataType::Float32 => Values::Float(gather::<Float32Type, _>(a, at, |x| x)),
        DataType::Float64 => Values::Double(gather::<Float64Type, _>(a, at, |x| x)),
        DataType::Date32 => Values::Int32(gather::<Date32Type, _>(a, at, |x| x)),
        DataType::Date64 => Values::Int32(gather::<Date64Type, _>(a, at, |x| {
            x.div_euclid(86_400_000) as i32
        })),
        DataType::Time32(AU::Second) => Values::Int32(gather::<Time32SecondType, _>(a, at, |x| {
            x.wrapping_mul(1000)
        })),
        DataType::Time32(_) => Values::Int32(gather::<Time32MillisecondType, _>(a, at, |x| x)),
        DataType::Time64(AU::Nanosecond) => {
            Values::Int64(gather::<Time64NanosecondType, _>(a, at, |x| x))
        }
        DataType::Time64(_) => Values::Int64(gather::<Time64MicrosecondType, _>(a, at, |x| x)),
        DataType::Timestamp(u, _) => Values::Int64(match u {
            AU::Second => gather::<TimestampSecondType, _>(a, at, |x| x.wrapping_mul(1000)),
            AU::Millisecond => gather::<TimestampMillisecondType, _>(a, at, |x| x),
            AU::Microsecond => gather::<TimestampMicrosecondType, _>(a, at, |x| x),
            AU::Nanosecond => gather::<TimestampNanosecondType, _>(a, at, |x| x),
        }),
        DataType::Duration(u) => Values::Int64(match u {
            AU::Second => gather::<DurationSecondType, _>(a, at, |x| x),
            AU::Millisecond => gather::<DurationMillisecondType, _>(a, at, |x| x),
            AU::Microsecond => gather::<DurationMicrosecondType, _>(a, at, |x| x),
            AU::Nanosecond => gather::<DurationNanosecondType, _>(a, at, |x| x),
        }),
        DataType::Decimal128(p, _) => {
            let n = decimal_bytes(*p);
            let mut out = FixedLenByteArrays::new(n);
            for v in gather::<Decimal128Type, _>(a, at, |x| x.to_be_bytes()) {
                out.push(v.get(16 - n.min(16)..).ok_or_else(bad)?)
                    .ok_or_else(bad)?;
            }
            Values::FixedLenByteArray(out)
        }
        DataType::Decimal256(p, _) => {
            let n = decimal_bytes(*p);
            let mut out = FixedLenByteArrays::new(n);
            for v in gather::<Decimal256Type, _>(a, at, |x| x.to_be_bytes()) {
                out.push(v.get(32 - n..).ok_or_else(bad)?).ok_or_else(bad)?;
            }
            Values::FixedLenByteArray(out)
        }
        DataType::Utf8 => {
            let s = a.as_string::<i32>();
            bytes(at, |i| s.value(i).as_bytes())
        }
        DataType::LargeUtf8 => {
            let s = a.as_string::<i64>();
            bytes(at, |i| s.value(i).as_bytes())
        }
        DataType::Utf8View => {
            let s = a.as_string_view();
            bytes(at, |i| s.value(i).as_bytes())
        }
        DataType::Binary => {
            let s = a.as_binary::<i32>();
            bytes(at, |i| s.value(i))
        }
        DataType::LargeBinary => {
            let s = a.as_binary::<i64>();
            bytes(at, |i| s.value(i))
        }
        DataType::BinaryView => {
            let s = a.as_binary_view();
            bytes(at, |i| s.value(i))
        }
        DataType::FixedSizeBinary(w) => {
            let s = a.as_fixed_size_binary();
            let mut out = FixedLenByteArrays::new(usize::try_from(*w).map_err(|_| bad())?);
            for &i in at {
                out.push(s.value(i)).ok_or_else(bad)?;
            }
            Values::FixedLenByteArray(out)
        }
        _ => return Err(bad()),
    })
}

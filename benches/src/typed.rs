//! `--typed`: Rust structs written to and read from Parquet (issue 18 item 6), the nested and
//! the taxi data sets, four ways:
//!
//! - parket typed: `#[derive(parket::Record)]`, `TypedWriter::write` and `read_typed`;
//! - parket Value: the structs turned into `parket::Value` trees and `FileWriter::write_records`;
//!   `FileReader::records` and the trees turned into structs (the conversions timed);
//! - arrow-rs Arrow: Arrow arrays built from the structs and `ArrowWriter`;
//!   `ParquetRecordBatchReader` and the arrays turned into structs (the conversions timed);
//! - `parquet_derive` (`ParquetRecordWriter`), for taxi only: it writes flat structs, and its
//!   reader takes neither `Option` fields (taxi has nulls) nor lists (nested).
//!
//! Every writer gets the source file's options (page version, per column codec, dictionary,
//! encoding; `arrow_side::write_config`), and is handed the rows 8,192 at a time. Reads start
//! from the source file's bytes (pyarrow's). `--runs` rounds, each round timing every path
//! once, the order rotating from round to round, each run in a process of its own (a warm-up,
//! then the timed run, so that no path inherits another's allocator state); medians reported. Every path's
//! rows are checked equal to the rows parket's typed reader gives, and every written file is
//! read back (parket typed) and checked equal.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int16Builder, Int32Builder, Int64Builder, Int8Builder,
    StringBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, TimestampMicrosecondType,
};
use arrow_array::{
    Array, ArrayRef, ListArray, RecordBatch, StructArray, TimestampMicrosecondArray,
};
use bytes::Bytes;
use parket::read::FileReader;
use parket::write::{FileWriter, TypedWriter};
use parket::{Record, Value};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::record::RecordWriter;
use parquet_derive::ParquetRecordWriter;

use crate::arrow_side;

type Res<T> = Result<T, String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Rows handed to a writer per call, and Arrow batch size.
const CHUNK: usize = 8192;

// ---------------------------------------------------------------------------------------------
// The structs.

#[derive(Record, Debug, Clone, PartialEq)]
pub struct Attribute {
    id: String,
    quantity: i8,
    amount: i32,
    active: bool,
    percent: Option<f64>,
    size: i16,
}

#[derive(Record, Debug, Clone, PartialEq)]
pub struct Nested {
    name: String,
    category: String,
    country: String,
    r#type: String,
    attributes: Vec<Attribute>,
}

#[derive(Record, ParquetRecordWriter, Debug, Clone, PartialEq)]
pub struct Taxi {
    vendor_id: i32,
    #[parket(timestamp(unit = "micros", utc = false))]
    pickup_datetime: i64,
    #[parket(timestamp(unit = "micros", utc = false))]
    dropoff_datetime: i64,
    passenger_count: Option<i32>,
    trip_distance: f64,
    rate_code_id: Option<i32>,
    store_and_fwd_flag: Option<String>,
    pu_location_id: i32,
    do_location_id: i32,
    payment_type: i32,
    fare_amount: f64,
    extra: f64,
    mta_tax: f64,
    tip_amount: f64,
    tolls_amount: f64,
    improvement_surcharge: f64,
    total_amount: f64,
    congestion_surcharge: Option<f64>,
    airport_fee: Option<f64>,
    cbd_congestion_fee: f64,
    pickup_borough: String,
    dropoff_borough: String,
    trip_duration_s: i64,
    trip_type: Option<i8>,
}

/// What a data set's struct needs beyond `Record`: its Value trees and Arrow arrays, both
/// ways.
pub trait BenchRow: Record + Clone + PartialEq + std::fmt::Debug + Sized {
    fn to_value(&self) -> Value;
    fn from_value(v: Value) -> Res<Self>;
    fn to_batch(rows: &[Self]) -> Res<RecordBatch>;
    fn from_batch(b: &RecordBatch, out: &mut Vec<Self>) -> Res<()>;
    /// parquet_derive's writer, where it applies.
    fn derive_write(_rows: &[Self], _props: &WriterProperties) -> Option<Res<Vec<u8>>> {
        None
    }
}

fn s(v: &str) -> Value {
    Value::Bytes(v.as_bytes().to_vec())
}

fn opt<T>(v: &Option<T>, f: impl Fn(&T) -> Value) -> Value {
    v.as_ref().map_or(Value::Null, f)
}

fn group(v: Value) -> Res<Vec<Value>> {
    match v {
        Value::Group(g) => Ok(g),
        other => Err(format!("not a group: {other:?}")),
    }
}

fn string(v: Value) -> Res<String> {
    match v {
        Value::Bytes(b) => String::from_utf8(b).map_err(err),
        other => Err(format!("not a string: {other:?}")),
    }
}

fn opt_string(v: Value) -> Res<Option<String>> {
    match v {
        Value::Null => Ok(None),
        v => string(v).map(Some),
    }
}

fn i32v(v: Value) -> Res<i32> {
    match v {
        Value::Int32(x) => Ok(x),
        other => Err(format!("not an INT32: {other:?}")),
    }
}

fn opt_i32(v: Value) -> Res<Option<i32>> {
    match v {
        Value::Null => Ok(None),
        v => i32v(v).map(Some),
    }
}

fn i64v(v: Value) -> Res<i64> {
    match v {
        Value::Int64(x) => Ok(x),
        other => Err(format!("not an INT64: {other:?}")),
    }
}

fn f64v(v: Value) -> Res<f64> {
    match v {
        Value::Double(x) => Ok(x),
        other => Err(format!("not a DOUBLE: {other:?}")),
    }
}

fn opt_f64(v: Value) -> Res<Option<f64>> {
    match v {
        Value::Null => Ok(None),
        v => f64v(v).map(Some),
    }
}

fn narrow<T: TryFrom<i32>>(v: Value) -> Res<T> {
    T::try_from(i32v(v)?).map_err(|_| "out of range".to_string())
}

/// The fields of a group, in order.
struct Fields(std::vec::IntoIter<Value>);

impl Fields {
    fn new(v: Value) -> Res<Self> {
        Ok(Fields(group(v)?.into_iter()))
    }
    fn next(&mut self) -> Res<Value> {
        self.0
            .next()
            .ok_or_else(|| "a group has too few fields".to_string())
    }
}

impl BenchRow for Nested {
    fn to_value(&self) -> Value {
        Value::Group(vec![
            s(&self.name),
            s(&self.category),
            s(&self.country),
            s(&self.r#type),
            Value::List(
                self.attributes
                    .iter()
                    .map(|a| {
                        Value::Group(vec![
                            s(&a.id),
                            Value::Int32(a.quantity.into()),
                            Value::Int32(a.amount),
                            Value::Boolean(a.active),
                            opt(&a.percent, |&p| Value::Double(p)),
                            Value::Int32(a.size.into()),
                        ])
                    })
                    .collect(),
            ),
        ])
    }

    fn from_value(v: Value) -> Res<Self> {
        let mut f = Fields::new(v)?;
        let (name, category, country, r#type) = (
            string(f.next()?)?,
            string(f.next()?)?,
            string(f.next()?)?,
            string(f.next()?)?,
        );
        let attributes = match f.next()? {
            Value::List(items) => items
                .into_iter()
                .map(|item| {
                    let mut a = Fields::new(item)?;
                    Ok(Attribute {
                        id: string(a.next()?)?,
                        quantity: narrow(a.next()?)?,
                        amount: i32v(a.next()?)?,
                        active: match a.next()? {
                            Value::Boolean(b) => b,
                            other => return Err(format!("not a BOOLEAN: {other:?}")),
                        },
                        percent: opt_f64(a.next()?)?,
                        size: narrow(a.next()?)?,
                    })
                })
                .collect::<Res<Vec<_>>>()?,
            other => return Err(format!("not a list: {other:?}")),
        };
        Ok(Nested {
            name,
            category,
            country,
            r#type,
            attributes,
        })
    }

    fn to_batch(rows: &[Self]) -> Res<RecordBatch> {
        use arrow_schema::{DataType, Field, Fields as AFields, Schema};
        let mut strings: [StringBuilder; 4] = Default::default();
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        offsets.push(0i32);
        let mut id = StringBuilder::new();
        let (mut quantity, mut amount, mut active, mut percent, mut size) = (
            Int8Builder::new(),
            Int32Builder::new(),
            BooleanBuilder::new(),
            Float64Builder::new(),
            Int16Builder::new(),
        );
        let mut n = 0i32;
        for r in rows {
            strings[0].append_value(&r.name);
            strings[1].append_value(&r.category);
            strings[2].append_value(&r.country);
            strings[3].append_value(&r.r#type);
            for a in &r.attributes {
                id.append_value(&a.id);
                quantity.append_value(a.quantity);
                amount.append_value(a.amount);
                active.append_value(a.active);
                percent.append_option(a.percent);
                size.append_value(a.size);
            }
            n += r.attributes.len() as i32;
            offsets.push(n);
        }
        let attr_fields = AFields::from(vec![
            Field::new("id", DataType::Utf8, false),
            Field::new("quantity", DataType::Int8, false),
            Field::new("amount", DataType::Int32, false),
            Field::new("active", DataType::Boolean, false),
            Field::new("percent", DataType::Float64, true),
            Field::new("size", DataType::Int16, false),
        ]);
        let attrs = StructArray::try_new(
            attr_fields.clone(),
            vec![
                Arc::new(id.finish()) as ArrayRef,
                Arc::new(quantity.finish()),
                Arc::new(amount.finish()),
                Arc::new(active.finish()),
                Arc::new(percent.finish()),
                Arc::new(size.finish()),
            ],
            None,
        )
        .map_err(err)?;
        let element = Arc::new(Field::new("element", DataType::Struct(attr_fields), false));
        let list = ListArray::try_new(
            element.clone(),
            arrow_buffer::OffsetBuffer::new(offsets.into()),
            Arc::new(attrs),
            None,
        )
        .map_err(err)?;
        let schema = Schema::new(vec![
            Field::new("name", DataType::Utf8, false),
            Field::new("category", DataType::Utf8, false),
            Field::new("country", DataType::Utf8, false),
            Field::new("type", DataType::Utf8, false),
            Field::new("attributes", DataType::List(element), false),
        ]);
        let [a, b, c, d] = strings.map(|mut s| Arc::new(s.finish()) as ArrayRef);
        RecordBatch::try_new(Arc::new(schema), vec![a, b, c, d, Arc::new(list)]).map_err(err)
    }

    fn from_batch(b: &RecordBatch, out: &mut Vec<Self>) -> Res<()> {
        let col = |name: &str| {
            b.column_by_name(name)
                .ok_or_else(|| format!("no column {name}"))
        };
        let (name, category, country, kind) = (
            col("name")?.as_string::<i32>(),
            col("category")?.as_string::<i32>(),
            col("country")?.as_string::<i32>(),
            col("type")?.as_string::<i32>(),
        );
        let list = col("attributes")?.as_list::<i32>();
        let attrs = list.values().as_struct();
        let id = attrs.column(0).as_string::<i32>();
        let quantity = attrs.column(1).as_primitive::<Int8Type>().values();
        let amount = attrs.column(2).as_primitive::<Int32Type>().values();
        let active = attrs.column(3).as_boolean();
        let percent = attrs.column(4).as_primitive::<Float64Type>();
        let size = attrs.column(5).as_primitive::<Int16Type>().values();
        let offsets = list.value_offsets();
        for i in 0..b.num_rows() {
            let range = offsets[i] as usize..offsets[i + 1] as usize;
            out.push(Nested {
                name: name.value(i).to_string(),
                category: category.value(i).to_string(),
                country: country.value(i).to_string(),
                r#type: kind.value(i).to_string(),
                attributes: range
                    .map(|k| Attribute {
                        id: id.value(k).to_string(),
                        quantity: quantity[k],
                        amount: amount[k],
                        active: active.value(k),
                        percent: percent.is_valid(k).then(|| percent.value(k)),
                        size: size[k],
                    })
                    .collect(),
            });
        }
        Ok(())
    }
}

fn opt_str_array(b: &RecordBatch, name: &str) -> Res<arrow_array::StringArray> {
    b.column_by_name(name)
        .ok_or_else(|| format!("no column {name}"))
        .map(|c| c.as_string::<i32>().clone())
}

impl BenchRow for Taxi {
    fn to_value(&self) -> Value {
        Value::Group(vec![
            Value::Int32(self.vendor_id),
            Value::Int64(self.pickup_datetime),
            Value::Int64(self.dropoff_datetime),
            opt(&self.passenger_count, |&x| Value::Int32(x)),
            Value::Double(self.trip_distance),
            opt(&self.rate_code_id, |&x| Value::Int32(x)),
            opt(&self.store_and_fwd_flag, |x| s(x)),
            Value::Int32(self.pu_location_id),
            Value::Int32(self.do_location_id),
            Value::Int32(self.payment_type),
            Value::Double(self.fare_amount),
            Value::Double(self.extra),
            Value::Double(self.mta_tax),
            Value::Double(self.tip_amount),
            Value::Double(self.tolls_amount),
            Value::Double(self.improvement_surcharge),
            Value::Double(self.total_amount),
            opt(&self.congestion_surcharge, |&x| Value::Double(x)),
            opt(&self.airport_fee, |&x| Value::Double(x)),
            Value::Double(self.cbd_congestion_fee),
            s(&self.pickup_borough),
            s(&self.dropoff_borough),
            Value::Int64(self.trip_duration_s),
            opt(&self.trip_type, |&x| Value::Int32(x.into())),
        ])
    }

    fn from_value(v: Value) -> Res<Self> {
        let mut f = Fields::new(v)?;
        Ok(Taxi {
            vendor_id: i32v(f.next()?)?,
            pickup_datetime: i64v(f.next()?)?,
            dropoff_datetime: i64v(f.next()?)?,
            passenger_count: opt_i32(f.next()?)?,
            trip_distance: f64v(f.next()?)?,
            rate_code_id: opt_i32(f.next()?)?,
            store_and_fwd_flag: opt_string(f.next()?)?,
            pu_location_id: i32v(f.next()?)?,
            do_location_id: i32v(f.next()?)?,
            payment_type: i32v(f.next()?)?,
            fare_amount: f64v(f.next()?)?,
            extra: f64v(f.next()?)?,
            mta_tax: f64v(f.next()?)?,
            tip_amount: f64v(f.next()?)?,
            tolls_amount: f64v(f.next()?)?,
            improvement_surcharge: f64v(f.next()?)?,
            total_amount: f64v(f.next()?)?,
            congestion_surcharge: opt_f64(f.next()?)?,
            airport_fee: opt_f64(f.next()?)?,
            cbd_congestion_fee: f64v(f.next()?)?,
            pickup_borough: string(f.next()?)?,
            dropoff_borough: string(f.next()?)?,
            trip_duration_s: i64v(f.next()?)?,
            trip_type: match f.next()? {
                Value::Null => None,
                v => Some(narrow(v)?),
            },
        })
    }

    fn to_batch(rows: &[Self]) -> Res<RecordBatch> {
        use arrow_schema::{DataType, Field, Schema, TimeUnit};
        let n = rows.len();
        macro_rules! prim {
            ($b:ty, $f:ident) => {{
                let mut b = <$b>::with_capacity(n);
                for r in rows {
                    b.append_value(r.$f);
                }
                Arc::new(b.finish()) as ArrayRef
            }};
        }
        macro_rules! optp {
            ($b:ty, $f:ident) => {{
                let mut b = <$b>::with_capacity(n);
                for r in rows {
                    b.append_option(r.$f);
                }
                Arc::new(b.finish()) as ArrayRef
            }};
        }
        let ts = |f: fn(&Taxi) -> i64| {
            Arc::new(TimestampMicrosecondArray::from_iter_values(
                rows.iter().map(f),
            )) as ArrayRef
        };
        let mut flag = StringBuilder::with_capacity(n, n);
        let mut pu = StringBuilder::with_capacity(n, n * 10);
        let mut dob = StringBuilder::with_capacity(n, n * 10);
        for r in rows {
            flag.append_option(r.store_and_fwd_flag.as_deref());
            pu.append_value(&r.pickup_borough);
            dob.append_value(&r.dropoff_borough);
        }
        let tsf = |name: &str| {
            Field::new(
                name,
                DataType::Timestamp(TimeUnit::Microsecond, None),
                false,
            )
        };
        let schema = Schema::new(vec![
            Field::new("vendor_id", DataType::Int32, false),
            tsf("pickup_datetime"),
            tsf("dropoff_datetime"),
            Field::new("passenger_count", DataType::Int32, true),
            Field::new("trip_distance", DataType::Float64, false),
            Field::new("rate_code_id", DataType::Int32, true),
            Field::new("store_and_fwd_flag", DataType::Utf8, true),
            Field::new("pu_location_id", DataType::Int32, false),
            Field::new("do_location_id", DataType::Int32, false),
            Field::new("payment_type", DataType::Int32, false),
            Field::new("fare_amount", DataType::Float64, false),
            Field::new("extra", DataType::Float64, false),
            Field::new("mta_tax", DataType::Float64, false),
            Field::new("tip_amount", DataType::Float64, false),
            Field::new("tolls_amount", DataType::Float64, false),
            Field::new("improvement_surcharge", DataType::Float64, false),
            Field::new("total_amount", DataType::Float64, false),
            Field::new("congestion_surcharge", DataType::Float64, true),
            Field::new("airport_fee", DataType::Float64, true),
            Field::new("cbd_congestion_fee", DataType::Float64, false),
            Field::new("pickup_borough", DataType::Utf8, false),
            Field::new("dropoff_borough", DataType::Utf8, false),
            Field::new("trip_duration_s", DataType::Int64, false),
            Field::new("trip_type", DataType::Int8, true),
        ]);
        let columns = vec![
            prim!(Int32Builder, vendor_id),
            ts(|r| r.pickup_datetime),
            ts(|r| r.dropoff_datetime),
            optp!(Int32Builder, passenger_count),
            prim!(Float64Builder, trip_distance),
            optp!(Int32Builder, rate_code_id),
            Arc::new(flag.finish()) as ArrayRef,
            prim!(Int32Builder, pu_location_id),
            prim!(Int32Builder, do_location_id),
            prim!(Int32Builder, payment_type),
            prim!(Float64Builder, fare_amount),
            prim!(Float64Builder, extra),
            prim!(Float64Builder, mta_tax),
            prim!(Float64Builder, tip_amount),
            prim!(Float64Builder, tolls_amount),
            prim!(Float64Builder, improvement_surcharge),
            prim!(Float64Builder, total_amount),
            optp!(Float64Builder, congestion_surcharge),
            optp!(Float64Builder, airport_fee),
            prim!(Float64Builder, cbd_congestion_fee),
            Arc::new(pu.finish()) as ArrayRef,
            Arc::new(dob.finish()) as ArrayRef,
            prim!(Int64Builder, trip_duration_s),
            optp!(Int8Builder, trip_type),
        ];
        RecordBatch::try_new(Arc::new(schema), columns).map_err(err)
    }

    fn from_batch(b: &RecordBatch, out: &mut Vec<Self>) -> Res<()> {
        let col = |name: &str| {
            b.column_by_name(name)
                .ok_or_else(|| format!("no column {name}"))
        };
        let i32c = |name: &str| col(name).map(|c| c.as_primitive::<Int32Type>().clone());
        let f64c = |name: &str| col(name).map(|c| c.as_primitive::<Float64Type>().clone());
        let tsc =
            |name: &str| col(name).map(|c| c.as_primitive::<TimestampMicrosecondType>().clone());
        let (vendor, pickup, dropoff) = (
            i32c("vendor_id")?,
            tsc("pickup_datetime")?,
            tsc("dropoff_datetime")?,
        );
        let (passengers, distance, rate) = (
            i32c("passenger_count")?,
            f64c("trip_distance")?,
            i32c("rate_code_id")?,
        );
        let flag = opt_str_array(b, "store_and_fwd_flag")?;
        let (pu_loc, do_loc, payment) = (
            i32c("pu_location_id")?,
            i32c("do_location_id")?,
            i32c("payment_type")?,
        );
        let doubles: Vec<_> = [
            "fare_amount",
            "extra",
            "mta_tax",
            "tip_amount",
            "tolls_amount",
            "improvement_surcharge",
            "total_amount",
            "congestion_surcharge",
            "airport_fee",
            "cbd_congestion_fee",
        ]
        .iter()
        .map(|n| f64c(n))
        .collect::<Res<_>>()?;
        let (pu_b, do_b) = (
            opt_str_array(b, "pickup_borough")?,
            opt_str_array(b, "dropoff_borough")?,
        );
        let duration = col("trip_duration_s")?.as_primitive::<Int64Type>().clone();
        let trip_type = col("trip_type")?.as_primitive::<Int8Type>().clone();
        fn o<A: Array>(a: &A, i: usize, v: impl FnOnce() -> f64) -> Option<f64> {
            a.is_valid(i).then(v)
        }
        for i in 0..b.num_rows() {
            out.push(Taxi {
                vendor_id: vendor.value(i),
                pickup_datetime: pickup.value(i),
                dropoff_datetime: dropoff.value(i),
                passenger_count: passengers.is_valid(i).then(|| passengers.value(i)),
                trip_distance: distance.value(i),
                rate_code_id: rate.is_valid(i).then(|| rate.value(i)),
                store_and_fwd_flag: flag.is_valid(i).then(|| flag.value(i).to_string()),
                pu_location_id: pu_loc.value(i),
                do_location_id: do_loc.value(i),
                payment_type: payment.value(i),
                fare_amount: doubles[0].value(i),
                extra: doubles[1].value(i),
                mta_tax: doubles[2].value(i),
                tip_amount: doubles[3].value(i),
                tolls_amount: doubles[4].value(i),
                improvement_surcharge: doubles[5].value(i),
                total_amount: doubles[6].value(i),
                congestion_surcharge: o(&doubles[7], i, || doubles[7].value(i)),
                airport_fee: o(&doubles[8], i, || doubles[8].value(i)),
                cbd_congestion_fee: doubles[9].value(i),
                pickup_borough: pu_b.value(i).to_string(),
                dropoff_borough: do_b.value(i).to_string(),
                trip_duration_s: duration.value(i),
                trip_type: trip_type.is_valid(i).then(|| trip_type.value(i)),
            });
        }
        Ok(())
    }

    fn derive_write(rows: &[Self], props: &WriterProperties) -> Option<Res<Vec<u8>>> {
        Some((|| {
            let schema = <&[Taxi] as RecordWriter<Taxi>>::schema(&rows).map_err(err)?;
            let mut w = SerializedFileWriter::new(Vec::new(), schema, Arc::new(props.clone()))
                .map_err(err)?;
            // One row group per 1 Mi rows (arrow-rs's and parket's default).
            for group in rows.chunks(1 << 20) {
                let mut rg = w.next_row_group().map_err(err)?;
                (&group).write_to_row_group(&mut rg).map_err(err)?;
                rg.close().map_err(err)?;
            }
            w.into_inner().map_err(err)
        })())
    }
}

// ---------------------------------------------------------------------------------------------
// The measurements.

fn typed_read<T: BenchRow>(bytes: &[u8]) -> Res<Vec<T>> {
    let file = FileReader::from_bytes(bytes).map_err(err)?;
    let rows = file.read_typed::<T>().map_err(err)?;
    rows.collect::<parket::Result<Vec<T>>>().map_err(err)
}

fn value_read<T: BenchRow>(bytes: &[u8]) -> Res<Vec<T>> {
    let file = FileReader::from_bytes(bytes).map_err(err)?;
    let mut out = Vec::new();
    for v in file.records(None).map_err(err)? {
        out.push(T::from_value(v.map_err(err)?)?);
    }
    Ok(out)
}

fn arrow_read<T: BenchRow>(bytes: &Bytes) -> Res<Vec<T>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
        .map_err(err)?
        .with_batch_size(CHUNK)
        .build()
        .map_err(err)?;
    let mut out = Vec::new();
    for b in reader {
        T::from_batch(&b.map_err(err)?, &mut out)?;
    }
    Ok(out)
}

fn typed_write<T: BenchRow>(rows: &[T], options: &parket::write::WriteOptions) -> Res<Vec<u8>> {
    let mut w = TypedWriter::<T, _>::new(Vec::new(), options.clone()).map_err(err)?;
    for chunk in rows.chunks(CHUNK) {
        w.write(chunk).map_err(err)?;
    }
    w.finish().map_err(err)?;
    Ok(w.into_inner())
}

fn value_write<T: BenchRow>(rows: &[T], options: &parket::write::WriteOptions) -> Res<Vec<u8>> {
    let schema = T::schema().map_err(err)?;
    let mut w = FileWriter::new(Vec::new(), schema, options.clone()).map_err(err)?;
    for chunk in rows.chunks(CHUNK) {
        let values: Vec<Value> = chunk.iter().map(T::to_value).collect();
        w.write_records(&values).map_err(err)?;
    }
    w.finish().map_err(err)?;
    Ok(w.into_inner())
}

fn arrow_write<T: BenchRow>(rows: &[T], props: &WriterProperties) -> Res<Vec<u8>> {
    let first = T::to_batch(&rows[..rows.len().min(CHUNK)])?;
    let mut w =
        ArrowWriter::try_new(Vec::new(), first.schema(), Some(props.clone())).map_err(err)?;
    w.write(&first).map_err(err)?;
    for chunk in rows.chunks(CHUNK).skip(1) {
        w.write(&T::to_batch(chunk)?).map_err(err)?;
    }
    w.into_inner().map_err(err)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

const PATHS: [&str; 7] = [
    "write typed",
    "write Value",
    "write arrow-rs",
    "write parquet_derive",
    "read typed",
    "read Value",
    "read arrow-rs",
];

/// One file: the medians (`None`: does not apply) of [`PATHS`], and what the checks found.
fn one<T: BenchRow>(
    exe: &Path,
    file: &Path,
    bytes: &Bytes,
    rounds: usize,
) -> Res<(Vec<Option<Duration>>, String)> {
    let rows: Vec<T> = typed_read(bytes)?;
    let config = arrow_side::write_config(bytes).map_err(err)?;
    let props = arrow_side::writer_properties(&config).map_err(err)?;
    let options = crate::parket_side::options(&config).map_err(|e| e.to_string())?;
    // For a profiler or an instruction count: TYPED_PROFILE=K runs path K (an index of PATHS)
    // TYPED_PROFILE_RUNS times (default 20), alone and without the checks, so that
    // `perf stat` of RUNS=n minus RUNS=0 is n runs of that path. With TYPED_SAVE=FILE, a
    // write path's output also goes to FILE.
    if let Some(k) = std::env::var("TYPED_PROFILE")
        .ok()
        .and_then(|k| k.parse().ok())
    {
        let n = std::env::var("TYPED_PROFILE_RUNS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(20);
        for _ in 0..n {
            match k {
                0 => drop(std::hint::black_box(typed_write(&rows, &options)?)),
                1 => drop(std::hint::black_box(value_write(&rows, &options)?)),
                2 => drop(std::hint::black_box(arrow_write(&rows, &props)?)),
                3 => {
                    if let Some(w) = T::derive_write(&rows, &props) {
                        drop(std::hint::black_box(w?))
                    }
                }
                4 => drop(std::hint::black_box(typed_read::<T>(bytes)?)),
                5 => drop(std::hint::black_box(value_read::<T>(bytes)?)),
                _ => drop(std::hint::black_box(arrow_read::<T>(bytes)?)),
            }
        }
        // TYPED_SAVE=FILE: the bytes the write path K (0 to 3) gives, for a byte-for-byte
        // comparison of two builds.
        if let Ok(path) = std::env::var("TYPED_SAVE") {
            let written = match k {
                0 => Some(typed_write(&rows, &options)?),
                1 => Some(value_write(&rows, &options)?),
                2 => Some(arrow_write(&rows, &props)?),
                3 => T::derive_write(&rows, &props).transpose()?,
                _ => None,
            };
            if let Some(w) = written {
                std::fs::write(&path, w).map_err(|e| format!("{path}: {e}"))?;
            }
        }
        return Ok((vec![None; PATHS.len()], "profiled".into()));
    }
    let mut problems = Vec::new();
    // Checks, untimed: every reader gives the same rows; every written file reads back.
    for (name, got) in [
        ("Value read", value_read::<T>(bytes)),
        ("arrow-rs read", arrow_read::<T>(&bytes.clone())),
    ] {
        match got {
            Ok(got) if got == rows => {}
            Ok(_) => problems.push(format!("{name} gave other rows")),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    let derive_applies = T::derive_write(&rows[..0], &props).is_some();
    for (name, written) in [
        ("typed write", typed_write(&rows, &options)),
        ("Value write", value_write(&rows, &options)),
        ("arrow-rs write", arrow_write(&rows, &props)),
        (
            "parquet_derive write",
            T::derive_write(&rows, &props).unwrap_or_else(|| Ok(Vec::new())),
        ),
    ] {
        match written {
            Ok(w) if w.is_empty() => {}
            // parquet_derive writes i64 timestamps without their annotation: read its file
            // back through Value trees, which do not look at annotations.
            Ok(w) if name.starts_with("parquet_derive") => match value_read::<T>(&w) {
                Ok(back) if back == rows => {}
                Ok(_) => problems.push(format!("{name}: read back to other rows")),
                Err(e) => problems.push(format!("{name}: reading back: {e}")),
            },
            Ok(w) => match typed_read::<T>(&w) {
                Ok(back) if back == rows => {}
                Ok(_) => problems.push(format!("{name}: read back to other rows")),
                Err(e) => problems.push(format!("{name}: reading back: {e}")),
            },
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    // Timing: every run of every path in a process of its own (a warm-up, then one timed run),
    // the order of the paths rotating from round to round. In one process the paths shared the
    // allocator's state: glibc's mmap threshold adapts to earlier allocations, and arrow-rs's
    // page faults per read moved from 8,221 to 11,939 with what had run before it (session 13).
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); PATHS.len()];
    for r in 0..rounds {
        for j in 0..PATHS.len() {
            let k = (j + r) % PATHS.len();
            if k == 3 && !derive_applies {
                continue;
            }
            let m = crate::run_child(exe, &format!("typed:{k}"), file, 1);
            match (m.status.as_str(), m.median) {
                ("ok", Some(d)) => times[k].push(d),
                _ => problems.push(format!("{}: {} {}", PATHS[k], m.status, m.message)),
            }
        }
    }
    let medians = times
        .into_iter()
        .enumerate()
        .map(|(k, t)| (!(k == 3 && !derive_applies) && !t.is_empty()).then(|| median(t)))
        .collect();
    let checks = if problems.is_empty() {
        "yes".to_string()
    } else {
        format!("NO: {}", problems.join("; ").replace('|', "/"))
    };
    Ok((medians, checks))
}

/// The child of `one`: path `k` of [`PATHS`] on `file`, once untimed, then timed once; the
/// result line's `median_ns`. `None` when the path does not apply to the file.
pub fn time_path(file: &Path, k: usize) -> Res<Option<Duration>> {
    let bytes = Bytes::from(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("nested") {
        time_one::<Nested>(&bytes, k)
    } else if name.starts_with("taxi") {
        time_one::<Taxi>(&bytes, k)
    } else {
        Ok(None)
    }
}

fn time_one<T: BenchRow>(bytes: &Bytes, k: usize) -> Res<Option<Duration>> {
    let rows: Vec<T> = typed_read(bytes)?;
    let config = arrow_side::write_config(bytes).map_err(err)?;
    let props = arrow_side::writer_properties(&config).map_err(err)?;
    let options = crate::parket_side::options(&config).map_err(|e| e.to_string())?;
    let run = || -> Res<Option<Duration>> {
        let s = Instant::now();
        match k {
            0 => drop(std::hint::black_box(typed_write(&rows, &options)?)),
            1 => drop(std::hint::black_box(value_write(&rows, &options)?)),
            2 => drop(std::hint::black_box(arrow_write(&rows, &props)?)),
            3 => match T::derive_write(&rows, &props) {
                Some(w) => drop(std::hint::black_box(w?)),
                None => return Ok(None),
            },
            4 => drop(std::hint::black_box(typed_read::<T>(bytes)?)),
            5 => drop(std::hint::black_box(value_read::<T>(bytes)?)),
            _ => drop(std::hint::black_box(arrow_read::<T>(bytes)?)),
        }
        Ok(Some(s.elapsed()))
    };
    run()?; // warm-up
    run()
}

/// Runs `--typed` on the nested and taxi files among `files`; returns the report.
pub fn run(files: &[std::path::PathBuf], rounds: usize) -> Res<String> {
    let exe = std::env::current_exe().map_err(err)?;
    let mut out = String::new();
    writeln!(
        out,
        "Times in ms (median of {rounds} rounds); ratios are the other path's time over parket typed's \
         (above 1: typed is faster).\n\n\
         | file | rows | write typed | write Value | write arrow-rs | write parquet_derive | read typed | read Value | read arrow-rs | write: x Value | write: x arrow-rs | write: x derive | read: x Value | read: x arrow-rs | checks |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    )
    .ok();
    for file in files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes =
            Bytes::from(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
        eprintln!("bench --typed: {}", file.display());
        let (times, checks) = if name.starts_with("nested") {
            one::<Nested>(&exe, file, &bytes, rounds)?
        } else if name.starts_with("taxi") {
            one::<Taxi>(&exe, file, &bytes, rounds)?
        } else {
            continue;
        };
        let rows = FileReader::from_bytes(&bytes)
            .map_err(err)?
            .metadata()
            .num_rows;
        let ms = |d: Option<Duration>| {
            d.map_or("n/a".to_string(), |d| {
                format!("{:.1}", d.as_secs_f64() * 1e3)
            })
        };
        let ratio = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}x", a.as_secs_f64() / b.as_secs_f64()),
            _ => "n/a".to_string(),
        };
        writeln!(
            out,
            "| {name} | {rows} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {checks} |",
            ms(times[0]),
            ms(times[1]),
            ms(times[2]),
            ms(times[3]),
            ms(times[4]),
            ms(times[5]),
            ms(times[6]),
            ratio(times[1], times[0]),
            ratio(times[2], times[0]),
            ratio(times[3], times[0]),
            ratio(times[5], times[4]),
            ratio(times[6], times[4]),
        )
        .ok();
        eprintln!("{}", out.lines().last().unwrap_or(""));
    }
    Ok(out)
}

//! Structure-aware round trip: the fuzz bytes, read through `arbitrary`'s `Unstructured`, pick
//! a schema (depth at most 4: groups, 3- and 2-level LISTs, MAPs, repeated fields, every
//! physical type with the common annotations, REQUIRED / OPTIONAL / REPEATED), records that
//! fit it, and `WriteOptions` (V1 / V2, every codec, dictionary on / off, an encoding valid for
//! each column, tiny pages and row groups). The records are written with `FileWriter` into a
//! `Vec<u8>` and read back with `FileReader::records`: the schema must read back the same and
//! the records bit for bit (`Value::bit_eq`); a scan of runs of rows (`FileReader::scan`, with
//! and without the offset indexes) must give exactly those records.
//!
//! Shared by the `roundtrip` fuzz target (`fuzz_targets/roundtrip.rs`) and the regression test
//! (`tests/fuzz_regressions.rs` includes this file with `#[path]`), so it uses only `parket`'s
//! public API and `arbitrary`.

use arbitrary::{Result, Unstructured};
use parket::compression::Codec;
use parket::format::{
    ConvertedType, Encoding, FieldRepetitionType as Rep, LogicalType, PhysicalType, TimeUnit,
};
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::{Schema, Type};
use parket::write::{encoding_allowed, BloomFilterOptions, FileWriter, PageVersion, WriteOptions};

/// Deepest nesting of groups (LIST and MAP count their inner groups).
const MAX_DEPTH: u32 = 4;

/// A leaf's physical type and annotation.
#[derive(Debug, Clone)]
struct Leaf {
    physical: PhysicalType,
    length: usize,
    logical: Option<LogicalType>,
    converted: Option<ConvertedType>,
}

#[derive(Debug, Clone)]
enum Kind {
    Leaf(Leaf),
    Group(Vec<Field>),
    /// 3-level LIST: `group (LIST) { repeated group list { <element> } }`.
    List(Box<Field>),
    /// 2-level LIST: `group (LIST) { repeated <child> }` (a leaf named `array`, or a group of
    /// two fields or more): the repeated child is the element.
    List2(Box<Field>),
    /// MAP: `group (MAP) { repeated group key_value { required <key>; [<value>] } }`.
    Map(Box<Field>, Option<Box<Field>>),
}

#[derive(Debug, Clone)]
struct Field {
    name: String,
    rep: Rep,
    kind: Kind,
}

fn time_unit(u: &mut Unstructured<'_>) -> Result<TimeUnit> {
    Ok(*u.choose(&[TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos])?)
}

fn leaf(u: &mut Unstructured<'_>) -> Result<Leaf> {
    use PhysicalType as P;
    let physical = *u.choose(P::ALL)?;
    let mut length = 0;
    let mut converted = None;
    let annotate = u.ratio(1, 2)?;
    let logical = match physical {
        _ if !annotate => None,
        P::Int32 => Some(match u.int_in_range(0..=3)? {
            0 => LogicalType::Date,
            1 => LogicalType::Time {
                is_adjusted_to_utc: u.arbitrary()?,
                unit: TimeUnit::Millis,
            },
            2 => LogicalType::Integer {
                bit_width: *u.choose(&[8, 16, 32])?,
                is_signed: u.arbitrary()?,
            },
            _ => {
                let precision = u.int_in_range(1..=9)?;
                LogicalType::Decimal {
                    scale: u.int_in_range(0..=precision)?,
                    precision,
                }
            }
        }),
        P::Int64 => Some(match u.int_in_range(0..=3)? {
            0 => LogicalType::Time {
                is_adjusted_to_utc: u.arbitrary()?,
                unit: *u.choose(&[TimeUnit::Micros, TimeUnit::Nanos])?,
            },
            1 => LogicalType::Timestamp {
                is_adjusted_to_utc: u.arbitrary()?,
                unit: time_unit(u)?,
            },
            2 => LogicalType::Integer {
                bit_width: 64,
                is_signed: u.arbitrary()?,
            },
            _ => {
                let precision = u.int_in_range(1..=18)?;
                LogicalType::Decimal {
                    scale: u.int_in_range(0..=precision)?,
                    precision,
                }
            }
        }),
        P::ByteArray => Some(match u.int_in_range(0..=4)? {
            0 => LogicalType::String,
            1 => LogicalType::Enum,
            2 => LogicalType::Json,
            3 => LogicalType::Bson,
            _ => {
                let precision = u.int_in_range(1..=38)?;
                LogicalType::Decimal {
                    scale: u.int_in_range(0..=precision)?,
                    precision,
                }
            }
        }),
        _ => None,
    };
    if physical == P::FixedLenByteArray {
        length = u.int_in_range(1..=20)?;
        if annotate {
            match u.int_in_range(0..=3)? {
                0 => {
                    length = 16;
                    return Ok(Leaf {
                        physical,
                        length,
                        logical: Some(LogicalType::Uuid),
                        converted,
                    });
                }
                1 => {
                    length = 2;
                    return Ok(Leaf {
                        physical,
                        length,
                        logical: Some(LogicalType::Float16),
                        converted,
                    });
                }
                2 => {
                    length = 12;
                    converted = Some(ConvertedType::Interval);
                }
                _ => {
                    // Spec: at most floor(log10(2^(8n-1) - 1)) digits in n bytes.
                    let max = ((8 * length as u32 - 1) as f64 * 2f64.log10()).floor() as i32;
                    if max >= 1 {
                        let precision = u.int_in_range(1..=max)?;
                        return Ok(Leaf {
                            physical,
                            length,
                            logical: Some(LogicalType::Decimal {
                                scale: u.int_in_range(0..=precision)?,
                                precision,
                            }),
                            converted,
                        });
                    }
                }
            }
        }
    }
    Ok(Leaf {
        physical,
        length,
        logical,
        converted,
    })
}

/// A field named `name` whose groups nest at most `depth` more levels; `rep` forced when given.
fn field(u: &mut Unstructured<'_>, name: String, depth: u32, rep: Option<Rep>) -> Result<Field> {
    let pick_rep = |u: &mut Unstructured<'_>, repeated_ok: bool| -> Result<Rep> {
        Ok(match rep {
            Some(r) => r,
            None if repeated_ok => *u.choose(&[Rep::Required, Rep::Optional, Rep::Repeated])?,
            None => *u.choose(&[Rep::Required, Rep::Optional])?,
        })
    };
    let choice = if depth == 0 {
        0
    } else {
        u.int_in_range(0..=5)?
    };
    // LIST and MAP groups are not repeated themselves (their repetition is inside).
    let list_ok = rep != Some(Rep::Repeated);
    Ok(match choice {
        2 if list_ok && depth >= 2 => {
            let element = u.choose(&[Rep::Required, Rep::Optional])?;
            Field {
                name,
                rep: pick_rep(u, false)?,
                kind: Kind::List(Box::new(field(
                    u,
                    "element".into(),
                    depth - 2,
                    Some(*element),
                )?)),
            }
        }
        3 if list_ok => {
            let child = if depth >= 2 && u.ratio(1, 2)? {
                let n = u.int_in_range(2..=3)?;
                let children = (0..n)
                    .map(|i| field(u, format!("f{i}"), depth - 2, None))
                    .collect::<Result<Vec<_>>>()?;
                Field {
                    name: "tuple".into(),
                    rep: Rep::Repeated,
                    kind: Kind::Group(children),
                }
            } else {
                Field {
                    name: "array".into(),
                    rep: Rep::Repeated,
                    kind: Kind::Leaf(leaf(u)?),
                }
            };
            Field {
                name,
                rep: pick_rep(u, false)?,
                kind: Kind::List2(Box::new(child)),
            }
        }
        4 if list_ok && depth >= 2 => {
            let key = Field {
                name: "key".into(),
                rep: Rep::Required,
                kind: Kind::Leaf(leaf(u)?),
            };
            let value = if u.ratio(1, 5)? {
                None
            } else {
                let r = *u.choose(&[Rep::Required, Rep::Optional])?;
                Some(Box::new(field(u, "value".into(), depth - 2, Some(r))?))
            };
            Field {
                name,
                rep: pick_rep(u, false)?,
                kind: Kind::Map(Box::new(key), value),
            }
        }
        1 | 5 => {
            let n = u.int_in_range(1..=3)?;
            let children = (0..n)
                .map(|i| field(u, format!("f{i}"), depth - 1, None))
                .collect::<Result<Vec<_>>>()?;
            Field {
                name,
                rep: pick_rep(u, true)?,
                kind: Kind::Group(children),
            }
        }
        _ => Field {
            name,
            rep: pick_rep(u, true)?,
            kind: Kind::Leaf(leaf(u)?),
        },
    })
}

fn to_type(f: &Field) -> Type {
    match &f.kind {
        Kind::Leaf(l) => {
            let mut t = Type::primitive(f.name.clone(), f.rep, l.physical);
            if l.physical == PhysicalType::FixedLenByteArray {
                t = t.length(l.length);
            }
            if let Some(lt) = &l.logical {
                t = t.logical_type(lt.clone());
            }
            if let Some(ct) = l.converted {
                t = t.converted_type(ct);
            }
            t
        }
        Kind::Group(children) => Type::group(f.name.clone(), f.rep, children.iter().map(to_type)),
        Kind::List(element) => Type::list(f.name.clone(), f.rep, to_type(element)),
        Kind::List2(child) => {
            Type::group(f.name.clone(), f.rep, [to_type(child)]).logical_type(LogicalType::List)
        }
        Kind::Map(key, value) => Type::map(
            f.name.clone(),
            f.rep,
            to_type(key),
            value.as_deref().map(to_type),
        ),
    }
}

/// Bounds the values of one case (the bytes bound it too, but lists multiply).
struct Budget(usize);

fn leaf_value(u: &mut Unstructured<'_>, l: &Leaf) -> Result<Value> {
    use PhysicalType as P;
    Ok(match l.physical {
        P::Boolean => Value::Boolean(u.arbitrary()?),
        P::Int32 => Value::Int32(u.arbitrary()?),
        P::Int64 => Value::Int64(u.arbitrary()?),
        P::Int96 => Value::Int96(u.arbitrary()?),
        // Any bits: NaNs with payloads and negative zeros must come back unchanged.
        P::Float => Value::Float(f32::from_bits(u.arbitrary()?)),
        P::Double => Value::Double(f64::from_bits(u.arbitrary()?)),
        P::ByteArray => {
            let n = u.int_in_range(0..=24)?;
            let bytes = u.bytes(n.min(u.len()))?.to_vec();
            Value::Bytes(if matches!(l.logical, Some(LogicalType::String)) {
                String::from_utf8_lossy(&bytes).into_owned().into_bytes()
            } else {
                bytes
            })
        }
        P::FixedLenByteArray => {
            let mut b = vec![0u8; l.length];
            u.fill_buffer(&mut b)?;
            Value::Bytes(b)
        }
    })
}

/// A value of `f` (its repetition included: a repeated field gives a `List`).
fn value(u: &mut Unstructured<'_>, f: &Field, budget: &mut Budget) -> Result<Value> {
    match f.rep {
        Rep::Optional if budget.0 == 0 || u.ratio(1, 4)? => return Ok(Value::Null),
        Rep::Repeated => {
            // Outside LIST and MAP: the repetitions as a List (read back as one, even empty).
            let n = if budget.0 == 0 {
                0
            } else {
                u.int_in_range(0..=3)?
            };
            let items = (0..n)
                .map(|_| value_inner(u, f, budget))
                .collect::<Result<Vec<_>>>()?;
            return Ok(Value::List(items));
        }
        _ => {}
    }
    value_inner(u, f, budget)
}

/// A present value of `f`, ignoring its repetition.
fn value_inner(u: &mut Unstructured<'_>, f: &Field, budget: &mut Budget) -> Result<Value> {
    budget.0 = budget.0.saturating_sub(1);
    Ok(match &f.kind {
        Kind::Leaf(l) => leaf_value(u, l)?,
        Kind::Group(children) => Value::Group(
            children
                .iter()
                .map(|c| value(u, c, budget))
                .collect::<Result<_>>()?,
        ),
        Kind::List(element) => {
            let n = if budget.0 == 0 {
                0
            } else {
                u.int_in_range(0..=4)?
            };
            Value::List(
                (0..n)
                    .map(|_| value(u, element, budget))
                    .collect::<Result<_>>()?,
            )
        }
        Kind::List2(child) => {
            let n = if budget.0 == 0 {
                0
            } else {
                u.int_in_range(0..=4)?
            };
            Value::List(
                (0..n)
                    .map(|_| value_inner(u, child, budget))
                    .collect::<Result<_>>()?,
            )
        }
        Kind::Map(key, val) => {
            let n = if budget.0 == 0 {
                0
            } else {
                u.int_in_range(0..=3)?
            };
            let mut entries = Vec::new();
            for _ in 0..n {
                let k = value(u, key, budget)?;
                let v = match val {
                    Some(v) => value(u, v, budget)?,
                    None => Value::Null,
                };
                entries.push((k, v));
            }
            Value::Map(entries)
        }
    })
}

fn codec(u: &mut Unstructured<'_>) -> Result<Codec> {
    Ok(match u.int_in_range(0..=7)? {
        0 => Codec::Uncompressed,
        1 => Codec::Snappy,
        2 => Codec::Gzip {
            level: u.int_in_range(0..=9)?,
        },
        // Brotli's high qualities are slow: the fuzzer wants executions.
        3 => Codec::Brotli {
            level: u.int_in_range(0..=4)?,
        },
        4 => Codec::Lz4,
        5 => Codec::Lz4Raw,
        6 => Codec::Zstd {
            level: u.int_in_range(-5..=5)?,
        },
        _ => Codec::Lzo,
    })
}

fn encoding(u: &mut Unstructured<'_>, physical: PhysicalType) -> Result<Encoding> {
    let all = [
        Encoding::Plain,
        Encoding::Rle,
        Encoding::DeltaBinaryPacked,
        Encoding::DeltaLengthByteArray,
        Encoding::DeltaByteArray,
        Encoding::ByteStreamSplit,
        Encoding::Alp,
    ];
    let valid: Vec<Encoding> = all
        .into_iter()
        .filter(|&e| encoding_allowed(e, physical))
        .collect();
    Ok(*u.choose(&valid)?)
}

/// Small sizes often, so that pages, dictionaries and row groups split.
fn small(u: &mut Unstructured<'_>, max: usize) -> Result<usize> {
    u.int_in_range(1..=max)
}

fn options(u: &mut Unstructured<'_>, schema: &Schema) -> Result<WriteOptions> {
    let mut o = WriteOptions::default()
        .page_version(if u.arbitrary()? {
            PageVersion::V2
        } else {
            PageVersion::V1
        })
        .codec(codec(u)?)
        .dictionary(u.arbitrary()?)
        .dictionary_page_size_limit(small(u, 512)?)
        .data_page_size(small(u, 2048)?)
        .max_rows_per_page(small(u, 64)?)
        .statistics(u.arbitrary()?)
        .row_group_rows(small(u, 64)?)
        .row_group_bytes(small(u, 8192)?)
        .page_crc(u.arbitrary()?)
        .page_index(u.arbitrary()?)
        .column_index_truncate_length(if u.arbitrary()? {
            Some(small(u, 16)?)
        } else {
            None
        })
        .statistics_truncate_length(if u.arbitrary()? {
            Some(small(u, 16)?)
        } else {
            None
        });
    for c in schema.columns() {
        if !u.ratio(1, 2)? {
            continue;
        }
        let path = c.path_string();
        let enc = encoding(u, c.physical_type)?;
        let version = u.arbitrary::<bool>()?;
        let dict = u.arbitrary::<bool>()?;
        let cdc = codec(u)?;
        let bloom = if u.ratio(1, 4)? {
            Some(BloomFilterOptions {
                fpp: *u.choose(&[0.5, 0.1, 0.01])?,
                ndv: if u.arbitrary()? {
                    Some(u.int_in_range(1..=100)?)
                } else {
                    None
                },
            })
        } else {
            None
        };
        o = o.column(&path, |c| {
            c.encoding(enc)
                .dictionary(dict)
                .codec(cdc)
                .page_version(if version {
                    PageVersion::V2
                } else {
                    PageVersion::V1
                })
                .bloom_filter(bloom)
        });
    }
    Ok(o)
}

/// One case: the schema, the records and the options.
pub fn generate(u: &mut Unstructured<'_>) -> Result<(Schema, Vec<Value>, WriteOptions)> {
    let n = u.int_in_range(1..=4)?;
    let fields = (0..n)
        .map(|i| field(u, format!("c{i}"), MAX_DEPTH, None))
        .collect::<Result<Vec<_>>>()?;
    let schema = Schema::new("m", fields.iter().map(to_type).collect())
        .map_err(|_| arbitrary::Error::IncorrectFormat)?;
    let options = options(u, &schema)?;
    let mut budget = Budget(2000);
    let rows = u.int_in_range(0..=200)?;
    let mut records = Vec::new();
    for _ in 0..rows {
        if u.is_empty() {
            break;
        }
        records.push(Value::Group(
            fields
                .iter()
                .map(|f| value(u, f, &mut budget))
                .collect::<Result<_>>()?,
        ));
    }
    Ok((schema, records, options))
}

/// Writes and reads back; `Err` names what went wrong.
pub fn check(
    schema: &Schema,
    records: &[Value],
    options: WriteOptions,
) -> std::result::Result<(), String> {
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options.clone())
        .map_err(|e| format!("FileWriter::new: {e}"))?;
    writer
        .write_records(records)
        .map_err(|e| format!("write_records: {e}"))?;
    writer.finish().map_err(|e| format!("finish: {e}"))?;
    let bytes = writer.into_inner();
    let file = FileReader::from_bytes(&bytes).map_err(|e| format!("from_bytes: {e}"))?;
    if file.schema() != schema {
        return Err(format!(
            "the schema reads back differently:\n{}\n---\n{}",
            schema,
            file.schema()
        ));
    }
    same_records(&file, records, "")?;
    same_scan(&file, records)?;
    check_streamed(schema, records, options)
}

/// A scan of runs of rows (through the offset indexes when the file has them, so that pages
/// are skipped and rows are skipped inside pages) must give exactly those records.
fn same_scan(file: &FileReader<'_>, records: &[Value]) -> std::result::Result<(), String> {
    let n = records.len() as u64;
    let sel =
        parket::read::RowRanges::from_ranges((0..n.div_ceil(7)).map(|k| k * 7 + 1..k * 7 + 4));
    for use_index in [true, false] {
        let got = file
            .scan()
            .rows(sel.clone())
            .batch_size(5)
            .use_page_index(use_index)
            .build()
            .and_then(|s| s.records().collect::<parket::Result<Vec<Value>>>())
            .map_err(|e| format!("scan (page index {use_index}): {e}"))?;
        let expected: Vec<&Value> = (0..n)
            .filter(|&i| sel.overlaps(i..i + 1))
            .filter_map(|i| records.get(i as usize))
            .collect();
        if got.len() != expected.len() || got.iter().zip(&expected).any(|(a, b)| !a.bit_eq(b)) {
            return Err(format!(
                "scan (page index {use_index}): {} records, {} selected, or they differ",
                got.len(),
                expected.len()
            ));
        }
    }
    Ok(())
}

/// `file`'s records must be `records`, bit for bit; an error names the first difference
/// (after `what`).
fn same_records(
    file: &FileReader<'_>,
    records: &[Value],
    what: &str,
) -> std::result::Result<(), String> {
    let back = file
        .records(None)
        .map_err(|e| format!("{what}records: {e}"))?
        .collect::<parket::Result<Vec<Value>>>()
        .map_err(|e| format!("{what}reading records back: {e}"))?;
    if back.len() != records.len() {
        return Err(format!(
            "{what}{} records written, {} read",
            records.len(),
            back.len()
        ));
    }
    for (i, (a, b)) in records.iter().zip(&back).enumerate() {
        if !a.bit_eq(b) {
            return Err(format!(
                "{what}record {i} differs:\nwritten {a:?}\nread    {b:?}"
            ));
        }
    }
    Ok(())
}

/// The records as one row group written through `RowGroupWriter::write` + `close_column`
/// (each column whole, in schema order: pages straight to the sink), read back.
fn check_streamed(
    schema: &Schema,
    records: &[Value],
    options: WriteOptions,
) -> std::result::Result<(), String> {
    let leaves =
        parket::levels::shred::shred(schema, records).map_err(|e| format!("shred: {e}"))?;
    let mut writer = FileWriter::new(Vec::new(), schema.clone(), options)
        .map_err(|e| format!("FileWriter::new: {e}"))?;
    let mut rg = writer.next_row_group().map_err(|e| e.to_string())?;
    for (i, leaf) in leaves.iter().enumerate() {
        rg.write(i, leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)
            .map_err(|e| format!("streamed write of column {i}: {e}"))?;
        rg.close_column(i)
            .map_err(|e| format!("close_column {i}: {e}"))?;
    }
    rg.finish().map_err(|e| format!("streamed finish: {e}"))?;
    writer.finish().map_err(|e| format!("finish: {e}"))?;
    let bytes = writer.into_inner();
    let file = FileReader::from_bytes(&bytes).map_err(|e| format!("streamed from_bytes: {e}"))?;
    same_records(&file, records, "streamed: ")
}

/// Fuzzing harness: panics when records written and read back differ (or the library panics).
pub fn fuzz_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((schema, records, options)) = generate(&mut u) else {
        return;
    };
    if let Err(e) = check(&schema, &records, options.clone()) {
        panic!("round trip failed: {e}\nschema:\n{schema}\noptions: {options:?}");
    }
}

//! Tests of the schema tree, levels, validation and the message text.
//!
//! Expected values are worked by hand from the spec (levels: count OPTIONAL/REPEATED and
//! REPEATED ancestors; annotations: LogicalTypes.md's compatibility tables), never read back
//! from the code under test.

use super::*;
use crate::error::ErrorKind;
use crate::format::{EdgeInterpolationAlgorithm, FieldRepetitionType as R, TimeUnit};
use alloc::string::ToString;
use alloc::vec;

fn group(name: &str, rep: Option<R>, n: i32) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        repetition_type: rep,
        num_children: Some(n),
        ..SchemaElement::default()
    }
}

fn leaf(name: &str, rep: R, t: PhysicalType) -> SchemaElement {
    SchemaElement {
        name: name.into(),
        repetition_type: Some(rep),
        type_: Some(t),
        ..SchemaElement::default()
    }
}

fn with_converted(mut e: SchemaElement, c: ConvertedType) -> SchemaElement {
    e.converted_type = Some(c);
    e
}

/// Nested 3-level lists, a map, a legacy 2-level list and an unannotated repeated group, in
/// the shapes parquet-java, Spark and parquet-rs write (ConvertedType only, like
/// nested_lists.snappy / nested_maps.snappy / old_list_structure / repeated_no_annotation).
fn nested_elements() -> Vec<SchemaElement> {
    use PhysicalType as P;
    vec![
        group("spark_schema", None, 5),    // 0
        leaf("id", R::Required, P::Int64), // 1
        with_converted(group("a", Some(R::Optional), 1), ConvertedType::List), // 2
        group("list", Some(R::Repeated), 1), // 3
        with_converted(group("element", Some(R::Optional), 1), ConvertedType::List), // 4
        group("list", Some(R::Repeated), 1), // 5
        with_converted(
            leaf("element", R::Optional, P::ByteArray),
            ConvertedType::Utf8,
        ), // 6
        with_converted(group("m", Some(R::Required), 1), ConvertedType::Map), // 7
        with_converted(
            group("key_value", Some(R::Repeated), 2),
            ConvertedType::MapKeyValue,
        ), // 8
        with_converted(leaf("key", R::Required, P::ByteArray), ConvertedType::Utf8), // 9
        leaf("value", R::Optional, P::Int32), // 10
        with_converted(group("legacy", Some(R::Optional), 1), ConvertedType::List), // 11
        leaf("array", R::Repeated, P::Int32), // 12
        group("s", Some(R::Optional), 2),  // 13
        leaf("x", R::Required, P::Int32),  // 14
        group("phone", Some(R::Repeated), 1), // 15
        leaf("n", R::Optional, P::Int64),  // 16
    ]
}

#[test]
fn nested_tree_levels_and_paths_match_hand_worked_values() {
    let s = Schema::from_elements(&nested_elements()).unwrap();
    assert_eq!(s.name(), "spark_schema");
    assert_eq!(s.nodes().len(), 17);
    assert_eq!(s.root().children(), &[1, 2, 7, 11, 13]);
    // (path, node, max_def_level, max_rep_level, leaf repetition), worked by hand.
    let expected: &[(&str, usize, u16, u16, R)] = &[
        ("id", 1, 0, 0, R::Required),
        ("a.list.element.list.element", 6, 5, 2, R::Optional),
        ("m.key_value.key", 9, 1, 1, R::Required),
        ("m.key_value.value", 10, 2, 1, R::Optional),
        ("legacy.array", 12, 2, 1, R::Repeated),
        ("s.x", 14, 1, 0, R::Required),
        ("s.phone.n", 16, 3, 1, R::Optional),
    ];
    assert_eq!(s.columns().len(), expected.len());
    for (i, (c, &(path, node, def, rep, repetition))) in
        s.columns().iter().zip(expected).enumerate()
    {
        assert_eq!(c.path_string(), path);
        assert_eq!(c.node, node, "{path}");
        assert_eq!(c.max_def_level, def, "{path}");
        assert_eq!(c.max_rep_level, rep, "{path}");
        assert_eq!(c.repetition, repetition, "{path}");
        assert_eq!(s.column_index(path), Some(i));
        assert_eq!(s.node_index(path), Some(node));
        assert_eq!(s.node_path_string(node), path);
    }
    assert_eq!(
        s.columns()[1].path,
        ["a", "list", "element", "list", "element"]
    );
    // Groups: lookup, levels, and the contiguous range of their leaves.
    assert_eq!(s.node_index("m.key_value"), Some(8));
    assert_eq!(s.column_index("m.key_value"), None);
    assert_eq!(s.node_index_by_path(&["a", "list", "element"]), Some(4));
    assert_eq!(s.node_index_by_path::<&str>(&[]), Some(0));
    assert_eq!(s.node_index_by_path(&["a", "nope"]), None);
    let a = s.node(4).unwrap();
    assert_eq!((a.max_def_level, a.max_rep_level), (3, 1));
    assert_eq!(s.node(2).unwrap().columns, 1..2);
    assert_eq!(s.node(7).unwrap().columns, 2..4);
    assert_eq!(s.node(13).unwrap().columns, 5..7);
    assert_eq!(s.root().columns, 0..7);
    assert_eq!(s.node(15).unwrap().parent, Some(13));
    // ConvertedType-only annotations gain their logical type; MAP_KEY_VALUE stays alone.
    assert_eq!(s.node(2).unwrap().logical_type, Some(LogicalType::List));
    assert_eq!(s.node(8).unwrap().logical_type, None);
    assert_eq!(
        s.node(8).unwrap().converted_type,
        Some(ConvertedType::MapKeyValue)
    );
    assert_eq!(s.columns()[1].logical_type, Some(LogicalType::String));
    assert_eq!(s.columns()[1].converted_type, Some(ConvertedType::Utf8));
}

#[test]
fn nested_tree_prints_as_parquet_java_does() {
    let s = Schema::from_elements(&nested_elements()).unwrap();
    let text = "message spark_schema {
  required int64 id;
  optional group a (LIST) {
    repeated group list {
      optional group element (LIST) {
        repeated group list {
          optional binary element (STRING);
        }
      }
    }
  }
  required group m (MAP) {
    repeated group key_value (MAP_KEY_VALUE) {
      required binary key (STRING);
      optional int32 value;
    }
  }
  optional group legacy (LIST) {
    repeated int32 array;
  }
  optional group s {
    required int32 x;
    repeated group phone {
      optional int64 n;
    }
  }
}";
    assert_eq!(s.to_string(), text);
    assert_eq!(Schema::parse(text).unwrap(), s);
}

#[test]
fn to_elements_writes_logical_and_converted_types() {
    let mut elements = nested_elements();
    let s = Schema::from_elements(&elements).unwrap();
    let out = s.to_elements();
    // What changes is only the added logical types (and the root's absent repetition).
    elements[2].logical_type = Some(LogicalType::List);
    elements[4].logical_type = Some(LogicalType::List);
    elements[6].logical_type = Some(LogicalType::String);
    elements[7].logical_type = Some(LogicalType::Map);
    elements[11].logical_type = Some(LogicalType::List);
    elements[9].logical_type = Some(LogicalType::String);
    assert_eq!(out, elements);
    assert_eq!(Schema::from_elements(&out).unwrap(), s);
}

#[test]
fn converted_types_derive_logical_types_per_the_backward_compatibility_tables() {
    use ConvertedType as C;
    use PhysicalType as P;
    let ts = |unit| LogicalType::Timestamp {
        is_adjusted_to_utc: true,
        unit,
    };
    let time = |unit| LogicalType::Time {
        is_adjusted_to_utc: true,
        unit,
    };
    let int = |bit_width, is_signed| LogicalType::Integer {
        bit_width,
        is_signed,
    };
    let cases: &[(P, C, LogicalType)] = &[
        (P::ByteArray, C::Utf8, LogicalType::String),
        (P::ByteArray, C::Enum, LogicalType::Enum),
        (P::ByteArray, C::Json, LogicalType::Json),
        (P::ByteArray, C::Bson, LogicalType::Bson),
        (P::Int32, C::Date, LogicalType::Date),
        (P::Int32, C::TimeMillis, time(TimeUnit::Millis)),
        (P::Int64, C::TimeMicros, time(TimeUnit::Micros)),
        (P::Int64, C::TimestampMillis, ts(TimeUnit::Millis)),
        (P::Int64, C::TimestampMicros, ts(TimeUnit::Micros)),
        (P::Int32, C::Uint8, int(8, false)),
        (P::Int32, C::Uint16, int(16, false)),
        (P::Int32, C::Uint32, int(32, false)),
        (P::Int64, C::Uint64, int(64, false)),
        (P::Int32, C::Int8, int(8, true)),
        (P::Int32, C::Int16, int(16, true)),
        (P::Int32, C::Int32, int(32, true)),
        (P::Int64, C::Int64, int(64, true)),
    ];
    for (p, c, lt) in cases {
        let elements = [
            group("m", None, 1),
            with_converted(leaf("x", R::Optional, *p), *c),
        ];
        let s = Schema::from_elements(&elements).unwrap();
        let col = &s.columns()[0];
        assert_eq!(col.logical_type.as_ref(), Some(lt), "{c}");
        assert_eq!(col.converted_type, Some(*c), "{c}");
        // Printed with the old name, parsed back to the same schema.
        let old = format!("message m {{ optional {} x ({}); }}", physical_name(*p), c);
        assert_eq!(Schema::parse(&old).unwrap(), s, "{old}");
    }
    // DECIMAL takes scale and precision from the element (byte_array_decimal.parquet:
    // BYTE_ARRAY DECIMAL(4,2) via ConvertedType only); the scale defaults to 0.
    let mut d = with_converted(leaf("d", R::Optional, P::ByteArray), C::Decimal);
    d.precision = Some(4);
    d.scale = Some(2);
    let s = Schema::from_elements(&[group("m", None, 1), d.clone()]).unwrap();
    assert_eq!(
        s.columns()[0].logical_type,
        Some(LogicalType::Decimal {
            scale: 2,
            precision: 4
        })
    );
    assert_eq!(
        s.to_string(),
        "message m {\n  optional binary d (DECIMAL(4,2));\n}"
    );
    let out = s.to_elements();
    assert_eq!((out[1].scale, out[1].precision), (Some(2), Some(4)));
    d.scale = None;
    let s = Schema::from_elements(&[group("m", None, 1), d.clone()]).unwrap();
    assert_eq!(
        s.columns()[0].logical_type,
        Some(LogicalType::Decimal {
            scale: 0,
            precision: 4
        })
    );
    // Without a precision the annotation cannot be derived: dropped.
    d.precision = None;
    let s = Schema::from_elements(&[group("m", None, 1), d]).unwrap();
    assert_eq!(s.columns()[0].logical_type, None);
    assert_eq!(s.columns()[0].converted_type, None);
}

fn physical_name(p: PhysicalType) -> &'static str {
    match p {
        PhysicalType::Int32 => "int32",
        PhysicalType::Int64 => "int64",
        PhysicalType::ByteArray => "binary",
        _ => unreachable!(),
    }
}

#[test]
fn forward_compatibility_converted_types() {
    use ConvertedType as C;
    let cases = [
        (
            LogicalType::Timestamp {
                is_adjusted_to_utc: false,
                unit: TimeUnit::Millis,
            },
            Some(C::TimestampMillis),
        ),
        (
            LogicalType::Timestamp {
                is_adjusted_to_utc: true,
                unit: TimeUnit::Nanos,
            },
            None,
        ),
        (
            LogicalType::Time {
                is_adjusted_to_utc: false,
                unit: TimeUnit::Micros,
            },
            Some(C::TimeMicros),
        ),
        (
            LogicalType::Integer {
                bit_width: 16,
                is_signed: false,
            },
            Some(C::Uint16),
        ),
        (LogicalType::Uuid, None),
        (LogicalType::Float16, None),
        (LogicalType::Unknown, None),
        (
            LogicalType::Decimal {
                scale: 1,
                precision: 3,
            },
            Some(C::Decimal),
        ),
    ];
    for (lt, c) in cases {
        assert_eq!(converted_type_of(&lt), c, "{lt:?}");
    }
}

#[test]
fn flba_decimal_capacity() {
    // floor(log10(2^(8n-1) - 1)), worked by hand (e.g. n=4: 2^31-1 = 2147483647, 10 digits,
    // so 9 full digits; n=16: 2^127-1 ~ 1.7e38, 38).
    let expected = [
        (1, 2),
        (2, 4),
        (3, 6),
        (4, 9),
        (5, 11),
        (6, 14),
        (7, 16),
        (8, 18),
        (9, 21),
        (10, 23),
        (11, 26),
        (12, 28),
        (16, 38),
        (32, 76),
    ];
    for (n, digits) in expected {
        assert_eq!(max_decimal_precision_for_flba(n), digits, "n={n}");
    }
    assert_eq!(max_decimal_precision_for_flba(0), 0);
    // Large lengths, against floor((8n-1) * log10(2)) worked to 100 digits (Python's decimal):
    // exact to 2^31 as documented, and still right far beyond.
    for (n, digits) in [
        (1000, 2407),
        (1_000_000, 2_408_239),
        (123_456_789, 297_313_572),
        ((1 << 31) - 1, 5_171_655_943),
        (1 << 40, 2_647_887_844_334),
        (1 << 60, 2_776_511_644_261_678_565),
    ] {
        assert_eq!(max_decimal_precision_for_flba(n), digits, "n={n}");
    }
    // fixed_length_decimal.parquet: FLBA(11) DECIMAL(25,2); legacy: FLBA(6) DECIMAL(13,2).
    for (n, p) in [(11, 25), (6, 13)] {
        let text =
            format!("message m {{ optional fixed_len_byte_array({n}) d (DECIMAL({p},2)); }}");
        assert!(Schema::parse(&text).is_ok(), "{text}");
    }
    assert!(
        Schema::parse("message m { optional fixed_len_byte_array(4) d (DECIMAL(10,2)); }").is_err()
    );
}

/// Every annotation, printed as parquet-java prints it, parses and prints back unchanged.
#[test]
fn every_annotation_round_trips_through_the_text() {
    let text = r#"message schema {
  required binary s (STRING);
  optional binary e (ENUM);
  optional binary j (JSON);
  optional binary b (BSON);
  required int32 d32 (DECIMAL(9,2));
  required int64 d64 (DECIMAL(18,0));
  required fixed_len_byte_array(16) d128 (DECIMAL(38,10)) = 7;
  required binary dba (DECIMAL(100,50));
  required int32 date (DATE);
  required int32 t1 (TIME(MILLIS,true));
  required int64 t2 (TIME(MICROS,false));
  required int64 t3 (TIME(NANOS,true));
  required int64 ts1 (TIMESTAMP(MILLIS,true));
  required int64 ts2 (TIMESTAMP(MICROS,false));
  required int64 ts3 (TIMESTAMP(NANOS,false));
  required int32 i8 (INTEGER(8,true));
  required int32 u16 (INTEGER(16,false));
  required int32 i32 (INTEGER(32,true));
  required int64 u64 (INTEGER(64,false));
  optional int32 n (UNKNOWN);
  required fixed_len_byte_array(16) id (UUID);
  required fixed_len_byte_array(2) h (FLOAT16);
  required fixed_len_byte_array(12) iv (INTERVAL);
  optional binary g0 (GEOMETRY);
  optional binary g1 (GEOMETRY(OGC:CRS84));
  optional binary g2 (GEOMETRY("{\"type\": \"ProjJSON\", \"id\": 5070}"));
  optional binary gg0 (GEOGRAPHY);
  optional binary gg1 (GEOGRAPHY(srid:4326));
  optional binary gg2 (GEOGRAPHY(OGC:CRS84,SPHERICAL));
  optional binary gg3 (GEOGRAPHY(,KARNEY));
  optional group v (VARIANT(1)) {
    required binary metadata;
    required binary value;
  }
  optional group v0 (VARIANT) {
    required binary metadata;
    optional binary value;
    optional int64 typed_value;
  }
  optional group l (LIST) = -3 {
    repeated group list {
      optional boolean element;
    }
  }
  required group mp (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional double value;
    }
  }
  optional group old (MAP) {
    repeated group map (MAP_KEY_VALUE) {
      required binary key (STRING);
      required float value;
      required int96 when;
    }
  }
}"#;
    let s = Schema::parse(text).unwrap();
    assert_eq!(s.to_string(), text);
    assert_eq!(Schema::from_elements(&s.to_elements()).unwrap(), s);
    let e = s.to_elements();
    let by = |name: &str| e.iter().find(|e| e.name == name).unwrap();
    assert_eq!(by("s").converted_type, Some(ConvertedType::Utf8));
    assert_eq!(
        (
            by("d128").scale,
            by("d128").precision,
            by("d128").type_length
        ),
        (Some(10), Some(38), Some(16))
    );
    assert_eq!(
        by("ts2").converted_type,
        Some(ConvertedType::TimestampMicros)
    );
    assert_eq!(by("ts3").converted_type, None);
    assert_eq!(by("iv").converted_type, Some(ConvertedType::Interval));
    assert_eq!(by("iv").logical_type, None);
    assert_eq!(by("map").converted_type, Some(ConvertedType::MapKeyValue));
    assert_eq!(by("l").field_id, Some(-3));
    assert_eq!(
        by("g2").logical_type,
        Some(LogicalType::Geometry {
            crs: Some(r#"{"type": "ProjJSON", "id": 5070}"#.into())
        })
    );
    assert_eq!(
        by("gg3").logical_type,
        Some(LogicalType::Geography {
            crs: None,
            algorithm: Some(EdgeInterpolationAlgorithm::Karney)
        })
    );
    assert_eq!(
        by("v").logical_type,
        Some(LogicalType::Variant {
            specification_version: Some(1)
        })
    );
}

#[test]
fn parse_accepts_old_names_aliases_and_free_layout() {
    let s = Schema::parse(
        "message m{REQUIRED INT32 a(INT(8, TRUE));optional BYTE_ARRAY b (utf8)=2;\n\
         optional int64 c (TIMESTAMP_MILLIS); optional int32 d (DECIMAL(5)); }\n",
    )
    .unwrap();
    assert_eq!(
        s.to_string(),
        "message m {\n  required int32 a (INTEGER(8,true));\n  optional binary b (STRING) = 2;\n  \
         optional int64 c (TIMESTAMP(MILLIS,true));\n  optional int32 d (DECIMAL(5,0));\n}"
    );
}

#[test]
fn names_that_need_quotes_round_trip() {
    // Names seen in files: "a.b" (bare), "c_customer_sk:" (bare), a control character as in
    // the mangled "A\x12ROW" key of ARROW-RS-GH-6229-LEVELS, spaces, quotes, delimiters.
    let names = [
        "a.b",
        "c_customer_sk:",
        "A\u{12}ROW",
        "with space",
        "",
        "q\"uote",
        "semi;colon",
        "br{ace}",
        "back\\slash",
        "tab\tnew\nline",
        "ünïcödé",
        "\u{a0}nbsp",
    ];
    let fields: Vec<Type> = names
        .iter()
        .map(|n| Type::required(*n, PhysicalType::Int32))
        .collect();
    let s = Schema::new("odd name", fields).unwrap();
    let text = s.to_string();
    assert!(text.starts_with("message \"odd name\" {\n  required int32 a.b;\n"));
    assert!(text.contains("required int32 \"A\\u{12}ROW\";"));
    assert!(text.contains("required int32 \"\";"));
    let back = Schema::parse(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.columns()[2].name(), "A\u{12}ROW");
    // A name with a dot is one name: the dotted lookup finds it.
    assert_eq!(back.column_index("a.b"), Some(0));
}

#[test]
fn builder_builds_lists_and_maps() {
    use PhysicalType as P;
    let s = Schema::builder("m")
        .field(Type::required("id", P::Int64).field_id(1))
        .field(Type::map(
            "attrs",
            R::Optional,
            Type::required("key", P::ByteArray).logical_type(LogicalType::String),
            Some(Type::optional("value", P::Double)),
        ))
        .field(Type::fixed_len_byte_array("u", R::Optional, 16).logical_type(LogicalType::Uuid))
        .field(Type::required("t", P::Int64).converted_type(ConvertedType::TimestampMicros))
        .build()
        .unwrap();
    assert_eq!(
        s.to_string(),
        "message m {
  required int64 id = 1;
  optional group attrs (MAP) {
    repeated group key_value {
      required binary key (STRING);
      optional double value;
    }
  }
  optional fixed_len_byte_array(16) u (UUID);
  required int64 t (TIMESTAMP(MICROS,true));
}"
    );
    let value = &s.columns()[2];
    assert_eq!(value.path_string(), "attrs.key_value.value");
    assert_eq!((value.max_def_level, value.max_rep_level), (3, 1));
    assert_eq!(s.columns()[3].type_length, Some(16));
}

fn invalid_argument(r: Result<Schema>) -> String {
    match r {
        Err(e) => match e.kind() {
            ErrorKind::InvalidArgument(m) => m.clone(),
            k => panic!("expected InvalidArgument, got {k:?}"),
        },
        Ok(s) => panic!("expected an error, got\n{s}"),
    }
}

#[test]
fn builder_and_parser_reject_annotations_that_do_not_fit() {
    use PhysicalType as P;
    let bad: &[(Type, &str)] = &[
        (
            Type::required("x", P::ByteArray).logical_type(LogicalType::Date),
            "DATE annotates INT32 only",
        ),
        (
            Type::fixed_len_byte_array("x", R::Required, 8).logical_type(LogicalType::Uuid),
            "UUID annotates FIXED_LEN_BYTE_ARRAY(16) only",
        ),
        (
            Type::required("x", P::Int32).logical_type(LogicalType::Decimal {
                scale: 0,
                precision: 10,
            }),
            "DECIMAL on INT32 allows precision 1..=9",
        ),
        (
            Type::required("x", P::Int64).logical_type(LogicalType::Decimal {
                scale: 3,
                precision: 2,
            }),
            "DECIMAL scale must be between 0 and the precision",
        ),
        (
            Type::required("x", P::Int32).logical_type(LogicalType::Integer {
                bit_width: 64,
                is_signed: true,
            }),
            "INTEGER(64) annotates INT64 only",
        ),
        (
            Type::required("x", P::Int32).logical_type(LogicalType::Integer {
                bit_width: 12,
                is_signed: true,
            }),
            "INTEGER bit width must be 8, 16, 32 or 64",
        ),
        (
            Type::required("x", P::Int32).logical_type(LogicalType::List),
            "MAP, LIST, VARIANT and FILE annotate groups only",
        ),
        (
            Type::group("x", R::Required, [Type::required("y", P::Int32)])
                .logical_type(LogicalType::String),
            "only MAP, LIST, VARIANT and FILE annotate groups",
        ),
        (
            Type::required("x", P::Int64)
                .logical_type(LogicalType::Timestamp {
                    is_adjusted_to_utc: true,
                    unit: TimeUnit::Nanos,
                })
                .converted_type(ConvertedType::TimestampMillis),
            "the converted type does not match the logical type",
        ),
        (
            Type::required("x", P::FixedLenByteArray),
            "FIXED_LEN_BYTE_ARRAY needs a positive type_length",
        ),
        (
            Type::required("x", P::Int32).length(4),
            "type_length belongs to FIXED_LEN_BYTE_ARRAY only",
        ),
        (
            Type::required("x", P::Int32).converted_type(ConvertedType::Decimal),
            "DECIMAL needs a precision",
        ),
        (
            Type::fixed_len_byte_array("x", R::Required, 8).converted_type(ConvertedType::Interval),
            "INTERVAL annotates FIXED_LEN_BYTE_ARRAY(12) only",
        ),
    ];
    for (t, why) in bad {
        let m = invalid_argument(Schema::builder("m").field(t.clone()).build());
        assert_eq!(m, format!("schema field \"x\": {why}"));
    }
    let m = invalid_argument(Schema::parse(
        "message m { optional group g { required binary x (TIMESTAMP(MILLIS,true)); } }",
    ));
    assert_eq!(m, "schema field \"g.x\": TIMESTAMP annotates INT64 only");
}

#[test]
fn files_with_annotations_that_do_not_fit_read_as_bare_physical_types() {
    use PhysicalType as P;
    let mut bad_logical = leaf("a", R::Optional, P::ByteArray);
    bad_logical.logical_type = Some(LogicalType::Date);
    // Falls back to the converted type when that one fits.
    let mut fallback = with_converted(leaf("b", R::Optional, P::ByteArray), ConvertedType::Utf8);
    fallback.logical_type = Some(LogicalType::Uuid);
    let bad_converted = with_converted(leaf("c", R::Optional, P::Double), ConvertedType::Date);
    let mut group_with_string = group("g", Some(R::Optional), 1);
    group_with_string.converted_type = Some(ConvertedType::Utf8);
    let mut flba_len_on_int = leaf("i", R::Required, P::Int32);
    flba_len_on_int.type_length = Some(32);
    let elements = [
        group("m", Some(R::Required), 5),
        bad_logical,
        fallback,
        bad_converted,
        group_with_string,
        leaf("x", R::Required, P::Int32),
        flba_len_on_int,
    ];
    let s = Schema::from_elements(&elements).unwrap();
    let c = s.columns();
    assert_eq!(
        (c[0].logical_type.clone(), c[0].converted_type),
        (None, None)
    );
    assert_eq!(c[1].logical_type, Some(LogicalType::String));
    assert_eq!(
        (c[2].logical_type.clone(), c[2].converted_type),
        (None, None)
    );
    assert_eq!(s.node(4).unwrap().converted_type, None);
    assert_eq!(c[4].type_length, None);
    // What was kept prints and parses under the strict rules.
    assert_eq!(Schema::parse(&s.to_string()).unwrap(), s);
}

#[test]
fn tolerated_shapes() {
    use PhysicalType as P;
    // parquet-cpp: num_children = 0 on a leaf; root without num_children = no columns.
    let mut l = leaf("x", R::Optional, P::Int32);
    l.num_children = Some(0);
    let s = Schema::from_elements(&[group("m", None, 1), l]).unwrap();
    assert_eq!(s.columns().len(), 1);
    let root_only = SchemaElement {
        name: "m".into(),
        ..SchemaElement::default()
    };
    let s = Schema::from_elements(&[root_only]).unwrap();
    assert!(s.columns().is_empty());
    assert_eq!(s.to_string(), "message m {\n}");
    assert_eq!(Schema::parse("message m {}").unwrap(), s);
    // An empty group: no column, prints and parses.
    let s = Schema::from_elements(&[
        group("m", None, 2),
        group("empty", Some(R::Optional), 0),
        leaf("x", R::Required, P::Int32),
    ])
    .unwrap();
    assert_eq!(s.columns().len(), 1);
    assert_eq!(s.node(1).unwrap().columns, 0..0);
    assert_eq!(Schema::parse(&s.to_string()).unwrap(), s);
    // Duplicate sibling names: the first wins in lookups.
    let s = Schema::from_elements(&[
        group("m", None, 2),
        leaf("x", R::Required, P::Int32),
        leaf("x", R::Required, P::Int64),
    ])
    .unwrap();
    assert_eq!(s.column_index("x"), Some(0));
}

#[test]
fn structural_errors() {
    use PhysicalType as P;
    let cases: Vec<(Vec<SchemaElement>, &str)> = vec![
        (vec![], "invalid file: schema has no root element"),
        (
            vec![leaf("m", R::Required, P::Int32)],
            "invalid file: the schema root is not a group",
        ),
        (
            vec![group("m", None, 2), leaf("x", R::Required, P::Int32)],
            "num_children beyond the remaining schema elements out of range: 2",
        ),
        (vec![group("m", None, -1)], "num_children out of range: -1"),
        (
            vec![
                group("m", None, 1),
                group("g", Some(R::Optional), 2),
                leaf("x", R::Required, P::Int32),
            ],
            "num_children beyond the remaining schema elements out of range: 2 (column g)",
        ),
        (
            vec![
                group("m", None, 2),
                group("g", Some(R::Optional), 2),
                leaf("x", R::Required, P::Int32),
                leaf("y", R::Required, P::Int32),
            ],
            "invalid file: num_children exceeds the schema elements that follow",
        ),
        (
            vec![
                group("m", None, 1),
                leaf("x", R::Required, P::Int32),
                leaf("y", R::Required, P::Int32),
            ],
            "invalid file: schema elements follow the end of the root group (column y)",
        ),
        (
            vec![group("m", None, 1), {
                let mut e = leaf("x", R::Required, P::Int32);
                e.repetition_type = None;
                e
            }],
            "invalid file: schema element has no repetition_type (column x)",
        ),
        (
            vec![
                group("m", None, 1),
                leaf("f", R::Required, P::FixedLenByteArray),
            ],
            "invalid file: FIXED_LEN_BYTE_ARRAY needs a positive type_length (column f)",
        ),
        (
            vec![group("m", None, 1), {
                let mut e = leaf("f", R::Required, P::FixedLenByteArray);
                e.type_length = Some(-4);
                e
            }],
            "invalid file: FIXED_LEN_BYTE_ARRAY needs a positive type_length (column f)",
        ),
        (
            vec![group("m", None, 1), {
                let mut e = leaf("x", R::Required, P::Int32);
                e.num_children = Some(1);
                e
            }],
            "invalid file: schema element has both a physical type and children (column x)",
        ),
        (
            vec![
                group("m", None, 2),
                {
                    let mut e = leaf("x", R::Required, P::Int32);
                    e.num_children = Some(1);
                    e
                },
                leaf("y", R::Required, P::Int32),
            ],
            "invalid file: schema element has both a physical type and children (column x)",
        ),
        (
            vec![
                group("m", None, 1),
                SchemaElement {
                    name: "x".into(),
                    repetition_type: Some(R::Optional),
                    ..SchemaElement::default()
                },
            ],
            "invalid file: schema element has neither a physical type nor children (column x)",
        ),
    ];
    for (elements, message) in cases {
        let e = Schema::from_elements(&elements).unwrap_err();
        assert_eq!(e.to_string(), message, "{elements:?}");
    }
}

#[test]
fn nesting_is_bounded_by_the_limit_without_recursion() {
    // 100_000 nested groups: rejected by the limit, with no stack growth.
    let n = 100_000;
    let mut elements = vec![group("m", None, 1)];
    for _ in 0..n {
        elements.push(group("g", Some(R::Optional), 1));
    }
    elements.push(leaf("x", R::Optional, PhysicalType::Int32));
    let e = Schema::from_elements(&elements).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::LimitExceeded {
            requested: 65,
            limit: 64,
            ..
        }
    ));
    // With the nesting limit raised, u16 levels and the bound on total path bytes still stop
    // it (the paths of 100_000 nested groups add up to ~10^10 bytes).
    let limits = Limits::default().max_nesting_depth(200_000);
    let e = Schema::from_elements_with_limits(&elements, &limits).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");
    // Deep but within a raised limit: levels count every optional group.
    let elements: Vec<_> = elements[..1]
        .iter()
        .cloned()
        .chain(elements[1..1001].iter().cloned())
        .chain([leaf("x", R::Optional, PhysicalType::Int32)])
        .collect();
    let s = Schema::from_elements_with_limits(&elements, &limits).unwrap();
    assert_eq!(s.columns()[0].max_def_level, 1001);
    assert_eq!(s.columns()[0].path.len(), 1001);
    // The text printer and parser are iterative too.
    let text = s.to_string();
    assert!(
        Schema::parse(&text).is_err(),
        "parse uses the default limit"
    );
}

#[test]
fn long_names_over_deep_groups_hit_the_path_bytes_limit() {
    // 10 groups with 1 KiB names and 1000 leaves: paths total ~10 MB while the elements hold
    // ~10 KB of names.
    let long = "n".repeat(1024);
    let mut elements = vec![group("m", None, 1)];
    for _ in 0..9 {
        elements.push(group(&long, Some(R::Required), 1));
    }
    elements.push(group(&long, Some(R::Required), 1000));
    for _ in 0..1000 {
        elements.push(leaf("x", R::Required, PhysicalType::Int32));
    }
    let limits = Limits::default().max_metadata_bytes(1 << 20);
    let e = Schema::from_elements_with_limits(&elements, &limits).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LimitExceeded { limit: 1048576, .. }),
        "{e}"
    );
    assert!(Schema::from_elements(&elements).is_ok());
}

#[test]
fn parse_errors_name_line_column_and_expectation() {
    let cases = [
        (
            "",
            "line 1, column 1: expected 'message', found end of text",
        ),
        (
            "schema m {}",
            "line 1, column 1: expected 'message', found 'schema'",
        ),
        (
            "message m {\n  required int32 a\n}",
            "line 3, column 1: expected ';', found '}'",
        ),
        (
            "message m {\n  requird int32 a;\n}",
            "line 2, column 3: expected 'required', 'optional', 'repeated' or '}', found 'requird'",
        ),
        (
            "message m {\n  required fixed_len_byte_array a;\n}",
            "line 2, column 33: expected '(', found 'a'",
        ),
        (
            "message m {\n  required int32 a (TIME(SECONDS,true));\n}",
            "line 2, column 26: expected MILLIS, MICROS or NANOS, found 'SECONDS'",
        ),
        (
            "message m {\n  required int32 a (FOO);\n}",
            "line 2, column 21: unknown annotation \"FOO\"",
        ),
        (
            "message m {\n  required int32 a (DECIMAL(1,2,3));\n}",
            "line 2, column 21: DECIMAL takes 1 or 2 parameters, found 3",
        ),
        (
            "message m {\n  required int32 a = x;\n}",
            "line 2, column 22: expected a field id, found 'x'",
        ),
        (
            "message m {\n  required int32 a;\n",
            "line 3, column 1: expected a repetition or '}', found end of text",
        ),
        (
            "message m {\n  required int32 a;\n} extra",
            "line 3, column 3: expected end of text after the message, found 'extra'",
        ),
        (
            "message m { required int32 \"a",
            "line 1, column 30: unterminated quoted name",
        ),
    ];
    for (text, message) in cases {
        let m = invalid_argument(Schema::parse(text));
        assert_eq!(m, format!("schema text, {message}"), "{text:?}");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn repetition() -> impl Strategy<Value = R> {
        prop_oneof![Just(R::Required), Just(R::Optional), Just(R::Repeated)]
    }

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z_][a-z0-9_.]{0,6}",
            1 => "(?s).{0,5}",
        ]
    }

    fn unit() -> impl Strategy<Value = TimeUnit> {
        prop_oneof![
            Just(TimeUnit::Millis),
            Just(TimeUnit::Micros),
            Just(TimeUnit::Nanos)
        ]
    }

    fn crs() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(prop_oneof![Just(String::from("OGC:CRS84")), "(?s).{0,8}"])
    }

    /// A leaf with an annotation that fits its physical type (LogicalTypes.md).
    fn leaf_type() -> impl Strategy<Value = Type> {
        use LogicalType as L;
        use PhysicalType as P;
        let plain = (
            (name(), repetition()),
            prop_oneof![
                Just(P::Boolean),
                Just(P::Int32),
                Just(P::Int64),
                Just(P::Int96),
                Just(P::Float),
                Just(P::Double),
                Just(P::ByteArray)
            ],
            any::<bool>(),
        )
            .prop_map(|((n, r), p, unknown)| {
                let t = Type::primitive(n, r, p);
                if unknown {
                    t.logical_type(L::Unknown)
                } else {
                    t
                }
            });
        let int32 = (
            (name(), repetition()),
            prop_oneof![
                Just(L::Date),
                any::<bool>().prop_map(|u| L::Time {
                    is_adjusted_to_utc: u,
                    unit: TimeUnit::Millis
                }),
                (prop_oneof![Just(8i8), Just(16), Just(32)], any::<bool>()).prop_map(|(w, s)| {
                    L::Integer {
                        bit_width: w,
                        is_signed: s,
                    }
                }),
                (1..=9i32)
                    .prop_flat_map(|p| (Just(p), 0..=p))
                    .prop_map(|(precision, scale)| L::Decimal { scale, precision }),
            ],
        )
            .prop_map(|((n, r), l)| Type::primitive(n, r, P::Int32).logical_type(l));
        let int64 = (
            (name(), repetition()),
            prop_oneof![
                (
                    any::<bool>(),
                    prop_oneof![Just(TimeUnit::Micros), Just(TimeUnit::Nanos)]
                )
                    .prop_map(|(u, unit)| L::Time {
                        is_adjusted_to_utc: u,
                        unit
                    }),
                (any::<bool>(), unit()).prop_map(|(u, unit)| L::Timestamp {
                    is_adjusted_to_utc: u,
                    unit
                }),
                any::<bool>().prop_map(|s| L::Integer {
                    bit_width: 64,
                    is_signed: s
                }),
                (1..=18i32)
                    .prop_flat_map(|p| (Just(p), 0..=p))
                    .prop_map(|(precision, scale)| L::Decimal { scale, precision }),
            ],
        )
            .prop_map(|((n, r), l)| Type::primitive(n, r, P::Int64).logical_type(l));
        let binary = (
            (name(), repetition()),
            prop_oneof![
                Just(L::String),
                Just(L::Enum),
                Just(L::Json),
                Just(L::Bson),
                crs().prop_map(|crs| L::Geometry { crs }),
                (
                    crs(),
                    proptest::option::of(proptest::sample::select(EdgeInterpolationAlgorithm::ALL))
                )
                    .prop_map(|(crs, algorithm)| L::Geography { crs, algorithm }),
                (1..=60i32)
                    .prop_flat_map(|p| (Just(p), 0..=p))
                    .prop_map(|(precision, scale)| L::Decimal { scale, precision }),
            ],
        )
            .prop_map(|((n, r), l)| Type::primitive(n, r, P::ByteArray).logical_type(l));
        let flba = (
            (name(), repetition()),
            1..40usize,
            any::<bool>(),
            0.0..1.0f64,
        )
            .prop_map(|((n, r), len, decimal, frac)| {
                let t = Type::fixed_len_byte_array(n, r, len);
                let cap = max_decimal_precision_for_flba(len as u64) as i32;
                if decimal && cap >= 1 {
                    let precision = 1 + ((cap - 1) as f64 * frac) as i32;
                    t.logical_type(L::Decimal {
                        scale: precision / 2,
                        precision,
                    })
                } else {
                    t
                }
            });
        let special = (
            (name(), repetition()),
            prop_oneof![Just(0u8), Just(1), Just(2)],
        )
            .prop_map(|((n, r), k)| match k {
                0 => Type::fixed_len_byte_array(n, r, 16).logical_type(L::Uuid),
                1 => Type::fixed_len_byte_array(n, r, 2).logical_type(L::Float16),
                _ => Type::fixed_len_byte_array(n, r, 12).converted_type(ConvertedType::Interval),
            });
        let converted_only = (
            (name(), repetition()),
            prop_oneof![
                Just((P::ByteArray, ConvertedType::Utf8)),
                Just((P::Int64, ConvertedType::TimestampMillis)),
                Just((P::Int32, ConvertedType::TimeMillis)),
                Just((P::Int32, ConvertedType::Uint8)),
                Just((P::Int64, ConvertedType::Int64)),
            ],
        )
            .prop_map(|((n, r), (p, c))| Type::primitive(n, r, p).converted_type(c));
        (
            prop_oneof![plain, int32, int64, binary, flba, special, converted_only],
            proptest::option::of(any::<i32>()),
        )
            .prop_map(|(t, id)| match id {
                Some(id) => t.field_id(id),
                None => t,
            })
    }

    fn field() -> impl Strategy<Value = Type> {
        leaf_type().prop_recursive(4, 40, 4, |inner| {
            (
                name(),
                repetition(),
                proptest::collection::vec(inner, 0..4),
                0..6u8,
                proptest::option::of(any::<i32>()),
            )
                .prop_map(|(n, r, children, ann, id)| {
                    let g = Type::group(n, r, children);
                    let g = match ann {
                        0 => g.logical_type(LogicalType::List),
                        1 => g.logical_type(LogicalType::Map),
                        2 => g.converted_type(ConvertedType::MapKeyValue),
                        3 => g.logical_type(LogicalType::Variant {
                            specification_version: Some(1),
                        }),
                        _ => g,
                    };
                    match id {
                        Some(id) => g.field_id(id),
                        None => g,
                    }
                })
        })
    }

    fn schema() -> impl Strategy<Value = Schema> {
        (name(), proptest::collection::vec(field(), 0..5))
            .prop_map(|(n, fields)| Schema::new(n, fields).expect("valid by construction"))
    }

    /// The recursive oracle for levels and paths: walk the tree from the root.
    fn oracle(s: &Schema) -> Vec<(Vec<String>, u16, u16)> {
        fn walk(
            s: &Schema,
            i: usize,
            path: &mut Vec<String>,
            def: u16,
            rep: u16,
            out: &mut Vec<(Vec<String>, u16, u16)>,
        ) {
            let node = s.node(i).unwrap();
            for &c in node.children() {
                let child = s.node(c).unwrap();
                path.push(child.name.clone());
                let d = def + u16::from(child.repetition != R::Required);
                let r = rep + u16::from(child.repetition == R::Repeated);
                if child.is_group() {
                    walk(s, c, path, d, r, out);
                } else {
                    out.push((path.clone(), d, r));
                }
                path.pop();
            }
        }
        let mut out = Vec::new();
        walk(s, 0, &mut Vec::new(), 0, 0, &mut out);
        out
    }

    fn element() -> impl Strategy<Value = SchemaElement> {
        (
            proptest::option::of(proptest::sample::select(PhysicalType::ALL)),
            proptest::option::of(-2..20i32),
            proptest::option::of(proptest::sample::select(FieldRepetitionType::ALL)),
            "[ab.]{0,2}",
            proptest::option::of(-2..4i32),
            proptest::option::of(proptest::sample::select(ConvertedType::ALL)),
            (
                proptest::option::of(-2..20i32),
                proptest::option::of(-2..40i32),
                proptest::option::of(any::<i32>()),
            ),
            proptest::option::of(prop_oneof![
                Just(LogicalType::String),
                Just(LogicalType::List),
                Just(LogicalType::Map),
                Just(LogicalType::Uuid),
                Just(LogicalType::Float16),
                Just(LogicalType::Unknown),
                Just(LogicalType::Date),
                (any::<i8>(), any::<bool>()).prop_map(|(bit_width, is_signed)| {
                    LogicalType::Integer {
                        bit_width,
                        is_signed,
                    }
                }),
                (-2..40i32, -2..40i32)
                    .prop_map(|(scale, precision)| LogicalType::Decimal { scale, precision }),
                (any::<bool>(), unit()).prop_map(|(u, unit)| LogicalType::Timestamp {
                    is_adjusted_to_utc: u,
                    unit
                }),
                (any::<bool>(), unit()).prop_map(|(u, unit)| LogicalType::Time {
                    is_adjusted_to_utc: u,
                    unit
                }),
                Just(LogicalType::Variant {
                    specification_version: None
                }),
            ]),
        )
            .prop_map(
                |(
                    type_,
                    type_length,
                    repetition_type,
                    name,
                    num_children,
                    converted_type,
                    (scale, precision, field_id),
                    logical_type,
                )| {
                    SchemaElement {
                        type_,
                        type_length,
                        repetition_type,
                        name,
                        num_children,
                        converted_type,
                        scale,
                        precision,
                        field_id,
                        logical_type,
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn elements_round_trip(s in schema()) {
            let back = Schema::from_elements(&s.to_elements()).unwrap();
            prop_assert_eq!(&back, &s);
            prop_assert_eq!(back.to_elements(), s.to_elements());
        }

        #[test]
        fn text_round_trips(s in schema()) {
            let text = s.to_string();
            let back = Schema::parse(&text);
            prop_assert!(back.is_ok(), "{}\n{:?}", text, back);
            let back = back.unwrap();
            prop_assert_eq!(back.to_elements(), s.to_elements());
            prop_assert_eq!(&back, &s);
        }

        #[test]
        fn levels_and_paths_match_the_recursive_oracle(s in schema()) {
            let got: Vec<_> = s
                .columns()
                .iter()
                .map(|c| (c.path.clone(), c.max_def_level, c.max_rep_level))
                .collect();
            prop_assert_eq!(got, oracle(&s));
            for (i, c) in s.columns().iter().enumerate() {
                prop_assert_eq!(&s.node(c.node).unwrap().columns, &(i..i + 1));
                // Duplicate sibling names make the exact lookup find the first such node.
                prop_assert!(s.node_index_by_path(&c.path).is_some_and(|n| n <= c.node));
            }
        }

        #[test]
        fn node_index_finds_the_first_node_with_the_path(s in schema()) {
            // Oracle: each node's dotted path from its parents, and the first node in file
            // order that has it (names may repeat, and hold dots).
            let dotted = |mut i: usize| {
                let mut names = Vec::new();
                while let Some(p) = s.node(i).and_then(|n| n.parent) {
                    names.push(s.node(i).unwrap().name.clone());
                    i = p;
                }
                names.reverse();
                names.join(".")
            };
            let paths: Vec<String> = (0..s.nodes().len()).map(dotted).collect();
            for (i, p) in paths.iter().enumerate().skip(1) {
                if p.is_empty() {
                    continue; // "" names the root
                }
                let first = paths.iter().skip(1).position(|q| q == p).unwrap() + 1;
                prop_assert!(first <= i);
                prop_assert_eq!(s.node_index(p), Some(first));
                // The scan of builds for size finds the same node.
                prop_assert_eq!(super::scan::PathIndex.find(&s.paths, p), Some(first));
                let missing = alloc::format!("{p}.\u{1}");
                prop_assert_eq!(s.node_index(&missing), None);
                prop_assert_eq!(super::scan::PathIndex.find(&s.paths, &missing), None);
            }
            prop_assert_eq!(s.node_index(""), Some(0));
        }

        #[test]
        fn join_dotted_is_join(names in proptest::collection::vec("[ab.]{0,3}", 0..6)) {
            prop_assert_eq!(join_dotted(&names), names.join("."));
        }

        #[test]
        fn sort_by_path_sorts_by_path_then_index(
            names in proptest::collection::vec("[ab.]{0,3}", 0..40),
        ) {
            let paths: Vec<String> = names;
            let mut got: Vec<usize> = (0..paths.len()).collect();
            super::sorted::sort_by_path(&mut got, &paths);
            let mut want: Vec<usize> = (0..paths.len()).collect();
            want.sort_by(|&a, &b| (&paths[a], a).cmp(&(&paths[b], b)));
            prop_assert_eq!(got, want);
        }

        #[test]
        fn arbitrary_elements_never_panic(
            root_children in proptest::option::of(-1..5i32),
            elements in proptest::collection::vec(element(), 0..12),
        ) {
            let mut all = vec![SchemaElement {
                name: "m".into(),
                num_children: root_children,
                ..SchemaElement::default()
            }];
            all.extend(elements.iter().cloned());
            for list in [&elements[..], &all[..]] {
                if let Ok(s) = Schema::from_elements(list) {
                    // Whatever is accepted is canonical: it survives both round trips, and the
                    // strict parser accepts what the printer prints.
                    let again = Schema::from_elements(&s.to_elements());
                    prop_assert_eq!(again.as_ref(), Ok(&s));
                    let text = s.to_string();
                    let parsed = Schema::parse(&text);
                    prop_assert_eq!(parsed.as_ref(), Ok(&s), "{}", text);
                }
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "(?s)[ -~\n\"\\\\(){};,=]{0,80}") {
            let _ = Schema::parse(&text);
            let _ = Schema::parse(&format!("message m {{ {text} }}"));
        }
    }
}

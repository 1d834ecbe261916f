//! Record assembly and shredding: hand-worked level tables (both directions), the legacy LIST
//! and MAP shapes, malformed levels, and a property test against a naive recursive striper.

use parket::levels::{assemble, shred, LeafData};
use parket::record::Value;
use parket::schema::Schema;
use parket::values::{ByteArrays, Values};

fn s(x: &str) -> Value {
    Value::Bytes(x.as_bytes().to_vec())
}
fn g(v: Vec<Value>) -> Value {
    Value::Group(v)
}
fn l(v: Vec<Value>) -> Value {
    Value::List(v)
}
fn i32s(v: &[i32]) -> Value {
    l(v.iter().map(|&x| Value::Int32(x)).collect())
}
fn leaf(def: &[u16], rep: &[u16], values: Values) -> LeafData {
    LeafData {
        def_levels: def.to_vec(),
        rep_levels: rep.to_vec(),
        values,
    }
}
fn bytes(v: &[&str]) -> Values {
    Values::ByteArray(v.iter().collect::<ByteArrays>())
}

/// Checks both directions: assemble(columns) == records and shred(records) == columns.
fn check_both(schema: &str, columns: Vec<LeafData>, records: Vec<Value>) {
    let schema = Schema::parse(schema).unwrap();
    let got = assemble(&schema, &columns).unwrap();
    assert_eq!(got.len(), records.len());
    for (a, b) in got.iter().zip(&records) {
        assert!(a.bit_eq(b), "assembled {a:?}\nexpected  {b:?}");
    }
    let striped = shred(&schema, &records).unwrap();
    assert_eq!(striped, columns);
}

#[test]
fn dremel_document() {
    // The Dremel paper's (Melnik et al., 2010) Figure 2, records r1 and r2, and its level table.
    let schema = "message Document {
        required int64 DocId;
        optional group Links { repeated int64 Backward; repeated int64 Forward; }
        repeated group Name {
          repeated group Language { required binary Code; optional binary Country; }
          optional binary Url;
        }
    }";
    let r1 = g(vec![
        Value::Int64(10),
        g(vec![
            l(vec![]),
            l(vec![Value::Int64(20), Value::Int64(40), Value::Int64(60)]),
        ]),
        l(vec![
            g(vec![
                l(vec![
                    g(vec![s("en-us"), s("us")]),
                    g(vec![s("en"), Value::Null]),
                ]),
                s("http://A"),
            ]),
            g(vec![l(vec![]), s("http://B")]),
            g(vec![l(vec![g(vec![s("en-gb"), s("gb")])]), Value::Null]),
        ]),
    ]);
    let r2 = g(vec![
        Value::Int64(20),
        g(vec![
            l(vec![Value::Int64(10), Value::Int64(30)]),
            l(vec![Value::Int64(80)]),
        ]),
        l(vec![g(vec![l(vec![]), s("http://C")])]),
    ]);
    let columns = vec![
        // DocId: max_def 0, max_rep 0: no levels.
        leaf(&[], &[], Values::Int64(vec![10, 20])),
        // Links.Backward: max_def 2, max_rep 1.
        leaf(&[1, 2, 2], &[0, 0, 1], Values::Int64(vec![10, 30])),
        // Links.Forward
        leaf(
            &[2, 2, 2, 2],
            &[0, 1, 1, 0],
            Values::Int64(vec![20, 40, 60, 80]),
        ),
        // Name.Language.Code: max_def 2, max_rep 2.
        leaf(
            &[2, 2, 1, 2, 1],
            &[0, 2, 1, 1, 0],
            bytes(&["en-us", "en", "en-gb"]),
        ),
        // Name.Language.Country: max_def 3, max_rep 2.
        leaf(&[3, 2, 1, 3, 1], &[0, 2, 1, 1, 0], bytes(&["us", "gb"])),
        // Name.Url: max_def 2, max_rep 1.
        leaf(
            &[2, 2, 1, 2],
            &[0, 1, 1, 0],
            bytes(&["http://A", "http://B", "http://C"]),
        ),
    ];
    check_both(schema, columns, vec![r1, r2]);
}

#[test]
fn list_with_nulls_and_empty_lists() {
    // optional LIST<optional LIST<optional int32>>: column a.list.element.list.element,
    // max_def 5 (a, list, element, list, element), max_rep 2.
    let schema = "message m { optional group a (LIST) { repeated group list {
        optional group element (LIST) { repeated group list { optional int32 element; } } } } }";
    let records = vec![
        g(vec![l(vec![
            l(vec![Value::Int32(1), Value::Null]),
            Value::Null,
            l(vec![]),
            i32s(&[2]),
        ])]),
        g(vec![Value::Null]),
        g(vec![l(vec![])]),
        g(vec![l(vec![Value::Null])]),
    ];
    // value  def rep
    // 1       5   0
    // null    4   2
    // [null]  2   1   (element list null: def stops at the outer `list`)
    // []      3   1   (inner empty list: def stops at element)
    // 2       5   1
    // null a  0   0
    // []      1   0
    // [null]  2   0
    let columns = vec![leaf(
        &[5, 4, 2, 3, 5, 0, 1, 2],
        &[0, 2, 1, 1, 1, 0, 0, 0],
        Values::Int32(vec![1, 2]),
    )];
    check_both(schema, columns, records);
}

#[test]
fn two_level_list_of_lists() {
    // LogicalTypes.md's backward-compatibility example: both repeated fields are named
    // `array`, so each is the element itself. Column a.array.array: max_def 2, max_rep 2.
    let schema = "message m { required group a (LIST) { repeated group array (LIST) {
        repeated int32 array; } } }";
    let records = vec![g(vec![l(vec![i32s(&[1, 2]), i32s(&[3, 4])])])];
    let columns = vec![leaf(
        &[2, 2, 2, 2],
        &[0, 2, 1, 2],
        Values::Int32(vec![1, 2, 3, 4]),
    )];
    check_both(schema, columns, records);
}

#[test]
fn map_of_string_to_map_of_int_to_bool() {
    let schema = "message m { optional group m (MAP) { repeated group key_value {
        required binary key (STRING);
        optional group value (MAP) { repeated group key_value {
          required int32 key; optional boolean value; } } } } }";
    let records = vec![
        g(vec![Value::Map(vec![
            (
                s("a"),
                Value::Map(vec![
                    (Value::Int32(1), Value::Boolean(true)),
                    (Value::Int32(2), Value::Null),
                ]),
            ),
            (s("b"), Value::Null),
            (s("c"), Value::Map(vec![])),
        ])]),
        g(vec![Value::Null]),
        g(vec![Value::Map(vec![])]),
    ];
    let columns = vec![
        // m.key_value.key: max_def 2, max_rep 1.
        leaf(&[2, 2, 2, 0, 1], &[0, 1, 1, 0, 0], bytes(&["a", "b", "c"])),
        // m.key_value.value.key_value.key: max_def 4, max_rep 2.
        leaf(
            &[4, 4, 2, 3, 0, 1],
            &[0, 2, 1, 1, 0, 0],
            Values::Int32(vec![1, 2]),
        ),
        // m.key_value.value.key_value.value: max_def 5, max_rep 2.
        leaf(
            &[5, 4, 2, 3, 0, 1],
            &[0, 2, 1, 1, 0, 0],
            Values::Boolean(vec![true]),
        ),
    ];
    check_both(schema, columns, records);
}

#[test]
fn legacy_list_shapes() {
    // 1-level: a bare repeated field.
    check_both(
        "message m { repeated int32 a; }",
        vec![leaf(&[1, 1, 0], &[0, 1, 0], Values::Int32(vec![1, 2]))],
        vec![g(vec![i32s(&[1, 2])]), g(vec![l(vec![])])],
    );
    // 2-level, primitive repeated field.
    check_both(
        "message m { optional group a (LIST) { repeated int32 element; } }",
        vec![leaf(
            &[2, 2, 1, 0],
            &[0, 1, 0, 0],
            Values::Int32(vec![1, 2]),
        )],
        vec![
            g(vec![i32s(&[1, 2])]),
            g(vec![l(vec![])]),
            g(vec![Value::Null]),
        ],
    );
    // 2-level: a one-field group named `array` is the element (a group).
    check_both(
        "message m { optional group a (LIST) { repeated group array { required int32 x; } } }",
        vec![leaf(&[2, 2], &[0, 1], Values::Int32(vec![1, 2]))],
        vec![g(vec![l(vec![
            g(vec![Value::Int32(1)]),
            g(vec![Value::Int32(2)]),
        ])])],
    );
    // 2-level: `<list-name>_tuple`.
    check_both(
        "message m { optional group a (LIST) { repeated group a_tuple { required int32 x; } } }",
        vec![leaf(&[2], &[0], Values::Int32(vec![7]))],
        vec![g(vec![l(vec![g(vec![Value::Int32(7)])])])],
    );
    // 2-level: a group of more than one field.
    check_both(
        "message m { optional group a (LIST) { repeated group rec {
            required int32 x; optional int32 y; } } }",
        vec![
            leaf(&[2], &[0], Values::Int32(vec![7])),
            leaf(&[2], &[0], Values::Int32(vec![])),
        ],
        vec![g(vec![l(vec![g(vec![Value::Int32(7), Value::Null])])])],
    );
    // 3-level with a non-standard name: one field, not `array`: the field is the element.
    check_both(
        "message m { optional group a (LIST) { repeated group bag { optional int32 item; } } }",
        vec![leaf(&[3, 2], &[0, 1], Values::Int32(vec![7]))],
        vec![g(vec![l(vec![Value::Int32(7), Value::Null])])],
    );
    // A repeated group outside LIST: a list of objects.
    check_both(
        "message m { repeated group r { required int32 x; } }",
        vec![leaf(&[1, 1, 0], &[0, 1, 0], Values::Int32(vec![1, 2]))],
        vec![
            g(vec![l(vec![
                g(vec![Value::Int32(1)]),
                g(vec![Value::Int32(2)]),
            ])]),
            g(vec![l(vec![])]),
        ],
    );
}

#[test]
fn legacy_map_shapes() {
    // MAP_KEY_VALUE on the outer group (LogicalTypes.md's backward-compatibility example).
    check_both(
        "message m { optional group my_map (MAP_KEY_VALUE) { repeated group map {
            required binary str (UTF8); required int32 num; } } }",
        vec![
            leaf(&[2, 2, 0], &[0, 1, 0], bytes(&["a", "b"])),
            leaf(&[2, 2, 0], &[0, 1, 0], Values::Int32(vec![1, 2])),
        ],
        vec![
            g(vec![Value::Map(vec![
                (s("a"), Value::Int32(1)),
                (s("b"), Value::Int32(2)),
            ])]),
            g(vec![Value::Null]),
        ],
    );
    // MAP with MAP_KEY_VALUE on the repeated group.
    check_both(
        "message m { required group m (MAP) { repeated group key_value (MAP_KEY_VALUE) {
            required int32 key; optional int32 value; } } }",
        vec![
            leaf(&[1, 0], &[0, 0], Values::Int32(vec![5])),
            leaf(&[1, 0], &[0, 0], Values::Int32(vec![])),
        ],
        vec![
            g(vec![Value::Map(vec![(Value::Int32(5), Value::Null)])]),
            g(vec![Value::Map(vec![])]),
        ],
    );
    // A repeated MAP_KEY_VALUE group outside MAP.
    check_both(
        "message m { repeated group kv (MAP_KEY_VALUE) { required int32 key; required int32 value; } }",
        vec![
            leaf(&[1], &[0], Values::Int32(vec![1])),
            leaf(&[1], &[0], Values::Int32(vec![2])),
        ],
        vec![g(vec![Value::Map(vec![(Value::Int32(1), Value::Int32(2))])])],
    );
    // map_no_value.parquet's second column: a MAP whose key/value group has no value field.
    check_both(
        "message m { required group my_set (MAP) { repeated group key_value { required int32 key; } } }",
        vec![leaf(&[1, 1, 1], &[0, 1, 0], Values::Int32(vec![1, 2, 3]))],
        vec![
            g(vec![Value::Map(vec![
                (Value::Int32(1), Value::Null),
                (Value::Int32(2), Value::Null),
            ])]),
            g(vec![Value::Map(vec![(Value::Int32(3), Value::Null)])]),
        ],
    );
}

fn assemble_err(schema: &str, columns: Vec<LeafData>) -> String {
    let schema = Schema::parse(schema).unwrap();
    match assemble(&schema, &columns) {
        Ok(r) => panic!("expected an error, got {r:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn malformed_levels_are_errors() {
    let list =
        "message m { required group a (LIST) { repeated group list { required int32 element; } } }";
    // bad_data/ARROW-GH-45185: the column's first repetition level is 1.
    let e = assemble_err(
        list,
        vec![leaf(&[1, 1], &[1, 0], Values::Int32(vec![1, 2]))],
    );
    assert!(e.contains("start of a record"), "{e}");
    // A level above the maximum.
    let e = assemble_err(list, vec![leaf(&[2], &[0], Values::Int32(vec![1]))]);
    assert!(e.contains("above max_def_level"), "{e}");
    let e = assemble_err(list, vec![leaf(&[1], &[2], Values::Int32(vec![1]))]);
    assert!(e.contains("above max_rep_level"), "{e}");
    // Level vectors of different lengths.
    let e = assemble_err(list, vec![leaf(&[1, 1], &[0], Values::Int32(vec![1, 2]))]);
    assert!(e.contains("counts differ"), "{e}");
    // ARROW-GH-47662-like: fewer values than definition levels at the maximum.
    let opt = "message m { optional int32 a; }";
    let e = assemble_err(opt, vec![leaf(&[1, 1, 0], &[], Values::Int32(vec![1]))]);
    assert!(e.contains("fewer values"), "{e}");
    // Values left over.
    let e = assemble_err(opt, vec![leaf(&[1, 0], &[], Values::Int32(vec![1, 2]))]);
    assert!(e.contains("left over"), "{e}");
    // Columns disagreeing on the number of records.
    let two = "message m { required int32 a; required int32 b; }";
    let e = assemble_err(
        two,
        vec![
            leaf(&[], &[], Values::Int32(vec![1, 2])),
            leaf(&[], &[], Values::Int32(vec![1, 2, 3])),
        ],
    );
    assert!(e.contains("number of records"), "{e}");
    let e = assemble_err(
        two,
        vec![
            leaf(&[], &[], Values::Int32(vec![1, 2, 3])),
            leaf(&[], &[], Values::Int32(vec![1, 2])),
        ],
    );
    assert!(e.contains("ends before"), "{e}");
    // Columns of one group disagreeing on whether the group is present.
    let grp = "message m { optional group g { optional int32 a; optional int32 b; } }";
    let e = assemble_err(
        grp,
        vec![
            leaf(&[1], &[], Values::Int32(vec![])),
            leaf(&[0], &[], Values::Int32(vec![])),
        ],
    );
    assert!(e.contains("disagree"), "{e}");
    // Columns of one record disagreeing on the number of list elements.
    let lst = "message m { repeated group r { required int32 a; required int32 b; } }";
    let e = assemble_err(
        lst,
        vec![
            leaf(&[1, 1], &[0, 1], Values::Int32(vec![1, 2])),
            leaf(&[1, 1], &[0, 0], Values::Int32(vec![1, 2])),
        ],
    );
    assert!(e.contains("disagree"), "{e}");
    // The wrong number of columns.
    let schema = Schema::parse(two).unwrap();
    assert!(assemble(&schema, &[]).is_err());
}

fn shred_err(schema: &str, record: Value) -> String {
    let schema = Schema::parse(schema).unwrap();
    match shred(&schema, &[g(vec![Value::Int32(0)]), record]) {
        Ok(r) => panic!("expected an error, got {r:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn shred_errors_name_record_and_column() {
    let e = shred_err("message m { required int32 a; }", g(vec![Value::Null]));
    assert!(
        e.contains("record 1, column a: null in a required field"),
        "{e}"
    );
    let e = shred_err("message m { required int32 a; }", g(vec![Value::Int64(1)]));
    assert!(
        e.contains("record 1, column a: a INT64 value in a INT32 column"),
        "{e}"
    );
    let e = shred_err(
        "message m { required int32 a; }",
        g(vec![Value::Int32(1), Value::Int32(2)]),
    );
    assert!(
        e.contains("record 1, column <root>: a group of 2 fields"),
        "{e}"
    );
    let schema = Schema::parse("message m { required fixed_len_byte_array(3) f; }").unwrap();
    let e = shred(&schema, &[g(vec![Value::Bytes(vec![1, 2])])]).unwrap_err();
    assert!(e
        .to_string()
        .contains("column f: a value of 2 bytes in a FIXED_LEN_BYTE_ARRAY(3)"));
    let schema = Schema::parse(
        "message m { optional group m (MAP) { repeated group key_value { \
         required int32 key; optional int32 value; } } }",
    )
    .unwrap();
    let e = shred(
        &schema,
        &[g(vec![Value::Map(vec![(Value::Null, Value::Null)])])],
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("column m.key_value.key: null map key"),
        "{e}"
    );
}

#[test]
fn shred_into_leaves_columns_untouched_on_error() {
    let schema = Schema::parse("message m { optional binary a; required int32 b; }").unwrap();
    let mut cols = shred(&schema, &[g(vec![s("x"), Value::Int32(1)])]).unwrap();
    let before = cols.clone();
    let bad = [
        g(vec![s("y"), Value::Int32(2)]),
        g(vec![s("z"), Value::Null]),
    ];
    assert!(parket::levels::shred_into(&schema, &bad, &mut cols).is_err());
    assert_eq!(cols, before);
}

mod properties {
    //! Arbitrary schemas (depth up to 4 of groups, lists, maps; optional / required /
    //! repeated) with arbitrary records: assemble(shred(r)) bit-equals r, and shred's levels
    //! match a naive recursive striper written here over the test's own schema model.
    use super::*;
    use parket::format::FieldRepetitionType::{self, *};
    use parket::format::PhysicalType;
    use parket::schema::Type;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum T {
        Leaf(FieldRepetitionType, PhysicalType),
        Group(FieldRepetitionType, Vec<T>),
        /// 3-level LIST (the repetition is the list's: required or optional).
        List(FieldRepetitionType, Box<T>),
        /// 2-level LIST: the repeated child (a leaf, or a group named `array`) is the element.
        List2(FieldRepetitionType, Box<T>),
        /// MAP: a required leaf key and an optional value.
        Map(FieldRepetitionType, PhysicalType, Option<Box<T>>),
    }

    fn rep_of(t: &T) -> FieldRepetitionType {
        match t {
            T::Leaf(r, _) | T::Group(r, _) | T::List(r, _) | T::List2(r, _) | T::Map(r, _, _) => *r,
        }
    }

    fn with_rep(t: T, r: FieldRepetitionType) -> T {
        match t {
            T::Leaf(_, p) => T::Leaf(r, p),
            T::Group(_, c) => T::Group(r, c),
            T::List(_, e) => T::List(r, e),
            T::List2(_, e) => T::List2(r, e),
            T::Map(_, k, v) => T::Map(r, k, v),
        }
    }

    fn to_type(t: &T, name: &str) -> Type {
        match t {
            T::Leaf(r, p) => {
                let ty = Type::primitive(name, *r, *p);
                if *p == PhysicalType::FixedLenByteArray {
                    ty.length(3)
                } else {
                    ty
                }
            }
            T::Group(r, c) => Type::group(
                name,
                *r,
                c.iter()
                    .enumerate()
                    .map(|(i, c)| to_type(c, &format!("f{i}"))),
            ),
            T::List(r, e) => Type::list(name, *r, to_type(e, "element")),
            T::List2(r, e) => {
                let elem = match &**e {
                    T::Leaf(..) => to_type(e, "item"),
                    _ => to_type(e, "array"),
                };
                Type::group(name, *r, [elem]).logical_type(parket::format::LogicalType::List)
            }
            T::Map(r, k, v) => Type::map(
                name,
                *r,
                to_type(&T::Leaf(Required, *k), "key"),
                v.as_ref().map(|v| to_type(v, "value")),
            ),
        }
    }

    fn phys() -> impl Strategy<Value = PhysicalType> {
        use PhysicalType::*;
        prop_oneof![
            Just(Boolean),
            Just(Int32),
            Just(Int64),
            Just(Int96),
            Just(Float),
            Just(Double),
            Just(ByteArray),
            Just(FixedLenByteArray)
        ]
    }

    fn any_rep() -> impl Strategy<Value = FieldRepetitionType> {
        prop_oneof![Just(Required), Just(Optional), Just(Repeated)]
    }
    fn opt_rep() -> impl Strategy<Value = FieldRepetitionType> {
        prop_oneof![Just(Required), Just(Optional)]
    }

    fn tree() -> impl Strategy<Value = T> {
        let leaf = (any_rep(), phys()).prop_map(|(r, p)| T::Leaf(r, p));
        leaf.prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (any_rep(), prop::collection::vec(inner.clone(), 1..4))
                    .prop_map(|(r, c)| T::Group(r, c)),
                (opt_rep(), opt_rep(), inner.clone())
                    .prop_map(|(r, er, e)| T::List(r, Box::new(with_rep(e, er)))),
                (opt_rep(), inner.clone()).prop_filter_map("2-level element", |(r, e)| {
                    // The repeated element: a leaf, or a group (named `array`).
                    match e {
                        T::Leaf(_, p) => Some(T::List2(r, Box::new(T::Leaf(Repeated, p)))),
                        T::Group(_, c) => Some(T::List2(r, Box::new(T::Group(Repeated, c)))),
                        _ => None,
                    }
                }),
                (
                    opt_rep(),
                    phys(),
                    prop::option::of((opt_rep(), inner).prop_map(|(r, v)| with_rep(v, r)))
                )
                    .prop_map(|(r, k, v)| T::Map(r, k, v.map(Box::new))),
            ]
        })
    }

    fn leaf_value(p: PhysicalType) -> BoxedStrategy<Value> {
        use PhysicalType::*;
        match p {
            Boolean => any::<bool>().prop_map(Value::Boolean).boxed(),
            Int32 => any::<i32>().prop_map(Value::Int32).boxed(),
            Int64 => any::<i64>().prop_map(Value::Int64).boxed(),
            Int96 => any::<[u8; 12]>().prop_map(Value::Int96).boxed(),
            Float => any::<u32>()
                .prop_map(|b| Value::Float(f32::from_bits(b)))
                .boxed(),
            Double => any::<u64>()
                .prop_map(|b| Value::Double(f64::from_bits(b)))
                .boxed(),
            ByteArray => prop::collection::vec(any::<u8>(), 0..4)
                .prop_map(Value::Bytes)
                .boxed(),
            FixedLenByteArray => any::<[u8; 3]>()
                .prop_map(|b| Value::Bytes(b.to_vec()))
                .boxed(),
        }
    }

    /// A value for `t` in its parent's slot (with its repetition).
    fn slot_value(t: &T) -> BoxedStrategy<Value> {
        let inner = inner_value(t);
        match rep_of(t) {
            Repeated => prop::collection::vec(inner, 0..3)
                .prop_map(Value::List)
                .boxed(),
            Optional => prop_oneof![1 => Just(Value::Null), 3 => inner].boxed(),
            Required => inner,
        }
    }

    fn inner_value(t: &T) -> BoxedStrategy<Value> {
        match t {
            T::Leaf(_, p) => leaf_value(*p),
            T::Group(_, c) => c
                .iter()
                .map(slot_value)
                .collect::<Vec<_>>()
                .prop_map(Value::Group)
                .boxed(),
            T::List(_, e) => prop::collection::vec(slot_value(e), 0..3)
                .prop_map(Value::List)
                .boxed(),
            T::List2(_, e) => prop::collection::vec(inner_value(e), 0..3)
                .prop_map(Value::List)
                .boxed(),
            T::Map(_, k, v) => {
                let v = match v {
                    Some(v) => slot_value(v),
                    None => Just(Value::Null).boxed(),
                };
                prop::collection::vec((leaf_value(*k), v), 0..3)
                    .prop_map(Value::Map)
                    .boxed()
            }
        }
    }

    /// The naive reference: (value, def, rep) per leaf, recursively.
    type Stripes = Vec<Vec<(Option<Value>, u16, u16)>>;

    fn count_leaves(t: &T) -> usize {
        match t {
            T::Leaf(..) => 1,
            T::Group(_, c) => c.iter().map(count_leaves).sum(),
            T::List(_, e) | T::List2(_, e) => count_leaves(e),
            T::Map(_, _, v) => 1 + v.as_ref().map_or(0, |v| count_leaves(v)),
        }
    }

    fn nulls(n: usize, base: usize, d: u16, r: u16, out: &mut Stripes) {
        for col in out.iter_mut().skip(base).take(n) {
            col.push((None, d, r));
        }
    }

    /// `d`: definition level of the parent; `rl`: repetition depth of the parent.
    fn slot(t: &T, v: &Value, r: u16, d: u16, rl: u16, base: usize, out: &mut Stripes) {
        match rep_of(t) {
            Repeated => {
                let Value::List(items) = v else { panic!() };
                if items.is_empty() {
                    nulls(count_leaves(t), base, d, r, out);
                }
                for (i, item) in items.iter().enumerate() {
                    let ri = if i == 0 { r } else { rl + 1 };
                    inner(t, item, ri, d + 1, rl + 1, base, out);
                }
            }
            Optional => match v {
                Value::Null => nulls(count_leaves(t), base, d, r, out),
                v => inner(t, v, r, d + 1, rl, base, out),
            },
            Required => inner(t, v, r, d, rl, base, out),
        }
    }

    fn inner(t: &T, v: &Value, r: u16, d: u16, rl: u16, base: usize, out: &mut Stripes) {
        match (t, v) {
            (T::Leaf(..), v) => out[base].push((Some(v.clone()), d, r)),
            (T::Group(_, c), Value::Group(f)) => {
                let mut b = base;
                for (c, f) in c.iter().zip(f) {
                    slot(c, f, r, d, rl, b, out);
                    b += count_leaves(c);
                }
            }
            (T::List(_, e), Value::List(items)) => {
                if items.is_empty() {
                    nulls(count_leaves(e), base, d, r, out);
                }
                for (i, item) in items.iter().enumerate() {
                    let ri = if i == 0 { r } else { rl + 1 };
                    slot(e, item, ri, d + 1, rl + 1, base, out);
                }
            }
            (T::List2(_, e), Value::List(items)) => {
                if items.is_empty() {
                    nulls(count_leaves(e), base, d, r, out);
                }
                for (i, item) in items.iter().enumerate() {
                    let ri = if i == 0 { r } else { rl + 1 };
                    inner(e, item, ri, d + 1, rl + 1, base, out);
                }
            }
            (T::Map(_, _, vt), Value::Map(entries)) => {
                if entries.is_empty() {
                    nulls(count_leaves(t), base, d, r, out);
                }
                for (i, (k, val)) in entries.iter().enumerate() {
                    let ri = if i == 0 { r } else { rl + 1 };
                    out[base].push((Some(k.clone()), d + 1, ri));
                    if let Some(vt) = vt {
                        slot(vt, val, ri, d + 1, rl + 1, base + 1, out);
                    }
                }
            }
            _ => panic!("value does not fit"),
        }
    }

    fn values_of(v: &Values) -> Vec<Value> {
        match v {
            Values::Boolean(v) => v.iter().map(|&x| Value::Boolean(x)).collect(),
            Values::Int32(v) => v.iter().map(|&x| Value::Int32(x)).collect(),
            Values::Int64(v) => v.iter().map(|&x| Value::Int64(x)).collect(),
            Values::Int96(v) => v.iter().map(|&x| Value::Int96(x)).collect(),
            Values::Float(v) => v.iter().map(|&x| Value::Float(x)).collect(),
            Values::Double(v) => v.iter().map(|&x| Value::Double(x)).collect(),
            Values::ByteArray(v) => v.iter().map(|x| Value::Bytes(x.to_vec())).collect(),
            Values::FixedLenByteArray(v) => v
                .as_ref()
                .iter()
                .map(|x| Value::Bytes(x.to_vec()))
                .collect(),
        }
    }

    fn schema_and_records() -> impl Strategy<Value = (Vec<T>, Vec<Value>)> {
        prop::collection::vec(tree(), 1..4).prop_flat_map(|fields| {
            let root = T::Group(Required, fields.clone());
            (
                Just(fields),
                prop::collection::vec(inner_value(&root), 0..4),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn shred_then_assemble_round_trips((fields, records) in schema_and_records()) {
            let schema = Schema::new(
                "m",
                fields.iter().enumerate().map(|(i, f)| to_type(f, &format!("c{i}"))).collect(),
            ).unwrap();
            let columns = shred(&schema, &records).unwrap();
            // The naive striper.
            let root = T::Group(Required, fields.clone());
            let mut expected: Stripes = vec![Vec::new(); count_leaves(&root)];
            for r in &records {
                inner(&root, r, 0, 0, 0, 0, &mut expected);
            }
            prop_assert_eq!(columns.len(), expected.len());
            for ((col, exp), desc) in columns.iter().zip(&expected).zip(schema.columns()) {
                let defs: Vec<u16> = exp.iter().map(|e| e.1).collect();
                let reps: Vec<u16> = exp.iter().map(|e| e.2).collect();
                let vals: Vec<Value> = exp.iter().filter_map(|e| e.0.clone()).collect();
                if desc.max_def_level > 0 {
                    prop_assert_eq!(&col.def_levels, &defs);
                } else {
                    prop_assert!(col.def_levels.is_empty());
                }
                if desc.max_rep_level > 0 {
                    prop_assert_eq!(&col.rep_levels, &reps);
                } else {
                    prop_assert!(col.rep_levels.is_empty());
                }
                let got = values_of(&col.values);
                prop_assert_eq!(got.len(), vals.len());
                for (a, b) in got.iter().zip(&vals) {
                    prop_assert!(a.bit_eq(b));
                }
            }
            let back = assemble(&schema, &columns).unwrap();
            prop_assert_eq!(back.len(), records.len());
            for (a, b) in back.iter().zip(&records) {
                prop_assert!(a.bit_eq(b), "{:?}\n!=\n{:?}", a, b);
            }
        }

        #[test]
        fn arbitrary_levels_never_panic(
            (fields, _) in schema_and_records(),
            levels in prop::collection::vec((0u16..6, 0u16..4), 0..12),
            nvalues in 0usize..8,
        ) {
            let schema = Schema::new(
                "m",
                fields.iter().enumerate().map(|(i, f)| to_type(f, &format!("c{i}"))).collect(),
            ).unwrap();
            let mut columns = parket::levels::empty_columns(&schema);
            for (c, desc) in columns.iter_mut().zip(schema.columns()) {
                if desc.max_def_level > 0 {
                    c.def_levels = levels.iter().map(|l| l.0).collect();
                }
                if desc.max_rep_level > 0 {
                    c.rep_levels = levels.iter().map(|l| l.1).collect();
                }
                c.values = match desc.physical_type {
                    PhysicalType::Int32 => Values::Int32(vec![1; nvalues]),
                    _ => c.values.clone(),
                };
            }
            let _ = assemble(&schema, &columns);
        }
    }
}

#[test]
fn projection_keeps_paths_maps_and_two_level_records() {
    let schema = Schema::parse(
        "message m {
          required int32 a;
          optional group b { optional int32 x; optional group y { required int32 z; } }
          optional group m (MAP) { repeated group key_value {
            required binary key (STRING); optional int32 value; } }
          optional group l (LIST) { repeated group rec { required int32 p; required int32 q; } }
          optional group t (LIST) { repeated group list { optional group element {
            optional int32 u; optional int32 v; } } }
        }",
    )
    .unwrap();
    let (p, cols) = schema
        .project(&["t.list.element.v", "m.key_value.value", "b.y", "l.rec.q"])
        .unwrap();
    let expected = Schema::parse(
        "message m {
          optional group b { optional group y { required int32 z; } }
          optional group m (MAP) { repeated group key_value {
            required binary key (STRING); optional int32 value; } }
          optional group l (LIST) { repeated group rec { required int32 p; required int32 q; } }
          optional group t (LIST) { repeated group list { optional group element {
            optional int32 v; } } }
        }",
    )
    .unwrap();
    assert_eq!(p, expected);
    // a 0, b.x 1, b.y.z 2, m.key 3, m.value 4, l.p 5, l.q 6, t.u 7, t.v 8
    assert_eq!(cols, [2, 3, 4, 5, 6, 8]);
    // A group selects everything below it; the root path is everything; order does not matter.
    let (p, cols) = schema.project(&["b", "a"]).unwrap();
    assert_eq!(cols, [0, 1, 2]);
    assert_eq!(p.columns().len(), 3);
    let e = schema.project(&["a", "nope.x"]).unwrap_err().to_string();
    assert!(e.contains("nope.x"), "{e}");
    let (p, cols) = schema.project(&[]).unwrap();
    assert!(cols.is_empty() && p.columns().is_empty());

    // Assembling the kept columns with the projected schema gives projected records.
    let records = vec![g(vec![
        Value::Int32(1),
        g(vec![Value::Int32(2), g(vec![Value::Int32(3)])]),
        Value::Map(vec![(s("k"), Value::Int32(4))]),
        Value::Null,
        l(vec![g(vec![Value::Null, Value::Int32(5)]), Value::Null]),
    ])];
    let columns = shred(&schema, &records).unwrap();
    let (p, cols) = schema.project(&["t", "b.x"]).unwrap();
    let kept: Vec<LeafData> = cols.iter().map(|&i| columns[i].clone()).collect();
    let got = assemble(&p, &kept).unwrap();
    assert_eq!(
        got,
        vec![g(vec![
            g(vec![Value::Int32(2)]),
            l(vec![g(vec![Value::Null, Value::Int32(5)]), Value::Null]),
        ])]
    );
}

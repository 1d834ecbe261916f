//! `read_typed` on files written by other implementations (parquet-testing: Spark,
//! parquet-java, pyarrow, parquet-cpp), into hand-written structs. Expected values are
//! those pyarrow reads (`pq.read_table(f).to_pylist()`).

use std::collections::BTreeMap;

use parket::read::FileReader;
use parket::Record;

fn data(name: &str) -> Vec<u8> {
    let dir =
        std::env::var("PARQUET_TEST_DATA").unwrap_or_else(|_| "../shared/parquet-testing".into());
    std::fs::read(format!("{dir}/data/{name}")).unwrap()
}

fn read<T: Record>(name: &str) -> Vec<T> {
    let bytes = data(name);
    let file = FileReader::from_bytes(&bytes).unwrap();
    file.read_typed::<T>()
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap()
}

fn s(x: &str) -> String {
    x.to_string()
}

#[test]
fn nested_lists_spark() {
    type Strings = Option<Vec<Option<String>>>;
    #[derive(Record, Debug, PartialEq)]
    struct R {
        a: Option<Vec<Option<Vec<Strings>>>>,
        b: i32,
    }
    let rows: Vec<R> = read("nested_lists.snappy.parquet");
    assert_eq!(rows.len(), 3);
    let l = |v: &[&str]| Some(v.iter().map(|x| Some(s(x))).collect::<Vec<_>>());
    assert_eq!(
        rows[0],
        R {
            a: Some(vec![
                Some(vec![l(&["a", "b"]), l(&["c"])]),
                Some(vec![None, l(&["d"])]),
            ]),
            b: 1
        }
    );
    assert_eq!(
        rows[2].a.as_ref().unwrap()[0],
        Some(vec![l(&["a", "b"]), l(&["c", "d"]), l(&["e"])])
    );
}

#[test]
fn list_columns_pyarrow() {
    #[derive(Record, Debug, PartialEq)]
    struct R {
        int64_list: Option<Vec<Option<i64>>>,
        utf8_list: Option<Vec<Option<String>>>,
    }
    let rows: Vec<R> = read("list_columns.parquet");
    assert_eq!(
        rows,
        [
            R {
                int64_list: Some(vec![Some(1), Some(2), Some(3)]),
                utf8_list: Some(vec![Some(s("abc")), Some(s("efg")), Some(s("hij"))]),
            },
            R {
                int64_list: Some(vec![None, Some(1)]),
                utf8_list: None,
            },
            R {
                int64_list: Some(vec![Some(4)]),
                utf8_list: Some(vec![Some(s("efg")), None, Some(s("hij")), Some(s("xyz"))]),
            },
        ]
    );
    // Projection: one column, and widening is not needed.
    #[derive(Record, Debug, PartialEq)]
    struct Only {
        utf8_list: Option<Vec<Option<String>>>,
    }
    let only: Vec<Only> = read("list_columns.parquet");
    assert_eq!(only[1].utf8_list, None);
}

#[test]
fn nested_maps_spark() {
    #[derive(Record, Debug, PartialEq)]
    struct R {
        a: Option<BTreeMap<String, Option<BTreeMap<i32, bool>>>>,
        b: i32,
        c: f64,
    }
    let rows: Vec<R> = read("nested_maps.snappy.parquet");
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[0],
        R {
            a: Some([(s("a"), Some([(1, true), (2, false)].into()))].into()),
            b: 1,
            c: 1.0
        }
    );
    assert_eq!(rows[2].a, Some([(s("c"), None)].into()));
}

#[test]
fn legacy_two_level_list() {
    // `repeated group array (LIST) { repeated int32 array; }`: rule 3 (`array`), and the
    // element is itself a list of a bare repeated field.
    #[derive(Record, Debug, PartialEq)]
    struct R {
        a: Vec<Vec<i32>>,
    }
    let rows: Vec<R> = read("old_list_structure.parquet");
    assert_eq!(
        rows,
        [R {
            a: vec![vec![1, 2], vec![3, 4]]
        }]
    );
}

#[test]
fn repeated_groups_without_annotation() {
    #[derive(Record, Debug, PartialEq)]
    struct Phone {
        number: i64,
        kind: Option<String>,
    }
    #[derive(Record, Debug, PartialEq)]
    struct Phones {
        phone: Vec<Phone>,
    }
    #[derive(Record, Debug, PartialEq)]
    struct User {
        id: i32,
        #[parket(name = "phoneNumbers")]
        phone_numbers: Option<Phones>,
    }
    let rows: Vec<User> = read("repeated_no_annotation.parquet");
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[0],
        User {
            id: 1,
            phone_numbers: None
        }
    );
    assert_eq!(rows[2].phone_numbers, Some(Phones { phone: vec![] }));
    let with: Vec<&User> = rows
        .iter()
        .filter(|u| {
            u.phone_numbers
                .as_ref()
                .is_some_and(|p| !p.phone.is_empty())
        })
        .collect();
    assert!(!with.is_empty());

    #[derive(Record, Debug, PartialEq)]
    struct Lists {
        #[parket(name = "Int32_list")]
        ints: Vec<i32>,
        #[parket(name = "String_list")]
        strings: Vec<String>,
    }
    let rows: Vec<Lists> = read("repeated_primitive_no_list.parquet");
    assert_eq!(rows[0].ints, [0, 1, 2, 3]);
    assert_eq!(
        rows[1],
        Lists {
            ints: vec![],
            strings: vec![s("three")]
        }
    );
}

#[test]
fn maps_lists_and_decimals() {
    #[derive(Record, Debug, PartialEq)]
    struct R {
        my_map: BTreeMap<i32, Option<i32>>,
        my_list: Vec<i32>,
    }
    let rows: Vec<R> = read("map_no_value.parquet");
    assert_eq!(
        rows[0],
        R {
            my_map: [(1, None), (2, None), (3, None)].into(),
            my_list: vec![1, 2, 3]
        }
    );

    #[derive(Record, Debug, PartialEq)]
    struct Dec {
        #[parket(decimal(precision = 13, scale = 2))]
        value: Option<i64>,
    }
    let rows: Vec<Dec> = read("fixed_length_decimal_legacy.parquet");
    assert_eq!(
        rows[..3],
        [
            Dec { value: Some(100) },
            Dec { value: Some(200) },
            Dec { value: Some(300) }
        ]
    );

    #[derive(Record, Debug, PartialEq)]
    struct Empty {
        emptylist: Option<Vec<Option<i32>>>,
    }
    let rows: Vec<Empty> = read("null_list.parquet");
    assert_eq!(
        rows,
        [Empty {
            emptylist: Some(vec![])
        }]
    );
}

#![allow(clippy::single_range_in_vec_init)]
//! Hand-worked pruning cases, hostile page indexes, and the property that no stage drops a
//! row the row evaluation keeps.

use alloc::vec;
use alloc::vec::Vec;

use super::*;
use crate::bloom::{hash_bytes, Sbbf};
use crate::format::{BoundaryOrder, PageLocation};
use crate::predicate::{testing_row_group, ColumnBatch, Predicate};
use crate::schema::Schema;
use crate::statistics::{StatKind, StatisticsBuilder};
use crate::values::{ByteArrays, Values};
use proptest::prelude::*;

#[test]
fn outcome_tables() {
    let (t, f, u) = (Outcomes(T), Outcomes(F), Outcomes(U));
    assert_eq!(u.and(f), f);
    assert_eq!(u.and(t), u);
    assert_eq!(u.or(t), t);
    assert_eq!(u.or(f), u);
    assert_eq!(u.not(), u);
    assert_eq!(Outcomes(T | U).not(), Outcomes(F | U));
    assert_eq!(Outcomes(T | F).and(Outcomes(U)), Outcomes(F | U));
}

fn stats(lo: Vec<u8>, hi: Vec<u8>, nulls: Option<i64>) -> Statistics {
    Statistics {
        null_count: nulls,
        min_value: Some(lo),
        max_value: Some(hi),
        ..Default::default()
    }
}

fn may(schema: &str, text: &str, st: Statistics, n: i64, orders: bool) -> bool {
    let s = Schema::parse(schema).unwrap();
    let p = Predicate::parse(text, &s).unwrap();
    let rg = testing_row_group(&[(st, n)]);
    let o = [ColumnOrder::TypeOrder];
    p.row_group_may_match(&rg, orders.then_some(&o[..]))
}

#[test]
fn statistics_of_integers() {
    let s = "message m { optional int32 x; }";
    let st = || {
        stats(
            5i32.to_le_bytes().to_vec(),
            9i32.to_le_bytes().to_vec(),
            Some(0),
        )
    };
    for (text, expect) in [
        ("x = 5", true),
        ("x = 4", false),
        ("x = 10", false),
        ("x != 7", true),
        ("x < 5", false),
        ("x <= 5", true),
        ("x > 9", false),
        ("x >= 9", true),
        ("x in (1, 2, 10)", false),
        ("x in (1, 7)", true),
        ("x is null", false),
        ("x is not null", true),
        ("not x > 4", false),
        ("x < 5 or x > 9", false),
        ("x < 5 or x > 8", true),
        ("x = 7 and x is null", false),
    ] {
        assert_eq!(may(s, text, st(), 10, true), expect, "{text}");
    }
    // min = max: != can prune, and NOT IN too.
    let one = || {
        stats(
            7i32.to_le_bytes().to_vec(),
            7i32.to_le_bytes().to_vec(),
            Some(0),
        )
    };
    assert!(!may(s, "x != 7", one(), 10, true));
    assert!(!may(s, "not x in (7, 8)", one(), 10, true));
    assert!(may(s, "x != 8", one(), 10, true));
    // Unknown null count: IS NULL kept; NOT of an exact test is still pruned (unknown is
    // not true).
    let nn = || {
        stats(
            7i32.to_le_bytes().to_vec(),
            7i32.to_le_bytes().to_vec(),
            None,
        )
    };
    assert!(may(s, "x is null", nn(), 10, true));
    assert!(!may(s, "not x = 7", nn(), 10, true));
    assert!(may(s, "not x = 7 or x is null", nn(), 10, true));
    // All null: only IS NULL.
    let all_null = Statistics {
        null_count: Some(10),
        ..Default::default()
    };
    assert!(!may(s, "x = 1", all_null.clone(), 10, true));
    assert!(!may(s, "x is not null", all_null.clone(), 10, true));
    assert!(may(s, "x is null", all_null.clone(), 10, true));
    assert!(!may(s, "not x = 1", all_null, 10, true));
    // No statistics: everything kept.
    assert!(may(s, "x = 100", Statistics::default(), 10, true));
}

#[test]
fn statistics_orders_and_column_orders() {
    // INT(32, false): min 1, max 0xffffffff (= -1 as bits): 4e9 is inside.
    let s = "message m { required int32 u (INTEGER(32, false)); }";
    let st = || {
        stats(
            1i32.to_le_bytes().to_vec(),
            (-1i32).to_le_bytes().to_vec(),
            Some(0),
        )
    };
    assert!(may(s, "u = 4000000000", st(), 10, true));
    assert!(!may(s, "u = 0", st(), 10, true));
    // The deprecated fields are signed: never trusted for unsigned.
    let legacy = Statistics {
        min: Some(1i32.to_le_bytes().to_vec()),
        max: Some(2i32.to_le_bytes().to_vec()),
        ..Default::default()
    };
    assert!(may(s, "u = 4000000000", legacy.clone(), 10, true));
    // Signed INT32 without column_orders: the deprecated fields are used ...
    let si = "message m { required int32 i; }";
    assert!(!may(si, "i = 3", legacy.clone(), 10, false));
    // ... min_value / max_value are not.
    let new = stats(
        1i32.to_le_bytes().to_vec(),
        2i32.to_le_bytes().to_vec(),
        Some(0),
    );
    assert!(may(si, "i = 3", new.clone(), 10, false));
    assert!(!may(si, "i = 3", new, 10, true));
    // Strings: byte order; a truncated max (is_max_value_exact false) is still a bound.
    let ss = "message m { required binary s (STRING); }";
    let trunc = Statistics {
        min_value: Some(b"app".to_vec()),
        max_value: Some(b"pf".to_vec()),
        is_min_value_exact: Some(false),
        is_max_value_exact: Some(false),
        null_count: Some(0),
        ..Default::default()
    };
    assert!(may(ss, "s = 'apple'", trunc.clone(), 10, true));
    assert!(may(ss, "s = 'pear'", trunc.clone(), 10, true));
    assert!(!may(ss, "s = 'ap'", trunc.clone(), 10, true));
    assert!(!may(ss, "s >= 'pf0'", trunc.clone(), 10, true));
    assert!(may(ss, "s <= 'app'", trunc.clone(), 10, true));
    assert!(!may(ss, "s = '\u{e9}'", trunc, 10, true)); // c3 a9 > "pf" unsigned
                                                        // Legacy min/max of strings were signed bytes: ignored even with column orders absent.
    let legacy_s = Statistics {
        min: Some(b"a".to_vec()),
        max: Some(b"b".to_vec()),
        ..Default::default()
    };
    assert!(may(ss, "s = 'z'", legacy_s, 10, false));
    // DECIMAL on FLBA: signed by value. -1.00 .. 2.00 at scale 2: ff9c .. 00c8.
    let ds = "message m { required fixed_len_byte_array(2) d (DECIMAL(4, 2)); }";
    let dst = || stats(vec![0xff, 0x9c], vec![0x00, 0xc8], Some(0));
    assert!(may(ds, "d = -0.5", dst(), 10, true));
    assert!(!may(ds, "d < -1", dst(), 10, true));
    assert!(!may(ds, "d > 2", dst(), 10, true));
}

#[test]
fn statistics_of_floats_and_nan() {
    let s = "message m { required double x; }";
    let d = |lo: f64, hi: f64, nan: Option<i64>| Statistics {
        nan_count: nan,
        ..stats(
            lo.to_le_bytes().to_vec(),
            hi.to_le_bytes().to_vec(),
            Some(0),
        )
    };
    assert!(!may(s, "x > 2", d(1.0, 2.0, None), 10, true));
    // A NaN may be there: != is true for it, and NOT (x <= 2) too.
    assert!(may(s, "x != 1.5", d(1.5, 1.5, None), 10, true));
    assert!(!may(s, "x != 1.5", d(1.5, 1.5, Some(0)), 10, true));
    assert!(may(s, "not x <= 2", d(1.0, 2.0, None), 10, true));
    assert!(!may(s, "not x <= 2", d(1.0, 2.0, Some(0)), 10, true));
    assert!(!may(s, "x = 'NaN'", d(1.0, 2.0, None), 10, true));
    // A NaN bound tells nothing.
    assert!(may(s, "x > 5", d(f64::NAN, 2.0, None), 10, true));
    // Zeros: a max of -0.0 may hide +0.0 (equal anyway); min +0.0 bounds -0.0.
    assert!(may(s, "x = 0", d(-1.0, -0.0, Some(0)), 10, true));
    assert!(may(s, "x >= 0", d(-1.0, -0.0, Some(0)), 10, true));
    assert!(!may(s, "x < 0", d(0.0, 1.0, Some(0)), 10, true));
    // IEEE 754 total order columns: the same bounds, NaN counted apart.
    let sch = Schema::parse(s).unwrap();
    let p = Predicate::parse("x > 2", &sch).unwrap();
    let rg = testing_row_group(&[(d(1.0, 2.0, Some(3)), 10)]);
    assert!(!p.row_group_may_match(&rg, Some(&[ColumnOrder::Ieee754TotalOrder])));
    assert!(p.row_group_may_match(&rg, Some(&[ColumnOrder::Unknown { field_id: 9 }])));
}

#[test]
fn every_value_nan_by_total_order_bounds_or_by_counts() {
    let s = "message m { optional double x; }";
    let nan = f64::NAN.to_le_bytes().to_vec();
    let st = |lo: &[u8], hi: &[u8], nans: Option<i64>, nulls: i64| Statistics {
        nan_count: nans,
        ..stats(lo.to_vec(), hi.to_vec(), Some(nulls))
    };
    let sch = Schema::parse(s).unwrap();
    let may = |t: &str, st: Statistics, order: ColumnOrder| {
        let rg = testing_row_group(&[(st, 10)]);
        Predicate::parse(t, &sch)
            .unwrap()
            .row_group_may_match(&rg, Some(&[order]))
    };
    let total = ColumnOrder::Ieee754TotalOrder;
    // parquet.thrift, IEEE_754_TOTAL_ORDER: NaN bounds mean every non-null value is NaN, so
    // no comparison but != can hold; under TYPE_ORDER a NaN bound tells nothing.
    for t in ["x > 2", "x <= 2", "x = 1", "x IN (1, 2)", "NOT x != 1"] {
        assert!(!may(t, st(&nan, &nan, None, 0), total), "{t}");
        assert!(
            may(t, st(&nan, &nan, None, 0), ColumnOrder::TypeOrder),
            "{t}"
        );
    }
    assert!(may("x != 1", st(&nan, &nan, None, 0), total));
    assert!(may("NOT x > 2", st(&nan, &nan, None, 0), total));
    assert!(!may("x IS NULL", st(&nan, &nan, None, 0), total));
    // With nulls, a comparison is unknown for them: still no row is true.
    assert!(!may(
        "x > 2 OR x IS NULL AND x = 1",
        st(&nan, &nan, Some(4), 6),
        total
    ));
    assert!(may("x IS NULL", st(&nan, &nan, Some(4), 6), total));
    // A nan_count of 0 contradicts the NaN bound: nothing concluded.
    assert!(may("x > 2", st(&nan, &nan, Some(0), 0), total));
    // Any order: nan_count + null_count = num_values (10) says the same, without bounds.
    let counted = |nans, nulls| Statistics {
        min_value: None,
        max_value: None,
        ..st(&[], &[], Some(nans), nulls)
    };
    assert!(!may("x < 100", counted(7, 3), ColumnOrder::TypeOrder));
    assert!(may("x < 100", counted(6, 3), ColumnOrder::TypeOrder));
    assert!(may("x != 100", counted(7, 3), ColumnOrder::TypeOrder));

    // Page index: a page whose bound is NaN under total order holds only NaNs (and nulls).
    let one = 1f64.to_le_bytes().to_vec();
    let ci = ColumnIndex {
        null_pages: vec![false, false],
        min_values: vec![one.clone(), nan.clone()],
        max_values: vec![one, nan],
        boundary_order: BoundaryOrder::Unordered,
        null_counts: Some(vec![0, 0]),
        repetition_level_histograms: None,
        definition_level_histograms: None,
        nan_counts: None,
    };
    let oi = offsets(&[0, 5]);
    let rg = testing_row_group(&[(Statistics::default(), 10)]);
    let p = Predicate::parse("x >= 1", &sch).unwrap();
    let ranges = |order: ColumnOrder| p.page_row_ranges(&rg, Some(&[order]), &[Some((&ci, &oi))]);
    assert_eq!(ranges(total).ranges(), &[0..5]);
    assert_eq!(ranges(ColumnOrder::TypeOrder).ranges(), &[0..10]);
}

#[test]
fn dictionary_and_bloom() {
    let s = Schema::parse("message m { required int64 i; optional double d; }").unwrap();
    let p = |t: &str| Predicate::parse(t, &s).unwrap();
    let dict = [3i64, 5, 8];
    let dd = [0.0f64, f64::NAN];
    let dicts = [Some(ValuesRef::Int64(&dict)), Some(ValuesRef::Double(&dd))];
    let by_dict = |t: &str| {
        let q = p(t);
        let mine: Vec<_> = q.columns().iter().map(|&c| dicts[c]).collect();
        q.dictionaries_may_match(&mine)
    };
    assert!(by_dict("i = 5"));
    assert!(!by_dict("i = 4"));
    assert!(!by_dict("i > 8"));
    assert!(!by_dict("not i in (3, 5, 8)"));
    assert!(by_dict("not i in (3, 5)"));
    assert!(by_dict("d = -0.0"));
    assert!(by_dict("d != 0")); // NaN
    assert!(!by_dict("d > 0"));
    assert!(by_dict("d is null")); // optional: a null may be there
    assert!(!by_dict("i is null"));
    // Bloom: a filter holding 5 and -0.0.
    let mut f = Sbbf::new(256);
    f.insert_hash(hash_bytes(&5i64.to_le_bytes()));
    f.insert_hash(hash_bytes(&(-0.0f64).to_le_bytes()));
    let probe = |_: usize, b: &[u8]| f.check_hash(hash_bytes(b));
    assert!(p("i = 5").bloom_may_match(probe));
    assert!(!p("i = 6").bloom_may_match(probe));
    assert!(!p("i in (6, 7) and i > 0").bloom_may_match(probe));
    assert!(p("i in (6, 5)").bloom_may_match(probe));
    assert!(p("not i = 6").bloom_may_match(probe));
    assert!(p("d = 0").bloom_may_match(probe)); // +0.0 finds the -0.0
    assert!(!p("d = 'NaN'").bloom_may_match(probe));
}

/// Bounds with min above max (a hostile or broken writer) bound nothing: nothing is pruned
/// by them, where trusting them would rule out every value.
#[test]
fn min_above_max_bounds_nothing() {
    let s = "message m { optional int32 x; }";
    let st = stats(
        9i32.to_le_bytes().to_vec(),
        5i32.to_le_bytes().to_vec(),
        Some(0),
    );
    for text in ["x = 7", "x = 5", "x < 0", "x > 100", "NOT x != 3"] {
        assert!(may(s, text, st.clone(), 10, true), "{text}");
    }
    // The null count still counts.
    assert!(!may(s, "x IS NULL", st, 10, true));
}

fn index(mins: &[i32], maxs: &[i32], nulls: &[bool], counts: Option<Vec<i64>>) -> ColumnIndex {
    ColumnIndex {
        null_pages: nulls.to_vec(),
        min_values: mins
            .iter()
            .zip(nulls)
            .map(|(v, &n)| if n { vec![] } else { v.to_le_bytes().to_vec() })
            .collect(),
        max_values: maxs
            .iter()
            .zip(nulls)
            .map(|(v, &n)| if n { vec![] } else { v.to_le_bytes().to_vec() })
            .collect(),
        boundary_order: BoundaryOrder::Unordered,
        null_counts: counts,
        repetition_level_histograms: None,
        definition_level_histograms: None,
        nan_counts: None,
    }
}

fn offsets(first_rows: &[i64]) -> OffsetIndex {
    OffsetIndex {
        page_locations: first_rows
            .iter()
            .enumerate()
            .map(|(i, &r)| PageLocation {
                offset: 4 + 100 * i as i64,
                compressed_page_size: 100,
                first_row_index: r,
            })
            .collect(),
        unencoded_byte_array_data_bytes: None,
    }
}

#[test]
fn page_index_pruning_and_hostile_indexes() {
    let s = Schema::parse("message m { optional int32 x; required int32 y; }").unwrap();
    let rg = testing_row_group(&[(Statistics::default(), 40), (Statistics::default(), 40)]);
    let o = [ColumnOrder::TypeOrder, ColumnOrder::TypeOrder];
    // x: pages of 10 rows: 0..=9, all null, 20..=29, 30..=39 (with nulls).
    let cx = index(
        &[0, 0, 20, 30],
        &[9, 0, 29, 39],
        &[false, true, false, false],
        Some(vec![0, 10, 0, 2]),
    );
    let ox = offsets(&[0, 10, 20, 30]);
    // y: two pages of 20 rows, 0..=99 and 100..=199.
    let cy = index(&[0, 100], &[99, 199], &[false, false], Some(vec![0, 0]));
    let oy = offsets(&[0, 20]);
    let rows = |t: &str, cx: &ColumnIndex, ox: &OffsetIndex| {
        let p = Predicate::parse(t, &s).unwrap();
        let idx: Vec<_> = p
            .columns()
            .iter()
            .map(|&c| {
                if c == 0 {
                    Some((cx, ox))
                } else {
                    Some((&cy, &oy))
                }
            })
            .collect();
        p.page_row_ranges(&rg, Some(&o), &idx)
    };
    let r = |v: &[core::ops::Range<u64>]| RowRanges::from_ranges(v.iter().cloned());
    assert_eq!(rows("x = 25", &cx, &ox), r(&[20..30]));
    assert_eq!(rows("x is null", &cx, &ox), r(&[10..20, 30..40]));
    assert_eq!(rows("x is not null", &cx, &ox), r(&[0..10, 20..40]));
    assert_eq!(rows("not x < 30", &cx, &ox), r(&[30..40]));
    assert_eq!(rows("x < 5 or y >= 100", &cx, &ox), r(&[0..10, 20..40]));
    assert_eq!(rows("x >= 20 and y < 100", &cx, &ox), r(&[]));
    // Rows 20..40 have x >= 20 (or null) and y >= 100: true or unknown, so NOT drops them.
    assert_eq!(rows("not (x >= 20 and y >= 100)", &cx, &ox), r(&[0..20]));
    // NOT over an OR of inexact facts: page 30..40 may hold x in 30..=39 or null.
    assert_eq!(rows("not (x < 35 or x is null)", &cx, &ox), r(&[30..40]));
    // Hostile: each falls back to every row.
    let all = r(&[0..40]);
    let bad_len = index(&[0, 0, 20], &[9, 0, 29], &[false, true, false], None);
    assert_eq!(rows("x = 25", &bad_len, &ox), all);
    let not_increasing = offsets(&[0, 10, 10, 30]);
    assert_eq!(rows("x = 25", &cx, &not_increasing), all);
    let not_from_zero = offsets(&[5, 10, 20, 30]);
    assert_eq!(rows("x = 25", &cx, &not_from_zero), all);
    let past_end = offsets(&[0, 10, 20, 40]);
    assert_eq!(rows("x = 25", &cx, &past_end), all);
    let mut out_of_order = offsets(&[0, 10, 20, 30]);
    out_of_order.page_locations.swap(0, 1);
    out_of_order.page_locations[0].first_row_index = 0;
    out_of_order.page_locations[1].first_row_index = 10;
    assert_eq!(rows("x = 25", &cx, &out_of_order), all);
    let mut null_with_bounds = cx.clone();
    null_with_bounds.min_values[1] = 5i32.to_le_bytes().to_vec();
    assert_eq!(rows("x = 25", &null_with_bounds, &ox), all);
    let mut null_page_no_nulls = cx.clone();
    null_page_no_nulls.null_counts = Some(vec![0, 0, 0, 2]);
    assert_eq!(rows("x = 25", &null_page_no_nulls, &ox), all);
    let longer = index(
        &[0, 0, 20, 30, 40],
        &[9, 0, 29, 39, 49],
        &[false, true, false, false, false],
        None,
    );
    assert_eq!(rows("x = 25", &longer, &ox), all);
    // Without column_orders page bounds mean nothing; the null page still counts.
    let p = Predicate::parse("x = 25", &s).unwrap();
    assert_eq!(
        p.page_row_ranges(&rg, None, &[Some((&cx, &ox))]),
        r(&[0..10, 20..40])
    );
    // Null pages still count without orders.
    let p = Predicate::parse("x is null", &s).unwrap();
    assert_eq!(
        p.page_row_ranges(&rg, None, &[Some((&cx, &ox))]),
        r(&[10..20, 30..40])
    );
}

// ---- the property: pruning never drops a row that evaluation keeps ----

#[derive(Debug, Clone)]
enum Gen {
    Leaf(u8, u8, i8),
    And(Box<Gen>, Box<Gen>),
    Or(Box<Gen>, Box<Gen>),
    Not(Box<Gen>),
}

fn gen() -> impl Strategy<Value = Gen> {
    let leaf = (0u8..3, 0u8..9, -3i8..12).prop_map(|(c, o, v)| Gen::Leaf(c, o, v));
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Gen::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Gen::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| Gen::Not(Box::new(a))),
        ]
    })
}

fn text(g: &Gen) -> alloc::string::String {
    match g {
        Gen::Leaf(c, o, v) => {
            let col = ["i", "d", "s"][*c as usize];
            let lit = match c {
                0 => alloc::format!("{v}"),
                1 if *v == 11 => "'NaN'".into(),
                1 => alloc::format!("{}.5", v),
                _ => alloc::format!("'{}'", (b'a' + (*v).rem_euclid(6) as u8) as char),
            };
            let lit2 = match c {
                0 => alloc::format!("{}", v + 2),
                1 => alloc::format!("{}", v),
                _ => "'c'".into(),
            };
            match o {
                0 => alloc::format!("{col} = {lit}"),
                1 => alloc::format!("{col} != {lit}"),
                2 => alloc::format!("{col} < {lit}"),
                3 => alloc::format!("{col} <= {lit}"),
                4 => alloc::format!("{col} > {lit}"),
                5 => alloc::format!("{col} >= {lit}"),
                6 => alloc::format!("{col} in ({lit}, {lit2})"),
                7 => alloc::format!("{col} is null"),
                _ => alloc::format!("{col} is not null"),
            }
        }
        Gen::And(a, b) => alloc::format!("({} and {})", text(a), text(b)),
        Gen::Or(a, b) => alloc::format!("({} or {})", text(a), text(b)),
        Gen::Not(a) => alloc::format!("not {}", text(a)),
    }
}

/// One column's rows (None = null) as values + levels, statistics, and a page index over
/// pages of `page` rows.
struct Col {
    values: Values,
    levels: Vec<u16>,
    stats: Statistics,
    ci: ColumnIndex,
    oi: OffsetIndex,
    dict: Values,
    bloom: Sbbf,
}

fn build<T: Clone>(
    rows: &[Option<T>],
    page: usize,
    kind: StatKind,
    push: impl Fn(&mut Values, &T),
    empty: impl Fn() -> Values,
    nan: impl Fn(&T) -> bool,
    total_order: bool,
) -> Col {
    let mut values = empty();
    let mut levels = Vec::new();
    let mut chunk = StatisticsBuilder::new(kind).with_total_order(total_order);
    let mut ci = ColumnIndex {
        null_pages: vec![],
        min_values: vec![],
        max_values: vec![],
        boundary_order: BoundaryOrder::Unordered,
        null_counts: Some(vec![]),
        repetition_level_histograms: None,
        definition_level_histograms: None,
        nan_counts: Some(vec![]),
    };
    let mut oi = OffsetIndex {
        page_locations: vec![],
        unencoded_byte_array_data_bytes: None,
    };
    let mut nans = 0i64;
    for (p, chunk_rows) in rows.chunks(page).enumerate() {
        let mut pv = empty();
        let mut pb = StatisticsBuilder::new(kind).with_total_order(total_order);
        let mut pn = 0i64;
        for r in chunk_rows {
            match r {
                Some(v) => {
                    push(&mut values, v);
                    push(&mut pv, v);
                    levels.push(1);
                    if nan(v) {
                        pn += 1;
                    }
                }
                None => {
                    levels.push(0);
                    pb.add_nulls(1);
                }
            }
        }
        pb.update(pv.as_ref()).unwrap();
        let f = pb.to_format(Some(2));
        let all_null = f.min_value.is_none() && pn == 0;
        ci.null_pages.push(all_null);
        ci.min_values.push(f.min_value.clone().unwrap_or_default());
        ci.max_values.push(f.max_value.clone().unwrap_or_default());
        ci.null_counts
            .as_mut()
            .unwrap()
            .push(pb.null_count() as i64);
        ci.nan_counts.as_mut().unwrap().push(pn);
        nans += pn;
        oi.page_locations.push(PageLocation {
            offset: 4 + 100 * p as i64,
            compressed_page_size: 100,
            first_row_index: (p * page) as i64,
        });
        chunk.merge(&pb);
    }
    let mut stats = chunk.to_format(Some(2));
    stats.nan_count = Some(nans);
    // Dictionary: the distinct values (bitwise); Bloom: their hashes.
    let mut dict = empty();
    let mut bloom = Sbbf::new(1024);
    for i in 0..values.len() {
        let one = values.as_ref().slice(i..i + 1);
        let seen = (0..dict.len()).any(|j| dict.as_ref().slice(j..j + 1).bit_eq(&one));
        if !seen {
            dict.extend_from(one);
            bloom.insert_hash(crate::bloom::hash_value(one, 0).unwrap());
        }
    }
    Col {
        values,
        levels,
        stats,
        ci,
        oi,
        dict,
        bloom,
    }
}

/// The property tests' schema and columns: `i` int64, `d` double, `s` string.
fn three(
    ints: &[Option<i64>],
    dbls: &[Option<f64>],
    strs: &[Option<alloc::string::String>],
    page: usize,
) -> (Schema, [Col; 3]) {
    let schema = Schema::parse(
        "message m { optional int64 i; optional double d; optional binary s (STRING); }",
    )
    .unwrap();
    let cols = [
        build(
            ints,
            page,
            StatKind::Int64,
            |v, x| {
                v.extend_from(ValuesRef::Int64(&[*x]));
            },
            || Values::Int64(vec![]),
            |_| false,
            false,
        ),
        build(
            dbls,
            page,
            StatKind::Double,
            |v, x| {
                v.extend_from(ValuesRef::Double(&[*x]));
            },
            || Values::Double(vec![]),
            |x| x.is_nan(),
            false,
        ),
        build(
            strs,
            page,
            StatKind::Bytes,
            |v, x: &alloc::string::String| {
                let b: ByteArrays = [x.as_bytes()].into_iter().collect();
                v.extend_from(ValuesRef::ByteArray(b.as_ref()));
            },
            || Values::ByteArray(ByteArrays::new()),
            |_| false,
            false,
        ),
    ];
    (schema, cols)
}

/// The property tests' inputs: the three columns' rows (as long as `ints`), the page size
/// of their indexes and a predicate.
#[allow(clippy::type_complexity)]
fn inputs() -> impl Strategy<
    Value = (
        Vec<Option<i64>>,
        Vec<Option<f64>>,
        Vec<Option<alloc::string::String>>,
        usize,
        Gen,
    ),
> {
    let dbl = prop_oneof![
        (-3i32..12).prop_map(f64::from),
        Just(f64::NAN),
        Just(-0.0),
        Just(0.5)
    ];
    (
        proptest::collection::vec(proptest::option::of(-2i64..12), 1..40),
        proptest::collection::vec(proptest::option::of(dbl), 40),
        proptest::collection::vec(proptest::option::of("[a-f]{0,3}"), 40),
        1usize..9,
        gen(),
    )
}

/// Whether `p` is true for each row of `cols`.
fn evaluated(p: &Predicate, cols: &[Col; 3]) -> Vec<bool> {
    let batches: Vec<ColumnBatch<'_>> = p
        .columns()
        .iter()
        .map(|&c| ColumnBatch {
            values: cols[c].values.as_ref(),
            def_levels: &cols[c].levels,
        })
        .collect();
    let mut keep = Vec::new();
    p.evaluate(&batches, &mut keep).unwrap();
    keep
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn pruning_never_drops_a_kept_row(
        (ints, dbls, strs, page, g) in inputs(),
    ) {
        let n = ints.len();
        let (schema, cols) = three(&ints, &dbls[..n], &strs[..n], page);
        // The doubles again under IEEE_754_TOTAL_ORDER (NaN bounds when all are NaN).
        let total = build(&dbls[..n], page, StatKind::Double, |v, x| { v.extend_from(ValuesRef::Double(&[*x])); }, || Values::Double(vec![]), |x| x.is_nan(), true);
        let t = text(&g);
        let p = Predicate::parse(&t, &schema).unwrap();
        let keep = evaluated(&p, &cols);
        let kept: Vec<u64> = keep.iter().enumerate().filter(|(_, k)| **k).map(|(i, _)| i as u64).collect();
        let rg = testing_row_group(&[
            (cols[0].stats.clone(), n as i64), (cols[1].stats.clone(), n as i64), (cols[2].stats.clone(), n as i64)]);
        let orders = [ColumnOrder::TypeOrder; 3];
        if !kept.is_empty() {
            prop_assert!(p.row_group_may_match(&rg, Some(&orders)), "{t}: statistics");
            prop_assert!(p.row_group_may_match(&rg, None), "{t}: statistics, no orders");
            let dicts: Vec<_> = p.columns().iter().map(|&c| Some(cols[c].dict.as_ref())).collect();
            prop_assert!(p.dictionaries_may_match(&dicts), "{t}: dictionary");
            prop_assert!(p.bloom_may_match(|c, b| cols[c].bloom.check_hash(hash_bytes(b))), "{t}: bloom");
        }
        let idx: Vec<_> = p.columns().iter().map(|&c| Some((&cols[c].ci, &cols[c].oi))).collect();
        let ranges = p.page_row_ranges(&rg, Some(&orders), &idx);
        for r in &kept {
            prop_assert!(ranges.contains(*r), "{t}: row {r} not in {:?}", ranges);
        }
        let rg = testing_row_group(&[
            (cols[0].stats.clone(), n as i64), (total.stats.clone(), n as i64), (cols[2].stats.clone(), n as i64)]);
        let orders = [ColumnOrder::TypeOrder, ColumnOrder::Ieee754TotalOrder, ColumnOrder::TypeOrder];
        prop_assert!(kept.is_empty() || p.row_group_may_match(&rg, Some(&orders)), "{t}: total order statistics");
        let idx: Vec<_> = p.columns().iter().map(|&c| Some(if c == 1 { (&total.ci, &total.oi) } else { (&cols[c].ci, &cols[c].oi) })).collect();
        let ranges = p.page_row_ranges(&rg, Some(&orders), &idx);
        for r in &kept {
            prop_assert!(ranges.contains(*r), "{t}: total order: row {r} not in {:?}", ranges);
        }
    }
}

// ---- the converse: what says "every row matches" never says it of a row evaluation drops ----

/// `keep` over `rows` of a batch, each range proven whole or not by `batch_all_true`.
fn proven(p: &Predicate, cols: &[&Col], rows: core::ops::Range<usize>) -> bool {
    let batches: Vec<Option<ColumnBatch<'_>>> = p
        .columns()
        .iter()
        .map(|&c| {
            let col = cols[c];
            // The values of rows `rows`: those whose level says present before and within.
            let before = col.levels[..rows.start].iter().filter(|&&d| d == 1).count();
            let within = col.levels[rows.clone()].iter().filter(|&&d| d == 1).count();
            Some(ColumnBatch {
                values: col.values.as_ref().slice(before..before + within),
                def_levels: &col.levels[rows.clone()],
            })
        })
        .collect();
    p.batch_all_true(&batches)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn all_match_proofs_never_keep_a_dropped_row(
        (ints, dbls, strs, page, g) in inputs(),
    ) {
        let n = ints.len();
        let (schema, cols) = three(&ints, &dbls[..n], &strs[..n], page);
        let t = text(&g);
        let p = Predicate::parse(&t, &schema).unwrap();
        let keep = evaluated(&p, &cols);
        let all = keep.iter().all(|k| *k);
        let rg = testing_row_group(&[
            (cols[0].stats.clone(), n as i64), (cols[1].stats.clone(), n as i64), (cols[2].stats.clone(), n as i64)]);
        let orders = [ColumnOrder::TypeOrder; 3];
        // Honest metadata: statistics and page indexes.
        prop_assert!(all || !p.row_group_all_match(&rg, Some(&orders)), "{t}: statistics say all");
        prop_assert!(all || !p.row_group_all_match(&rg, None), "{t}: statistics without orders say all");
        let idx: Vec<_> = p.columns().iter().map(|&c| Some((&cols[c].ci, &cols[c].oi))).collect();
        let (may, sure) = p.page_row_sets(&rg, Some(&orders), &idx);
        prop_assert_eq!(&may, &p.page_row_ranges(&rg, Some(&orders), &idx));
        for r in sure.ranges().iter().flat_map(|r| r.clone()) {
            prop_assert!(keep[r as usize], "{t}: row {r} sure, evaluated false");
            prop_assert!(may.contains(r), "{t}: row {r} sure, not in the may ranges");
        }
        // The batch's own values: whole, and every window of `page` rows.
        let refs = [&cols[0], &cols[1], &cols[2]];
        prop_assert!(all || !proven(&p, &refs, 0..n), "{t}: batch proven, not all true");
        for s in (0..n).step_by(page) {
            let e = (s + page).min(n);
            if proven(&p, &refs, s..e) {
                prop_assert!(keep[s..e].iter().all(|k| *k), "{t}: rows {s}..{e} proven");
            }
        }
        // The strings as dictionary ids give what their values give.
        if let Some(slot) = p.columns().iter().position(|&c| c == 2) {
            let dict = &cols[2].dict;
            let ids: Vec<u32> = (0..cols[2].values.len()).map(|i| {
                let one = cols[2].values.as_ref().slice(i..i + 1);
                (0..dict.len()).position(|j| dict.as_ref().slice(j..j + 1).bit_eq(&one)).unwrap() as u32
            }).collect();
            let truths = p.dictionary_truths(slot, crate::encoding::dictionary::Dict::from(dict.as_ref())).unwrap();
            let inputs: Vec<_> = p.columns().iter().map(|&c| if c == 2 {
                super::super::eval::Input::Ids { ids: &ids, def_levels: &cols[2].levels, truths: &truths }
            } else {
                super::super::eval::Input::Values(ColumnBatch { values: cols[c].values.as_ref(), def_levels: &cols[c].levels })
            }).collect();
            let mut by_ids = Vec::new();
            p.evaluate_inputs(&inputs, &mut by_ids).unwrap();
            prop_assert_eq!(&by_ids, &keep, "{}: by dictionary ids", t);
        }
    }
}

#[test]
fn batches_proven_whole_by_their_own_values() {
    let s = Schema::parse(
        "message m { required int64 i; optional int32 u (INTEGER(32, false)); optional float f;
         required binary s (STRING); required fixed_len_byte_array(2) h (FLOAT16);
         optional int32 n; }",
    )
    .unwrap();
    let strs: ByteArrays = ["b", "c", "bz"].into_iter().collect();
    let halves = [0x00u8, 0x3c, 0x00, 0x3c, 0x00, 0x3c]; // 1.0 three times
    let cols = [
        ColumnBatch {
            values: ValuesRef::Int64(&[3, 9, 5]),
            def_levels: &[],
        },
        // 1, 4294967295 (-1 as bits), 7
        ColumnBatch {
            values: ValuesRef::Int32(&[1, -1, 7]),
            def_levels: &[1, 1, 1],
        },
        ColumnBatch {
            values: ValuesRef::Float(&[0.5, f32::NAN, -0.0]),
            def_levels: &[1, 1, 1],
        },
        ColumnBatch {
            values: ValuesRef::ByteArray(strs.as_ref()),
            def_levels: &[],
        },
        ColumnBatch {
            values: ValuesRef::FixedLenByteArray(
                crate::values::FixedLenByteArraysRef::new(2, &halves).unwrap(),
            ),
            def_levels: &[],
        },
        ColumnBatch {
            values: ValuesRef::Int32(&[]),
            def_levels: &[0, 0, 0],
        },
    ];
    let proves = |t: &str| {
        let p = Predicate::parse(t, &s).unwrap();
        let b: Vec<_> = p.columns().iter().map(|&c| Some(cols[c])).collect();
        let all = p.batch_all_true(&b);
        let mut keep = Vec::new();
        p.evaluate(&b.iter().map(|x| x.unwrap()).collect::<Vec<_>>(), &mut keep)
            .unwrap();
        assert!(
            !all || keep.iter().all(|k| *k),
            "{t}: proven, evaluated {keep:?}"
        );
        all
    };
    assert!(proves("i >= 3 and i < 10"));
    assert!(proves("i >= 3 or i in (1, 2)"));
    assert!(!proves("i > 3"));
    // Each leaf is judged alone: either may be false somewhere.
    assert!(!proves("i in (3, 5, 9) or i > 3"));
    assert!(proves("i != 40 and not i = 2"));
    // Unsigned order: 4294967295 is the greatest.
    assert!(proves("u >= 1 and u is not null"));
    assert!(!proves("u < 4294967295"));
    // A NaN is false for everything but !=.
    assert!(!proves("f <= 0.5"));
    assert!(proves("f != 7"));
    assert!(proves("s >= 'b' and s <= 'c'"));
    assert!(!proves("s > 'b'"));
    // FLOAT16 values have no bounds here: only null tests prove.
    assert!(!proves("h = 1"));
    assert!(proves("h is not null"));
    // Every row null: unknown for a comparison, true for IS NULL.
    assert!(proves("n is null"));
    assert!(!proves("n = 1"));
    assert!(!proves("not n = 1"));
}

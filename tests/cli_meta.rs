//! `parket meta --json` agrees with pyarrow on every file of the corpus: row count, row-group
//! count, and each column's dotted path, physical type and codec, and its statistics
//! (null_count, min, max: pyarrow's raw min/max printed by the JSON row contract, see
//! tests/interop/meta.py), except where pyarrow departs from the spec or from parket's reading
//! of it (`STAT_DIFFERENCES`, each with its reason), and each chunk's geospatial statistics
//! (bounding box and type codes, pyarrow's `geo_statistics`). Encrypted files with an
//! encrypted footer give the clean "encrypted" error; nothing in bad_data/ makes `meta` panic.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn parket(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

/// pyarrow's names for codecs differ from the spec's for the two LZ4s: its "LZ4" is the
/// spec's LZ4_RAW, and it reports the deprecated Hadoop LZ4 as "UNKNOWN".
fn pyarrow_codec(spec: &str) -> &str {
    match spec {
        "LZ4_RAW" => "LZ4",
        "LZ4" | "LZO" => "UNKNOWN",
        other => other,
    }
}

fn pyarrow_meta(files: &[String]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/meta.py");
    let out = Command::new("python3")
        .arg(script)
        .args(files)
        .output()
        .expect("run python3 (install the pinned pyarrow: see README)");
    assert!(
        out.status.success(),
        "meta.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Files whose statistics parket prints differently from pyarrow, and why.
const STAT_DIFFERENCES: &[(&str, &str)] = &[
    (
        "concatenated_gzip_members.parquet",
        "no column_orders: min_value/max_value are undefined by parquet.thrift, and pyarrow drops \
         them; parket reads them in the column's type order (as parquet-java and arrow-rs do)",
    ),
    (
        "data_index_bloom_encoding_with_length.parquet",
        "the same: no column_orders",
    ),
    ("nested_structs.rust.parquet", "the same: no column_orders"),
    (
        "floating_orders_nan_count.parquet",
        "IEEE_754_TOTAL_ORDER column order: pyarrow 26 ignores min/max under it; parket reads \
         them (the order is defined for FLOAT, DOUBLE and FLOAT16)",
    ),
    (
        "nan_in_stats.parquet",
        "a NaN max written by an old parquet-cpp: the spec says NaN is never a min/max and \
         readers ignore such statistics; pyarrow prints min 1.0 and max NaN",
    ),
    (
        "fixed_length_decimal.parquet",
        "DECIMAL on FIXED_LEN_BYTE_ARRAY with only the deprecated min/max: those were computed \
         in signed byte order, not the decimal's order, so parket ignores them; pyarrow uses them",
    ),
    (
        "fixed_length_decimal_legacy.parquet",
        "the same: deprecated min/max of a decimal",
    ),
    (
        "datapage_v2.snappy.parquet",
        "parquet-mr before 1.8.2 (PARQUET-251): pyarrow drops all statistics of BYTE_ARRAY \
         columns, null_count included; parket ignores only the deprecated byte-array min/max \
         and keeps null_count",
    ),
    (
        "nested_lists.snappy.parquet",
        "the same: PARQUET-251 byte-array statistics",
    ),
    (
        "nested_maps.snappy.parquet",
        "the same: PARQUET-251 byte-array statistics",
    ),
    (
        "nonnullable.impala.parquet",
        "the same: PARQUET-251 byte-array statistics",
    ),
    (
        "nullable.impala.parquet",
        "the same: PARQUET-251 byte-array statistics",
    ),
];

/// A column's statistics as {null_count, min, max}, all null when absent; a zero printed as
/// -0.0 (parket reads a zero min as -0.0, per parquet.thrift) compares equal to 0.0.
fn stats_of(v: &Value) -> [Value; 3] {
    let get = |k: &str| match v.get(k) {
        Some(Value::Number(n)) if n.to_string() == "-0.0" => serde_json::json!(0.0),
        Some(x) => x.clone(),
        None => Value::Null,
    };
    [get("null_count"), get("min"), get("max")]
}

/// Geospatial statistics as (types, [xmin, xmax, ymin, ymax, zmin, zmax, mmin, mmax]), `None`
/// when absent. pyarrow's `to_dict` shows an empty type list as null, as parket's reading of
/// the spec does ("not known"): both become empty here.
type Geo = Option<(Vec<i64>, [Option<f64>; 8])>;

const BBOX_KEYS: [&str; 8] = [
    "xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax",
];

fn geo_types(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|t| t.iter().map(|x| x.as_i64().unwrap()).collect())
        .unwrap_or_default()
}

fn geo_of(v: &Value) -> Geo {
    if v.is_null() {
        return None;
    }
    let bbox = &v["bbox"];
    let f = BBOX_KEYS.map(|k| bbox.get(k).and_then(Value::as_f64));
    Some((geo_types(&v["geospatial_types"]), f))
}

fn geo_of_pyarrow(v: &Value) -> Geo {
    if v.is_null() {
        return None;
    }
    let f = BBOX_KEYS.map(|k| v[k].as_f64());
    Some((geo_types(&v["geospatial_types"]), f))
}

#[test]
fn meta_json_agrees_with_pyarrow() {
    let mut files = Vec::new();
    for sub in ["data", "data/aes256", "data/geospatial"] {
        files.extend(parket::testing::corpus_files(sub));
    }
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    // Encrypted files: pyarrow without keys aborts the process on some of them (a C++
    // `terminate` on the plaintext-footer ones), so parket is checked on its own: the
    // encrypted-footer files give the clean error, the plaintext-footer ones print their
    // metadata and mark the columns encrypted.
    let (encrypted_files, plain): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| n.ends_with(".encrypted"));
    let mut encrypted = 0;
    for name in &encrypted_files {
        let out = parket(&["meta", "--json", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            let ours: Value = serde_json::from_slice(&out.stdout).expect("meta --json is JSON");
            assert_eq!(ours["encrypted_columns"], Value::Bool(true), "{name}");
        } else {
            assert!(
                stderr.contains("the file is encrypted") && stderr.contains("needs its keys"),
                "{name}: {stderr}"
            );
            encrypted += 1;
        }
    }
    let expected = pyarrow_meta(&plain);
    assert_eq!(expected.len(), plain.len());
    let mut compared = 0;
    let mut geo = 0;
    let mut differing = std::collections::HashSet::new();
    for (name, py) in plain.iter().zip(&expected) {
        let out = parket(&["meta", "--json", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        let ours: Value = serde_json::from_slice(&out.stdout).expect("meta --json is JSON");
        if let Some(err) = py.get("error") {
            // pyarrow refuses this file's schema (an optional map key); parket reads it.
            assert!(
                name.ends_with("incorrect_map_schema.parquet"),
                "{name}: pyarrow cannot read it: {err}"
            );
            continue;
        }
        assert_eq!(ours["num_rows"], py["num_rows"], "{name}: num_rows");
        let (ours_rg, py_rg) = (
            ours["row_groups"].as_array().unwrap(),
            py["row_groups"].as_array().unwrap(),
        );
        assert_eq!(ours_rg.len(), py_rg.len(), "{name}: row groups");
        for (i, (a, b)) in ours_rg.iter().zip(py_rg).enumerate() {
            assert_eq!(
                a["num_rows"], b["num_rows"],
                "{name}: row group {i} num_rows"
            );
            let (ac, bc) = (
                a["columns"].as_array().unwrap(),
                b["columns"].as_array().unwrap(),
            );
            assert_eq!(ac.len(), bc.len(), "{name}: row group {i} columns");
            for (j, (c, p)) in ac.iter().zip(bc).enumerate() {
                if c.get("encrypted").is_some() {
                    continue;
                }
                let at = format!("{name}: row group {i} column {j}");
                assert_eq!(c["path"].as_str(), p[0].as_str(), "{at}: path");
                assert_eq!(c["physical_type"].as_str(), p[1].as_str(), "{at}: type");
                let codec = pyarrow_codec(c["codec"].as_str().unwrap());
                assert_eq!(Some(codec), p[2].as_str(), "{at}: codec");
                let (a, b) = (geo_of(&c["geospatial_statistics"]), geo_of_pyarrow(&p[4]));
                assert_eq!(a, b, "{at}: geospatial statistics");
                if a.is_some() {
                    geo += 1;
                }
                let (a, b) = (stats_of(&c["statistics"]), stats_of(&p[3]));
                if a != b {
                    let file = name.rsplit('/').next().unwrap_or(name);
                    assert!(
                        STAT_DIFFERENCES.iter().any(|d| d.0 == file),
                        "{at}: statistics: parket {a:?}, pyarrow {b:?}"
                    );
                    differing.insert(file.to_string());
                }
            }
        }
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} files compared");
    assert!(
        geo >= 180,
        "only {geo} chunks with geospatial statistics compared"
    );
    for (file, why) in STAT_DIFFERENCES {
        assert!(
            differing.contains(*file),
            "{file} is listed as differing ({why}) but agrees"
        );
    }
    assert!(encrypted >= 10, "only {encrypted} encrypted files seen");
}

#[test]
fn bad_data_never_panics_meta() {
    for f in parket::testing::corpus_files("bad_data") {
        let out = parket(&["meta", f.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && out.status.code().is_some_and(|c| c <= 1),
            "{}: {stderr}",
            f.display()
        );
    }
}

/// The text form of geospatial statistics; the numbers are pyarrow's `geo_statistics` of
/// the same chunks.
#[test]
fn meta_text_shows_geospatial_statistics() {
    let dir = parket::testing::corpus_dir().join("data/geospatial");
    let out = parket(&["meta", dir.join("geospatial.parquet").to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let geo: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("geospatial statistics: "))
        .collect();
    assert_eq!(geo.len(), 31);
    assert!(geo[0].starts_with("bbox x 10..40, y 10..40, z 30..80, m 200..1600; types [1, 2, "));
    assert!(geo[1].starts_with("no bbox; types [1, 2, 3"));
    assert_eq!(geo[2], "no bbox; types unknown (empty list)");
    assert_eq!(geo[10], "bbox x 30..40, y 10..20, z 40..60; types [1001]");
    assert_eq!(geo[17], "bbox x 30..40, y 10..20, m 300..800; types [2001]");
    // A GEOGRAPHY box across the antimeridian (SedonaDB's, row group 22).
    let out = parket(&[
        "meta",
        dir.join("geography-lines.parquet").to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .filter(|l| l.contains("geospatial statistics"))
        .nth(22)
        .unwrap();
    assert!(
        line.contains("x 176.64593038364546..-130.83077746623894")
            && line.contains("x wraps the antimeridian (xmin > xmax)"),
        "{line}"
    );
}

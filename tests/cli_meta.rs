//! `parket meta --json` agrees with pyarrow on every file of the corpus: row count, row-group
//! count, and each column's dotted path, physical type and codec. Encrypted files with an
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
                stderr.contains("encrypted files are not supported"),
                "{name}: {stderr}"
            );
            encrypted += 1;
        }
    }
    let expected = pyarrow_meta(&plain);
    assert_eq!(expected.len(), plain.len());
    let mut compared = 0;
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
            }
        }
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} files compared");
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

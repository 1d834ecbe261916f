//! `parket levels`: on every readable file of the corpus (the `Rows` entries of the registry
//! in tests/read_corpus.rs), the level entries of each leaf number exactly that column chunk's
//! `num_values`, and the records they assemble into are the lines `parket cat --json` prints.
//! On a small hand-worked file, the levels and their meanings are what spec-notes/04 derives
//! by hand.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use parket::read::FileReader;
use serde_json::Value as Json;

fn parket(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

#[test]
fn every_readable_corpus_file_levels_match_num_values_and_cat() {
    let root: PathBuf = parket::testing::corpus_dir();
    let files = common::readable_corpus_files();
    assert!(
        files.len() >= 60,
        "only {} readable files found in tests/read_corpus.rs",
        files.len()
    );
    let mut failures = Vec::new();
    let mut entries_checked = 0usize;
    for name in &files {
        let path = root.join(name);
        let p = path.to_str().unwrap();
        let cat = parket(&["cat", "--json", p]);
        let levels = parket(&["levels", "--json", p]);
        if !cat.status.success() {
            // A row the JSON contract cannot print (int96_from_spark.parquet): levels, which
            // prints the same records, must fail too, with a message and not a panic.
            let err = String::from_utf8_lossy(&levels.stderr);
            if levels.status.code() != Some(1) || !err.starts_with("parket: ") {
                failures.push(format!(
                    "{name}: cat fails, levels does not fail cleanly: {err}"
                ));
            }
            continue;
        }
        if !levels.status.success() {
            failures.push(format!(
                "{name}: {}",
                String::from_utf8_lossy(&levels.stderr)
            ));
            continue;
        }
        let out = String::from_utf8(levels.stdout).expect("UTF-8");
        let mut records = String::new();
        let mut counts: HashMap<(u64, String), i64> = HashMap::new();
        for line in out.lines() {
            let j: Json = serde_json::from_str(line).expect("levels --json line is JSON");
            if j.get("record").is_some() {
                // The record, exactly as printed: the text after `"record":`.
                let at = line.find("\"record\":").unwrap() + "\"record\":".len();
                records.push_str(&line[at..line.len() - 1]);
                records.push('\n');
            } else {
                let rg = j["row_group"].as_u64().unwrap();
                let col = j["column"].as_str().unwrap().to_string();
                *counts.entry((rg, col)).or_default() += 1;
                entries_checked += 1;
            }
        }
        if records.as_bytes() != cat.stdout.as_slice() {
            failures.push(format!(
                "{name}: the assembled records differ from cat --json"
            ));
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let file = FileReader::from_bytes(&bytes).unwrap();
        for (rg, group) in file.metadata().row_groups.iter().enumerate() {
            for (c, chunk) in group.columns.iter().enumerate() {
                let want = chunk.meta_data.as_ref().unwrap().num_values;
                let path = file.schema().column(c).unwrap().path_string();
                let got = counts.get(&(rg as u64, path.clone())).copied().unwrap_or(0);
                if got != want {
                    failures.push(format!(
                        "{name}: row group {rg}, {path}: {got} entries, num_values {want}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(entries_checked > 100_000, "only {entries_checked} entries");
}

/// A file with a list that holds a value and a null, an empty list and a null list, written
/// by `parket write`.
fn small_file(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let schema = "message m { required int64 id; optional group tags (LIST) { \
                  repeated group list { optional binary element (STRING); } } }";
    let rows =
        "{\"id\":1,\"tags\":[\"a\",null]}\n{\"id\":2,\"tags\":[]}\n{\"id\":3,\"tags\":null}\n";
    let input = dir.join("rows.jsonl");
    std::fs::write(&input, rows).unwrap();
    let out = dir.join("tags.parquet");
    let w = parket(&[
        "write",
        "--schema",
        schema,
        "--input",
        input.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(w.status.success(), "{}", String::from_utf8_lossy(&w.stderr));
    out
}

#[test]
fn a_list_with_a_null_an_empty_list_and_a_null_list() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_levels_small");
    let file = small_file(&dir);
    let f = file.to_str().unwrap();

    // Worked by hand (spec-notes/04): tags.list.element has max def 3 (tags, list, element),
    // max rep 1 (list). ["a", null] -> (r0 d3 "a"), (r1 d2: element null); [] -> (r0 d1:
    // defined down to tags, list absent); null -> (r0 d0).
    let out = parket(&["levels", "--column", "tags", f]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = "\
leaf 1: tags.list.element (max rep 1, max def 3)
row group 0 (rows 0..3)
  rep def value meaning
row 0: {\"tags\":[\"a\",null]}
    0   3 \"a\"   new record
    1   2 null  next element of tags; element of tags is null
row 1: {\"tags\":[]}
    0   1 null  new record; tags is an empty list
row 2: {\"tags\":null}
    0   0 null  new record; tags is null
";
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);

    // Both leaves side by side, rows 1..3 only.
    let out = parket(&["levels", "--rows", "1..3", f]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = "\
leaf 1: id (max rep 0, max def 0)
leaf 2: tags.list.element (max rep 1, max def 3)
row group 0 (rows 1..3)
  leaf 1                   | leaf 2
  rep def value meaning    | rep def value meaning
row 1: {\"id\":2,\"tags\":[]}
    0   0 2     new record |   0   1 null  new record; tags is an empty list
row 2: {\"id\":3,\"tags\":null}
    0   0 3     new record |   0   0 null  new record; tags is null
";
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);

    // --json: the entries of row 0.
    let out = parket(&["levels", "--json", "--rows", "0..1", "--column", "tags", f]);
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"row":0,"record":{"tags":["a",null]}}"#,
            r#"{"row_group":0,"row":0,"column":"tags.list.element","rep":0,"def":3,"value":"a","meaning":"new record"}"#,
            r#"{"row_group":0,"row":0,"column":"tags.list.element","rep":1,"def":2,"value":null,"meaning":"next element of tags; element of tags is null"}"#,
        ]
    );

    // Errors a person can act on.
    let bad = parket(&["levels", "--column", "nope", f]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nope"));
    let bad = parket(&["levels", "--rows", "3..1", f]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--rows"));
    let _ = std::fs::remove_dir_all(&dir);
}

//! `parket cat --json` prints exactly the rows that pyarrow reads from every readable file of
//! the corpus, in the canonical form of ../shared/json-mapping.md (tests/interop/rows.py is
//! pyarrow's side). Files where the two cannot agree are listed with the reason and with what
//! parket does instead.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Files left out of the comparison, and why.
const EXCEPTIONS: &[(&str, &str)] = &[
    // Two map keys of 1 GiB each: several GB of RAM and 2 GiB of JSON on both sides. The
    // reader's corpus test (tests/read_corpus.rs) checks parket's bounded failure on it.
    ("large_string_map.brotli.parquet", "too large to print"),
    // pyarrow refuses the optional map key; parket reads it (checked below).
    ("incorrect_map_schema.parquet", "pyarrow cannot read it"),
    // Row 6 holds nanoseconds-of-day outside [0, 86400e9), which the contract makes an error;
    // pyarrow cannot see the raw fields and prints a timestamp (checked below).
    ("int96_from_spark.parquet", "row 6 is invalid"),
    // A page CRC does not match: the contract says cat fails naming the column and page
    // (pyarrow does not verify CRCs by default and prints the rows; checked below).
    ("datapage_v1-corrupt-checksum.parquet", "corrupt page CRC"),
    (
        "rle-dict-uncompressed-corrupt-checksum.parquet",
        "corrupt page CRC",
    ),
];

fn parket(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

/// pyarrow's rows for each file, via one python process: file name -> Ok(lines) / Err(msg).
fn pyarrow_rows(files: &[PathBuf], dir: &Path) -> Vec<Result<String, String>> {
    std::fs::create_dir_all(dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/batch.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["rows", "--out", dir.to_str().unwrap()])
        .args(files)
        .output()
        .expect("run python3 (install the pinned pyarrow: see README)");
    assert!(
        out.status.success(),
        "batch.py rows: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    files
        .iter()
        .map(|f| {
            let base = dir.join(f.file_name().unwrap());
            let ok = base.with_file_name(format!(
                "{}.jsonl",
                base.file_name().unwrap().to_string_lossy()
            ));
            let err = base.with_file_name(format!(
                "{}.err",
                base.file_name().unwrap().to_string_lossy()
            ));
            match std::fs::read_to_string(&ok) {
                Ok(s) => Ok(s),
                Err(_) => Err(std::fs::read_to_string(err).unwrap_or_default()),
            }
        })
        .collect()
}

fn first_difference(ours: &str, theirs: &str) -> String {
    for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n  parket:  {a}\n  pyarrow: {b}", i + 1);
        }
    }
    format!(
        "{} lines from parket, {} from pyarrow",
        ours.lines().count(),
        theirs.lines().count()
    )
}

#[test]
fn cat_json_equals_pyarrow_on_the_corpus() {
    let mut files = parket::testing::corpus_files("data");
    files.extend(parket::testing::corpus_files("data/geospatial"));
    files.retain(|f| !f.to_string_lossy().ends_with(".encrypted"));
    let compared: Vec<PathBuf> = files
        .iter()
        .filter(|f| {
            let name = f.file_name().unwrap().to_string_lossy();
            !EXCEPTIONS.iter().any(|(n, _)| *n == name)
        })
        .cloned()
        .collect();
    let dir = std::env::temp_dir().join(format!("parket-cat-{}", std::process::id()));
    let expected = pyarrow_rows(&compared, &dir);
    let mut failures = Vec::new();
    for (file, want) in compared.iter().zip(expected) {
        let name = file.display().to_string();
        let want = match want {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!(
                    "{name}: pyarrow cannot read it ({e}); list it as an exception"
                ));
                continue;
            }
        };
        let out = parket(&["cat", "--json", &name]);
        if !out.status.success() {
            failures.push(format!("{name}: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        }
        let ours = String::from_utf8_lossy(&out.stdout);
        if ours != want {
            failures.push(format!("{name}: {}", first_difference(&ours, &want)));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        compared.len(),
        failures.join("\n")
    );
    assert!(
        compared.len() >= 70,
        "only {} files compared",
        compared.len()
    );
}

#[test]
fn the_exceptions_do_what_the_list_says() {
    let data = parket::testing::corpus_dir().join("data");
    // incorrect_map_schema: an optional map key (the spec says required); parket reads the map.
    let out = parket(&[
        "cat",
        "--json",
        data.join("incorrect_map_schema.parquet").to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("{\""), "{text}");

    // Corrupt CRCs: exit 1, naming the column and the page.
    for (file, column) in [
        ("datapage_v1-corrupt-checksum.parquet", "column a, page 0"),
        (
            "rle-dict-uncompressed-corrupt-checksum.parquet",
            "column long_field, page 0",
        ),
    ] {
        let out = parket(&["cat", "--json", data.join(file).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("page CRC mismatch") && stderr.contains(column),
            "{stderr}"
        );
    }

    // int96_from_spark: rows 1..5 as pyarrow prints them, then an error naming the value.
    let f = data.join("int96_from_spark.parquet");
    let out = parket(&["cat", "--json", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("row 5"), "{stderr}");
    let dir = std::env::temp_dir().join(format!("parket-cat-int96-{}", std::process::id()));
    let want = pyarrow_rows(&[f], &dir).pop().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let ours = String::from_utf8(out.stdout).unwrap();
    assert_eq!(ours.lines().count(), 5);
    assert!(
        want.starts_with(&ours),
        "{}",
        first_difference(&ours, &want)
    );
}

#[test]
fn columns_select_as_pyarrow_does() {
    let data = parket::testing::corpus_dir().join("data");
    let cases = [
        ("nested_maps.snappy.parquet", "b,a"),
        (
            "nullable.impala.parquet",
            "nested_struct.C.d.list.element.list.element.F,id,nested_struct.g",
        ),
        ("alltypes_plain.parquet", "string_col,id"),
        ("nested_lists.snappy.parquet", "a.list.element"),
    ];
    for (file, cols) in cases {
        let f = data.join(file);
        let out = parket(&["cat", "--json", "--columns", cols, f.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let py = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/rows.py"))
            .arg(&f)
            .args(["--columns", cols])
            .output()
            .unwrap();
        assert!(
            py.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&py.stderr)
        );
        let (ours, theirs) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&py.stdout),
        );
        assert!(
            ours == theirs,
            "{file} --columns {cols}: {}",
            first_difference(&ours, &theirs)
        );
    }
}

/// `--offset` / `--limit` print the rows pyarrow has there (read through the offset index of
/// alltypes_tiny_pages, 7300 rows in pages of a few rows), and `--explain` says how little a
/// scan of them reads.
#[test]
fn offset_and_limit_select_rows_as_pyarrow_does() {
    let data = parket::testing::corpus_dir().join("data");
    for (file, offset, limit, cols) in [
        (
            "alltypes_tiny_pages.parquet",
            3000,
            25,
            "id,string_col,timestamp_col",
        ),
        ("alltypes_tiny_pages.parquet", 7290, 100, "id,bool_col"),
        ("nested_lists.snappy.parquet", 1, 1, "a.list.element"),
    ] {
        let f = data.join(file);
        let out = parket(&[
            "cat",
            "--json",
            "--columns",
            cols,
            "--offset",
            &offset.to_string(),
            "--limit",
            &limit.to_string(),
            f.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let py = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/rows.py"))
            .arg(&f)
            .args(["--columns", cols])
            .output()
            .unwrap();
        assert!(
            py.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&py.stderr)
        );
        let theirs: String = String::from_utf8_lossy(&py.stdout)
            .lines()
            .skip(offset)
            .take(limit)
            .map(|l| format!("{l}\n"))
            .collect();
        let ours = String::from_utf8_lossy(&out.stdout);
        assert!(
            ours == theirs,
            "{file} --offset {offset}: {}",
            first_difference(&ours, &theirs)
        );
    }
    let f = data.join("alltypes_tiny_pages.parquet");
    let out = parket(&[
        "cat",
        "--explain",
        "--columns",
        "id",
        "--offset",
        "3000",
        "--limit",
        "1",
        f.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rows: 1 of 7300"), "{text}");
    assert!(text.contains("pages of indexed chunks: 1 of "), "{text}");
}

/// `--where` prints the rows pyarrow prints whose id is in the range (alltypes_tiny_pages: read
/// through its page index), `--offset`/`--limit` count matching rows, and a bad expression is
/// exit code 1 with nothing on stdout.
#[test]
fn where_keeps_the_matching_rows() {
    let f = parket::testing::corpus_dir().join("data/alltypes_tiny_pages.parquet");
    let py = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/rows.py"))
        .arg(&f)
        .args(["--columns", "id,int_col"])
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&py.stdout).into_owned();
    let id = |l: &str| -> i64 {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["id"].as_i64().unwrap()
    };
    let theirs: String = all
        .lines()
        .filter(|l| (3000..3040).contains(&id(l)) || id(l) == 7)
        .skip(2)
        .take(30)
        .map(|l| format!("{l}\n"))
        .collect();
    let out = parket(&[
        "cat",
        "--json",
        "--columns",
        "id,int_col",
        "--where",
        "(id >= 3000 AND id < 3040) OR id = 7",
        "--offset",
        "2",
        "--limit",
        "30",
        f.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = String::from_utf8_lossy(&out.stdout);
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    let bad = parket(&["cat", "--where", "id >= 'x'", f.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--where"));
}

//! `parket pages`, `parket dump` and `parket layout` on every file of the corpus (data/ and
//! data/geospatial/) and on files parket writes: readable files give exit 0, unreadable ones
//! (encrypted footers) a message and exit 1, never a panic; the pages' level positions and rows
//! add up to the footer's `num_values` and `num_rows`; every SVG and HTML page is well-formed
//! XML (checked by python3's xml.etree, a parser that is not ours); and one dump is checked
//! against bytes annotated by hand.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value as Json;

fn parket(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

fn no_panic(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && matches!(out.status.code(), Some(0 | 1)),
        "{what}: {:?} {err}",
        out.status
    );
}

fn corpus() -> Vec<PathBuf> {
    let mut files = parket::testing::corpus_files("data");
    files.extend(parket::testing::corpus_files("data/geospatial"));
    files
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("parket-cli-pages-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Files parket writes: nested and optional columns, V1 and V2 pages, compressed, with a
/// dictionary, a bloom filter and the page index.
fn written() -> Vec<PathBuf> {
    let schema = "message m { required int64 id; optional binary name (STRING); \
        optional group tags (LIST) { repeated group list { optional int32 element; } } }";
    let mut rows = String::new();
    for i in 0..300 {
        let name = if i % 7 == 0 {
            "null".to_string()
        } else {
            format!("\"n{}\"", i % 13)
        };
        let tags = match i % 4 {
            0 => "null".to_string(),
            1 => "[]".to_string(),
            _ => format!("[{i},null,{}]", i * 2),
        };
        rows.push_str(&format!("{{\"id\":{i},\"name\":{name},\"tags\":{tags}}}\n"));
    }
    let input = tmp("rows.jsonl");
    std::fs::write(&input, rows).unwrap();
    let mut out = Vec::new();
    for (n, extra) in [
        (
            "w1.parquet",
            vec!["--page-version", "1", "--codec", "UNCOMPRESSED"],
        ),
        (
            "w2.parquet",
            vec![
                "--page-version",
                "2",
                "--codec",
                "SNAPPY",
                "--page-rows",
                "64",
                "--bloom-filter",
                "name",
            ],
        ),
    ] {
        let o = tmp(n);
        write(schema, &input, &o, &extra);
        out.push(o);
    }
    out
}

/// `parket write --schema SCHEMA --input INPUT --output OUTPUT EXTRA...`, which must succeed.
fn write(schema: &str, input: &Path, output: &Path, extra: &[&str]) {
    let mut args = vec![
        "write",
        "--schema",
        schema,
        "--input",
        input.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ];
    args.extend(extra);
    let r = parket(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

/// Checks `pages --json` against the footer; returns the pages' offsets.
fn check_pages(file: &Path) -> Vec<u64> {
    let f = file.to_str().unwrap();
    let name = file.display();
    let meta = parket(&["meta", "--json", f]);
    assert!(meta.status.success());
    let meta: Json = serde_json::from_slice(&meta.stdout).unwrap();
    let out = parket(&["pages", "--json", f]);
    no_panic(&out, &format!("pages {name}"));
    assert!(
        out.status.success(),
        "pages {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (rg, group) in meta["row_groups"].as_array().unwrap().iter().enumerate() {
        for col in group["columns"].as_array().unwrap() {
            if col.get("encrypted").is_some() {
                continue;
            }
            let path = col["path"].as_str().unwrap();
            let data: Vec<&Json> = pages
                .iter()
                .filter(|p| {
                    p["row_group"] == rg
                        && p["column"] == path
                        && p["page_type"].as_str().unwrap().starts_with("DATA_PAGE")
                })
                .collect();
            let encrypted = name.to_string().ends_with(".encrypted");
            if encrypted
                && !pages
                    .iter()
                    .any(|p| p["row_group"] == rg && p["column"] == path)
            {
                continue; // an encrypted column of a plaintext footer: `pages` skips it
            }
            if data.iter().any(|p| !p["error"].is_null()) {
                continue; // a page that does not decode has no row count to add
            }
            let values: i64 = data.iter().map(|p| p["num_values"].as_i64().unwrap()).sum();
            let rows: i64 = data.iter().map(|p| p["num_rows"].as_i64().unwrap()).sum();
            assert_eq!(
                values,
                col["num_values"].as_i64().unwrap(),
                "{name} {rg} {path}"
            );
            assert_eq!(
                rows,
                group["num_rows"].as_i64().unwrap(),
                "{name} {rg} {path}"
            );
        }
    }
    pages
        .iter()
        .map(|p| p["offset"].as_u64().unwrap())
        .collect()
}

#[test]
fn pages_dump_and_layout_on_the_corpus_and_written_files() {
    let mut files = corpus();
    files.extend(written());
    let mut drawn = Vec::new();
    let mut readable = 0;
    for (i, file) in files.iter().enumerate() {
        let f = file.to_str().unwrap();
        let name = file.display().to_string();
        let is_readable = parket(&["meta", f]).status.success();
        let svg = tmp(&format!("{i}.svg"));
        let html = tmp(&format!("{i}.html"));
        let layout = parket(&[
            "layout",
            "--svg",
            svg.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
            f,
        ]);
        no_panic(&layout, &format!("layout {name}"));
        if !is_readable {
            // Encrypted footers: every command says so and exits 1.
            assert!(!layout.status.success(), "{name}");
            let p = parket(&["pages", f]);
            no_panic(&p, &name);
            assert!(!p.status.success() && !p.stderr.is_empty(), "{name}");
            let d = parket(&["dump", "--at", "4", f]);
            no_panic(&d, &name);
            assert!(!d.status.success(), "{name}");
            continue;
        }
        readable += 1;
        assert!(
            layout.status.success(),
            "layout {name}: {}",
            String::from_utf8_lossy(&layout.stderr)
        );
        drawn.push(svg);
        drawn.push(html);
        let offsets = check_pages(file);
        // Dump the first and the last page (by offset and by RG:COL:N), and one that is not a
        // page start (an error, not a panic).
        if let (Some(first), Some(last)) = (offsets.first(), offsets.last()) {
            for at in [first, last] {
                let d = parket(&["dump", "--at", &at.to_string(), f]);
                no_panic(&d, &format!("dump {name} at {at}"));
                assert!(
                    d.status.success(),
                    "dump {name} at {at}: {}",
                    String::from_utf8_lossy(&d.stderr)
                );
                assert!(String::from_utf8_lossy(&d.stdout).contains("PageHeader"));
            }
            let d = parket(&["dump", "--at", &(first + 1).to_string(), f]);
            no_panic(&d, &name);
            assert!(!d.status.success(), "{name}");
        }
        let d = parket(&["dump", "--page", "0:0:0", f]);
        no_panic(&d, &format!("dump --page {name}"));
    }
    assert!(readable > 70, "only {readable} readable files");
    // Well-formed XML, by a parser that is not ours.
    let script = "import sys, xml.etree.ElementTree as E\n\
        bad = []\n\
        for p in sys.argv[1:]:\n\
        \x20   try:\n\
        \x20       root = E.parse(p).getroot()\n\
        \x20       if p.endswith('.svg') and not root.tag.endswith('svg'): bad.append(p + ': root ' + root.tag)\n\
        \x20   except Exception as e:\n\
        \x20       bad.append(p + ': ' + str(e))\n\
        print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(&drawn)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "not well-formed XML:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pages_of_a_known_file() {
    let f = parket::testing::corpus_dir().join("data/alltypes_plain.parquet");
    let out = parket(&["pages", "--json", "--column", "id", f.to_str().unwrap()]);
    assert!(out.status.success());
    let lines: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Checked with `xxd`: a dictionary page at 4 (13-byte header, 32 bytes: the ids
    // 4 5 6 7 2 3 0 1 as PLAIN INT32), then a data page at 4 + 13 + 32 = 49.
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["page_type"], "DICTIONARY_PAGE");
    assert_eq!(lines[0]["offset"], 4);
    assert_eq!(lines[0]["header_len"], 13);
    assert_eq!(lines[0]["num_values"], 8);
    assert_eq!(
        (&lines[0]["first"], &lines[0]["last"]),
        (&Json::from(4), &Json::from(1))
    );
    assert_eq!(lines[1]["page_type"], "DATA_PAGE");
    assert_eq!(lines[1]["offset"], 49);
    assert_eq!(lines[1]["encoding"], "PLAIN_DICTIONARY");
    assert_eq!(lines[1]["definition_level_encoding"], "RLE");
    // 4-byte length 2, then the RLE run `10 01` (8 x 1).
    assert_eq!(lines[1]["definition_levels_byte_length"], 6);
    assert_eq!(
        (
            &lines[1]["num_nulls"],
            &lines[1]["num_rows"],
            &lines[1]["crc"]
        ),
        (&Json::from(0), &Json::from(8), &Json::from("none"))
    );
    let bad = parket::testing::corpus_dir().join("data/datapage_v1-corrupt-checksum.parquet");
    let out = parket(&["pages", "--json", bad.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"crc\":\"bad\"") && text.contains("\"crc\":\"ok\""));
}

/// The first page of alltypes_plain.parquet, annotated by hand from `xxd -s 4 -l 45`:
///
/// ```text
/// 15 04   field 1 (delta 1), i32: zigzag 4 -> 2 = DICTIONARY_PAGE
/// 15 40   field 2 uncompressed_page_size: zigzag 0x40 = 64 -> 32
/// 15 40   field 3 compressed_page_size: 32
/// 4c      field 7 (delta 4), struct: dictionary_page_header
/// 15 10     field 1 num_values: zigzag 16 -> 8
/// 15 04     field 2 encoding: 2 = PLAIN_DICTIONARY
/// 00        stop
/// 00      stop
/// 04 00 00 00 ... the dictionary: PLAIN INT32 4, 5, 6, 7, 2, 3, 0, 1
/// ```
#[test]
fn dump_of_a_hand_worked_page() {
    let f = parket::testing::corpus_dir().join("data/alltypes_plain.parquet");
    let out = parket(&["dump", "--at", "4", f.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let expect: &[&[&str]] = &[
        &[
            "4",
            "15",
            "04",
            "1",
            "type:",
            "PageType",
            "=",
            "DICTIONARY_PAGE",
            "(2)",
        ],
        &[
            "6",
            "15",
            "40",
            "2",
            "uncompressed_page_size:",
            "i32",
            "=",
            "32",
        ],
        &[
            "8",
            "15",
            "40",
            "3",
            "compressed_page_size:",
            "i32",
            "=",
            "32",
        ],
        &[
            "10",
            "4c",
            "7",
            "dictionary_page_header:",
            "DictionaryPageHeader",
        ],
        &["11", "15", "10", "1", "num_values:", "i32", "=", "8"],
        &[
            "13",
            "15",
            "04",
            "2",
            "encoding:",
            "Encoding",
            "=",
            "PLAIN_DICTIONARY",
            "(2)",
        ],
        &["15", "00", "stop"],
        &["16", "00", "stop"],
        &[
            "17",
            "04",
            "00",
            "00",
            "00",
            "value",
            "0:",
            "4",
            "(INT32,",
            "little-endian)",
        ],
        &[
            "45",
            "01",
            "00",
            "00",
            "00",
            "value",
            "7:",
            "1",
            "(INT32,",
            "little-endian)",
        ],
    ];
    for want in expect {
        assert!(
            lines.iter().any(|l| l == want),
            "missing line {want:?} in\n{text}"
        );
    }
}

/// A V1 data page with levels: the runs are named with their counts and values.
#[test]
fn dump_names_level_runs_and_dictionary_indices() {
    let f = parket::testing::corpus_dir().join("data/alltypes_plain.parquet");
    let out = parket(&["dump", "--page", "0:id:1", f.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // 02 00 00 00: length 2; 10 01: RLE run header 16 = 8 << 1, value 1; then the indices:
    // bit width 3, bit-packed header 03 = 1 group, 88 c6 fa = 0..7 at 3 bits, LSB first.
    for want in [
        "66  02 00 00 00",
        "4-byte LE length = 2",
        "70  10 01",
        "RLE run: 8 x value 1",
        "72  03",
        "bit width of the dictionary indices: 3",
        "74  88 c6 fa",
        "[0, 1, 2, 3, 4, 5, 6, 7]",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

/// `write --encoding d=ALP` (opt-in, FLOAT and DOUBLE): the chunk says ALP and `cat --json`
/// prints the same rows as the PLAIN file written from the same input.
#[test]
fn write_with_alp_encoding() {
    let schema = "message m { optional double d; required float f; }";
    let mut rows = String::new();
    for i in 0..2500 {
        let d = if i % 9 == 0 {
            "null".to_string()
        } else {
            format!("{}", (i * 7 % 1000) as f64 / 8.0 - 40.0)
        };
        rows.push_str(&format!("{{\"d\":{d},\"f\":{}}}\n", i as f32 / 10.0));
    }
    let input = tmp("alp-rows.jsonl");
    std::fs::write(&input, rows).unwrap();
    let mut cats = Vec::new();
    for (name, extra) in [
        ("plain.parquet", vec!["--dictionary", "off"]),
        (
            "alp.parquet",
            vec![
                "--dictionary",
                "off",
                "--encoding",
                "d=ALP",
                "--encoding",
                "f=ALP",
            ],
        ),
    ] {
        let o = tmp(name);
        write(schema, &input, &o, &extra);
        let meta = parket(&["meta", "--json", o.to_str().unwrap()]);
        assert!(meta.status.success());
        let has_alp = String::from_utf8_lossy(&meta.stdout).contains("\"ALP\"");
        assert_eq!(has_alp, name == "alp.parquet", "{name}");
        let cat = parket(&["cat", "--json", o.to_str().unwrap()]);
        assert!(
            cat.status.success(),
            "{}",
            String::from_utf8_lossy(&cat.stderr)
        );
        cats.push(cat.stdout);
    }
    assert_eq!(cats[0].len(), cats[1].len());
    assert!(cats[0] == cats[1], "ALP rows differ from PLAIN rows");
    let r = parket(&[
        "write",
        "--schema",
        "message m { required int32 i; }",
        "--input",
        input.to_str().unwrap(),
        "--output",
        tmp("bad.parquet").to_str().unwrap(),
        "--encoding",
        "i=ALP",
    ]);
    assert!(!r.status.success());
}

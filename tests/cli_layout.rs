//! `parket layout`: the footer broken into its fields, the labelled chunk and row-group
//! bands, and the view by row, where the pages a `--where` scan reads line up across columns.
//! The file is spec-notes/20's: `x` = 0..10 in pages of 4 rows, `s` = "r0".."r9" in pages of
//! 3 rows; `x = 6` selects rows 4..8 (x's page 1), which lie in pages 1 and 2 of `s`: worked
//! by hand in the note.

use std::path::{Path, PathBuf};
use std::process::Command;

use parket::schema::Schema;
use parket::values::{ByteArrays, ValuesRef};
use parket::write::{FileWriter, WriteOptions};

/// Spec-note 20's file, written under `name` (one per test: tests run in parallel, and one
/// rewriting the file while another reads it gave a torn footer).
fn note20_file(name: &str) -> PathBuf {
    let schema =
        Schema::parse("message m { required int32 x; required binary s (STRING); }").unwrap();
    let options = WriteOptions::default()
        .dictionary(false)
        .max_rows_per_page(4)
        .column("s", |c| c.max_rows_per_page(3));
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let x: Vec<i32> = (0..10).collect();
    let s: ByteArrays = (0..10).map(|i| format!("r{i}")).collect();
    rg.column("x")
        .unwrap()
        .write(ValuesRef::Int32(&x), &[], &[])
        .unwrap();
    rg.column("s")
        .unwrap()
        .write(ValuesRef::ByteArray(s.as_ref()), &[], &[])
        .unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_layout");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.parquet"));
    std::fs::write(&path, w.into_inner()).unwrap();
    path
}

fn layout(file: &Path, filter: Option<&str>) -> String {
    let out = file.with_extension(if filter.is_some() { "where.svg" } else { "svg" });
    let mut args = vec![
        "layout".to_string(),
        "--svg".into(),
        out.to_str().unwrap().into(),
    ];
    if let Some(f) = filter {
        args.extend(["--where".to_string(), f.to_string()]);
    }
    args.push(file.to_str().unwrap().into());
    let r = Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(&args)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    std::fs::read_to_string(out).unwrap()
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let at = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    &tag[at..at + tag[at..].find('"').unwrap()]
}

/// (column, rows, read) of every page box of the view by row.
fn row_pages(svg: &str) -> Vec<(String, String, bool)> {
    svg.split("<rect class=\"rowpage\"")
        .skip(1)
        .map(|tag| {
            let tag = &tag[..tag.find('>').unwrap()];
            (
                attr(tag, "data-col").to_string(),
                attr(tag, "data-rows").to_string(),
                attr(tag, "data-read") == "1",
            )
        })
        .collect()
}

#[test]
fn pages_line_up_by_row_and_a_where_scan_reads_only_some() {
    let file = note20_file("rows");
    let all = row_pages(&layout(&file, None));
    let want_rows = [
        ("x", "0..4"),
        ("x", "4..8"),
        ("x", "8..10"),
        ("s", "0..3"),
        ("s", "3..6"),
        ("s", "6..9"),
        ("s", "9..10"),
    ];
    let got: Vec<(&str, &str)> = all
        .iter()
        .map(|(c, r, _)| (c.as_str(), r.as_str()))
        .collect();
    assert_eq!(got, want_rows);
    assert!(
        all.iter().all(|p| p.2),
        "without --where every page is read"
    );

    let svg = layout(&file, Some("x = 6"));
    let read: Vec<bool> = row_pages(&svg).iter().map(|p| p.2).collect();
    assert_eq!(read, [false, true, false, false, true, true, false]);
    assert!(svg.contains("<title>rows selected: 4..8</title>"), "{svg}");
}

#[test]
fn the_footer_is_drawn_field_by_field_and_the_bands_are_labelled() {
    let file = note20_file("footer");
    let bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as u64;
    let svg = layout(&file, None);
    // Titles read "footer: NAME&#10;offset A .. B (N bytes)".
    let mut names = Vec::new();
    let mut total = 0u64;
    let mut next = (n - 8) as u64 - footer_len;
    for t in svg.split("<title>footer: ").skip(1) {
        let name = &t[..t.find("&#10;").unwrap()];
        let offsets = &t[t.find("offset ").unwrap() + 7..t.find(" (").unwrap()];
        let (a, b) = offsets.split_once(" .. ").unwrap();
        let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
        assert_eq!(a, next, "footer parts are back to back: {name}");
        next = b;
        total += b - a;
        names.push(name.to_string());
    }
    // The FileMetaData fields parket writes, in field-id order (parquet.thrift).
    assert_eq!(
        names,
        [
            "version",
            "schema",
            "num_rows",
            "row_groups",
            "row_groups[0]",
            "created_by",
            "column_orders"
        ]
    );
    assert_eq!(total, footer_len);
    for label in [
        "<title>x</title>",
        "<title>s</title>",
        "<title>row group 0</title>",
    ] {
        assert!(svg.contains(label), "no band {label}");
    }
}

//! VARIANT through the CLI (json-mapping.md, "VARIANT"): `cat --json` prints the value of
//! shredded and unshredded columns, `write` encodes any JSON value, and pyarrow reads what
//! parket writes.
//!
//! pyarrow 26 cannot write VARIANT from Python (there is no `pa.variant` type, and a Python
//! extension type named `arrow.parquet.variant` crashes its Parquet writer), nor does it
//! decode Variant bytes; so the pyarrow check is one way: it reads parket's file, sees the
//! VARIANT annotation, and gets the metadata and value bytes worked out by hand below.

use std::path::Path;
use std::process::Command;

fn parket(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

fn cat(file: &Path) -> String {
    let out = parket(&["cat", "--json", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const UNSHREDDED: &str = "message m { required int32 id; optional group v (VARIANT(1)) { \
    required binary metadata; required binary value; } }";

fn write(dir: &Path, name: &str, schema: &str, rows: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let input = dir.join(format!("{name}.jsonl"));
    let output = dir.join(format!("{name}.parquet"));
    std::fs::write(&input, rows).unwrap();
    let out = parket(&[
        "write",
        "--schema",
        schema,
        "--input",
        input.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    output
}

/// The output of the Python `script` run on `file`.
fn python(script: &str, file: &Path) -> String {
    let out = Command::new("python3")
        .args(["-c", script, file.to_str().unwrap()])
        .output()
        .expect("run python3 (install the pinned pyarrow: see README)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn tmp(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn cat_prints_shredded_variants_as_their_values() {
    // case-083 (testMixedRecords): the rows as cases.json describes them (Iceberg's strings):
    // null; {c: {b: "iceberg"}}; {c: int8 8, d: double -0.0}; {c: {a: int32 34, b: ""}, d: 0.0}.
    let file = parket::testing::corpus_dir().join("shredded_variant/case-083.parquet");
    assert_eq!(
        cat(&file),
        "{\"id\":0,\"var\":null}\n\
         {\"id\":1,\"var\":{\"c\":{\"b\":\"iceberg\"}}}\n\
         {\"id\":2,\"var\":{\"c\":8,\"d\":-0.0}}\n\
         {\"id\":3,\"var\":{\"c\":{\"a\":34,\"b\":\"\"},\"d\":0.0}}\n"
    );
    // An invalid shredding is an error naming the column (case-042: value and typed_value).
    let bad = parket::testing::corpus_dir().join("shredded_variant/case-042.parquet");
    let out = parket(&["cat", "--json", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("column var.value"), "{err}");
}

#[test]
fn cat_prints_every_primitive_per_the_contract() {
    // The corpus' values, put into a file as they are (parket write of the raw fields needs a
    // plain group; the VARIANT annotation is added by writing the same bytes under it).
    let dir = parket::testing::corpus_dir().join("variant");
    let b64 = |b: &[u8]| parket::record::logical::base64_encode(b);
    let names = [
        ("primitive_decimal4", "\"12.34\""),
        ("primitive_decimal8", "\"12345678.90\""),
        ("primitive_date", "\"2025-04-16\""),
        ("primitive_time", "\"12:33:54.123456\""),
        // 2025-04-16 12:34:56.78-04:00 is 16:34:56.78 UTC.
        ("primitive_timestamp", "\"2025-04-16T16:34:56.780000Z\""),
        ("primitive_timestampntz", "\"2025-04-16T12:34:56.780000\""),
        (
            "primitive_timestamp_nanos",
            "\"2024-11-07T12:33:54.123456789Z\"",
        ),
        (
            "primitive_timestampntz_nanos",
            "\"2024-11-07T12:33:54.123456789\"",
        ),
        ("primitive_uuid", "\"f24f9b64-81fa-49d1-b74e-8c09a6e31c56\""),
        ("primitive_binary", "\"AxM33q2+78r+\""),
        // As FLOAT: the shortest text that reads back as the same f32 (the dictionary's
        // 1234567940.0 is the f32 widened to a double, then printed).
        ("primitive_float", "1234568000.0"),
        ("primitive_double", "1234567890.1234"),
        ("primitive_int64", "1234567890123456789"),
        ("primitive_null", "null"),
        ("primitive_boolean_true", "true"),
    ];
    let mut rows = String::new();
    let mut want = String::new();
    for (i, (name, json)) in names.iter().enumerate() {
        let m = std::fs::read(dir.join(format!("{name}.metadata"))).unwrap();
        let v = std::fs::read(dir.join(format!("{name}.value"))).unwrap();
        rows += &format!(
            "{{\"id\":{i},\"v\":{{\"metadata\":\"{}\",\"value\":\"{}\"}}}}\n",
            b64(&m),
            b64(&v)
        );
        want += &format!("{{\"id\":{i},\"v\":{json}}}\n");
    }
    let plain = UNSHREDDED.replace(" (VARIANT(1))", "");
    let raw = write(&tmp("variant_cli"), "raw", &plain, &rows);
    // Same bytes, now annotated: rewrite the footer's schema through parket's own API.
    let bytes = std::fs::read(&raw).unwrap();
    let file = parket::read::FileReader::from_bytes(&bytes).unwrap();
    let records: Vec<parket::record::Value> = file
        .records(None)
        .unwrap()
        .collect::<parket::Result<_>>()
        .unwrap();
    let schema = parket::schema::Schema::parse(UNSHREDDED).unwrap();
    let mut w = parket::write::FileWriter::new(Vec::new(), schema, Default::default()).unwrap();
    w.write_records(&records).unwrap();
    w.finish().unwrap();
    let annotated = tmp("variant_cli").join("annotated.parquet");
    std::fs::write(&annotated, w.into_inner()).unwrap();
    assert_eq!(cat(&annotated), want);
}

#[test]
fn write_encodes_json_and_cat_gives_it_back() {
    let rows = "{\"id\":1,\"v\":{\"b\":[1,-129,40000,3000000000,123456789012345678901234567890,\
        1234567890123456789012345678901234567890,1.5,-0.0,\"x\",null,true,false],\"a\":{\"z\":{},\"y\":[]}}}\n\
        {\"id\":2,\"v\":null}\n\
        {\"id\":3,\"v\":\"a string that is longer than sixty-four bytes, so not a short string at all\"}\n\
        {\"id\":4,\"v\":-9223372036854775808}\n";
    let file = write(&tmp("variant_cli"), "roundtrip", UNSHREDDED, rows);
    // Keys come back sorted; the 40-digit integer (beyond decimal16) as a double.
    assert_eq!(
        cat(&file),
        "{\"id\":1,\"v\":{\"a\":{\"y\":[],\"z\":{}},\"b\":[1,-129,40000,3000000000,\
         123456789012345678901234567890,1.2345678901234568e+39,1.5,-0.0,\"x\",null,true,false]}}\n\
         {\"id\":2,\"v\":null}\n\
         {\"id\":3,\"v\":\"a string that is longer than sixty-four bytes, so not a short string at all\"}\n\
         {\"id\":4,\"v\":-9223372036854775808}\n"
    );
}

#[test]
fn write_rejects_an_object_that_names_a_key_twice() {
    // VariantEncoding.md: the field names of an object are unique, so a VARIANT cannot hold
    // `{"a":1,"a":2}`; like Spark's parse_json (without spark.sql.variant.allowDuplicateKeys),
    // write says so rather than keep one of the values. The same for a row's own keys.
    let dir = tmp("variant_cli_dup");
    std::fs::create_dir_all(&dir).unwrap();
    let output = dir.join("dup.parquet");
    for (rows, want) in [
        (
            "{\"id\":1,\"v\":{\"a\":1}}\n{\"id\":2,\"v\":{\"x\":[{\"a\":1,\"b\":2,\"\\u0061\":3}]}}\n",
            "line 2: duplicate key \"a\" in the object at $.v.x[0]",
        ),
        (
            "{\"id\":1,\"v\":null,\"id\":2}\n",
            "line 1: duplicate key \"id\" in the object at $ ",
        ),
    ] {
        let input = dir.join("dup.jsonl");
        std::fs::write(&input, rows).unwrap();
        let out = parket(&[
            "write",
            "--schema",
            UNSHREDDED,
            "--input",
            input.to_str().unwrap(),
            "--output",
            output.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want), "{err}");
        assert!(!output.exists(), "no file after an error");
    }
}

#[test]
fn write_shreds_into_typed_value_and_cat_gives_it_back() {
    let schema = "message m { required int32 id; optional group v (VARIANT(1)) { required binary \
        metadata; optional binary value; optional group typed_value { required group a { optional \
        binary value; optional int64 typed_value; } required group tags { optional binary value; \
        optional group typed_value (LIST) { repeated group list { required group element { \
        optional binary value; optional binary typed_value (STRING); } } } } } } }";
    let rows = "{\"id\":1,\"v\":{\"a\":9223372036854775807,\"tags\":[\"x\",1,null],\"z\":true}}\n\
        {\"id\":2,\"v\":{\"a\":1,\"tags\":\"notalist\"}}\n\
        {\"id\":3,\"v\":\"scalar\"}\n\
        {\"id\":4,\"v\":{}}\n\
        {\"id\":5,\"v\":null}\n\
        {\"id\":6,\"v\":[1,2]}\n";
    let file = write(&tmp("variant_cli"), "shredded", schema, rows);
    assert_eq!(cat(&file), rows);
    // pyarrow sees the shredded columns: a (int8 1 widened into the int64 column), the tags.
    let script = "import sys, pyarrow.parquet as pq\n\
        for r in pq.read_table(sys.argv[1]).column('v').to_pylist():\n\
        \x20   t = r and r['typed_value']\n\
        \x20   print(None if t is None else (t['a']['typed_value'], t['tags']['typed_value'] and \
        [e['typed_value'] for e in t['tags']['typed_value']]))\n";
    assert_eq!(
        python(script, &file),
        "(9223372036854775807, ['x', None, None])\n(1, None)\nNone\n(None, None)\nNone\nNone\n"
    );
}

#[test]
fn pyarrow_reads_the_variant_parket_writes() {
    // Hand-worked encodings (VariantEncoding.md): metadata 11 00 00 is version 1, sorted,
    // empty; {"a":1} is the module example of parket::variant; "n/a" a short string.
    let rows = "{\"id\":1,\"v\":1}\n{\"id\":2,\"v\":{\"a\":1}}\n{\"id\":3,\"v\":\"n/a\"}\n{\"id\":4,\"v\":null}\n";
    let file = write(&tmp("variant_cli"), "pyarrow", UNSHREDDED, rows);
    let script = "import sys, pyarrow.parquet as pq\n\
        f = pq.ParquetFile(sys.argv[1])\n\
        print('Variant(1)' in str(f.schema))\n\
        for r in f.read().column('v').to_pylist():\n\
        \x20   print('null' if r is None else r['metadata'].hex() + ' ' + r['value'].hex())\n";
    assert_eq!(
        python(script, &file),
        "True\n\
         110000 0c01\n\
         1101000161 02010000020c01\n\
         110000 0d6e2f61\n\
         null\n"
    );
}

//! The key options of the reading commands (../shared/json-mapping.md): every encrypted file
//! of parquet-testing prints, with its keys, the rows of uniform_encryption (read by pyarrow 26
//! too: tests/encryption.rs checks those values); `check` finds nothing wrong; without keys
//! the error says the file is encrypted; a wrong key is an error that names the module and
//! never shows the key.

use std::process::Command;

#[path = "common/corpus_keys.rs"]
mod corpus_keys;
use corpus_keys::{corpus_keys, ColumnKeyRef};

fn parket(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

fn hex(s: impl AsRef<[u8]>) -> String {
    s.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

fn data(name: &str) -> String {
    parket::testing::corpus_dir()
        .join("data")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The key options for a file, as INDEX.md of parquet-testing gives its keys.
fn key_args(name: &str) -> Vec<String> {
    let k = corpus_keys(name);
    let mut a = vec![format!("--footer-key={}", hex(k.footer))];
    for (by, key) in &k.columns {
        a.push(match by {
            ColumnKeyRef::Path(path) => format!("--column-key={path}={}", hex(key)),
            ColumnKeyRef::Id(id) => format!("--key={id}={}", hex(key)),
        });
    }
    if let Some(prefix) = k.aad_prefix {
        a.push(format!("--aad-prefix={}", String::from_utf8_lossy(prefix)));
    }
    a
}

fn run(cmd: &str, name: &str, extra: &[String]) -> (bool, String, String) {
    let path = data(name);
    let mut args: Vec<&str> = vec![cmd];
    args.extend(extra.iter().map(|s| s.as_str()));
    args.push(&path);
    let out = parket(&args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const FILES: &[&str] = corpus_keys::SAME_ROWS;

#[test]
fn reading_commands_take_keys() {
    let (ok, want, err) = run(
        "cat",
        FILES[0],
        &["--json".into(), key_args(FILES[0])[0].clone()],
    );
    assert!(ok, "{err}");
    assert_eq!(want.lines().count(), 50);
    assert!(
        want.starts_with(
            r#"{"boolean_field":true,"int32_field":"00:00:00.000","int64_field":[0,1000000000000]"#
        ),
        "{want}"
    );
    for name in FILES
        .iter()
        .chain(["encrypt_columns_and_footer_bloom_filter.parquet.encrypted"].iter())
    {
        let keys = key_args(name);
        let mut json = vec!["--json".to_string()];
        json.extend(keys.iter().cloned());
        let (ok, rows, err) = run("cat", name, &json);
        assert!(ok, "{name}: {err}");
        if !name.contains("bloom") {
            assert_eq!(rows, want, "{name}");
        }
        for cmd in ["schema", "meta", "pages", "check"] {
            let (ok, out, err) = run(cmd, name, &keys);
            assert!(ok, "{cmd} {name}: {err}{out}");
        }
        let (ok, out, _) = run("check", name, &keys);
        assert!(ok && out.contains(" 0 bad"), "{name}: {out}");
        // Without keys: the clean "encrypted" error (a plaintext footer's file still opens,
        // its encrypted columns do not read).
        let (ok, _, err) = run("cat", name, &[]);
        assert!(!ok && err.contains("encrypted"), "{name}: {err}");
    }
    let ext = "external_key_material_java.parquet.encrypted";
    let keys: Vec<String> = [
        ("kf", "0123456789012345"),
        ("kc1", "1234567890123450"),
        ("kc2", "1234567890123451"),
    ]
    .iter()
    .map(|(id, k)| format!("--key={id}={}", hex(k)))
    .collect();
    let (ok, rows, err) = run("cat", ext, &keys);
    assert!(ok, "{err}");
    // Without --json, four lines a record: a heading, the two fields, a blank line.
    assert_eq!(rows.lines().count(), 100 * 4, "{rows}");
}

#[test]
fn wrong_keys_are_errors_that_never_show_the_key() {
    let name = "encrypt_columns_and_footer.parquet.encrypted";
    let wrong = hex("9999999999999999");
    let (ok, out, err) = run("cat", name, &[format!("--footer-key={wrong}")]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("cannot decrypt the footer"), "{err}");
    assert!(!err.contains(&wrong) && !err.contains("9999"), "{err}");
    let mut keys = key_args(name);
    keys[2] = format!("--column-key=float_field={wrong}");
    let (ok, _, err) = run("cat", name, &keys);
    assert!(
        !ok && err.contains("column metadata") && err.contains("float_field"),
        "{err}"
    );
    assert!(!err.contains(&wrong), "{err}");
    let (ok, _, err) = run("cat", name, &["--footer-key=0123".into()]);
    assert!(
        !ok && err.contains("32, 48 or 64 hexadecimal digits"),
        "{err}"
    );
    let (ok, _, err) = run(
        "cat",
        "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        &key_args(name),
    );
    assert!(!ok && err.contains("--aad-prefix"), "{err}");
}

/// The commands that reach past the pages read the encrypted structs too: `cat --where`
/// (pruning by the decrypted indexes and Bloom filters), `pages` (the encrypted columns'
/// decrypted pages), `dump --page`, `dump --column-index / --offset-index / --bloom-filter`
/// (decrypted, annotated with offsets into the plaintext). The file: 2000 rows, row i =
/// (i + 0.5, i + 0.25, i, "name_i"), three pages of double_field.
#[test]
fn where_pages_and_dump_decrypt() {
    let name = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
    let keys = key_args(name);
    let with = |extra: &[&str]| {
        let mut a: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        a.extend(keys.iter().cloned());
        a
    };
    let (ok, out, err) = run(
        "cat",
        name,
        &with(&[
            "--json",
            "--where",
            "double_field = 3.5 OR float_field >= 1998",
        ]),
    );
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "{\"double_field\":3.5,\"float_field\":3.25,\"int32_field\":3,\"name\":\"name_3\"}\n\
         {\"double_field\":1998.5,\"float_field\":1998.25,\"int32_field\":1998,\"name\":\"name_1998\"}\n\
         {\"double_field\":1999.5,\"float_field\":1999.25,\"int32_field\":1999,\"name\":\"name_1999\"}\n"
    );
    // The explain: every chunk read through its (decrypted) offset index, one page each.
    let (ok, out, err) = run(
        "cat",
        name,
        &with(&["--explain", "--where", "double_field > 1990"]),
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("column chunks: 4 (4 through the offset index)"),
        "{out}"
    );
    assert!(out.contains("pages of indexed chunks: 4 of 11"), "{out}");

    let (ok, out, err) = run("pages", name, &keys);
    assert!(ok, "{err}");
    let doubles: Vec<&str> = out.lines().filter(|l| l.contains("double_field")).collect();
    assert_eq!(doubles.len(), 3, "{out}");
    assert!(doubles[2].ends_with("1910.5 .. 1999.5"), "{out}");

    let (ok, out, err) = run("dump", name, &with(&["--page", "0:double_field:1"]));
    assert!(ok, "{err}");
    assert!(out.contains("num_values: i32 = 968"), "{out}");
    assert!(out.contains("value 0: 942.5 (DOUBLE"), "{out}");

    let (ok, out, err) = run("dump", name, &with(&["--offset-index", "0:double_field"]));
    assert!(ok, "{err}");
    assert!(out.contains("decrypted with the column's key"), "{out}");
    assert!(out.contains("3 data pages"), "{out}");
    let (ok, out, err) = run("dump", name, &with(&["--column-index", "0:float_field"]));
    assert!(ok, "{err}");
    assert!(
        out.contains("boundary_order: BoundaryOrder = ASCENDING"),
        "{out}"
    );
    for (probe, verdict) in [("3.25", "may be in this chunk"), ("3.5", "certainly not")] {
        let (ok, out, err) = run(
            "dump",
            name,
            &with(&["--bloom-filter", "0:float_field", "--probe", probe]),
        );
        assert!(ok, "{err}");
        assert!(out.contains("num_bytes: i32 = 2048"), "{out}");
        assert!(out.contains(verdict), "{probe}: {out}");
    }
    // A plaintext column's index of the same file, as stored.
    let (ok, out, err) = run("dump", name, &with(&["--offset-index", "0:int32_field"]));
    assert!(ok && !out.contains("decrypted"), "{err}{out}");
    // Without the column's key, its structs are an error, not bytes shown as plaintext.
    let footer_only = [keys[0].clone()];
    let mut a = vec!["--offset-index".to_string(), "0:double_field".to_string()];
    a.extend(footer_only.iter().cloned());
    let (ok, _, err) = run("dump", name, &a);
    assert!(!ok, "{err}");
}

/// `meta` on a plaintext-footer file without keys prints what is plaintext and marks the rest:
/// which key encrypts each encrypted column (by its key_metadata, from the corpus's INDEX.md:
/// double_field `kc1`, float_field `kc2`) and that its statistics are not in the footer.
#[test]
fn meta_without_keys_marks_the_encrypted_columns() {
    let out = parket(&[
        "meta",
        &data("encrypt_columns_plaintext_footer.parquet.encrypted"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let block = |col: &str| -> String {
        let chunks = &text[text.find("row group 0:").expect("a row group")..];
        let start = chunks.find(&format!("  {col}: ")).expect(col);
        // The chunk's line and its indented lines, up to the next chunk's.
        let mut lines = chunks[start + 2..].lines();
        let mut b = lines.next().unwrap_or_default().to_string();
        for l in lines.take_while(|l| l.starts_with("    ")) {
            b.push('\n');
            b.push_str(l);
        }
        b
    };
    for (col, id) in [("double_field", "kc1"), ("float_field", "kc2")] {
        let b = block(col);
        assert!(
            b.contains(&format!(
                "encrypted: with a column key (key_metadata \"{id}\")"
            )),
            "{b}"
        );
        assert!(b.contains("statistics: not in the plaintext footer"), "{b}");
    }
    let plain = block("ba_field");
    assert!(!plain.contains("encrypted"), "{plain}");
    assert!(plain.contains("statistics: null_count 25"), "{plain}");
}

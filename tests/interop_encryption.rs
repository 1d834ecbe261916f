//! Parquet modular encryption against pyarrow 26, both directions (`tests/interop/encryption.py`
//! is the pyarrow side).
//!
//! 1. pyarrow writes one table unencrypted and encrypted: uniformly with a plain key
//!    (`create_encryption_properties`: AES_GCM_V1 and AES_GCM_CTR_V1, encrypted and plaintext
//!    footer, no AAD prefix, a stored one and one the reader must supply) and with per-column
//!    keys through `CryptoFactory` and a test KMS (PKMT1 key material, single and double
//!    wrapping, both footer modes and both algorithms). `parket cat --json` of every encrypted
//!    file, given its keys (`--footer-key`, `--aad-prefix`, or the master keys as `--key ID=KEY`),
//!    must print exactly what it prints for the unencrypted file.
//! 2. `parket write` writes rows in every mode (both algorithms, both footer modes, AAD prefix
//!    stored and not, uniform and per-column keys with a plaintext column, key_metadata as
//!    PKMT1 key material wrapped by the same test KMS): pyarrow must read the rows written, and
//!    `parket cat --json` with the keys must print them back.
//!
//! Several row groups and many small pages per chunk, CRCs, page indexes and a Bloom filter:
//! row group and page ordinals above 0 in the AADs, and every module type.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use parket::encryption::key_material::InMemoryKms;
use parket::encryption::wrap::KeyMaterialWriter;
use parket::encryption::Key;

const SCHEMA: &str = "message m { required int64 a; optional binary b (STRING); \
    optional double c; optional group d (LIST) { repeated group list { optional int32 element; } } }";
/// The footer key of the uniform files, and the master keys of the test KMS (encryption.py).
const KEY: &[u8; 16] = b"0123456789012345";
const MASTER_KEYS: [(&str, &[u8; 16]); 3] = [
    ("kf", b"0123456789012345"),
    ("kc1", b"1234567890123450"),
    ("kc2", b"1234567890123451"),
];

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/encryption.py")
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run a subprocess")
}

fn parket(args: &[&str]) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_parket")).args(args))
}

/// `parket write` of `input` (JSON lines of [`SCHEMA`]) to `out`, with `extra` options.
fn write(input: &Path, out: &Path, extra: &[String]) -> Output {
    let mut a = s(&[
        "write",
        "--schema",
        SCHEMA,
        "--input",
        input.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    a.extend(extra.iter().cloned());
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    parket(&a)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fresh_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("parket-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `--key ID=HEX` for every master key.
fn master_key_args() -> Vec<String> {
    MASTER_KEYS
        .iter()
        .flat_map(|(id, k)| ["--key".to_string(), format!("{id}={}", hex(*k))])
        .collect()
}

#[test]
fn pyarrow_writes_parket_reads() {
    let dir = fresh_dir("enc-pyarrow");
    let d = dir.to_str().unwrap();
    let out = run(Command::new("python3").args([script().to_str().unwrap(), "write", d]));
    assert!(
        out.status.success(),
        "encryption.py write failed (pyarrow 26 and cryptography needed, see \
         tests/interop/README.md): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest = text(&out);
    let want = parket(&["cat", "--json", dir.join("plain.parquet").to_str().unwrap()]);
    assert!(want.status.success());
    let want = text(&want);
    assert_eq!(want.lines().count(), 3000);
    let mut failures = Vec::new();
    let mut files = 0;
    for line in manifest.lines() {
        let m: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = dir.join(m["file"].as_str().unwrap());
        let f = file.to_str().unwrap().to_string();
        let mut args: Vec<String> = vec!["cat".into(), "--json".into()];
        if m["kms"].as_bool().unwrap() {
            args.extend(master_key_args());
        } else {
            args.extend(["--footer-key".into(), m["key"].as_str().unwrap().into()]);
        }
        if let Some(p) = m.get("aad_prefix").and_then(|p| p.as_str()) {
            args.extend(["--aad-prefix".into(), p.into()]);
        }
        args.push(f.clone());
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let got = parket(&a);
        files += 1;
        if !got.status.success() {
            failures.push(format!("{f}: {}", String::from_utf8_lossy(&got.stderr)));
        } else if text(&got) != want {
            failures.push(format!("{f}: rows differ from plain.parquet's"));
        }
        // Without keys: a clean error that says the file is encrypted, no rows.
        let bare = parket(&["cat", "--json", &f]);
        let err = String::from_utf8_lossy(&bare.stderr);
        if bare.status.success() || !err.contains("encrypt") || text(&bare) == want {
            failures.push(format!("{f} without keys: {:?} {err}", bare.status));
        }
    }
    assert_eq!(files, 20, "{manifest}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows parket writes: 3000, nulls in every optional column, float edge values, lists.
fn rows() -> String {
    let specials = ["-0.0", "0.0", "1e308", "-1e-308", "5e-324", "1.5"];
    let mut s = String::new();
    for i in 0..3000 {
        let b = if i % 7 == 3 {
            "null".to_string()
        } else {
            format!("\"s{}\"", i % 50)
        };
        let c = if i % 11 == 5 {
            "null"
        } else {
            specials[i % specials.len()]
        };
        let d = match i % 5 {
            0 => "null".to_string(),
            1 => "[]".to_string(),
            2 => "[null]".to_string(),
            _ => format!("[{i},{}]", -(i as i64)),
        };
        s.push_str(&format!("{{\"a\":{i},\"b\":{b},\"c\":{c},\"d\":{d}}}\n"));
    }
    s
}

/// One way of encrypting: the `parket write` flags, the `parket cat` flags that read it back
/// and the `encryption.py read` flags that read it in pyarrow.
struct Mode {
    name: &'static str,
    write: Vec<String>,
    cat: Vec<String>,
    pyarrow: Vec<String>,
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn modes() -> Vec<Mode> {
    let key = hex(KEY);
    let uniform = |name, extra: &[&str], cat_extra: &[&str], py_extra: &[&str]| {
        let mut write = s(&["--encrypt-footer-key", &key]);
        write.extend(s(extra));
        let mut cat = s(&["--footer-key", &key]);
        cat.extend(s(cat_extra));
        let mut pyarrow = s(&["--key", &key]);
        pyarrow.extend(s(py_extra));
        Mode {
            name,
            write,
            cat,
            pyarrow,
        }
    };
    let mut m = vec![
        uniform("gcm", &[], &[], &[]),
        uniform(
            "ctr",
            &["--encryption-algorithm", "aes_gcm_ctr_v1"],
            &[],
            &[],
        ),
        uniform("gcm-plaintext-footer", &["--plaintext-footer"], &[], &[]),
        uniform(
            "ctr-plaintext-footer",
            &[
                "--plaintext-footer",
                "--encryption-algorithm",
                "aes_gcm_ctr_v1",
            ],
            &[],
            &[],
        ),
        uniform("gcm-aad-stored", &["--aad-prefix", "tester"], &[], &[]),
        uniform(
            "gcm-aad-supplied",
            &["--aad-prefix", "tester", "--store-aad-prefix", "off"],
            &["--aad-prefix", "tester"],
            &["--aad-prefix", "tester"],
        ),
        uniform(
            "ctr-plaintext-footer-aad-supplied",
            &[
                "--aad-prefix",
                "tester",
                "--store-aad-prefix",
                "off",
                "--plaintext-footer",
                "--encryption-algorithm",
                "aes_gcm_ctr_v1",
            ],
            &["--aad-prefix", "tester"],
            &["--aad-prefix", "tester"],
        ),
    ];
    // Per-column keys: b and c with their own data keys, a and d in plaintext; every
    // key_metadata is PKMT1 key material wrapped by the test KMS, which pyarrow's
    // CryptoFactory unwraps (and parket, given the master keys).
    let kms = MASTER_KEYS.iter().fold(InMemoryKms::new(), |k, (id, key)| {
        k.master_key(id, Key::new(*key).unwrap())
    });
    let deks: [(&str, &str, [u8; 16]); 3] = [
        ("", "kf", [0x11; 16]),
        ("b", "kc1", [0x22; 16]),
        ("c", "kc2", [0x33; 16]),
    ];
    for (double, plaintext_footer, ctr) in [
        (true, false, false),
        (false, false, true),
        (true, true, true),
        (false, true, false),
    ] {
        let w = KeyMaterialWriter::new(&kms).double_wrapping(double);
        let mut write = Vec::new();
        for (path, master, dek) in &deks {
            let material = w
                .key_metadata(&Key::new(dek).unwrap(), master, path.is_empty())
                .unwrap();
            let material = String::from_utf8(material).unwrap();
            if path.is_empty() {
                write.extend(s(&["--encrypt-footer-key", &hex(dek)]));
                write.extend(s(&["--footer-key-id", &material]));
            } else {
                write.extend(s(&["--encrypt-column", &format!("{path}={}", hex(dek))]));
                write.extend(s(&["--column-key-id", &format!("{path}={material}")]));
            }
        }
        if plaintext_footer {
            write.push("--plaintext-footer".into());
        }
        if ctr {
            write.extend(s(&["--encryption-algorithm", "aes_gcm_ctr_v1"]));
        }
        let name = match (double, plaintext_footer, ctr) {
            (true, false, false) => "kms-double-gcm",
            (false, false, true) => "kms-single-ctr",
            (true, true, true) => "kms-double-ctr-plaintext-footer",
            _ => "kms-single-gcm-plaintext-footer",
        };
        m.push(Mode {
            name,
            write,
            cat: master_key_args(),
            pyarrow: s(&["--kms"]),
        });
    }
    m
}

#[test]
fn parket_writes_pyarrow_reads() {
    let dir = fresh_dir("enc-parket");
    let input = dir.join("rows.jsonl");
    let rows = rows();
    std::fs::write(&input, &rows).unwrap();
    // What parket prints for these rows written without encryption.
    let plain = dir.join("plain.parquet");
    let p = plain.to_str().unwrap();
    let w = write(&input, &plain, &[]);
    assert!(w.status.success(), "{}", String::from_utf8_lossy(&w.stderr));
    let want = text(&parket(&["cat", "--json", p]));
    assert_eq!(want.lines().count(), 3000);
    let mut failures = Vec::new();
    let modes = modes();
    assert_eq!(modes.len(), 11);
    for mode in &modes {
        let out = dir.join(format!("{}.parquet", mode.name));
        let o = out.to_str().unwrap();
        let mut args = s(&[
            "--row-group-rows",
            "1000",
            "--page-rows",
            "100",
            "--bloom-filter",
            "b",
        ]);
        args.extend(mode.write.iter().cloned());
        let w = write(&input, &out, &args);
        if !w.status.success() {
            failures.push(format!(
                "{}: write: {}",
                mode.name,
                String::from_utf8_lossy(&w.stderr)
            ));
            continue;
        }
        let mut py = vec![
            script().to_str().unwrap().to_string(),
            "read".into(),
            o.into(),
            input.to_str().unwrap().into(),
        ];
        py.extend(mode.pyarrow.iter().cloned());
        let r = run(Command::new("python3").args(&py));
        if !r.status.success() {
            failures.push(format!(
                "{}: pyarrow: {}",
                mode.name,
                String::from_utf8_lossy(&r.stderr)
            ));
        }
        let mut cat = s(&["cat", "--json"]);
        cat.extend(mode.cat.iter().cloned());
        cat.push(o.into());
        let a: Vec<&str> = cat.iter().map(String::as_str).collect();
        let c = parket(&a);
        if !c.status.success() || text(&c) != want {
            failures.push(format!(
                "{}: parket cat: {}",
                mode.name,
                String::from_utf8_lossy(&c.stderr)
            ));
        }
        let mut check = s(&["check"]);
        check.extend(mode.cat.iter().cloned());
        check.push(o.into());
        let a: Vec<&str> = check.iter().map(String::as_str).collect();
        let c = parket(&a);
        if !c.status.success() {
            failures.push(format!(
                "{}: parket check: {}{}",
                mode.name,
                text(&c),
                String::from_utf8_lossy(&c.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn write_flag_errors_never_show_keys() {
    let dir = fresh_dir("enc-flags");
    let input = dir.join("rows.jsonl");
    std::fs::write(&input, "{\"a\":1,\"b\":\"x\",\"c\":null,\"d\":null}\n").unwrap();
    let out = dir.join("out.parquet");
    let secret = "00112233445566778899aabbccddeeff";
    let base = |extra: &[&str]| write(&input, &out, &s(extra));
    let bad_hex = "zz112233445566778899aabbccddeeff";
    for (extra, message) in [
        (
            vec!["--encrypt-column", &format!("b={secret}")],
            "--encrypt-footer-key",
        ),
        (vec!["--plaintext-footer"], "--encrypt-footer-key"),
        (vec!["--encrypt-footer-key", bad_hex], "hexadecimal"),
        (vec!["--encrypt-footer-key", "0011"], "32, 48 or 64"),
        (
            vec![
                "--encrypt-footer-key",
                secret,
                "--encrypt-column",
                &format!("nope={secret}"),
            ],
            "\"nope\"",
        ),
        (
            vec!["--encrypt-footer-key", secret, "--column-key-id", "b=kb"],
            "--column-key-id b",
        ),
        (
            vec![
                "--encrypt-footer-key",
                secret,
                "--encryption-algorithm",
                "aes_gcm_v2",
            ],
            "aes_gcm_ctr_v1",
        ),
        (
            vec![
                "--encrypt-footer-key",
                secret,
                "--store-aad-prefix",
                "maybe",
            ],
            "on or off",
        ),
    ] {
        let o = base(&extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{extra:?}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(
            !err.contains(secret) && !err.contains(bad_hex),
            "{extra:?}: {err}"
        );
        assert!(!out.exists(), "{extra:?} left an output file");
    }
    // 128, 192 and 256-bit keys.
    for hex_key in [secret.to_string(), secret[..16].repeat(3), secret.repeat(2)] {
        let o = base(&["--encrypt-footer-key", &hex_key]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(&std::fs::read(&out).unwrap()[..4], b"PARE");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

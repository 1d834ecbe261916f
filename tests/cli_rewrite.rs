//! `parket rewrite` and `parket compare`: a rewrite keeps every row of every readable corpus
//! file (its `cat --json` lines are the input's) under other codecs, page versions and
//! encodings; each size `compare` prints is the size of the file `rewrite` writes with the same
//! options; a failed rewrite leaves an existing output as it was.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn parket(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parket"))
        .args(args)
        .output()
        .expect("run parket")
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_rewrite");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn rewrites_of_every_readable_corpus_file_keep_the_rows() {
    let root = parket::testing::corpus_dir();
    let files = common::readable_corpus_files();
    assert!(files.len() >= 60, "only {} readable files", files.len());
    let out = tmp("corpus.parquet");
    let out_s = out.to_str().unwrap();
    let mut failures = Vec::new();
    for name in &files {
        let path = root.join(name);
        let p = path.to_str().unwrap();
        let want = parket(&["cat", "--json", p]);
        if !want.status.success() {
            continue; // tests/read_corpus.rs says why (e.g. a codec left out of this build)
        }
        for options in [
            &[][..],
            &[
                "--codec",
                "zstd:1",
                "--page-version",
                "2",
                "--dictionary",
                "off",
            ][..],
            &[
                "--codec",
                "uncompressed",
                "--page-rows",
                "3",
                "--page-index",
                "off",
            ][..],
        ] {
            let mut args = vec!["rewrite"];
            args.extend_from_slice(options);
            args.extend_from_slice(&[p, out_s]);
            let r = parket(&args);
            if !r.status.success() {
                failures.push(format!(
                    "{name} {options:?}: {}",
                    String::from_utf8_lossy(&r.stderr).trim()
                ));
                continue;
            }
            let got = parket(&["cat", "--json", out_s]);
            if got.stdout != want.stdout {
                failures.push(format!("{name} {options:?}: rows differ after the rewrite"));
            }
            let check = parket(&["check", out_s]);
            if !check.status.success() {
                failures.push(format!(
                    "{name} {options:?}: check of the rewrite fails: {}",
                    String::from_utf8_lossy(&check.stdout)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compare_prints_the_sizes_rewrite_writes() {
    let path = parket::testing::corpus_dir().join("data/alltypes_tiny_pages.parquet");
    let p = path.to_str().unwrap();
    let r = parket(&[
        "compare",
        "--codecs",
        "snappy,zstd:1,gzip:9,uncompressed",
        p,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let table = String::from_utf8(r.stdout).unwrap();
    let out = tmp("compare.parquet");
    let out_s = out.to_str().unwrap();
    let mut rows = 0;
    for line in table.lines().skip(2) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let [codec, page, bytes, ..] = cells[..] else {
            panic!("short line {line:?}")
        };
        let version = page.strip_prefix('V').expect("V1 or V2");
        let w = parket(&[
            "rewrite",
            "--codec",
            codec,
            "--page-version",
            version,
            p,
            out_s,
        ]);
        assert!(w.status.success(), "{}", String::from_utf8_lossy(&w.stderr));
        let size = std::fs::metadata(&out).unwrap().len();
        assert_eq!(bytes.parse::<u64>().unwrap(), size, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 8, "{table}");
}

#[test]
fn a_failed_rewrite_leaves_the_output_alone() {
    let out = tmp("kept.parquet");
    std::fs::write(&out, b"precious").unwrap();
    let not_parquet = tmp("not.parquet");
    std::fs::write(&not_parquet, b"this is not a parquet file at all").unwrap();
    let r = parket(&[
        "rewrite",
        not_parquet.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    let bad_option = parket(&[
        "rewrite",
        "--codec",
        "zstd:99",
        parket::testing::corpus_dir()
            .join("data/alltypes_plain.parquet")
            .to_str()
            .unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(!bad_option.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
}

#[test]
fn an_aad_prefix_next_to_an_output_key_is_refused_as_ambiguous() {
    let input = parket::testing::corpus_dir().join("data/alltypes_plain.parquet");
    let out = tmp("aad.parquet");
    let _ = std::fs::remove_file(&out);
    let r = parket(&[
        "rewrite",
        "--encrypt-footer-key",
        "00112233445566778899aabbccddeeff",
        "--aad-prefix",
        "part0",
        input.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("ambiguous"), "{err}");
    assert!(!err.contains("00112233"), "a key in an error: {err}");
    assert!(!out.exists());
}

/// `rewrite --threads 2` (a row group's columns decoded together, encoded on the threads)
/// writes the bytes of `rewrite --threads 1` (column by column), for every readable corpus
/// file.
#[test]
fn rewrites_on_two_threads_are_the_one_thread_bytes() {
    let root = parket::testing::corpus_dir();
    let (one, two) = (tmp("threads1.parquet"), tmp("threads2.parquet"));
    let mut compared = 0;
    let mut failures = Vec::new();
    for name in common::readable_corpus_files() {
        let path = root.join(&name);
        let p = path.to_str().unwrap();
        let r1 = parket(&["rewrite", "--threads", "1", p, one.to_str().unwrap()]);
        if !r1.status.success() {
            continue; // a codec left out of this build; the test above reports real failures
        }
        let r2 = parket(&["rewrite", "--threads", "2", p, two.to_str().unwrap()]);
        assert!(
            r2.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&r2.stderr)
        );
        if std::fs::read(&one).unwrap() != std::fs::read(&two).unwrap() {
            failures.push(name);
        }
        compared += 1;
    }
    assert!(
        failures.is_empty(),
        "the 2-thread rewrite differs: {failures:?}"
    );
    assert!(compared >= 60, "only {compared} files compared");
}

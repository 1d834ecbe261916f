//! Helpers shared by the integration tests that run the `parket` binary.

// Each test binary uses some of these.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// An interop seed's check: `parket cat --json` of `seed_dir/file` against the contract rows
/// the generator saved in `seed_dir/rows.jsonl`; `None` when identical, else what differs.
pub fn seed_difference(seed_dir: &Path, file: &str) -> Option<String> {
    let want = std::fs::read_to_string(seed_dir.join("rows.jsonl")).expect("rows.jsonl");
    cat_json_difference(env!("CARGO_BIN_EXE_parket"), &seed_dir.join(file), &want)
}

/// Runs `parket cat --json file` (the binary at `parket`) and compares its output with the
/// expected lines; `None` when identical, else what differs: the first differing line of each,
/// or parket's error.
pub fn cat_json_difference(parket: &str, file: &Path, want: &str) -> Option<String> {
    let out = Command::new(parket)
        .args(["cat", "--json"])
        .arg(file)
        .output()
        .expect("run parket");
    if !out.status.success() {
        return Some(format!(
            "parket cat failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if out.stdout == want.as_bytes() {
        return None;
    }
    let got = String::from_utf8_lossy(&out.stdout);
    let (n, (g, w)) = got
        .lines()
        .zip(want.lines())
        .enumerate()
        .find(|(_, (g, w))| g != w)
        .map(|(i, p)| (i + 1, p))
        .unwrap_or((0, ("(row count differs)", "")));
    Some(format!(
        "line {n} differs ({} vs {} lines)\n  parket:  {}\n  pyarrow: {}",
        got.lines().count(),
        want.lines().count(),
        g.chars().take(400).collect::<String>(),
        w.chars().take(400).collect::<String>()
    ))
}

/// The files tests/read_corpus.rs registers as readable (`Rows(rows, leaves)`).
pub fn readable_corpus_files() -> Vec<String> {
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/read_corpus.rs"))
            .expect("tests/read_corpus.rs");
    // Entries read `("data/x.parquet", Rows(1, 2))`, possibly over several lines.
    let mut out = Vec::new();
    let mut rest = src.as_str();
    while let Some(i) = rest.find("Rows(") {
        let before = rest[..i].trim_end().trim_end_matches(',').trim_end();
        if let Some(name) = before
            .strip_suffix('"')
            .and_then(|b| b.rfind('"').map(|q| &b[q + 1..]))
        {
            if name.contains('/') {
                out.push(name.to_string());
            }
        }
        rest = &rest[i + 5..];
    }
    out
}

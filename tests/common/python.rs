//! Runs a Python snippet (pyarrow, DuckDB: tests/interop/requirements.txt) for the typed
//! interop tests, which include this file alone (`#[path]`): `common/mod.rs` needs the
//! `parket` binary, which they do not.

use std::path::Path;
use std::process::Command;

/// Runs `python3 -c code args...`; its standard output, or a panic with its standard error.
pub fn python(code: &str, args: &[&Path]) -> String {
    let out = Command::new("python3")
        .arg("-c")
        .arg(code)
        .args(args)
        .output()
        .expect("run python3 (install tests/interop/requirements.txt)");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python printed UTF-8")
}

//! Helpers shared by the integration tests that run the `parket` binary.

use std::path::Path;
use std::process::Command;

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

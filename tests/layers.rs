//! The layer rule of ARCHITECTURE.md, checked: a module imports only from its own layer or
//! below; `read` and `write` never import each other; nothing below L6 does I/O.

use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its layer.
const LAYERS: &[(&str, u8)] = &[
    ("error", 0),
    ("limits", 0),
    ("bytes", 0),
    ("thrift", 1),
    ("format", 2),
    ("schema", 3),
    ("values", 3),
    ("encoding", 3),
    ("compression", 3),
    ("variant", 3),
    ("page", 4),
    ("statistics", 4),
    ("bloom", 4),
    ("geospatial", 4),
    ("encryption", 4),
    ("levels", 5),
    ("record", 5),
    ("predicate", 5),
    ("typed", 5),
    ("read", 6),
    ("write", 6),
    ("arrow", 7),
];

/// Modules outside the layering: documentation and test support.
const UNLAYERED: &[&str] = &["spec_notes", "testing", "lib"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().unwrap() != "bin" {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn layer_of(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

#[test]
fn modules_import_only_from_their_layer_or_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if UNLAYERED.contains(&module.as_str()) {
            continue;
        }
        let own = layer_of(&module)
            .unwrap_or_else(|| panic!("src/{top}: add the module to LAYERS in tests/layers.rs"));
        let text = std::fs::read_to_string(f).unwrap();
        // An inline `#[cfg(test)] mod tests` may use any layer: stop scanning there.
        let lines: Vec<&str> = text.lines().collect();
        let end = lines
            .windows(2)
            .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
            .unwrap_or(lines.len());
        for (n, line) in lines[..end].iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + 7..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let Some(l) = layer_of(&name) else { continue };
                let cross = matches!(
                    (module.as_str(), name.as_str()),
                    ("read", "write") | ("write", "read")
                );
                if l > own || cross {
                    violations.push(format!(
                        "src/{}:{}: {module} (L{own}) uses crate::{name} (L{l})",
                        rel.display(),
                        n + 1
                    ));
                }
            }
            // In-memory `io::Read` adapters over slices (the codec crates' APIs) are not I/O;
            // files, sockets and the process's streams are.
            let io = ["std::fs", "std::net", "stdin()", "stdout()", "File::"]
                .iter()
                .any(|x| code.contains(x));
            let test_code = rel.components().any(|c| c.as_os_str() == "tests")
                || rel.file_name().is_some_and(|n| n == "tests.rs");
            if io && own < 6 && !test_code {
                violations.push(format!("src/{}:{}: I/O below L6", rel.display(), n + 1));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "layer violations:\n{}",
        violations.join("\n")
    );
}

//! Keeps `spec-notes/` honest: every byte sequence a note shows in a ```` ```text ```` block is
//! also checked by one of its ```` ```rust ```` blocks (which run as doctests through
//! `src/spec_notes.rs`), every note is included by `src/spec_notes.rs`, and the reading order
//! in `spec-notes/README.md` lists every note.

use std::fs;
use std::path::{Path, PathBuf};

fn notes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec-notes")
}

/// The numbered notes (`NN-topic.md`), sorted.
fn notes() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = fs::read_dir(notes_dir())
        .expect("spec-notes/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let numbered = name.len() > 3
                && name.as_bytes()[..2].iter().all(u8::is_ascii_digit)
                && name.as_bytes()[2] == b'-';
            (numbered && name.ends_with(".md")).then(|| {
                let text = fs::read_to_string(&p).expect("readable note");
                (name, text)
            })
        })
        .collect();
    v.sort();
    v
}

/// The fenced blocks of a markdown text: (info string, body).
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in md.lines() {
        let t = line.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            match cur.take() {
                Some(b) => out.push(b),
                None => cur = Some((info.trim().to_string(), String::new())),
            }
        } else if let Some((_, body)) = cur.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    assert!(cur.is_none(), "unclosed code fence");
    out
}

fn is_rust(info: &str) -> bool {
    // Rustdoc runs ```` ``` ```` and ```` ```rust ```` blocks (with attributes after a comma).
    info.is_empty() || info.split(',').next() == Some("rust")
}

/// Runs of 3 or more whitespace-separated two-hex-digit tokens, line by line.
fn hex_runs(text: &str) -> Vec<Vec<u8>> {
    let mut runs = Vec::new();
    for line in text.lines() {
        let mut run = Vec::new();
        for tok in line.split_whitespace() {
            match (tok.len() == 2)
                .then(|| u8::from_str_radix(tok, 16).ok())
                .flatten()
            {
                Some(b) => run.push(b),
                None => {
                    if run.len() >= 3 {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.clear();
                }
            }
        }
        if run.len() >= 3 {
            runs.push(run);
        }
    }
    runs
}

/// Every `0xNN` literal (exactly two hex digits) of a rust block, in order.
fn byte_literals(code: &str) -> Vec<u8> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= b.len() {
        let starts = b[i] == b'0'
            && (b[i + 1] == b'x' || b[i + 1] == b'X')
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        let two = starts && b[i + 2].is_ascii_hexdigit() && b[i + 3].is_ascii_hexdigit();
        let ends = b
            .get(i + 4)
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        if two && ends {
            let s = std::str::from_utf8(&b[i + 2..i + 4]).expect("ascii");
            out.push(u8::from_str_radix(s, 16).expect("hex digits"));
            i += 4;
        } else {
            i += 1;
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn every_hex_run_in_a_text_block_is_checked_by_a_rust_block() {
    let notes = notes();
    assert!(!notes.is_empty(), "no notes found in spec-notes/");
    let mut missing = Vec::new();
    for (name, md) in &notes {
        let blocks = blocks(md);
        let rust: Vec<Vec<u8>> = blocks
            .iter()
            .filter(|(info, _)| is_rust(info))
            .map(|(_, code)| byte_literals(code))
            .collect();
        assert!(!rust.is_empty(), "{name}: no rust block");
        for (_, text) in blocks.iter().filter(|(info, _)| info == "text") {
            for run in hex_runs(text) {
                if !rust.iter().any(|lits| contains(lits, &run)) {
                    let hex: Vec<String> = run.iter().map(|b| format!("{b:02X}")).collect();
                    missing.push(format!("{name}: {}", hex.join(" ")));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "byte runs shown in text blocks but not written as 0xNN literals, in order, in a rust \
         block of the same note:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_note_is_compiled_into_rustdoc_and_listed_in_the_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = fs::read_to_string(root.join("src/spec_notes.rs")).expect("src/spec_notes.rs");
    let readme = fs::read_to_string(notes_dir().join("README.md")).expect("spec-notes/README.md");
    for (name, _) in notes() {
        let include = format!("include_str!(\"../spec-notes/{name}\")");
        assert!(
            module.contains(&include),
            "{name} is not included by src/spec_notes.rs"
        );
        assert!(
            readme.contains(&name),
            "{name} is not listed in spec-notes/README.md"
        );
    }
}

#[test]
fn the_checker_itself() {
    let md = "x\n```text\n88 C6 FA  note 10 20\n01 02 | 03 04 05\n```\n```rust\nlet a = [0x01, 0x88, 0xc6, 0xFA]; let b = 0x0304; [0x03, 0x04, 0x05];\n```\n";
    let b = blocks(md);
    assert_eq!(b.len(), 2);
    assert_eq!(
        hex_runs(&b[0].1),
        [vec![0x88, 0xC6, 0xFA], vec![0x03, 0x04, 0x05]]
    );
    assert_eq!(
        byte_literals(&b[1].1),
        [0x01, 0x88, 0xC6, 0xFA, 0x03, 0x04, 0x05]
    );
    assert!(contains(&byte_literals(&b[1].1), &[0x88, 0xC6, 0xFA]));
    assert!(!contains(&byte_literals(&b[1].1), &[0xC6, 0x88]));
}

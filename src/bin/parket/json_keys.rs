//! JSON input: the duplicate-key check that serde_json does not make (it keeps the last of
//! two equal keys).
//!
//! `write` rejects a JSON object that names a key twice, at any level of a line: a row or a
//! group would silently lose one of the values, and a VARIANT object cannot hold it at all
//! (VariantEncoding.md: "field names must be unique" within an object; Spark's `parse_json`
//! rejects it too unless `spark.sql.variant.allowDuplicateKeys` is set). Keys are compared
//! after unescaping, so `{"a":1,"\u0061":2}` is a duplicate.

use std::collections::HashSet;
use std::fmt::Write as _;

/// The first object in `text` that holds a key twice, as (its JSON path, the key): `$` is the
/// line, `$.v.a[2]` the third item of field `a` of field `v`. `text` is JSON that serde_json
/// has accepted (so its nesting is bounded by serde_json's recursion limit); on anything else
/// the answer is `None`, never a panic.
pub fn duplicate_key(text: &str) -> Option<(String, String)> {
    let mut s = Scan {
        b: text.as_bytes(),
        at: 0,
        path: Vec::new(),
    };
    s.value().err().flatten()
}

enum Seg {
    Key(String),
    Index(usize),
}

struct Scan<'a> {
    b: &'a [u8],
    at: usize,
    path: Vec<Seg>,
}

/// `Err(Some(..))`: a duplicate found; `Err(None)`: text that is not JSON (not ours to report).
type Step = Result<(), Option<(String, String)>>;

impl Scan<'_> {
    fn peek(&mut self) -> Option<u8> {
        while self.b.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
        self.b.get(self.at).copied()
    }

    fn eat(&mut self, c: u8) -> Step {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(None)
        }
    }

    fn value(&mut self) -> Step {
        match self.peek().ok_or(None)? {
            b'{' => {
                self.at += 1;
                let mut keys = HashSet::new();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(());
                }
                loop {
                    let key = self.string()?;
                    if keys.contains(&key) {
                        return Err(Some((self.path_string(), key)));
                    }
                    self.eat(b':')?;
                    self.path.push(Seg::Key(key.clone()));
                    self.value()?;
                    self.path.pop();
                    keys.insert(key);
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        return self.eat(b'}');
                    }
                }
            }
            b'[' => {
                self.at += 1;
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(());
                }
                for i in 0.. {
                    self.path.push(Seg::Index(i));
                    self.value()?;
                    self.path.pop();
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        break;
                    }
                }
                self.eat(b']')
            }
            b'"' => self.string().map(drop),
            _ => {
                // A number, true, false or null: up to the next delimiter.
                while self
                    .b
                    .get(self.at)
                    .is_some_and(|c| !matches!(c, b',' | b']' | b'}') && !c.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                Ok(())
            }
        }
    }

    /// A string literal, unescaped.
    fn string(&mut self) -> Result<String, Option<(String, String)>> {
        self.eat(b'"')?;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self
                .b
                .get(self.at)
                .is_some_and(|&c| c != b'"' && c != b'\\')
            {
                self.at += 1;
            }
            let run = self.b.get(start..self.at).ok_or(None)?;
            out.push_str(std::str::from_utf8(run).map_err(|_| None)?);
            match self.b.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let e = *self.b.get(self.at + 1).ok_or(None)?;
                    self.at += 2;
                    match e {
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.at..self.at + 2) == Some(b"\\u")
                            {
                                self.at += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                hi
                            };
                            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                        }
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        other => out.push(char::from(other)),
                    }
                }
                _ => return Err(None),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Option<(String, String)>> {
        let digits = self.b.get(self.at..self.at + 4).ok_or(None)?;
        let text = std::str::from_utf8(digits).map_err(|_| None)?;
        self.at += 4;
        u32::from_str_radix(text, 16).map_err(|_| None)
    }

    fn path_string(&self) -> String {
        let mut out = String::from("$");
        for seg in &self.path {
            match seg {
                Seg::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
                Seg::Key(k)
                    if !k.is_empty()
                        && !k.starts_with(|c: char| c.is_ascii_digit())
                        && k.chars().all(|c| c.is_alphanumeric() || c == '_') =>
                {
                    let _ = write!(out, ".{k}");
                }
                Seg::Key(k) => {
                    out.push('[');
                    crate::json::push_str(&mut out, k);
                    out.push(']');
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::duplicate_key;

    fn dup(text: &str) -> Option<(String, String)> {
        // Only JSON serde_json accepts reaches the scan.
        serde_json::from_str::<serde_json::Value>(text).expect("valid JSON");
        duplicate_key(text)
    }

    #[test]
    fn finds_the_first_repeated_key_with_its_path() {
        assert_eq!(dup(r#"{"a":1,"b":[1,{"c":2}]}"#), None);
        assert_eq!(dup(r#"{"a":1,"a":2}"#), Some(("$".into(), "a".into())));
        assert_eq!(
            dup(r#" { "v" : { "x" : [ 0 , { "k" : 1 , "j" : { } , "k" : "" } ] } } "#),
            Some(("$.v.x[1]".into(), "k".into()))
        );
        // The same key after unescaping, and names that need brackets in the path.
        assert_eq!(
            dup(r#"{"k 1":{"a":1,"\u0061":2}}"#),
            Some(("$[\"k 1\"]".into(), "a".into()))
        );
        assert_eq!(
            dup(r#"{"😀":{"\ud83d\ude00":0,"😀":1}}"#),
            Some(("$[\"😀\"]".into(), "😀".into()))
        );
        // Equal keys in different objects, and strings that look like keys, are not duplicates.
        assert_eq!(dup(r#"[{"a":1},{"a":1}]"#), None);
        assert_eq!(
            dup(r#"{"a":"\"a\":","b":["a","a"],"c":{"a":{"a":null}}}"#),
            None
        );
        assert_eq!(dup(r#"{"":1,"":2}"#), Some(("$".into(), "".into())));
    }
}

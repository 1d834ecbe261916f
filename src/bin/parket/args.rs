//! A small command-line argument reader: flags (`--json`), options with a value
//! (`--columns a,b` or `--columns=a,b`), repeatable options, and positional arguments.

use std::collections::VecDeque;

/// The arguments after the command name.
pub struct Args {
    items: VecDeque<String>,
}

impl Args {
    pub fn new(items: impl IntoIterator<Item = String>) -> Self {
        Args {
            items: items.into_iter().collect(),
        }
    }

    /// Removes `--name` and says whether it was there.
    pub fn flag(&mut self, name: &str) -> bool {
        let before = self.items.len();
        self.items.retain(|a| a != name);
        before != self.items.len()
    }

    /// Removes every `--name VALUE` / `--name=VALUE` and returns the values in order.
    pub fn values(&mut self, name: &str) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut kept = VecDeque::with_capacity(self.items.len());
        let prefix = format!("{name}=");
        while let Some(a) = self.items.pop_front() {
            if a == name {
                match self.items.pop_front() {
                    Some(v) => out.push(v),
                    None => return Err(format!("{name} needs a value")),
                }
            } else if let Some(v) = a.strip_prefix(&prefix) {
                out.push(v.to_string());
            } else {
                kept.push_back(a);
            }
        }
        self.items = kept;
        Ok(out)
    }

    /// Removes `--name VALUE` (at most once) and returns the value.
    pub fn value(&mut self, name: &str) -> Result<Option<String>, String> {
        let mut v = self.values(name)?;
        if v.len() > 1 {
            return Err(format!("{name} given more than once"));
        }
        Ok(v.pop())
    }

    /// Like [`Args::value`], parsed.
    pub fn parsed<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        match self.value(name)? {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|e| format!("{name} {v:?}: {e}")),
        }
    }

    /// The remaining arguments, which must all be positional: exactly `n` of them.
    pub fn positional(self, names: &[&str]) -> Result<Vec<String>, String> {
        if let Some(a) = self.items.iter().find(|a| a.starts_with("--")) {
            return Err(format!("unknown option {a}"));
        }
        if self.items.len() != names.len() {
            return Err(format!(
                "expected {} argument(s): {}",
                names.len(),
                names.join(" ")
            ));
        }
        Ok(self.items.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Args {
        Args::new(s.split_whitespace().map(String::from))
    }

    #[test]
    fn flags_values_and_positionals() {
        let mut a = args("--json f.parquet --columns a,b --encoding x=PLAIN --encoding=y=RLE");
        assert!(a.flag("--json"));
        assert!(!a.flag("--limit"));
        assert_eq!(a.value("--columns").unwrap().as_deref(), Some("a,b"));
        assert_eq!(a.values("--encoding").unwrap(), ["x=PLAIN", "y=RLE"]);
        assert_eq!(a.positional(&["FILE"]).unwrap(), ["f.parquet"]);
        assert!(args("--limit").value("--limit").is_err());
        assert!(args("f --bogus").positional(&["FILE"]).is_err());
        assert!(args("--limit x").parsed::<usize>("--limit").is_err());
    }
}

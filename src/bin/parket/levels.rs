//! `parket levels FILE [--column PATH] [--rows A..B] [--json]`: the Dremel levels of a file,
//! one line per level entry, with what each level means for this schema and the record the
//! entries assemble into (spec: parquet-format README, "Nested Encoding"; spec-notes/04).
//!
//! ```text
//! $ parket levels --column tags FILE          (message m { optional group tags (LIST) {
//!                                               repeated group list { optional binary element
//!                                               (STRING); } } })
//! tags.list.element (max rep 1, max def 3)
//! rep def value meaning
//! row 0: {"tags":["a",null]}
//!   0   3 "a"   new record
//!   1   2 null  next element of tags; element of tags is null
//! row 1: {"tags":[]}
//!   0   1 null  new record; tags is an empty list
//! ```
//!
//! Several leaves (no `--column`, or a group) stand side by side, each leaf's entries of a row
//! under the row's line. The record shown is assembled (`parket::levels::assemble`) from
//! exactly the entries printed, so it equals what `cat --json` prints for that row.
//!
//! `--json`: per row, one `{"row":N,"record":{...}}` object (the record as `cat --json` prints
//! it), then one object per entry: `{"row_group","row","column","rep","def","value","meaning"}`.
//!
//! Reads one row group at a time (whole column chunks of the selected leaves), through the
//! public reader API only.

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::Range;

use parket::format::FieldRepetitionType as Rep;
use parket::levels::shape::{shapes, Shape};
use parket::levels::{assemble, LeafData};
use parket::record::Value;
use parket::schema::Schema;
use parket::values::ValuesRef;

use crate::args::Args;
use crate::cat::open;
use crate::file_error;
use crate::json::push_str;
use crate::rows::{leaf_to_json, record_to_json};

/// Widest value shown in the text view (JSON text, cut with `…`).
const VALUE_WIDTH: usize = 32;

/// `parket levels`.
pub fn levels(mut args: Args) -> Result<(), String> {
    let as_json = args.flag("--json");
    let column = args.value("--column")?;
    let rows = args.value("--rows")?.map(|r| parse_rows(&r)).transpose()?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let file = open(&path)?;
    let (schema, leaves) = match column.as_deref() {
        Some(c) => file
            .schema()
            .project(&[c])
            .map_err(|e| file_error(&path, e))?,
        None => (
            file.schema().clone(),
            (0..file.schema().columns().len()).collect(),
        ),
    };
    let words = Words::new(&schema).map_err(|e| file_error(&path, e))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !as_json {
        let mut head = String::new();
        for (i, c) in schema.columns().iter().enumerate() {
            let _ = writeln!(
                head,
                "leaf {}: {} (max rep {}, max def {})",
                i + 1,
                c.path_string(),
                c.max_rep_level,
                c.max_def_level
            );
        }
        if out.write_all(head.as_bytes()).is_err() {
            return Ok(());
        }
    }
    let mut first_row = 0u64;
    for rg in 0..file.num_row_groups() {
        let num_rows = file.metadata().row_groups[rg].num_rows.max(0) as u64;
        let rg_rows = first_row..first_row + num_rows;
        first_row += num_rows;
        // The rows of this row group that were asked for, counted from its start.
        let want = match &rows {
            Some(r) => {
                let (s, e) = (r.start.max(rg_rows.start), r.end.min(rg_rows.end));
                if s >= e {
                    if r.end <= rg_rows.start {
                        break;
                    }
                    continue;
                }
                (s - rg_rows.start) as usize..(e - rg_rows.start) as usize
            }
            None => 0..num_rows as usize,
        };
        let data = file
            .read_row_group(rg, &leaves)
            .map_err(|e| file_error(&path, e))?;
        let view = RowGroupView::new(&schema, &data, rg)
            .map_err(|e| format!("{path}: row group {rg}: {e}"))?;
        let text = view
            .render(&words, want, rg_rows.start, as_json)
            .map_err(|e| format!("{path}: row group {rg}: {e}"))?;
        if out.write_all(text.as_bytes()).is_err() {
            return Ok(()); // stdout closed (e.g. piped into `head`): stop quietly
        }
    }
    let _ = out.flush();
    Ok(())
}

/// `A..B` (rows A to B-1, counted from 0 over the whole file), `A..` or `..B`.
fn parse_rows(s: &str) -> Result<Range<u64>, String> {
    let bad = || format!("--rows {s:?}: expected A..B (rows A to B-1, from 0), A.. or ..B");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let a = if a.is_empty() {
        0
    } else {
        a.parse().map_err(|_| bad())?
    };
    let b = if b.is_empty() {
        u64::MAX
    } else {
        b.parse().map_err(|_| bad())?
    };
    if a > b {
        return Err(bad());
    }
    Ok(a..b)
}

/// What the levels of each leaf mean, in words, for one schema.
struct Words {
    /// Per leaf: the phrase for each definition level below the maximum ("tags is null").
    def: Vec<Vec<String>>,
    /// Per leaf: the phrase for each repetition level from 1 ("next element of tags").
    rep: Vec<Vec<String>>,
}

impl Words {
    fn new(schema: &Schema) -> parket::Result<Words> {
        let shapes = shapes(schema)?;
        let nodes = schema.nodes();
        // How a node reads to a person: `tags` (a list), `tags[]` (an element), `m[].key`.
        let mut disp = vec![String::new(); nodes.len()];
        // For a repeated node: the collection it repeats (`tags`) and whether it is a map.
        let mut coll = vec![(String::new(), false); nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            let Some(p) = n.parent else { continue };
            let join = |a: &str, b: &str| {
                if a.is_empty() {
                    b.to_string()
                } else {
                    format!("{a}.{b}")
                }
            };
            // The repeated `list` of a 3-level LIST: its element reads as `tags[]`.
            let in_wrapper = nodes[p].repetition == Rep::Repeated
                && matches!(shapes.get(nodes[p].parent.unwrap_or(0)),
                    Some(Shape::List { repeated, three_level: true }) if *repeated == p);
            if n.repetition == Rep::Repeated {
                let (name, map) = match shapes.get(p) {
                    Some(Shape::List { repeated, .. }) if *repeated == i => {
                        (disp[p].clone(), false)
                    }
                    Some(Shape::Map { repeated }) if *repeated == i => (disp[p].clone(), true),
                    _ => (
                        join(&disp[p], &n.name),
                        matches!(shapes.get(i), Some(Shape::KeyValue)),
                    ),
                };
                disp[i] = format!("{name}[]");
                coll[i] = (name, map);
            } else if in_wrapper {
                disp[i] = disp[p].clone();
            } else {
                disp[i] = join(&disp[p], &n.name);
            }
        }
        let mut def = Vec::new();
        let mut rep = Vec::new();
        for c in schema.columns() {
            // The path from the root's child down to the leaf.
            let mut path = Vec::new();
            let mut at = Some(c.node);
            while let Some(i) = at.filter(|&i| i != 0) {
                path.push(i);
                at = nodes[i].parent;
            }
            path.reverse();
            let mut d = Vec::new();
            let mut r = Vec::new();
            for &i in &path {
                let n = &nodes[i];
                match n.repetition {
                    Rep::Required => {}
                    Rep::Optional => {
                        let name = &disp[i];
                        let p = n.parent.unwrap_or(0);
                        d.push(match name.strip_suffix("[]") {
                            Some(list) if coll[p].0 == list => {
                                format!("element of {list} is null")
                            }
                            _ => format!("{name} is null"),
                        });
                    }
                    Rep::Repeated => {
                        let (name, map) = &coll[i];
                        let (what, one) = if *map {
                            ("map", "entry")
                        } else {
                            ("list", "element")
                        };
                        d.push(format!("{name} is an empty {what}"));
                        r.push(format!("next {one} of {name}"));
                    }
                }
            }
            def.push(d);
            rep.push(r);
        }
        Ok(Words { def, rep })
    }

    /// The meaning of one entry of leaf `leaf`.
    fn of(&self, leaf: usize, rep: u16, def: u16) -> String {
        let mut parts = Vec::new();
        if rep == 0 {
            parts.push("new record");
        } else if let Some(s) = self.rep.get(leaf).and_then(|r| r.get(rep as usize - 1)) {
            parts.push(s);
        }
        if let Some(s) = self.def.get(leaf).and_then(|d| d.get(def as usize)) {
            parts.push(s);
        }
        parts.join("; ")
    }
}

/// One row group's leaves, with where each record's entries and values start.
struct RowGroupView<'a> {
    schema: &'a Schema,
    data: &'a [LeafData],
    row_group: usize,
    /// Per leaf: entry index of each record's first entry, and one past the last entry.
    starts: Vec<Vec<usize>>,
    /// Per leaf: values before each entry (prefix counts), one past the last entry included.
    before: Vec<Vec<usize>>,
}

impl<'a> RowGroupView<'a> {
    fn new(schema: &'a Schema, data: &'a [LeafData], row_group: usize) -> Result<Self, String> {
        let mut starts = Vec::with_capacity(data.len());
        let mut before = Vec::with_capacity(data.len());
        for (leaf, d) in data.iter().enumerate() {
            let c = schema.column(leaf).ok_or("a leaf without a column")?;
            let n = entries(d, c.max_def_level, c.max_rep_level);
            let mut s = Vec::new();
            let mut b = Vec::with_capacity(n + 1);
            let mut values = 0usize;
            for i in 0..n {
                if d.rep_levels.get(i).copied().unwrap_or(0) == 0 {
                    s.push(i);
                }
                b.push(values);
                if d.def_levels.get(i).copied().unwrap_or(0) == c.max_def_level {
                    values += 1;
                }
            }
            s.push(n);
            b.push(values);
            if values != d.values.len() {
                return Err(format!(
                    "column {}: {} entries at the maximum definition level but {} values",
                    c.path_string(),
                    values,
                    d.values.len()
                ));
            }
            starts.push(s);
            before.push(b);
        }
        Ok(RowGroupView {
            schema,
            data,
            row_group,
            starts,
            before,
        })
    }

    /// Entry range of record `row` of leaf `leaf` (empty when the leaf has fewer records).
    fn entries_of(&self, leaf: usize, row: usize) -> Range<usize> {
        let s = &self.starts[leaf];
        match (s.get(row), s.get(row + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// The leaves' entries of rows `rows`, as `LeafData` that assemble on their own.
    fn slice(&self, rows: Range<usize>) -> Vec<LeafData> {
        (0..self.data.len())
            .map(|leaf| {
                let d = &self.data[leaf];
                let s = &self.starts[leaf];
                let last = s.len() - 1;
                let (a, b) = (s[rows.start.min(last)], s[rows.end.min(last)]);
                let (va, vb) = (self.before[leaf][a], self.before[leaf][b]);
                LeafData {
                    def_levels: d.def_levels.get(a..b).unwrap_or(&[]).to_vec(),
                    rep_levels: d.rep_levels.get(a..b).unwrap_or(&[]).to_vec(),
                    values: d.values.as_ref().slice(va..vb).to_owned(),
                }
            })
            .collect()
    }

    /// The text (or JSON lines) of rows `rows` of this row group; `base` is the file row of
    /// its first row.
    fn render(
        &self,
        words: &Words,
        rows: Range<usize>,
        base: u64,
        as_json: bool,
    ) -> Result<String, String> {
        let records =
            assemble(self.schema, &self.slice(rows.clone())).map_err(|e| e.to_string())?;
        if records.len() != rows.len() {
            return Err(format!(
                "{} records assembled for {} rows",
                records.len(),
                rows.len()
            ));
        }
        // Every cell first (rep, def, value, meaning), to size the text columns.
        let mut cells: Vec<Vec<Vec<[String; 4]>>> = Vec::with_capacity(rows.len());
        for row in rows.clone() {
            let mut per_leaf = Vec::with_capacity(self.data.len());
            for leaf in 0..self.data.len() {
                let d = &self.data[leaf];
                let c = self.schema.column(leaf).ok_or("a leaf without a column")?;
                let mut v = Vec::new();
                for i in self.entries_of(leaf, row) {
                    let rep = d.rep_levels.get(i).copied().unwrap_or(0);
                    let def = d.def_levels.get(i).copied().unwrap_or(0);
                    let mut value = String::new();
                    if def == c.max_def_level {
                        let at = self.before[leaf][i];
                        leaf_to_json(&value_at(d.values.as_ref(), at), c, &mut value)?;
                    } else {
                        value.push_str("null");
                    }
                    v.push([
                        rep.to_string(),
                        def.to_string(),
                        value,
                        words.of(leaf, rep, def),
                    ]);
                }
                per_leaf.push(v);
            }
            cells.push(per_leaf);
        }
        let mut out = String::new();
        if as_json {
            for ((row, record), per_leaf) in rows.zip(&records).zip(&cells) {
                let n = base + row as u64;
                let _ = write!(out, "{{\"row\":{n},\"record\":");
                record_to_json(self.schema, record, &mut out)?;
                out.pop(); // record_to_json's newline
                out.push_str("}\n");
                for (leaf, entries) in per_leaf.iter().enumerate() {
                    let path = self
                        .schema
                        .column(leaf)
                        .map(|c| c.path_string())
                        .unwrap_or_default();
                    for [rep, def, value, meaning] in entries {
                        let _ = write!(
                            out,
                            "{{\"row_group\":{},\"row\":{n},\"column\":",
                            self.row_group
                        );
                        push_str(&mut out, &path);
                        let _ = write!(
                            out,
                            ",\"rep\":{rep},\"def\":{def},\"value\":{value},\"meaning\":"
                        );
                        push_str(&mut out, meaning);
                        out.push_str("}\n");
                    }
                }
            }
            return Ok(out);
        }
        // Column widths per leaf: rep, def, value, meaning.
        let leaves = self.data.len();
        let mut w = vec![[3usize, 3, 5, 7]; leaves];
        for per_leaf in &cells {
            for (leaf, entries) in per_leaf.iter().enumerate() {
                for e in entries {
                    for k in 0..4 {
                        let len = if k == 2 {
                            e[k].chars().count().min(VALUE_WIDTH)
                        } else {
                            e[k].chars().count()
                        };
                        w[leaf][k] = w[leaf][k].max(len);
                    }
                }
            }
        }
        let cell = |out: &mut String, leaf: usize, e: Option<&[String; 4]>| {
            let [wr, wd, wv, wm] = w[leaf];
            match e {
                Some([rep, def, value, meaning]) => {
                    let _ = write!(
                        out,
                        "{rep:>wr$} {def:>wd$} {:<wv$} {meaning:<wm$}",
                        cut(value, VALUE_WIDTH)
                    );
                }
                None => {
                    let _ = write!(out, "{:w$}", "", w = wr + wd + wv + wm + 3);
                }
            }
        };
        let _ = writeln!(
            out,
            "row group {} (rows {}..{})",
            self.row_group,
            base + rows.start as u64,
            base + rows.end as u64
        );
        if leaves > 1 {
            out.push_str("  ");
            for (leaf, [wr, wd, wv, wm]) in w.iter().enumerate() {
                if leaf > 0 {
                    out.push_str(" | ");
                }
                let width = wr + wd + wv + wm + 3;
                let _ = write!(out, "{:<width$}", cut(&format!("leaf {}", leaf + 1), width));
            }
            push_line_end(&mut out);
        }
        out.push_str("  ");
        for leaf in 0..leaves {
            if leaf > 0 {
                out.push_str(" | ");
            }
            let head = ["rep".into(), "def".into(), "value".into(), "meaning".into()];
            cell(&mut out, leaf, Some(&head));
        }
        push_line_end(&mut out);
        for ((row, record), per_leaf) in rows.zip(&records).zip(&cells) {
            let _ = write!(out, "row {}: ", base + row as u64);
            record_to_json(self.schema, record, &mut out)?;
            let lines = per_leaf.iter().map(Vec::len).max().unwrap_or(0);
            for k in 0..lines {
                out.push_str("  ");
                for (leaf, entries) in per_leaf.iter().enumerate() {
                    if leaf > 0 {
                        out.push_str(" | ");
                    }
                    cell(&mut out, leaf, entries.get(k));
                }
                push_line_end(&mut out);
            }
        }
        Ok(out)
    }
}

/// Ends a text line without trailing spaces.
fn push_line_end(out: &mut String) {
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('\n');
}

/// `s` cut to `n` characters, the last one `…` when cut.
fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// How many level entries a leaf holds (levels are stored only for max levels above 0).
fn entries(d: &LeafData, max_def: u16, max_rep: u16) -> usize {
    if max_def > 0 {
        d.def_levels.len()
    } else if max_rep > 0 {
        d.rep_levels.len()
    } else {
        d.values.len()
    }
}

/// Value `i` of `values` as a record value (`Null` if there is none: the caller checked).
fn value_at(values: ValuesRef<'_>, i: usize) -> Value {
    let v = match values {
        ValuesRef::Boolean(x) => x.get(i).map(|&v| Value::Boolean(v)),
        ValuesRef::Int32(x) => x.get(i).map(|&v| Value::Int32(v)),
        ValuesRef::Int64(x) => x.get(i).map(|&v| Value::Int64(v)),
        ValuesRef::Int96(x) => x.get(i).map(|&v| Value::Int96(v)),
        ValuesRef::Float(x) => x.get(i).map(|&v| Value::Float(v)),
        ValuesRef::Double(x) => x.get(i).map(|&v| Value::Double(v)),
        ValuesRef::ByteArray(x) => x.get(i).map(|v| Value::Bytes(v.to_vec())),
        ValuesRef::FixedLenByteArray(x) => x.get(i).map(|v| Value::Bytes(v.to_vec())),
    };
    v.unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_ranges() {
        assert_eq!(parse_rows("2..5").unwrap(), 2..5);
        assert_eq!(parse_rows("3..").unwrap(), 3..u64::MAX);
        assert_eq!(parse_rows("..4").unwrap(), 0..4);
        assert!(parse_rows("5..2").is_err());
        assert!(parse_rows("x").is_err());
    }

    #[test]
    fn words_for_a_list_a_map_and_an_optional_field() {
        let schema = Schema::parse(
            "message m { optional binary name (STRING);
               optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
               optional group m (MAP) { repeated group key_value { required int32 key; optional int32 value; } }
               repeated group xs { optional int32 a; } }",
        )
        .unwrap();
        let w = Words::new(&schema).unwrap();
        assert_eq!(w.of(0, 0, 0), "new record; name is null");
        assert_eq!(w.of(0, 0, 1), "new record");
        assert_eq!(w.of(1, 0, 0), "new record; tags is null");
        assert_eq!(w.of(1, 0, 1), "new record; tags is an empty list");
        assert_eq!(
            w.of(1, 1, 2),
            "next element of tags; element of tags is null"
        );
        assert_eq!(w.of(1, 1, 3), "next element of tags");
        assert_eq!(w.of(2, 0, 0), "new record; m is null");
        assert_eq!(w.of(2, 0, 1), "new record; m is an empty map");
        assert_eq!(w.of(2, 1, 2), "next entry of m");
        assert_eq!(w.of(3, 1, 2), "next entry of m; m[].value is null");
        assert_eq!(w.of(4, 0, 0), "new record; xs is an empty list");
        assert_eq!(w.of(4, 1, 1), "next element of xs; xs[].a is null");
        assert_eq!(w.of(4, 1, 2), "next element of xs");
    }
}

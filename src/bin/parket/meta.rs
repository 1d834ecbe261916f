//! `parket schema FILE` and `parket meta [--json] FILE`: the footer, readable.

use std::fmt::Write as _;

use parket::format::{ColumnMetaData, ColumnOrder, FileMetaData, Statistics};
use parket::record::Value;
use parket::schema::Schema;
use parket::statistics::{self, Scalar, StatKind};
use parket::Limits;

use crate::args::Args;
use crate::file_error;
use crate::json::push_str;

/// Reads the footer of `path` and builds its schema.
pub fn open(path: &str) -> Result<(FileMetaData, Schema), String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let md = parket::read::footer::read_metadata(&mut f, &Limits::default())
        .map_err(|e| file_error(path, e))?;
    let schema = Schema::from_elements(&md.schema).map_err(|e| file_error(path, e))?;
    Ok((md, schema))
}

/// `parket schema FILE`.
pub fn schema(args: Args) -> Result<(), String> {
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let (_, schema) = open(&path)?;
    println!("{schema}");
    Ok(())
}

/// `parket meta [--json] FILE`.
pub fn meta(mut args: Args) -> Result<(), String> {
    let as_json = args.flag("--json");
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let (md, schema) = open(&path)?;
    let text = if as_json {
        meta_json(&md, &schema)
    } else {
        meta_text(&path, &md, &schema)
    };
    print!("{text}");
    Ok(())
}

fn column_path(schema: &Schema, j: usize, cmd: Option<&ColumnMetaData>) -> String {
    match (schema.column(j), cmd) {
        (Some(c), _) => c.path_string(),
        (None, Some(m)) => m.path_in_schema.join("."),
        (None, None) => format!("#{j}"),
    }
}

fn names<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn meta_text(path: &str, md: &FileMetaData, schema: &Schema) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "file:        {path}");
    let _ = writeln!(s, "version:     {}", md.version);
    let _ = writeln!(
        s,
        "created_by:  {}",
        md.created_by.as_deref().unwrap_or("(not set)")
    );
    let _ = writeln!(s, "num_rows:    {}", md.num_rows);
    let _ = writeln!(s, "row groups:  {}", md.row_groups.len());
    let _ = writeln!(s, "columns:     {}", schema.columns().len());
    if md.encryption_algorithm.is_some() {
        let _ = writeln!(
            s,
            "encryption:  columns are encrypted (plaintext footer); their data cannot be read"
        );
    }
    for kv in md.key_value_metadata.iter().flatten() {
        let v = kv.value.as_deref().unwrap_or("");
        let short: String = v.chars().take(70).collect();
        let more = if short.len() < v.len() { "..." } else { "" };
        let _ = writeln!(s, "metadata:    {} = {short}{more}", kv.key);
    }
    let _ = writeln!(s, "schema:\n{schema}");
    for (i, rg) in md.row_groups.iter().enumerate() {
        let _ = writeln!(
            s,
            "row group {i}: {} rows, {} bytes uncompressed",
            rg.num_rows, rg.total_byte_size
        );
        for (j, cc) in rg.columns.iter().enumerate() {
            let m = cc.meta_data.as_ref();
            let path = column_path(schema, j, m);
            match m {
                None => {
                    let _ = writeln!(s, "  {path}: metadata encrypted");
                }
                Some(m) => {
                    let _ = writeln!(
                        s,
                        "  {path}: {} {} [{}] {} values, {} -> {} bytes, data page at {}{}",
                        m.type_,
                        m.codec,
                        names(&m.encodings),
                        m.num_values,
                        m.total_uncompressed_size,
                        m.total_compressed_size,
                        m.data_page_offset,
                        m.dictionary_page_offset
                            .map(|o| format!(", dictionary page at {o}"))
                            .unwrap_or_default()
                    );
                    if let Some(st) = &m.statistics {
                        let orders = md.column_orders.as_deref();
                        let (min, max) = min_max_json(schema, j, orders, st);
                        let null_count = st.null_count.map(|n| n.to_string());
                        let _ = writeln!(
                            s,
                            "      statistics: null_count {}, min {}, max {}",
                            null_count.as_deref().unwrap_or("(not set)"),
                            min.as_deref().unwrap_or("(not set)"),
                            max.as_deref().unwrap_or("(not set)")
                        );
                    }
                }
            }
        }
    }
    s
}

/// A tiny JSON object builder: keys in insertion order.
struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut String) -> Self {
        out.push('{');
        Obj { out, first: true }
    }
    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        push_str(self.out, k);
        self.out.push(':');
        self.out
    }
    fn raw(&mut self, k: &str, v: impl std::fmt::Display) {
        let _ = write!(self.key(k), "{v}");
    }
    fn str(&mut self, k: &str, v: &str) {
        push_str(self.key(k), v);
    }
    fn opt_raw(&mut self, k: &str, v: Option<impl std::fmt::Display>) {
        match v {
            Some(v) => self.raw(k, v),
            None => self.raw(k, "null"),
        }
    }
    fn end(self) {
        self.out.push('}');
    }
}

fn meta_json(md: &FileMetaData, schema: &Schema) -> String {
    let mut s = String::new();
    let mut o = Obj::new(&mut s);
    o.raw("num_rows", md.num_rows);
    o.raw("version", md.version);
    match &md.created_by {
        Some(c) => o.str("created_by", c),
        None => o.raw("created_by", "null"),
    }
    {
        let out = o.key("key_value_metadata");
        out.push('[');
        for (i, kv) in md.key_value_metadata.iter().flatten().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let mut kvo = Obj::new(out);
            kvo.str("key", &kv.key);
            match &kv.value {
                Some(v) => kvo.str("value", v),
                None => kvo.raw("value", "null"),
            }
            kvo.end();
        }
        out.push(']');
    }
    o.str("schema", &schema.to_string());
    o.raw("encrypted_columns", md.encryption_algorithm.is_some());
    {
        let out = o.key("row_groups");
        out.push('[');
        for (i, rg) in md.row_groups.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let mut r = Obj::new(out);
            r.raw("num_rows", rg.num_rows);
            r.raw("total_byte_size", rg.total_byte_size);
            let cols = r.key("columns");
            cols.push('[');
            for (j, cc) in rg.columns.iter().enumerate() {
                if j > 0 {
                    cols.push(',');
                }
                column_json(
                    cols,
                    schema,
                    md.column_orders.as_deref(),
                    j,
                    cc.meta_data.as_ref(),
                );
            }
            cols.push(']');
            r.end();
        }
        out.push(']');
    }
    o.end();
    s.push('\n');
    s
}

fn column_json(
    out: &mut String,
    schema: &Schema,
    orders: Option<&[ColumnOrder]>,
    j: usize,
    m: Option<&ColumnMetaData>,
) {
    let mut c = Obj::new(out);
    c.str("path", &column_path(schema, j, m));
    let Some(m) = m else {
        c.raw("encrypted", true);
        c.end();
        return;
    };
    c.str("physical_type", m.type_.name());
    c.str("codec", m.codec.name());
    {
        let e = c.key("encodings");
        e.push('[');
        for (k, enc) in m.encodings.iter().enumerate() {
            if k > 0 {
                e.push(',');
            }
            push_str(e, enc.name());
        }
        e.push(']');
    }
    c.raw("num_values", m.num_values);
    c.raw("total_compressed_size", m.total_compressed_size);
    c.raw("total_uncompressed_size", m.total_uncompressed_size);
    c.raw("data_page_offset", m.data_page_offset);
    c.opt_raw("dictionary_page_offset", m.dictionary_page_offset);
    match &m.statistics {
        None => c.raw("statistics", "null"),
        Some(st) => {
            let mut so = Obj::new(c.key("statistics"));
            so.opt_raw("null_count", st.null_count);
            let (min, max) = min_max_json(schema, j, orders, st);
            so.raw("min", min.as_deref().unwrap_or("null"));
            so.raw("max", max.as_deref().unwrap_or("null"));
            so.end();
        }
    }
    c.end();
}

/// The chunk's min and max as JSON values of the column (as `cat --json` prints its cells):
/// decoded per the column's sort order and `ColumnOrder` (`statistics::decode`: the
/// deprecated `min`/`max` only where their signed order is the column's, NaN bounds ignored,
/// a zero min read as -0.0 and a zero max as +0.0). `None` when absent or unusable.
pub(crate) fn min_max_json(
    schema: &Schema,
    j: usize,
    orders: Option<&[ColumnOrder]>,
    st: &Statistics,
) -> (Option<String>, Option<String>) {
    let Some(desc) = schema.column(j) else {
        return (None, None);
    };
    let kind = StatKind::of_column(desc);
    let d = statistics::decode(st, kind, orders.and_then(|o| o.get(j)));
    let json = |s: Option<&Scalar>| {
        let v = match s? {
            Scalar::Boolean(b) => Value::Boolean(*b),
            Scalar::Int32(v) => Value::Int32(*v),
            Scalar::Int64(v) => Value::Int64(*v),
            Scalar::Float(v) => Value::Float(*v),
            Scalar::Double(v) => Value::Double(*v),
            Scalar::Bytes(b) => Value::Bytes(b.clone()),
        };
        let mut out = String::new();
        crate::rows::leaf_to_json(&v, desc, &mut out).ok()?;
        Some(out)
    };
    (json(d.min.as_ref()), json(d.max.as_ref()))
}

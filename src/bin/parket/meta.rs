//! `parket schema FILE` and `parket meta [--json] FILE`: the footer, readable.

use std::fmt::Write as _;

use parket::format::{
    BoundingBox, ColumnChunk, ColumnMetaData, ColumnOrder, FileMetaData, GeospatialStatistics,
    Statistics,
};
use parket::record::Value;
use parket::schema::Schema;
use parket::statistics::{self, Scalar, StatKind};

use crate::args::Args;
use crate::json::{push_f64, push_str};

/// Reads the footer of `path` and builds its schema.
pub fn open(path: &str) -> Result<(FileMetaData, Schema), String> {
    let file = crate::cat::open(path)?;
    Ok((file.metadata().clone(), file.schema().clone()))
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
    column_orders_text(&mut s, md, schema);
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
                    if let Some(c) = &cc.crypto_metadata {
                        let _ = writeln!(s, "      encrypted: {}", crypto_text(c, cc));
                    }
                    match &m.statistics {
                        Some(st) => {
                            let orders = md.column_orders.as_deref();
                            let (min, max) = min_max_json(schema, j, orders, st);
                            let null_count = st.null_count.map(|n| n.to_string());
                            let _ = write!(
                                s,
                                "      statistics: null_count {}",
                                null_count.as_deref().unwrap_or("(not set: unknown, not 0)"),
                            );
                            if let Some(n) = st.nan_count {
                                let _ = write!(s, ", nan_count {n}");
                            }
                            match (min, max) {
                                (Some(min), Some(max)) => {
                                    let _ = write!(s, ", min {min}, max {max}");
                                    let inexact = |e: Option<bool>| e == Some(false);
                                    if inexact(st.is_min_value_exact)
                                        || inexact(st.is_max_value_exact)
                                    {
                                        s.push_str(" (bounds, not exact values: truncated)");
                                    }
                                    s.push('\n');
                                }
                                _ => {
                                    let order = orders.and_then(|o| o.get(j));
                                    let why = why_no_min_max(schema, j, order, st);
                                    let _ = writeln!(s, ", no min/max: {why}");
                                }
                            }
                        }
                        None if cc.encrypted_column_metadata.is_some() => {
                            let _ = writeln!(
                                s,
                                "      statistics: not in the plaintext footer (Encryption.md \
                                 5.5: they are in the encrypted column metadata)"
                            );
                        }
                        None => {
                            let _ = writeln!(s, "      statistics: not written");
                        }
                    }
                    if let Some(g) = &m.geospatial_statistics {
                        let _ = writeln!(s, "      geospatial statistics: {}", geo_text(g));
                    }
                    chunk_extras_text(&mut s, cc, m);
                }
            }
        }
    }
    s
}

/// The column orders of the footer, leaf by leaf, and what their absence means.
fn column_orders_text(s: &mut String, md: &FileMetaData, schema: &Schema) {
    let Some(orders) = md.column_orders.as_deref() else {
        let _ = writeln!(
            s,
            "column orders: not set (FileMetaData.column_orders): the spec leaves min_value / \
             max_value undefined without them; parket reads them in each type's own order"
        );
        return;
    };
    let _ = writeln!(s, "column orders:");
    for (j, c) in schema.columns().iter().enumerate() {
        let text = match orders.get(j) {
            Some(ColumnOrder::TypeOrder) => {
                let kind = StatKind::of_column(c);
                format!("TYPE_ORDER ({})", order_words(kind))
            }
            Some(ColumnOrder::Ieee754TotalOrder) => {
                "IEEE_754_TOTAL_ORDER (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN)".into()
            }
            Some(ColumnOrder::Int96TimestampOrder) => {
                "INT96_TIMESTAMP_ORDER (by Julian day, then nanoseconds)".into()
            }
            Some(ColumnOrder::Unknown { field_id }) => {
                format!("unknown (union field {field_id}): its min/max must be ignored")
            }
            None => "missing from the list".into(),
        };
        let _ = writeln!(s, "  {}: {text}", c.path_string());
    }
}

/// Which key encrypts a column chunk, in words: the footer key, or a column key with its
/// key_metadata (as text when printable, else its length; never a key).
fn crypto_text(
    c: &parket::format::ColumnCryptoMetaData,
    cc: &parket::format::ColumnChunk,
) -> String {
    use parket::format::ColumnCryptoMetaData as C;
    match c {
        C::EncryptionWithFooterKey => "with the footer key".into(),
        C::EncryptionWithColumnKey(k) => {
            let id = match k.key_metadata.as_deref() {
                None => "no key_metadata".to_string(),
                Some(m)
                    if m.len() <= 64 && m.iter().all(|b| b.is_ascii_graphic() || *b == b' ') =>
                {
                    format!("key_metadata {:?}", String::from_utf8_lossy(m))
                }
                Some(m) => format!("{} bytes of key_metadata", m.len()),
            };
            format!(
                "with a column key ({id}){}",
                if cc.encrypted_column_metadata.is_some() {
                    "; its ColumnMetaData is encrypted with it"
                } else {
                    ""
                }
            )
        }
    }
}

/// How values of `kind` compare, in words.
fn order_words(kind: StatKind) -> &'static str {
    match kind {
        StatKind::Boolean => "false < true",
        StatKind::Int32 | StatKind::Int64 => "signed",
        StatKind::UInt32 | StatKind::UInt64 => "unsigned",
        StatKind::Float | StatKind::Double | StatKind::Float16 => "by value; NaN is never a bound",
        StatKind::Bytes => "unsigned byte-wise",
        StatKind::Decimal => "signed, by the decimal's value",
        StatKind::Int96 => "undefined for INT96: no min/max (INT96_TIMESTAMP_ORDER orders them)",
        StatKind::Undefined => "undefined: no min/max",
    }
}

/// Why a chunk with statistics shows no min/max.
fn why_no_min_max(
    schema: &Schema,
    j: usize,
    order: Option<&ColumnOrder>,
    st: &Statistics,
) -> &'static str {
    let Some(desc) = schema.column(j) else {
        return "the column is not in the schema";
    };
    let kind = StatKind::of_column(desc);
    let new = st.min_value.is_some() && st.max_value.is_some();
    let old = st.min.is_some() && st.max.is_some();
    if !new && !old {
        return "not written";
    }
    match order {
        Some(ColumnOrder::Unknown { .. }) => {
            return "the column order is one parket does not know, so the spec says to ignore them"
        }
        Some(ColumnOrder::Int96TimestampOrder) if kind != StatKind::Int96 => {
            return "INT96_TIMESTAMP_ORDER on a column that is not INT96"
        }
        Some(ColumnOrder::Ieee754TotalOrder)
            if !matches!(kind, StatKind::Float | StatKind::Double | StatKind::Float16) =>
        {
            return "IEEE_754_TOTAL_ORDER on a column that is not floating point"
        }
        _ => {}
    }
    if kind == StatKind::Int96 && order != Some(&ColumnOrder::Int96TimestampOrder) {
        return "INT96 has no defined sort order under TYPE_ORDER (the spec says to ignore its \
                min/max; INT96_TIMESTAMP_ORDER orders them)";
    }
    if kind == StatKind::Undefined {
        return "the column's type has no defined sort order (INT96 under TYPE_ORDER, INTERVAL, \
                VARIANT, GEOMETRY, GEOGRAPHY)";
    }
    if !new && !kind.legacy_min_max_valid() {
        return "only the deprecated min/max fields, computed in signed order, which is not this \
                column's order";
    }
    let bytes = if new {
        (st.min_value.as_deref(), st.max_value.as_deref())
    } else {
        (st.min.as_deref(), st.max.as_deref())
    };
    let (Some(lo), Some(hi)) = (
        bytes.0.and_then(|b| Scalar::from_plain(kind, b)),
        bytes.1.and_then(|b| Scalar::from_plain(kind, b)),
    ) else {
        return "the bytes do not decode as a value of this type (wrong length)";
    };
    let nan = |v: &Scalar| match v {
        Scalar::Float(x) => x.is_nan(),
        Scalar::Double(x) => x.is_nan(),
        Scalar::Bytes(b) if kind == StatKind::Float16 => match b.as_slice() {
            [a, b] => parket::record::logical::f16_to_f32(u16::from_le_bytes([*a, *b])).is_nan(),
            _ => false,
        },
        _ => false,
    };
    if nan(&lo) || nan(&hi) {
        return "a NaN bound: readers ignore it (under IEEE_754_TOTAL_ORDER it means every \
                non-null value is NaN)";
    }
    "they cannot be used"
}

/// The bounding box's fields that are set, in `BoundingBox` order.
fn bbox_fields(b: &BoundingBox) -> Vec<(&'static str, f64)> {
    let mut v = vec![
        ("xmin", b.xmin),
        ("xmax", b.xmax),
        ("ymin", b.ymin),
        ("ymax", b.ymax),
    ];
    let opt = [
        ("zmin", b.zmin),
        ("zmax", b.zmax),
        ("mmin", b.mmin),
        ("mmax", b.mmax),
    ];
    v.extend(opt.into_iter().filter_map(|(k, x)| Some((k, x?))));
    v
}

/// One line of a chunk's `GeospatialStatistics`, e.g. `bbox x 1..3, y -4..2 (x wraps the
/// antimeridian), types [1, 3]`.
fn geo_text(g: &GeospatialStatistics) -> String {
    let bbox = match &g.bbox {
        None => "no bbox".to_string(),
        Some(b) => {
            let f = bbox_fields(b);
            let mut parts: Vec<String> = f
                .chunks(2)
                .map(|p| format!("{} {}..{}", &p[0].0[..1], p[0].1, p[1].1))
                .collect();
            if b.xmin > b.xmax {
                parts.push("x wraps the antimeridian (xmin > xmax)".into());
            }
            format!("bbox {}", parts.join(", "))
        }
    };
    let types = match &g.geospatial_types {
        None => "types not set".to_string(),
        Some(t) if t.is_empty() => "types unknown (empty list)".to_string(),
        Some(t) => format!("types {t:?}"),
    };
    format!("{bbox}; {types}")
}

/// `{"bbox": {"xmin": .., ..} or null, "geospatial_types": [..] or null}`.
fn geo_json(out: &mut String, g: &GeospatialStatistics) {
    let mut o = Obj::new(out);
    match &g.bbox {
        None => o.raw("bbox", "null"),
        Some(b) => {
            let mut bo = Obj::new(o.key("bbox"));
            for (k, x) in bbox_fields(b) {
                push_f64(bo.key(k), x);
            }
            bo.end();
        }
    }
    o.opt_raw(
        "geospatial_types",
        g.geospatial_types
            .as_ref()
            .map(|t| format!("{t:?}").replace(' ', "")),
    );
    o.end();
}

/// The page index, Bloom filter and size statistics of one column chunk.
fn chunk_extras_text(s: &mut String, cc: &ColumnChunk, m: &ColumnMetaData) {
    let range = |o: Option<i64>, l: Option<i32>| match (o, l) {
        (Some(o), Some(l)) => format!("at {o} ({l} bytes)"),
        (Some(o), None) => format!("at {o} (length not set)"),
        _ => "none".into(),
    };
    let _ = writeln!(
        s,
        "      page index: column index {}, offset index {}",
        range(cc.column_index_offset, cc.column_index_length),
        range(cc.offset_index_offset, cc.offset_index_length)
    );
    if m.bloom_filter_offset.is_some() {
        let _ = writeln!(
            s,
            "      bloom filter: {}",
            range(m.bloom_filter_offset, m.bloom_filter_length)
        );
    }
    if let Some(z) = &m.size_statistics {
        let mut parts = Vec::new();
        if let Some(n) = z.unencoded_byte_array_data_bytes {
            parts.push(format!("unencoded byte-array data {n} bytes"));
        }
        if let Some(h) = &z.repetition_level_histogram {
            parts.push(format!("repetition level histogram {h:?}"));
        }
        if let Some(h) = &z.definition_level_histogram {
            parts.push(format!("definition level histogram {h:?}"));
        }
        if parts.is_empty() {
            parts.push("present, with no field set".into());
        }
        let _ = writeln!(s, "      size statistics: {}", parts.join(", "));
    }
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
    match md.column_orders.as_deref() {
        None => o.raw("column_orders", "null"),
        Some(orders) => {
            let out = o.key("column_orders");
            out.push('[');
            for (k, order) in orders.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                push_str(out, &order_name(order));
            }
            out.push(']');
        }
    }
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
                column_json(cols, schema, md.column_orders.as_deref(), j, cc);
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
    cc: &ColumnChunk,
) {
    let m = cc.meta_data.as_ref();
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
            so.opt_raw("nan_count", st.nan_count);
            let (min, max) = min_max_json(schema, j, orders, st);
            if min.is_none() || max.is_none() {
                let why = why_no_min_max(schema, j, orders.and_then(|o| o.get(j)), st);
                so.str("no_min_max_because", why);
            }
            so.raw("min", min.as_deref().unwrap_or("null"));
            so.raw("max", max.as_deref().unwrap_or("null"));
            so.end();
        }
    }
    match &m.geospatial_statistics {
        None => c.raw("geospatial_statistics", "null"),
        Some(g) => geo_json(c.key("geospatial_statistics"), g),
    }
    let range = |c: &mut Obj<'_>, k: &str, o: Option<i64>, l: Option<i32>| match o {
        None => c.raw(k, "null"),
        Some(o) => {
            let mut r = Obj::new(c.key(k));
            r.raw("offset", o);
            r.opt_raw("length", l);
            r.end();
        }
    };
    range(
        &mut c,
        "column_index",
        cc.column_index_offset,
        cc.column_index_length,
    );
    range(
        &mut c,
        "offset_index",
        cc.offset_index_offset,
        cc.offset_index_length,
    );
    range(
        &mut c,
        "bloom_filter",
        m.bloom_filter_offset,
        m.bloom_filter_length,
    );
    match &m.size_statistics {
        None => c.raw("size_statistics", "null"),
        Some(z) => {
            let mut zo = Obj::new(c.key("size_statistics"));
            zo.opt_raw(
                "unencoded_byte_array_data_bytes",
                z.unencoded_byte_array_data_bytes,
            );
            let list = |v: &Option<Vec<i64>>| v.as_ref().map(|h| format!("{h:?}").replace(' ', ""));
            zo.opt_raw(
                "repetition_level_histogram",
                list(&z.repetition_level_histogram),
            );
            zo.opt_raw(
                "definition_level_histogram",
                list(&z.definition_level_histogram),
            );
            zo.end();
        }
    }
    c.end();
}

/// The spec's name of a column order.
fn order_name(order: &ColumnOrder) -> String {
    match order {
        ColumnOrder::TypeOrder => "TYPE_ORDER".into(),
        ColumnOrder::Ieee754TotalOrder => "IEEE_754_TOTAL_ORDER".into(),
        ColumnOrder::Int96TimestampOrder => "INT96_TIMESTAMP_ORDER".into(),
        ColumnOrder::Unknown { field_id } => format!("unknown (union field {field_id})"),
    }
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
            Scalar::Bytes(b) => match <[u8; 12]>::try_from(b.as_slice()) {
                Ok(t) if kind == StatKind::Int96 => Value::Int96(t),
                _ => Value::Bytes(b.clone()),
            },
        };
        let mut out = String::new();
        crate::rows::leaf_to_json(&v, desc, &mut out).ok()?;
        Some(out)
    };
    (json(d.min.as_ref()), json(d.max.as_ref()))
}

//! parquet-testing `variant/`: every `<name>.metadata` + `<name>.value` pair decodes to what
//! `data_dictionary.json` says it holds, with the type its name says (`primitive_int8` is an
//! int8, ...).
//!
//! The dictionary was written from Spark's strings, so some of its forms need reading:
//! timestamps as `2025-04-16 12:34:56.78-04:00` (an instant with an offset) or without one
//! (local time), the time of day as `12:33:54:123456`, decimals as JSON numbers (decimal16 as
//! a double rounded to 17 digits), binary as base64. The comparison below reads each form into
//! the value's own units and compares exactly, except for that double.

use parket::record::logical::{base64_encode, days_from_civil, decimal_to_string, uuid_to_string};
use parket::variant::{Metadata, Primitive, Variant, VariantValue, MAX_DEPTH};
use serde_json::Value as Json;

fn dir() -> std::path::PathBuf {
    parket::testing::corpus_dir().join("variant")
}

/// Reads `YYYY-MM-DD[ T]HH:MM:SS[.:]fraction[+-HH:MM]` into units of 10^-`digits` s since the
/// epoch (the offset subtracted), or only `HH:MM:SS...` into units since midnight.
fn parse_instant(text: &str, digits: u32) -> i64 {
    let (days, rest) = if text.len() >= 10 && text.as_bytes()[4] == b'-' {
        let (y, m, d) = (&text[0..4], &text[5..7], &text[8..10]);
        let days = days_from_civil(y.parse().unwrap(), m.parse().unwrap(), d.parse().unwrap());
        (days, text[10..].trim_start_matches([' ', 'T']))
    } else {
        (0, text)
    };
    let (clock, offset_min) = match rest.rfind(['+', '-']) {
        Some(i) => {
            let (h, m) = rest[i + 1..].split_once(':').unwrap();
            let sign = if rest.as_bytes()[i] == b'-' { -1 } else { 1 };
            (
                &rest[..i],
                sign * (h.parse::<i64>().unwrap() * 60 + m.parse::<i64>().unwrap()),
            )
        }
        None => (rest, 0),
    };
    let parts: Vec<&str> = clock.split([':', '.']).collect();
    let (h, m, s): (i64, i64, i64) = (
        parts[0].parse().unwrap(),
        parts[1].parse().unwrap(),
        parts[2].parse().unwrap(),
    );
    let mut frac = parts.get(3).copied().unwrap_or("").to_string();
    assert!(frac.len() <= digits as usize, "{text}");
    while frac.len() < digits as usize {
        frac.push('0');
    }
    let frac: i64 = if frac.is_empty() {
        0
    } else {
        frac.parse().unwrap()
    };
    let unit = 10i64.pow(digits);
    ((days * 86400 + h * 3600 + m * 60 + s) - offset_min * 60) * unit + frac
}

fn text(j: &Json) -> &str {
    j.as_str()
        .unwrap_or_else(|| panic!("expected a string, the dictionary has {j}"))
}

/// Asserts that `v` is what the dictionary's `j` says.
fn check(path: &str, v: &VariantValue, j: &Json) {
    match (v, j) {
        (VariantValue::Object(fields), Json::Object(want)) => {
            let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
            let mut want_names: Vec<&str> = want.keys().map(|k| k.as_str()).collect();
            want_names.sort_unstable();
            assert_eq!(names, want_names, "{path}: field names");
            for (n, fv) in fields {
                check(&format!("{path}.{n}"), fv, &want[n.as_str()]);
            }
        }
        (VariantValue::Array(items), Json::Array(want)) => {
            assert_eq!(items.len(), want.len(), "{path}: length");
            for (i, (x, w)) in items.iter().zip(want).enumerate() {
                check(&format!("{path}[{i}]"), x, w);
            }
        }
        (VariantValue::Primitive(p), j) => check_primitive(path, p, j),
        _ => panic!("{path}: {v:?} is not {j}"),
    }
}

fn check_primitive(path: &str, p: &Primitive<'_>, j: &Json) {
    let int = |x: i64| assert_eq!(j.as_i64(), Some(x), "{path}");
    match p {
        Primitive::Null => assert!(j.is_null(), "{path}: null vs {j}"),
        Primitive::Boolean(b) => assert_eq!(j.as_bool(), Some(*b), "{path}"),
        Primitive::Int8(x) => int((*x).into()),
        Primitive::Int16(x) => int((*x).into()),
        Primitive::Int32(x) => int((*x).into()),
        Primitive::Int64(x) => int(*x),
        Primitive::Double(x) => assert_eq!(j.as_f64(), Some(*x), "{path}"),
        Primitive::Float(x) => assert_eq!(j.as_f64().map(|f| f as f32), Some(*x), "{path}"),
        Primitive::Decimal4 { unscaled, scale } => {
            decimal(path, &unscaled.to_be_bytes(), *scale, j)
        }
        Primitive::Decimal8 { unscaled, scale } => {
            decimal(path, &unscaled.to_be_bytes(), *scale, j)
        }
        Primitive::Decimal16 { unscaled, scale } => {
            decimal(path, &unscaled.to_be_bytes(), *scale, j)
        }
        Primitive::Date(d) => {
            assert_eq!(
                parse_instant(&format!("{} 00:00:00", text(j)), 0),
                i64::from(*d) * 86400,
                "{path}"
            )
        }
        Primitive::Timestamp(x) | Primitive::TimestampNtz(x) | Primitive::TimeNtz(x) => {
            assert_eq!(parse_instant(text(j), 6), *x, "{path}: {j}")
        }
        Primitive::TimestampNanos(x) | Primitive::TimestampNtzNanos(x) => {
            assert_eq!(parse_instant(text(j), 9), *x, "{path}: {j}")
        }
        Primitive::Binary(b) => assert_eq!(text(j), base64_encode(b), "{path}"),
        Primitive::String(s) => assert_eq!(text(j), s, "{path}"),
        Primitive::Uuid(u) => assert_eq!(text(j), uuid_to_string(u).unwrap(), "{path}"),
    }
}

/// A decimal against a JSON number: exactly from its text, or (for the one the dictionary
/// rounded to a double) as the nearest double.
fn decimal(path: &str, unscaled_be: &[u8], scale: u8, j: &Json) {
    let ours = decimal_to_string(unscaled_be, scale.into()).unwrap();
    let theirs = j.to_string();
    if theirs.contains('e') {
        assert_eq!(
            ours.parse::<f64>().unwrap(),
            j.as_f64().unwrap(),
            "{path}: {ours} vs {theirs}"
        );
    } else {
        // The same number: trailing zeros after the point do not count (12345678.90 = .9).
        let norm = |t: &str| -> String {
            if t.contains('.') {
                t.trim_end_matches('0').trim_end_matches('.').into()
            } else {
                t.into()
            }
        };
        assert_eq!(norm(&ours), norm(&theirs), "{path}");
    }
}

/// The type each primitive file's name promises.
fn type_of(p: &Primitive<'_>) -> &'static str {
    match p {
        Primitive::Null => "null",
        Primitive::Boolean(true) => "boolean_true",
        Primitive::Boolean(false) => "boolean_false",
        Primitive::Int8(_) => "int8",
        Primitive::Int16(_) => "int16",
        Primitive::Int32(_) => "int32",
        Primitive::Int64(_) => "int64",
        Primitive::Double(_) => "double",
        Primitive::Float(_) => "float",
        Primitive::Decimal4 { .. } => "decimal4",
        Primitive::Decimal8 { .. } => "decimal8",
        Primitive::Decimal16 { .. } => "decimal16",
        Primitive::Date(_) => "date",
        Primitive::Timestamp(_) => "timestamp",
        Primitive::TimestampNtz(_) => "timestampntz",
        Primitive::TimeNtz(_) => "time",
        Primitive::TimestampNanos(_) => "timestamp_nanos",
        Primitive::TimestampNtzNanos(_) => "timestampntz_nanos",
        Primitive::Binary(_) => "binary",
        Primitive::String(_) => "string",
        Primitive::Uuid(_) => "uuid",
    }
}

#[test]
fn every_value_decodes_to_what_the_data_dictionary_says() {
    let text = std::fs::read_to_string(dir().join("data_dictionary.json")).unwrap();
    // The file ends `..."short_string": "...",\n}`: a trailing comma that JSON forbids.
    let fixed = text
        .trim_end()
        .trim_end_matches('}')
        .trim_end()
        .trim_end_matches(',');
    let dict: serde_json::Map<String, Json> = serde_json::from_str(&format!("{fixed}}}")).unwrap();

    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "value").then(|| p.file_stem().unwrap().to_string_lossy().into())
        })
        .collect();
    names.sort();
    let mut checked = 0;
    for key in dict.keys() {
        assert!(
            names.contains(key),
            "{key}: in data_dictionary.json, but no file"
        );
    }
    for name in &names {
        let metadata = std::fs::read(dir().join(format!("{name}.metadata"))).unwrap();
        let value = std::fs::read(dir().join(format!("{name}.value"))).unwrap();
        let m = Metadata::decode(&metadata).unwrap_or_else(|e| panic!("{name}.metadata: {e}"));
        assert_eq!(m.encoded_len(), metadata.len(), "{name}.metadata");
        let v = Variant::decode(m, &value).unwrap_or_else(|e| panic!("{name}.value: {e}"));
        v.validate(MAX_DEPTH)
            .unwrap_or_else(|e| panic!("{name}.value: {e}"));
        let owned = VariantValue::from_variant(&v, MAX_DEPTH).unwrap();
        // long_string is the one value the dictionary does not list: it holds a string.
        let key = if name == "long_string" {
            "primitive_string"
        } else {
            name.as_str()
        };
        let Some(want) = dict.get(key) else {
            panic!("{name}: not in data_dictionary.json")
        };
        if name != "long_string" {
            check(name, &owned, want);
        } else {
            let VariantValue::Primitive(Primitive::String(s)) = &owned else {
                panic!("{name}")
            };
            assert!(s.len() > 63, "{name}: a long (not short) string");
        }
        if let Some(ty) = name.strip_prefix("primitive_") {
            let VariantValue::Primitive(p) = &owned else {
                panic!("{name}: not a primitive")
            };
            let ty = if ty == "string" { "string" } else { ty };
            assert_eq!(type_of(p), ty, "{name}");
        }
        if name == "short_string" {
            assert_eq!(value[0] & 0x03, 1, "{name}: basic type short string");
        }
        checked += 1;
    }
    println!("checked {checked} variant values against data_dictionary.json");
    assert_eq!(checked, 29, "every .value file");
    assert_eq!(dict.len(), 28, "every dictionary entry has a file");
}

//! The Rust codec against our IDL transcription, field by field.
//!
//! `thrift/parquet.thrift` is parsed here (a small parser for the subset it uses); every
//! struct and union of it must have a codec in `parket::format` and vice versa, with the same
//! field ids, names (snake_case of the IDL's; `type_` for `type`; union members verbatim),
//! types (`<RustType as ThriftType>::TY`, i.e. what the decoder really reads) and requiredness.
//! Every enum's numbers and spellings must match too.

use std::collections::BTreeMap;

use parket::thrift::{FieldDef, Ty};

#[derive(Debug, Clone, PartialEq)]
struct IdlField {
    id: i16,
    required: bool,
    ty: String,
    name: String,
}

#[derive(Debug, Default)]
struct Idl {
    structs: BTreeMap<String, (bool, Vec<IdlField>)>,
    enums: BTreeMap<String, Vec<(i32, String)>>,
}

fn parse_idl(text: &str) -> Idl {
    let text: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let mut idl = Idl::default();
    let mut rest = text.as_str();
    while let Some(open) = rest.find('{') {
        let head: Vec<&str> = rest[..open].split_whitespace().collect();
        let close = open + rest[open..].find('}').expect("unclosed block");
        let body = &rest[open + 1..close];
        rest = &rest[close + 1..];
        let (kind, name) = (head[head.len() - 2], head[head.len() - 1].to_string());
        match kind {
            "enum" => {
                let values = body
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        let (n, v) = s.split_once('=').expect("enum value");
                        (v.trim().parse().unwrap(), n.trim().to_string())
                    })
                    .collect();
                idl.enums.insert(name, values);
            }
            "struct" | "union" => {
                let mut fields = Vec::new();
                for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    let line = line.trim_end_matches(';');
                    let line = line.split('=').next().unwrap().trim(); // drop defaults
                    let (id, decl) = line.split_once(':').expect("field id");
                    let mut words: Vec<&str> = decl.split_whitespace().collect();
                    let required = match words[0] {
                        "required" => {
                            words.remove(0);
                            true
                        }
                        "optional" => {
                            words.remove(0);
                            false
                        }
                        _ => false,
                    };
                    assert_eq!(words.len(), 2, "cannot parse field {line:?} of {name}");
                    let ty = if words[0] == "byte" { "i8" } else { words[0] };
                    fields.push(IdlField {
                        id: id.trim().parse().unwrap(),
                        required,
                        ty: ty.to_string(),
                        name: words[1].to_string(),
                    });
                }
                idl.structs.insert(name, (kind == "union", fields));
            }
            other => panic!("unexpected {other} {name}"),
        }
    }
    idl
}

/// snake_case of an IDL field name: `logicalType` -> `logical_type`,
/// `isAdjustedToUTC` -> `is_adjusted_to_utc`, `type` -> `type_`.
fn snake_case(name: &str) -> String {
    if name == "type" {
        return "type_".into();
    }
    let c: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &ch) in c.iter().enumerate() {
        if ch.is_ascii_uppercase() {
            let prev_lower = i > 0 && (c[i - 1].is_ascii_lowercase() || c[i - 1].is_ascii_digit());
            let acronym_end = i > 0
                && c[i - 1].is_ascii_uppercase()
                && c.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev_lower || acronym_end {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn rust_fields(is_union: bool, fields: &[FieldDef]) -> Vec<IdlField> {
    fields
        .iter()
        .map(|f| IdlField {
            id: f.id,
            required: f.required,
            ty: f.ty.to_string(),
            name: f.name.to_string(),
        })
        .map(|mut f| {
            if is_union {
                f.required = false;
            }
            f
        })
        .collect()
}

/// Every disagreement between the codec's tables and the IDL.
fn check(
    idl: &Idl,
    structs: &[(&'static str, bool, &'static [FieldDef])],
    enums: &[(&'static str, Vec<(i32, &'static str)>)],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for &(name, is_union, fields) in structs {
        seen.insert(name.to_string());
        let Some((idl_union, idl_fields)) = idl.structs.get(name) else {
            problems.push(format!("{name}: in the codec but not in the IDL"));
            continue;
        };
        if *idl_union != is_union {
            problems.push(format!("{name}: union in one, struct in the other"));
        }
        let mut last = 0;
        for f in fields {
            if f.id <= last {
                problems.push(format!(
                    "{name}: field ids not strictly increasing at {}",
                    f.id
                ));
            }
            last = f.id;
        }
        let ours = rust_fields(is_union, fields);
        for f in idl_fields {
            let expected_name = if is_union {
                f.name.clone()
            } else {
                snake_case(&f.name)
            };
            match ours.iter().find(|o| o.id == f.id) {
                None => problems.push(format!(
                    "{name}.{}: field {} not in the codec",
                    f.name, f.id
                )),
                Some(o) => {
                    if o.name != expected_name {
                        problems.push(format!(
                            "{name} field {}: codec names it {}, IDL {} (expected {expected_name})",
                            f.id, o.name, f.name
                        ));
                    }
                    if o.ty != f.ty {
                        problems.push(format!(
                            "{name}.{}: codec reads {}, IDL says {}",
                            f.name, o.ty, f.ty
                        ));
                    }
                    if o.required != f.required {
                        problems.push(format!("{name}.{}: requiredness differs", f.name));
                    }
                }
            }
        }
        for o in &ours {
            if !idl_fields.iter().any(|f| f.id == o.id) {
                problems.push(format!(
                    "{name}: codec field {} ({}) not in the IDL",
                    o.id, o.name
                ));
            }
        }
    }
    for name in idl.structs.keys() {
        if !seen.contains(name) {
            problems.push(format!("{name}: in the IDL but has no codec"));
        }
    }
    let mut seen_enums = std::collections::BTreeSet::new();
    for (name, values) in enums {
        seen_enums.insert(name.to_string());
        match idl.enums.get(*name) {
            None => problems.push(format!("enum {name}: not in the IDL")),
            Some(idl_values) => {
                let ours: Vec<(i32, String)> =
                    values.iter().map(|&(v, n)| (v, n.to_string())).collect();
                if &ours != idl_values {
                    problems.push(format!("enum {name}: codec {ours:?}, IDL {idl_values:?}"));
                }
            }
        }
    }
    for name in idl.enums.keys() {
        if !seen_enums.contains(name) {
            problems.push(format!("enum {name}: in the IDL but not in the crate"));
        }
    }
    problems
}

fn load() -> Idl {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/thrift/parquet.thrift");
    parse_idl(&std::fs::read_to_string(path).expect("thrift/parquet.thrift"))
}

#[test]
fn codec_matches_idl() {
    let idl = load();
    assert!(
        idl.structs.len() > 50,
        "parsed only {} structs",
        idl.structs.len()
    );
    let problems = check(
        &idl,
        &parket::format::idl_structs(),
        &parket::format::idl_enums(),
    );
    assert!(
        problems.is_empty(),
        "codec and IDL disagree:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_can_fail() {
    // Reading ColumnMetaData field 5 (num_values) as i32 where the IDL says i64 is caught.
    let idl = load();
    let mut structs = parket::format::idl_structs();
    let (_, _, fields) = structs
        .iter_mut()
        .find(|s| s.0 == "ColumnMetaData")
        .unwrap();
    let mut tampered: Vec<FieldDef> = fields.to_vec();
    tampered.iter_mut().find(|f| f.id == 5).unwrap().ty = Ty::I32;
    let leaked: &'static [FieldDef] = Box::leak(tampered.into_boxed_slice());
    structs
        .iter_mut()
        .find(|s| s.0 == "ColumnMetaData")
        .unwrap()
        .2 = leaked;
    let problems = check(&idl, &structs, &parket::format::idl_enums());
    assert_eq!(
        problems,
        ["ColumnMetaData.num_values: codec reads i32, IDL says i64"]
    );
    // A missing enum value is caught too.
    let mut enums = parket::format::idl_enums();
    enums
        .iter_mut()
        .find(|e| e.0 == "Encoding")
        .unwrap()
        .1
        .pop();
    assert_eq!(check(&idl, &parket::format::idl_structs(), &enums).len(), 1);
}

#[test]
fn snake_case_of_idl_names() {
    assert_eq!(snake_case("isAdjustedToUTC"), "is_adjusted_to_utc");
    assert_eq!(snake_case("logicalType"), "logical_type");
    assert_eq!(snake_case("numBytes"), "num_bytes");
    assert_eq!(snake_case("type"), "type_");
    assert_eq!(snake_case("path_in_schema"), "path_in_schema");
}

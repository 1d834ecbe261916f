//! How each schema node turns into a record value: the LIST and MAP shapes, legacy forms
//! included, decided once per schema (shared by assembly and shredding).
//!
//! Spec (LogicalTypes.md, LIST, "Backward-compatibility rules", five rules since
//! apache/parquet-format#466, Dec 2024): for a LIST-annotated group whose only child is
//! repeated,
//!
//! 1. if the repeated field is not a group, its type is the element type (2-level);
//! 2. if it is a group with more than one field, it is the element type (2-level);
//! 3. if it is a group with one field and that field is `repeated`, it is the element type
//!    (2-level): `repeated group foo { repeated int32 bar; }` has element `foo`, a group
//!    holding a list of int32;
//! 4. if it is a group with one field and is named `array` or `<list-name>_tuple`, it is the
//!    element type (2-level);
//! 5. otherwise it is the 3-level `list` wrapper and its only field is the element.
//!
//! Spec-note 16 (`spec-notes/16-list-map-compat.md`) works an example of each rule.
//!
//! MAP (and the legacy MAP_KEY_VALUE on the outer group) holds one repeated group of one or two
//! fields: the key, then the value (absent for a set of keys). A repeated group annotated
//! MAP_KEY_VALUE outside a MAP group is read as a map too. A LIST or MAP annotation on a group
//! of any other structure does not fit and is ignored: the group reads as a plain group.

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::{ConvertedType, FieldRepetitionType, LogicalType};
use crate::schema::{Node, NodeKind, Schema};

/// Deepest schema the record code walks (it recurses once per nesting level).
pub const MAX_DEPTH: usize = 512;

/// What a node's (non-repeated) value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A leaf: its column.
    Leaf(usize),
    /// A plain group.
    Group,
    /// A LIST group. `repeated` is its repeated child; `three_level` says whether the element
    /// is that child's only field (3-level) or the repeated child itself (2-level).
    List {
        /// Node index of the repeated child.
        repeated: usize,
        /// Whether the element is the repeated child's only field.
        three_level: bool,
    },
    /// A MAP group: `repeated` is the key/value group.
    Map {
        /// Node index of the repeated key/value group.
        repeated: usize,
    },
    /// A repeated MAP_KEY_VALUE group outside a MAP: the node is itself the key/value group,
    /// and its repetitions are the map's entries.
    KeyValue,
}

/// Whether a node carries a MAP annotation (the logical type or either converted type).
pub fn is_map_annotated(node: &Node) -> bool {
    matches!(node.logical_type, Some(LogicalType::Map))
        || matches!(
            node.converted_type,
            Some(ConvertedType::Map | ConvertedType::MapKeyValue)
        )
}

fn is_list_annotated(node: &Node) -> bool {
    matches!(node.logical_type, Some(LogicalType::List))
        || matches!(node.converted_type, Some(ConvertedType::List))
}

fn is_key_value_group(node: &Node) -> bool {
    node.repetition == FieldRepetitionType::Repeated
        && node.is_group()
        && (1..=2).contains(&node.children().len())
}

/// The shape of node `i` of `schema`.
pub fn shape_of(schema: &Schema, i: usize) -> Shape {
    let nodes = schema.nodes();
    let Some(node) = nodes.get(i) else {
        return Shape::Group;
    };
    if let NodeKind::Primitive { column, .. } = node.kind {
        return Shape::Leaf(column);
    }
    let only_child = match node.children() {
        [c] => nodes.get(*c).map(|n| (*c, n)),
        _ => None,
    };
    if i != 0 && is_list_annotated(node) {
        if let Some((r, rep)) = only_child {
            if rep.repetition == FieldRepetitionType::Repeated {
                // Spec: the backward-compatibility rules 1 to 5 above.
                let two_level = match rep.children() {
                    // Rule 3: a repeated field cannot be a 3-level element.
                    [only] => {
                        nodes
                            .get(*only)
                            .is_some_and(|f| f.repetition == FieldRepetitionType::Repeated)
                            || rep.name == "array"
                            || (rep.name.len() == node.name.len() + 6
                                && rep.name.starts_with(node.name.as_str())
                                && rep.name.ends_with("_tuple"))
                    }
                    _ => true,
                };
                return Shape::List {
                    repeated: r,
                    three_level: !two_level,
                };
            }
        }
    }
    if i != 0 && is_map_annotated(node) && node.repetition != FieldRepetitionType::Repeated {
        if let Some((r, kv)) = only_child {
            if is_key_value_group(kv) {
                return Shape::Map { repeated: r };
            }
        }
    }
    if node.converted_type == Some(ConvertedType::MapKeyValue) && is_key_value_group(node) {
        return Shape::KeyValue;
    }
    Shape::Group
}

/// Every node's shape, and a check that the tree is shallow enough to recurse over.
pub fn shapes(schema: &Schema) -> Result<Vec<Shape>> {
    let mut depth: Vec<usize> = Vec::with_capacity(schema.nodes().len());
    for (i, n) in schema.nodes().iter().enumerate() {
        // Nodes are depth-first: a parent precedes its children.
        let d = n.parent.and_then(|p| depth.get(p)).map_or(0, |d| d + 1);
        if d > MAX_DEPTH {
            return Err(
                Error::limit("record nesting depth", d as u64, MAX_DEPTH as u64)
                    .in_column(&schema.node_path_string(i)),
            );
        }
        depth.push(d);
    }
    Ok((0..schema.nodes().len())
        .map(|i| shape_of(schema, i))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{assemble, shred};
    use crate::record::Value;
    use crate::values::{LeafData, Values};
    use alloc::vec;

    /// The shape of the LIST group `a` (`my_list`) of `message`.
    fn list_shape(message: &str, name: &str) -> Shape {
        let s = Schema::parse(message).unwrap();
        shape_of(&s, s.node_index(name).unwrap())
    }

    fn two_level(message: &str) -> bool {
        match list_shape(message, "my_list") {
            Shape::List { three_level, .. } => !three_level,
            other => panic!("not a list: {other:?}"),
        }
    }

    #[test]
    fn the_five_backward_compatibility_rules() {
        // The spec's examples (LogicalTypes.md, LIST, "Backward-compatibility rules").
        let m = |body: &str| {
            alloc::format!("message m {{ optional group my_list (LIST) {{ {body} }} }}")
        };
        // Rule 1: a primitive repeated field is the element.
        assert!(two_level(&m("repeated int32 element;")));
        // Rule 2: a repeated group of several fields is the element.
        assert!(two_level(&m(
            "repeated group element { required binary str (STRING); required int32 num; }"
        )));
        // Rule 3: a repeated group whose one field is repeated is the element (the spec's
        // example also has the name `array`; `foo` / `bar` is rule 3 alone).
        assert!(two_level(&m(
            "repeated group array (LIST) { repeated int32 array; }"
        )));
        assert!(two_level(&m("repeated group foo { repeated int32 bar; }")));
        // Rule 4: one field, and named `array` or `<list-name>_tuple`.
        assert!(two_level(&m(
            "repeated group array { required binary str (STRING); }"
        )));
        assert!(two_level(&m(
            "repeated group my_list_tuple { required binary str (STRING); }"
        )));
        // Not rule 4: `<other-name>_tuple`.
        assert!(!two_level(&m(
            "repeated group other_tuple { required binary str (STRING); }"
        )));
        // Rule 5: otherwise the one field is the element, with its own repetition.
        assert!(!two_level(&m(
            "repeated group element { optional binary str (STRING); }"
        )));
        assert!(!two_level(&m(
            "repeated group list { required binary str (STRING); }"
        )));
    }

    /// Assembles one int32 column and checks that shredding gives its levels back.
    fn records(message: &str, def: &[u16], rep: &[u16], values: &[i32]) -> Vec<Value> {
        let s = Schema::parse(message).unwrap();
        let leaf = LeafData {
            def_levels: def.to_vec(),
            rep_levels: rep.to_vec(),
            values: Values::Int32(values.to_vec()),
        };
        let got = assemble(&s, core::slice::from_ref(&leaf)).unwrap();
        assert_eq!(shred(&s, &got).unwrap(), [leaf]);
        got
    }

    fn ints(v: &[i32]) -> Value {
        Value::List(v.iter().map(|&x| Value::Int32(x)).collect())
    }

    #[test]
    fn records_read_through_each_rule() {
        let row = |v: Value| Value::Group(vec![v]);
        // Rule 3, the spec's example: a list of lists of int32. [[1, 2], []], then null.
        let got = records(
            "message m { optional group my_list (LIST) { \
             repeated group array (LIST) { repeated int32 array; } } }",
            &[3, 3, 2, 0],
            &[0, 2, 1, 0],
            &[1, 2],
        );
        assert_eq!(
            got,
            [
                row(Value::List(vec![ints(&[1, 2]), ints(&[])])),
                row(Value::Null)
            ]
        );
        // Rule 3 alone: the element `foo` is a group holding the list `bar`.
        let got = records(
            "message m { optional group my_list (LIST) { \
             repeated group foo { repeated int32 bar; } } }",
            &[3, 3, 2, 1],
            &[0, 2, 1, 0],
            &[1, 2],
        );
        let foo = |v: &[i32]| Value::Group(vec![ints(v)]);
        assert_eq!(
            got,
            [
                row(Value::List(vec![foo(&[1, 2]), foo(&[])])),
                row(Value::List(vec![]))
            ]
        );
        // Rule 4: a one-tuple per element. [{x: 1}, {x: 2}].
        let got = records(
            "message m { optional group my_list (LIST) { \
             repeated group my_list_tuple { required int32 x; } } }",
            &[2, 2],
            &[0, 1],
            &[1, 2],
        );
        let x = |v: i32| Value::Group(vec![Value::Int32(v)]);
        assert_eq!(got, [row(Value::List(vec![x(1), x(2)]))]);
        // Rule 5: the one field is the element, nullable. [1, null].
        let got = records(
            "message m { optional group my_list (LIST) { \
             repeated group element { optional int32 x; } } }",
            &[3, 2],
            &[0, 1],
            &[1],
        );
        assert_eq!(got, [row(Value::List(vec![Value::Int32(1), Value::Null]))]);
    }
}

//! How each schema node turns into a record value: the LIST and MAP shapes, legacy forms
//! included, decided once per schema (shared by assembly and shredding).
//!
//! Spec (LogicalTypes.md, LIST, "Backward-compatibility rules"): for a LIST-annotated group
//! whose only child is repeated,
//!
//! 1. if the repeated field is not a group, its type is the element type (2-level);
//! 2. if it is a group with more than one field, it is the element type (2-level);
//! 3. if it is a group with one field named `array` or `<list-name>_tuple`, it is the element
//!    type (2-level);
//! 4. otherwise it is the 3-level `list` wrapper and its only field is the element.
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
                // Spec: the backward-compatibility rules 1 to 4 above.
                let two_level = match rep.children() {
                    [_] => {
                        rep.name == "array"
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

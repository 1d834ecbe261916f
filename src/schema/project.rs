//! Projection: a schema that keeps only some columns, for reading a subset of a file.
//!
//! A selected path is a dotted leaf or group path as [`Schema::node_index`] spells it
//! (`tags.list.element`, `user`); a group selects every leaf below it. Every group on the way
//! to a selected node is kept with only its selected children, in schema order whatever the
//! order of the paths. Two shapes are kept whole so that records keep their meaning:
//!
//! - a MAP (or MAP_KEY_VALUE) group: a key without its value, or a value without its key, is
//!   not a map any more; a selection inside a map selects the outermost map around it;
//! - the repeated group of a legacy 2-level LIST that has more than one field: with fewer
//!   fields the backward-compatibility rules would read its only field as the element.
//!
//! ```text
//! message m {                                  m.project(["b.y", "a"]) ->
//!   required int32 a;             column 0     message m {
//!   optional group b {                           required int32 a;
//!     optional int32 x;           column 1       optional group b {
//!     optional int32 y;           column 2         optional int32 y;
//!   }                                            }
//! }                                            }                       columns [0, 2]
//! ```
//!
//! ```
//! use parket::schema::Schema;
//! let schema = Schema::parse(
//!     "message m { required int32 a; optional group b { optional int32 x; optional int32 y; } }",
//! )?;
//! let (projected, columns) = schema.project(&["b.y", "a"])?;
//! assert_eq!(
//!     projected,
//!     Schema::parse("message m { required int32 a; optional group b { optional int32 y; } }")?
//! );
//! assert_eq!(columns, [0, 2]);
//! assert!(schema.project(&["b.z"]).unwrap_err().to_string().contains("b.z"));
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::format;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::format::{ConvertedType, FieldRepetitionType, LogicalType};
use crate::limits::Limits;
use crate::schema::{Node, NodeKind, Schema};

fn is_map(node: &Node) -> bool {
    node.is_group()
        && (matches!(node.logical_type, Some(LogicalType::Map))
            || matches!(
                node.converted_type,
                Some(ConvertedType::Map | ConvertedType::MapKeyValue)
            ))
}

fn is_list(node: &Node) -> bool {
    matches!(node.logical_type, Some(LogicalType::List))
        || matches!(node.converted_type, Some(ConvertedType::List))
}

impl Schema {
    /// A schema keeping only the nodes selected by `paths` (see the module documentation),
    /// and the indices in `self.columns()` of the leaf columns it keeps, in order. Assembling
    /// those columns with the new schema gives the projected records.
    ///
    /// Errors: a path that names no node ([`Error::invalid_argument`] naming it).
    pub fn project(&self, paths: &[&str]) -> Result<(Schema, Vec<usize>)> {
        let nodes = self.nodes();
        let mut keep = alloc::vec![false; nodes.len()];
        if let Some(k) = keep.first_mut() {
            *k = true;
        }
        for path in paths {
            let Some(mut sel) = self.node_index(path) else {
                return Err(Error::invalid_argument(format!(
                    "unknown column {path:?}: no field has this path"
                )));
            };
            // Widen to the outermost shape that must stay whole.
            let mut at = sel;
            while let Some(node) = nodes.get(at) {
                let Some(parent) = node.parent else { break };
                let parent_node = &nodes[parent];
                let two_level_record = node.repetition == FieldRepetitionType::Repeated
                    && node.children().len() > 1
                    && is_list(parent_node)
                    && parent_node.children().len() == 1;
                if at != sel && is_map(node) || two_level_record {
                    sel = at;
                }
                at = parent;
            }
            // The subtree of `sel`, and its ancestors.
            let mut stack = alloc::vec![sel];
            while let Some(i) = stack.pop() {
                if let Some(k) = keep.get_mut(i) {
                    *k = true;
                }
                if let Some(n) = nodes.get(i) {
                    stack.extend_from_slice(n.children());
                }
            }
            let mut up = nodes.get(sel).and_then(|n| n.parent);
            while let Some(p) = up {
                if let Some(k) = keep.get_mut(p) {
                    *k = true;
                }
                up = nodes.get(p).and_then(|n| n.parent);
            }
        }
        let mut elements = self.to_elements();
        let mut kept = Vec::new();
        let mut columns = Vec::new();
        for (i, (mut e, node)) in elements.drain(..).zip(nodes).enumerate() {
            if !keep.get(i).copied().unwrap_or(false) {
                continue;
            }
            match &node.kind {
                NodeKind::Group { children } => {
                    let n = children
                        .iter()
                        .filter(|&&c| keep.get(c).copied().unwrap_or(false))
                        .count();
                    e.num_children = Some(i32::try_from(n).unwrap_or(i32::MAX));
                }
                NodeKind::Primitive { column, .. } => columns.push(*column),
            }
            kept.push(e);
        }
        // The tree is a part of one that was valid: no limit of a reader applies again.
        let limits = Limits {
            metadata_bytes: u64::MAX,
            nesting_depth: u32::MAX,
            ..Limits::default()
        };
        let schema = Schema::from_elements_with_limits(&kept, &limits)?;
        Ok((schema, columns))
    }
}

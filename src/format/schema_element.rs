//! `SchemaElement`: one node of the schema, as the footer stores it (a flat, depth-first list).

use alloc::string::String;

use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, PhysicalType};

/// One node of the flattened schema tree (Thrift struct `SchemaElement`).
///
/// Leaves have `type_`; groups have `num_children`. The first element is the root.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SchemaElement {
    /// 1: physical type; set for leaves only.
    pub type_: Option<PhysicalType>,
    /// 2: byte length of FIXED_LEN_BYTE_ARRAY values.
    pub type_length: Option<i32>,
    /// 3: repetition; absent on the root.
    pub repetition_type: Option<FieldRepetitionType>,
    /// 4: name.
    pub name: String,
    /// 5: number of children; set for groups only.
    pub num_children: Option<i32>,
    /// 6: deprecated annotation.
    pub converted_type: Option<ConvertedType>,
    /// 7: DECIMAL scale (deprecated copy of the logical type's).
    pub scale: Option<i32>,
    /// 8: DECIMAL precision (deprecated copy of the logical type's).
    pub precision: Option<i32>,
    /// 9: field id from the writer's schema.
    pub field_id: Option<i32>,
    /// 10: logical type.
    pub logical_type: Option<LogicalType>,
}

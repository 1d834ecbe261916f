//! `SchemaElement`: one node of the schema, as the footer stores it (a flat, depth-first list).
//!
//! Spec: parquet.thrift, `struct SchemaElement`:
//!
//! ```text
//! 1: optional Type type   2: optional i32 type_length   3: optional FieldRepetitionType repetition_type
//! 4: required string name 5: optional i32 num_children  6: optional ConvertedType converted_type
//! 7: optional i32 scale   8: optional i32 precision     9: optional i32 field_id
//! 10: optional LogicalType logicalType
//! ```
//!
//! Worked example, `optional int64 id`:
//!
//! ```text
//! 15 04        field 1 (delta 1), I32: type = INT64 (2), zigzag 4
//! 25 02        field 3 (delta 2), I32: repetition_type = OPTIONAL (1), zigzag 2
//! 18 02 69 64  field 4 (delta 1), BINARY: name, length 2, "id"
//! 00           stop
//! ```
//!
//! ```
//! use parket::format::{FieldRepetitionType, PhysicalType, SchemaElement};
//! let e = SchemaElement {
//!     type_: Some(PhysicalType::Int64),
//!     repetition_type: Some(FieldRepetitionType::Optional),
//!     name: "id".into(),
//!     ..Default::default()
//! };
//! let mut out = Vec::new();
//! e.encode(&mut out);
//! assert_eq!(out, [0x15, 0x04, 0x25, 0x02, 0x18, 0x02, b'i', b'd', 0x00]);
//! ```

use alloc::string::String;

use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, PhysicalType};
use crate::thrift::thrift_struct;

thrift_struct! {
    /// One node of the flattened schema tree (Thrift struct `SchemaElement`).
    ///
    /// Leaves have `type_`; groups have `num_children`. The first element is the root.
    /// Negative `type_length` / `num_children` are kept as the file says them; the schema
    /// builder rejects them.
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct SchemaElement {
        /// 1: physical type; set for leaves only.
        1: optional type_: PhysicalType,
        /// 2: byte length of FIXED_LEN_BYTE_ARRAY values.
        2: optional type_length: i32,
        /// 3: repetition; absent on the root.
        3: optional repetition_type: FieldRepetitionType,
        /// 4: name.
        4: required name: String,
        /// 5: number of children; set for groups only.
        5: optional num_children: i32,
        /// 6: deprecated annotation.
        6: optional converted_type: ConvertedType,
        /// 7: DECIMAL scale (deprecated copy of the logical type's).
        7: optional scale: i32,
        /// 8: DECIMAL precision (deprecated copy of the logical type's).
        8: optional precision: i32,
        /// 9: field id from the writer's schema.
        9: optional field_id: i32,
        /// 10: logical type (`logicalType`).
        10: optional logical_type: LogicalType,
    }
}

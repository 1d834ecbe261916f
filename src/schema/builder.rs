//! Building a schema in code, for writers.
//!
//! ```
//! use parket::format::{FieldRepetitionType::*, LogicalType, PhysicalType};
//! use parket::schema::{Schema, Type};
//!
//! let schema = Schema::builder("m")
//!     .field(Type::required("id", PhysicalType::Int64).field_id(1))
//!     .field(Type::list(
//!         "tags",
//!         Optional,
//!         Type::optional("element", PhysicalType::ByteArray).logical_type(LogicalType::String),
//!     ))
//!     .build()?;
//! assert_eq!(
//!     schema.to_string(),
//!     "message m {\n  required int64 id = 1;\n  optional group tags (LIST) {\n    \
//!      repeated group list {\n      optional binary element (STRING);\n    }\n  }\n}"
//! );
//! // Annotations that do not fit are errors when building.
//! let bad = Schema::builder("m")
//!     .field(Type::required("d", PhysicalType::Int32).logical_type(LogicalType::Timestamp {
//!         is_adjusted_to_utc: true,
//!         unit: parket::format::TimeUnit::Millis,
//!     }))
//!     .build();
//! assert!(bad.is_err());
//! # Ok::<(), parket::Error>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Result;
use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, PhysicalType, SchemaElement};
use crate::schema::Schema;

/// A field under construction: a leaf or a group with its children. Validated when the
/// schema is built ([`SchemaBuilder::build`], [`Schema::new`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    element: SchemaElement,
    children: Vec<Type>,
}

impl Type {
    /// A leaf of `physical_type`.
    pub fn primitive(
        name: impl Into<String>,
        repetition: FieldRepetitionType,
        physical_type: PhysicalType,
    ) -> Type {
        Type {
            element: SchemaElement {
                name: name.into(),
                repetition_type: Some(repetition),
                type_: Some(physical_type),
                ..SchemaElement::default()
            },
            children: Vec::new(),
        }
    }

    /// A REQUIRED leaf.
    pub fn required(name: impl Into<String>, physical_type: PhysicalType) -> Type {
        Self::primitive(name, FieldRepetitionType::Required, physical_type)
    }

    /// An OPTIONAL leaf.
    pub fn optional(name: impl Into<String>, physical_type: PhysicalType) -> Type {
        Self::primitive(name, FieldRepetitionType::Optional, physical_type)
    }

    /// A REPEATED leaf.
    pub fn repeated(name: impl Into<String>, physical_type: PhysicalType) -> Type {
        Self::primitive(name, FieldRepetitionType::Repeated, physical_type)
    }

    /// A FIXED_LEN_BYTE_ARRAY leaf of `length` bytes per value.
    pub fn fixed_len_byte_array(
        name: impl Into<String>,
        repetition: FieldRepetitionType,
        length: usize,
    ) -> Type {
        Self::primitive(name, repetition, PhysicalType::FixedLenByteArray).length(length)
    }

    /// A group with `children`, in order.
    pub fn group(
        name: impl Into<String>,
        repetition: FieldRepetitionType,
        children: impl IntoIterator<Item = Type>,
    ) -> Type {
        let children: Vec<Type> = children.into_iter().collect();
        Type {
            element: SchemaElement {
                name: name.into(),
                repetition_type: Some(repetition),
                num_children: Some(i32::try_from(children.len()).unwrap_or(i32::MAX)),
                ..SchemaElement::default()
            },
            children,
        }
    }

    /// The spec's 3-level list: `<repetition> group <name> (LIST) { repeated group list {
    /// <element> } }`. Name the element `element`, as LogicalTypes.md asks.
    pub fn list(name: impl Into<String>, repetition: FieldRepetitionType, element: Type) -> Type {
        let list = Type::group("list", FieldRepetitionType::Repeated, [element]);
        Type::group(name, repetition, [list]).logical_type(LogicalType::List)
    }

    /// The spec's 3-level map: `<repetition> group <name> (MAP) { repeated group key_value {
    /// required <key>; <value> } }`. `value` may be absent (a set of keys).
    pub fn map(
        name: impl Into<String>,
        repetition: FieldRepetitionType,
        key: Type,
        value: Option<Type>,
    ) -> Type {
        let mut fields = alloc::vec![key];
        fields.extend(value);
        let key_value = Type::group("key_value", FieldRepetitionType::Repeated, fields);
        Type::group(name, repetition, [key_value]).logical_type(LogicalType::Map)
    }

    /// Sets the logical type (the matching converted type is written for it).
    #[must_use]
    pub fn logical_type(mut self, logical_type: LogicalType) -> Type {
        self.element.logical_type = Some(logical_type);
        self
    }

    /// Sets a converted type. Alone, it stands for its logical type (LogicalTypes.md's
    /// backward-compatibility table); `INTERVAL` and `MAP_KEY_VALUE` exist only as converted
    /// types. Next to a logical type it must be the matching one.
    #[must_use]
    pub fn converted_type(mut self, converted_type: ConvertedType) -> Type {
        self.element.converted_type = Some(converted_type);
        self
    }

    /// Sets the field id.
    #[must_use]
    pub fn field_id(mut self, id: i32) -> Type {
        self.element.field_id = Some(id);
        self
    }

    /// Sets the byte length of FIXED_LEN_BYTE_ARRAY values.
    #[must_use]
    pub fn length(mut self, length: usize) -> Type {
        self.element.type_length = Some(i32::try_from(length).unwrap_or(-1));
        self
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.element.name
    }

    /// The children of a group (none for a leaf), giving up the group itself.
    pub fn into_children(self) -> Vec<Type> {
        self.children
    }
}

/// Collects the root's fields; [`SchemaBuilder::build`] validates them.
#[derive(Debug, Clone)]
pub struct SchemaBuilder {
    name: String,
    fields: Vec<Type>,
}

impl SchemaBuilder {
    /// An empty message named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        SchemaBuilder {
            name: name.into(),
            fields: Vec::new(),
        }
    }

    /// Appends a field to the root.
    #[must_use]
    pub fn field(mut self, field: Type) -> Self {
        self.fields.push(field);
        self
    }

    /// Validates and builds. Errors ([`crate::Error::invalid_argument`]) name the field: an
    /// annotation that does not fit its node, a FIXED_LEN_BYTE_ARRAY without a positive
    /// length, a converted type that contradicts the logical type, nesting deeper than
    /// [`crate::Limits::nesting_depth`]'s default.
    pub fn build(self) -> Result<Schema> {
        let root = Type::group(self.name, FieldRepetitionType::Required, self.fields);
        let mut elements = Vec::new();
        // Depth-first, with an explicit stack: a caller's tree may be deep.
        let mut stack: Vec<Type> = alloc::vec![root];
        while let Some(mut t) = stack.pop() {
            let children = core::mem::take(&mut t.children);
            elements.push(t.element);
            stack.extend(children.into_iter().rev());
        }
        if let Some(root) = elements.first_mut() {
            root.repetition_type = None;
        }
        Schema::from_elements_strict(&elements)
    }
}

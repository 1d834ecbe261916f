//! Layer 3: the schema tree, its leaf columns with their levels, and the message text format.
//!
//! # What the footer stores
//!
//! `FileMetaData.schema` is a flat list of `SchemaElement`s: the tree in depth-first order
//! (parquet.thrift: "the schema is represented as a tree with a single root. The nodes of the
//! tree are flattened to a list by doing a depth-first traversal. The column metadata contains
//! the path in the schema for that column which can be used to map columns to nodes"). The
//! first element is the root group; a group says how many children follow it
//! (`num_children`); a leaf has a physical type (`type`). [`Schema::from_elements`] rebuilds
//! the tree, [`Schema::to_elements`] flattens it again.
//!
//! # Levels
//!
//! Each leaf is one column chunk in every row group. Its *maximum definition level* counts the
//! OPTIONAL and REPEATED nodes on its path (the leaf included, the root excluded); its *maximum
//! repetition level* counts the REPEATED ones (Dremel; parquet-format README, "Nested
//! Encoding").
//!
//! # Worked example
//!
//! ```text
//! #  SchemaElement                                              node
//! 0  {name: "m", num_children: 2}                               message m {
//! 1  {name: "id", type: INT64, repetition: REQUIRED}              required int64 id;
//! 2  {name: "tags", repetition: OPTIONAL, num_children: 1,        optional group tags (LIST) {
//!     converted_type: LIST, logical_type: LIST}
//! 3  {name: "list", repetition: REPEATED, num_children: 1}          repeated group list {
//! 4  {name: "element", type: BYTE_ARRAY, repetition: OPTIONAL,        optional binary element (STRING);
//!     converted_type: UTF8, logical_type: STRING}                   }
//!                                                                 }
//!                                                               }
//!
//! column  path              node  max_def_level            max_rep_level
//! 0       id                1     0                        0
//! 1       tags.list.element 4     3 (tags, list, element)  1 (list)
//! ```
//!
//! ```
//! use parket::schema::Schema;
//! let schema = Schema::parse(
//!     "message m { required int64 id; optional group tags (LIST) { \
//!        repeated group list { optional binary element (STRING); } } }",
//! )?;
//! let elements = schema.to_elements();
//! assert_eq!(elements.len(), 5);
//! assert_eq!(elements[2].num_children, Some(1));
//! let tags = &schema.columns()[1];
//! assert_eq!(tags.path_string(), "tags.list.element");
//! assert_eq!((tags.max_def_level, tags.max_rep_level, tags.node), (3, 1, 4));
//! assert_eq!(schema.column_index("tags.list.element"), Some(1));
//! assert_eq!(Schema::from_elements(&elements)?, schema);
//! # Ok::<(), parket::Error>(())
//! ```
//!
//! # Annotations
//!
//! Each node carries one canonical annotation (see `annotation.rs`): the LogicalType, read
//! from the file or derived from the ConvertedType with LogicalTypes.md's
//! backward-compatibility tables (`TIMESTAMP_MILLIS` is `TIMESTAMP(MILLIS, true)`, `UINT_8` is
//! `INTEGER(8, false)`, `UTF8` is `STRING`, `DECIMAL` with the element's scale and precision),
//! and the ConvertedType paired with it by the forward-compatibility tables. `INTERVAL` and
//! `MAP_KEY_VALUE` have no LogicalType and stay converted types alone. [`Schema::to_elements`]
//! writes both the logical type and its converted type (and DECIMAL's scale and precision),
//! as the spec asks writers to do. So `to_elements(from_elements(x))` is `x` in canonical
//! form, not necessarily byte for byte: a file written with ConvertedTypes only gains the
//! matching LogicalTypes, and a ConvertedType that contradicts the LogicalType is replaced by
//! the one the LogicalType implies (the LogicalType wins, as the spec says readers should
//! prefer it). The raw elements stay available in `FileMetaData`.
//!
//! # Validation: errors versus ignored annotations
//!
//! [`Schema::from_elements`] reads files, so it is strict about *structure* (an error means
//! the columns cannot be found or their levels would be wrong) and lenient about *meaning*
//! (an annotation that does not fit its node is dropped and the column reads as its bare
//! physical type). Errors:
//!
//! - an empty list; a root that is a leaf (has a `type`);
//! - a negative `num_children`, or more children than elements remain; elements left over
//!   after the root's subtree ends;
//! - a non-root element without `repetition_type` (levels would be guesses);
//! - an element with neither `type` nor `num_children`, or with a `type` and children;
//! - FIXED_LEN_BYTE_ARRAY without a positive `type_length`;
//! - groups nested deeper than [`Limits::nesting_depth`] (the construction is iterative, so
//!   the limit is about the levels' range and the size of the work, not the stack);
//! - paths (every node's dotted path, every column's path) longer in total than
//!   [`Limits::metadata_bytes`]: each path repeats its ancestors' names, so a small hostile
//!   footer could otherwise claim a quadratic amount of memory.
//!
//! Tolerated (`// Seen in the wild:`): a root with any `repetition_type` (ignored: the root
//! has no levels), with no `num_children` (zero columns), or with annotations or a field id
//! (ignored); `num_children: 0` on a leaf (parquet-cpp); `type_length` on a non-FLBA leaf
//! (ignored); duplicate sibling names (lookups by path find the first); empty groups (they
//! have no column; most writers refuse to write them, pyarrow among them, but a reader need
//! not fail on them); a LogicalType that does not fit (dropped, then the ConvertedType is
//! tried); a ConvertedType that does not fit or a DECIMAL without precision (dropped).
//!
//! The builder ([`Schema::new`], [`SchemaBuilder`]) and [`Schema::parse`] apply the same
//! rules but turn every dropped annotation into an [`Error::invalid_argument`] naming the
//! field, and also reject a ConvertedType, scale or precision that contradicts the
//! LogicalType. Structure (LIST and MAP shapes, legacy 2-level lists, VARIANT's fields) is
//! not checked here: `levels/` interprets it with LogicalTypes.md's backward-compatibility
//! rules.
//!
//! # Message text
//!
//! `Display` prints, and [`Schema::parse`] reads, the text format of parquet-java's
//! `MessageType.toString` / `MessageTypeParser`, described in `text.rs`.

mod annotation;
mod builder;
mod project;
mod selector;
mod text;

#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::error::{Error, Result};
use crate::format::{ConvertedType, FieldRepetitionType, LogicalType, PhysicalType, SchemaElement};
use crate::limits::Limits;

pub use annotation::{converted_type_of, logical_type_of, max_decimal_precision_for_flba};
pub use builder::{SchemaBuilder, Type};
pub use selector::ColumnSelector;

/// One node of the schema tree: a group or a leaf (primitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Field name (verbatim from the file: may hold dots, spaces or control characters).
    pub name: String,
    /// Repetition. The root's is not stored in the tree and reads as REQUIRED.
    pub repetition: FieldRepetitionType,
    /// Field id from the writer's schema.
    pub field_id: Option<i32>,
    /// The logical type, from the file or derived from the converted type.
    pub logical_type: Option<LogicalType>,
    /// The converted type paired with `logical_type` (or `INTERVAL` / `MAP_KEY_VALUE` alone).
    pub converted_type: Option<ConvertedType>,
    /// Group or leaf.
    pub kind: NodeKind,
    /// Index of the parent node; `None` for the root.
    pub parent: Option<usize>,
    /// OPTIONAL and REPEATED nodes from the root's child down to this node, inclusive.
    pub max_def_level: u16,
    /// REPEATED nodes from the root's child down to this node, inclusive.
    pub max_rep_level: u16,
    /// The leaf columns under this node (leaves of a subtree are contiguous in file order);
    /// a leaf's is its own column.
    pub columns: Range<usize>,
}

/// What a [`Node`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// A group: indices of its children, in order.
    Group {
        /// Children's node indices.
        children: Vec<usize>,
    },
    /// A leaf.
    Primitive {
        /// Physical type.
        physical_type: PhysicalType,
        /// Byte width of FIXED_LEN_BYTE_ARRAY values; `None` for the other types.
        type_length: Option<usize>,
        /// Index of this leaf's column in [`Schema::columns`].
        column: usize,
    },
}

impl Node {
    /// Whether this node is a group.
    pub fn is_group(&self) -> bool {
        matches!(self.kind, NodeKind::Group { .. })
    }

    /// Children of a group (empty for a leaf).
    pub fn children(&self) -> &[usize] {
        match &self.kind {
            NodeKind::Group { children } => children,
            NodeKind::Primitive { .. } => &[],
        }
    }
}

/// A leaf column: where its values live in the tree and the levels that place them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDescriptor {
    /// Names from the root's child down to the leaf (`["a", "list", "element"]`).
    pub path: Vec<String>,
    /// Physical type.
    pub physical_type: PhysicalType,
    /// Byte width of FIXED_LEN_BYTE_ARRAY values; `None` for the other types.
    pub type_length: Option<usize>,
    /// Logical type (from the file or derived from the converted type).
    pub logical_type: Option<LogicalType>,
    /// Converted type paired with the logical type (or `INTERVAL` alone).
    pub converted_type: Option<ConvertedType>,
    /// Repetition of the leaf itself.
    pub repetition: FieldRepetitionType,
    /// Largest definition level: OPTIONAL and REPEATED nodes on the path, leaf included.
    pub max_def_level: u16,
    /// Largest repetition level: REPEATED nodes on the path, leaf included.
    pub max_rep_level: u16,
    /// Index of the leaf's node in [`Schema::nodes`] (equal to its SchemaElement's index).
    pub node: usize,
}

impl ColumnDescriptor {
    /// The path joined with dots: `a.list.element` (ambiguous when names hold dots).
    pub fn path_string(&self) -> String {
        join_dotted(&self.path)
    }

    /// The leaf's own name.
    pub fn name(&self) -> &str {
        self.path.last().map(String::as_str).unwrap_or("")
    }
}

/// A validated schema: the tree (nodes in depth-first order, node `i` is SchemaElement `i`)
/// and its leaf columns in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schema {
    nodes: Vec<Node>,
    columns: Vec<ColumnDescriptor>,
    /// Dotted path of every node, by node index (the root's is empty).
    paths: Vec<String>,
    /// How [`Schema::node_index`] finds a dotted path in `paths` (see [`path_index`]).
    by_path: path_index::PathIndex,
}

// The one point of choice for dotted-path lookups: default builds binary-search a sorted
// index ([`sorted`]); builds for size (`cfg(parket_opt_size)`, set by `build.rs`) scan the
// paths and build nothing ([`scan`]). Both find the first node in file order (a property
// test compares them).
#[cfg(parket_opt_size)]
use scan as path_index;
#[cfg(not(parket_opt_size))]
use sorted as path_index;

/// Dotted-path lookups through the non-root node indices sorted by (dotted path, index):
/// binary search, and the first of equal paths is the first in file order. (A sorted vector
/// rather than a `BTreeMap`: the same lookups in far less code.)
#[cfg(any(not(parket_opt_size), test))]
#[cfg_attr(test, allow(dead_code))]
mod sorted {
    use alloc::string::String;
    use alloc::vec::Vec;

    /// The sorted node indices.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(super) struct PathIndex(Vec<usize>);

    impl PathIndex {
        /// The index of `paths` (by node index; the root's is `paths[0]`).
        pub(super) fn build(paths: &[String]) -> PathIndex {
            let mut by_path: Vec<usize> = Vec::with_capacity(paths.len());
            by_path.extend(1..paths.len());
            sort_by_path(&mut by_path, paths);
            PathIndex(by_path)
        }

        /// The first non-root node in file order whose dotted path is `path`.
        pub(super) fn find(&self, paths: &[String], path: &str) -> Option<usize> {
            let of = |n: usize| paths.get(n).map_or("", String::as_str);
            let at = self.0.partition_point(|&n| of(n) < path);
            let n = *self.0.get(at)?;
            (of(n) == path).then_some(n)
        }
    }

    /// Sorts node indices by (dotted path, index): a heapsort, O(n log n) comparisons whatever
    /// the paths, in a few dozen instructions (the standard library's sorts are far larger).
    pub(super) fn sort_by_path(idx: &mut [usize], paths: &[String]) {
        let key = |n: usize| (paths.get(n).map_or("", String::as_str), n);
        let less = |idx: &[usize], a: usize, b: usize| match (idx.get(a), idx.get(b)) {
            (Some(&x), Some(&y)) => key(x) < key(y),
            _ => false,
        };
        // `[T]::swap` without its panic path (the indices are always in bounds).
        let swap = |idx: &mut [usize], a: usize, b: usize| {
            if let (Some(&x), Some(&y)) = (idx.get(a), idx.get(b)) {
                if let Some(s) = idx.get_mut(a) {
                    *s = y;
                }
                if let Some(s) = idx.get_mut(b) {
                    *s = x;
                }
            }
        };
        // Moves the value at `root` down the max-heap held in `idx[..end]`.
        let sift = |idx: &mut [usize], mut root: usize, end: usize| loop {
            let mut child = 2 * root + 1;
            if child >= end {
                break;
            }
            if child + 1 < end && less(idx, child, child + 1) {
                child += 1;
            }
            if !less(idx, root, child) {
                break;
            }
            swap(idx, root, child);
            root = child;
        };
        let len = idx.len();
        for start in (0..len / 2).rev() {
            sift(idx, start, len);
        }
        for end in (1..len).rev() {
            swap(idx, 0, end);
            sift(idx, 0, end);
        }
    }
}

/// Dotted-path lookups in builds for size: the paths scanned in file order, so the first
/// match is the first node in file order, as the binary search finds it; no sorted index
/// (and no sort) to build. Linear in the schema per lookup.
#[cfg(any(parket_opt_size, test))]
#[cfg_attr(test, allow(dead_code))]
mod scan {
    use alloc::string::String;

    /// Nothing: the paths are scanned.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(super) struct PathIndex;

    impl PathIndex {
        /// Builds nothing.
        pub(super) fn build(_paths: &[String]) -> PathIndex {
            PathIndex
        }

        /// The first non-root node in file order whose dotted path is `path`.
        pub(super) fn find(&self, paths: &[String], path: &str) -> Option<usize> {
            paths.iter().skip(1).position(|p| p == path).map(|i| i + 1)
        }
    }
}

// Whether annotation mistakes are errors (builder, parser: `STRICT = true`) or dropped
// (files: `false`) is a const parameter of `build` and its helpers, so that a reader, which
// only builds from files, links none of the strict mode's checks and messages.

impl Schema {
    /// Builds the tree from the footer's flat, depth-first element list, with the default
    /// [`Limits`]. See the module documentation for what is an error and what is tolerated.
    ///
    /// Never panics, for any input. Work and allocation are linear in the elements plus the
    /// total length of the paths, which is bounded by [`Limits::metadata_bytes`].
    pub fn from_elements(elements: &[SchemaElement]) -> Result<Schema> {
        Self::from_elements_with_limits(elements, &Limits::default())
    }

    /// As [`Schema::from_elements`], with nesting bounded by `limits.nesting_depth`.
    pub fn from_elements_with_limits(
        elements: &[SchemaElement],
        limits: &Limits,
    ) -> Result<Schema> {
        build::<false>(elements, limits)
    }

    /// Builds a schema from elements that a caller made (builder, parser): annotations that
    /// do not fit are errors rather than dropped.
    pub(crate) fn from_elements_strict(elements: &[SchemaElement]) -> Result<Schema> {
        build::<true>(elements, &Limits::default())
    }

    /// Flattens the tree into the footer's element list (the inverse of
    /// [`Schema::from_elements`]). Writes each LogicalType with its ConvertedType, and
    /// DECIMAL's scale and precision in the deprecated element fields too, for old readers.
    pub fn to_elements(&self) -> Vec<SchemaElement> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let mut e = SchemaElement {
                    name: node.name.clone(),
                    repetition_type: (i > 0).then_some(node.repetition),
                    field_id: node.field_id,
                    logical_type: node.logical_type.clone(),
                    converted_type: node.converted_type,
                    ..SchemaElement::default()
                };
                if let Some(LogicalType::Decimal { scale, precision }) = node.logical_type {
                    e.scale = Some(scale);
                    e.precision = Some(precision);
                }
                match &node.kind {
                    // Never more children than elements, and elements come from an i32 count
                    // or a tree we built: the cast is exact. Saturate rather than wrap anyway.
                    NodeKind::Group { children } => {
                        e.num_children = Some(i32::try_from(children.len()).unwrap_or(i32::MAX))
                    }
                    NodeKind::Primitive {
                        physical_type,
                        type_length,
                        ..
                    } => {
                        e.type_ = Some(*physical_type);
                        e.type_length = type_length.map(|n| i32::try_from(n).unwrap_or(i32::MAX));
                    }
                }
                e
            })
            .collect()
    }

    /// The message name (the root's name).
    pub fn name(&self) -> &str {
        self.nodes.first().map(|n| n.name.as_str()).unwrap_or("")
    }

    /// The root group (node 0).
    pub fn root(&self) -> &Node {
        // Construction guarantees at least the root.
        &self.nodes[0]
    }

    /// Every node, depth-first; node `i` corresponds to SchemaElement `i`.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Node `i`, if it exists.
    pub fn node(&self, i: usize) -> Option<&Node> {
        self.nodes.get(i)
    }

    /// The leaf columns in file order (the order of ColumnChunks in a row group).
    pub fn columns(&self) -> &[ColumnDescriptor] {
        &self.columns
    }

    /// Column `i`, if it exists.
    pub fn column(&self, i: usize) -> Option<&ColumnDescriptor> {
        self.columns.get(i)
    }

    /// The index of the leaf column whose dotted path is `path` (`"a.list.element"`).
    pub fn column_index(&self, path: &str) -> Option<usize> {
        match self.nodes.get(self.node_index(path)?)?.kind {
            NodeKind::Primitive { column, .. } => Some(column),
            NodeKind::Group { .. } => None,
        }
    }

    /// The index of the node (group or leaf) whose dotted path is `path`; `""` is the root.
    /// When names hold dots, a path may be ambiguous: the first node in file order wins; use
    /// [`Schema::node_index_by_path`] to be exact.
    pub fn node_index(&self, path: &str) -> Option<usize> {
        if path.is_empty() {
            return Some(0);
        }
        self.by_path.find(&self.paths, path)
    }

    /// The index of the node at `path` (names from the root's child down), matching names
    /// exactly; the empty path is the root. With duplicate sibling names, the first node in
    /// file order that has the whole path wins.
    pub fn node_index_by_path<S: AsRef<str>>(&self, path: &[S]) -> Option<usize> {
        // Every node whose path so far matches; one level per name, so the work is bounded
        // by the nodes times the path length.
        let mut at: Vec<usize> = alloc::vec![0];
        for name in path {
            at = at
                .iter()
                .filter_map(|&i| self.nodes.get(i))
                .flat_map(|n| n.children().iter().copied())
                .filter(|&c| self.nodes.get(c).is_some_and(|n| n.name == name.as_ref()))
                .collect();
            if at.is_empty() {
                return None;
            }
        }
        at.first().copied()
    }

    /// The dotted path of node `i` (`""` for the root).
    pub fn node_path_string(&self, i: usize) -> String {
        let mut names = Vec::new();
        let mut at = i;
        while let Some(node) = self.nodes.get(at) {
            match node.parent {
                Some(p) => {
                    names.push(node.name.as_str());
                    at = p;
                }
                None => break,
            }
        }
        names.reverse();
        join_dotted(&names)
    }

    /// Starts a schema for writing: `Schema::builder("m").field(Type::required(...)).build()`.
    pub fn builder(name: impl Into<String>) -> SchemaBuilder {
        SchemaBuilder::new(name)
    }

    /// A schema named `name` whose root has `fields`, validated (annotation mistakes are
    /// [`Error::invalid_argument`]s).
    pub fn new(name: impl Into<String>, fields: Vec<Type>) -> Result<Schema> {
        let mut b = SchemaBuilder::new(name);
        for f in fields {
            b = b.field(f);
        }
        b.build()
    }
}

/// `names` joined with dots: `[T]::join(".")`, as a plain loop (`join`'s generic copying is
/// several times larger, and the reader links this). The dot is pushed as a `str`:
/// `String::push(char)` encodes UTF-8, which the reader would link for this alone.
#[allow(clippy::single_char_add_str)]
fn join_dotted<S: AsRef<str>>(names: &[S]) -> String {
    let mut s = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            s.push_str(".");
        }
        s.push_str(name.as_ref());
    }
    s
}

/// A reason for an annotation, structural or limit problem, as the mode wants it.
fn fail<const STRICT: bool>(what: &'static str, path: &str) -> Error {
    if STRICT {
        Error::invalid_argument_fmt(format_args!("schema field {path:?}: {what}"))
    } else {
        in_path(Error::out_of_spec(what), path)
    }
}

/// Adds the node's path to an error, unless it is the root's (empty) path.
fn in_path(e: Error, path: &str) -> Error {
    if path.is_empty() {
        e
    } else {
        e.in_column(path)
    }
}

/// Picks the canonical (logical, converted) annotation of an element; `Err` only in strict
/// mode (lenient mode drops what does not fit).
fn resolve_annotation<const STRICT: bool>(
    e: &SchemaElement,
    physical: Option<PhysicalType>,
    type_length: Option<usize>,
) -> core::result::Result<(Option<LogicalType>, Option<ConvertedType>), &'static str> {
    let strict = STRICT;
    let check = |lt: &LogicalType| match physical {
        Some(p) => annotation::check_primitive::<STRICT>(lt, p, type_length),
        None => annotation::check_group::<STRICT>(lt),
    };
    if let Some(lt) = &e.logical_type {
        match check(lt) {
            Ok(()) => {
                let converted = converted_type_of(lt);
                if strict {
                    if e.converted_type.is_some() && e.converted_type != converted {
                        return Err("the converted type does not match the logical type");
                    }
                    let (scale, precision) = match lt {
                        LogicalType::Decimal { scale, precision } => {
                            (Some(*scale), Some(*precision))
                        }
                        _ => (None, None),
                    };
                    if e.scale.is_some_and(|s| Some(s) != scale)
                        || e.precision.is_some_and(|p| Some(p) != precision)
                    {
                        return Err("scale or precision does not match the logical type");
                    }
                }
                return Ok((Some(lt.clone()), converted));
            }
            // Seen in the wild: annotations that do not fit; fall back to the converted type.
            Err(why) if strict => return Err(why),
            Err(_) => {}
        }
    }
    if let Some(ct) = e.converted_type {
        if strict && ct != ConvertedType::Decimal && (e.scale.is_some() || e.precision.is_some()) {
            return Err("scale and precision belong to DECIMAL only");
        }
        let verdict = match logical_type_of(ct, e.scale, e.precision) {
            Some(lt) => check(&lt).map(|()| (Some(lt), Some(ct))),
            None if ct == ConvertedType::Decimal => Err("DECIMAL needs a precision"),
            None => annotation::check_converted_only::<STRICT>(ct, physical, type_length)
                .map(|()| (None, Some(ct))),
        };
        match verdict {
            Ok(v) => return Ok(v),
            Err(why) if strict => return Err(why),
            Err(_) => {}
        }
    } else if strict && (e.scale.is_some() || e.precision.is_some()) {
        return Err("scale and precision belong to DECIMAL only");
    }
    Ok((None, None))
}

/// One open group while the flat list is being read: its node (whose dotted path is the
/// node's in `paths`, stored once) and how many children it still expects.
struct Frame {
    node: usize,
    remaining: usize,
}

fn build<const STRICT: bool>(elements: &[SchemaElement], limits: &Limits) -> Result<Schema> {
    let Some(root) = elements.first() else {
        return Err(fail::<STRICT>("schema has no root element", ""));
    };
    if root.type_.is_some() {
        return Err(fail::<STRICT>("the schema root is not a group", ""));
    }
    // Seen in the wild: writers give the root REQUIRED or no repetition; either way the root
    // contributes no level, so its repetition, annotations and field id are ignored.
    let root_children = root.num_children.unwrap_or(0);
    let root_children = child_count::<STRICT>(root_children, elements.len() - 1, "")?;

    let mut nodes: Vec<Node> = Vec::with_capacity(elements.len());
    let mut columns: Vec<ColumnDescriptor> = Vec::new();
    let mut paths: Vec<String> = Vec::with_capacity(elements.len());
    paths.push(String::new());
    nodes.push(Node {
        name: root.name.clone(),
        repetition: FieldRepetitionType::Required,
        field_id: None,
        logical_type: None,
        converted_type: None,
        kind: NodeKind::Group {
            children: Vec::with_capacity(root_children),
        },
        parent: None,
        max_def_level: 0,
        max_rep_level: 0,
        columns: 0..0,
    });
    let mut path_bytes: u64 = 0;
    let mut stack = alloc::vec![Frame {
        node: 0,
        remaining: root_children,
    }];

    for (i, e) in elements.iter().enumerate().skip(1) {
        close_finished(&mut stack, &mut nodes, columns.len());
        let Some(top) = stack.last_mut() else {
            return Err(fail::<STRICT>(
                "schema elements follow the end of the root group",
                &e.name,
            ));
        };
        top.remaining -= 1;
        let parent = top.node;
        let path = if parent == 0 {
            e.name.clone()
        } else {
            // `format!("{}.{}", ..)` by hand: the formatting machinery is larger (and the
            // dot as a `str`, see `join_dotted`).
            let parent_path = paths.get(parent).map_or("", String::as_str);
            let mut p = String::with_capacity(parent_path.len() + 1 + e.name.len());
            p.push_str(parent_path);
            #[allow(clippy::single_char_add_str)]
            p.push_str(".");
            p.push_str(&e.name);
            p
        };

        // Paths repeat their ancestors' names: without a bound, long names over deep groups
        // with many leaves would multiply a small footer into a huge allocation.
        path_bytes = path_bytes.saturating_add(2 * path.len() as u64);
        if path_bytes > limits.metadata_bytes {
            return Err(Error::limit(
                "total length of schema paths",
                path_bytes,
                limits.metadata_bytes,
            ));
        }

        let Some(repetition) = e.repetition_type else {
            return Err(fail::<STRICT>(
                "schema element has no repetition_type",
                &path,
            ));
        };
        let (parent_def, parent_rep) = nodes
            .get(parent)
            .map_or((0, 0), |p| (p.max_def_level, p.max_rep_level));
        let def = parent_def.saturating_add(u16::from(repetition != FieldRepetitionType::Required));
        let rep = parent_rep.saturating_add(u16::from(repetition == FieldRepetitionType::Repeated));
        // Levels grow by at most one per nesting level and nesting is bounded below by
        // min(nesting_depth, u16::MAX - 1), so they never saturate.

        let kind;
        let mut group_children = None;
        match (e.type_, e.num_children) {
            // Seen in the wild: parquet-cpp writes num_children = 0 on leaves.
            (Some(physical_type), None | Some(0)) => {
                let type_length = if physical_type == PhysicalType::FixedLenByteArray {
                    match e.type_length {
                        Some(n) if n > 0 => Some(n as usize),
                        _ => {
                            return Err(fail::<STRICT>(
                                "FIXED_LEN_BYTE_ARRAY needs a positive type_length",
                                &path,
                            ))
                        }
                    }
                } else {
                    if STRICT && e.type_length.is_some() {
                        return Err(fail::<STRICT>(
                            "type_length belongs to FIXED_LEN_BYTE_ARRAY only",
                            &path,
                        ));
                    }
                    None
                };
                kind = NodeKind::Primitive {
                    physical_type,
                    type_length,
                    column: columns.len(),
                };
            }
            (Some(_), Some(_)) => {
                return Err(fail::<STRICT>(
                    "schema element has both a physical type and children",
                    &path,
                ))
            }
            (None, Some(n)) => {
                let n = child_count::<STRICT>(n, elements.len() - 1 - i, &path)?;
                group_children = Some(n);
                kind = NodeKind::Group {
                    children: Vec::with_capacity(n),
                };
            }
            (None, None) => {
                return Err(fail::<STRICT>(
                    "schema element has neither a physical type nor children",
                    &path,
                ))
            }
        }

        let (physical, type_length) = match &kind {
            NodeKind::Primitive {
                physical_type,
                type_length,
                ..
            } => (Some(*physical_type), *type_length),
            NodeKind::Group { .. } => (None, None),
        };
        let (logical_type, converted_type) = resolve_annotation::<STRICT>(e, physical, type_length)
            .map_err(|why| fail::<STRICT>(why, &path))?;

        if let Some(NodeKind::Group { children }) = nodes.get_mut(parent).map(|p| &mut p.kind) {
            children.push(i);
        }
        let column_start = columns.len();
        if let NodeKind::Primitive {
            physical_type,
            type_length,
            ..
        } = kind
        {
            columns.push(ColumnDescriptor {
                path: leaf_path(&nodes, &stack, &e.name),
                physical_type,
                type_length,
                logical_type: logical_type.clone(),
                converted_type,
                repetition,
                max_def_level: def,
                max_rep_level: rep,
                node: i,
            });
        }
        nodes.push(Node {
            name: e.name.clone(),
            repetition,
            field_id: e.field_id,
            logical_type,
            converted_type,
            kind,
            parent: Some(parent),
            max_def_level: def,
            max_rep_level: rep,
            columns: column_start..columns.len(),
        });
        if let Some(n) = group_children {
            // The root is not counted: depth is the number of groups below it.
            let depth = stack.len();
            let limit = (limits.nesting_depth as usize).min(usize::from(u16::MAX) - 1);
            if depth > limit {
                return Err(if STRICT {
                    fail::<STRICT>("nesting deeper than the limit", &path)
                } else {
                    Error::limit(
                        "schema nesting depth",
                        depth as u64,
                        limits.nesting_depth as u64,
                    )
                    .in_column(&path)
                });
            }
            stack.push(Frame {
                node: i,
                remaining: n,
            });
        }
        paths.push(path);
    }
    close_finished(&mut stack, &mut nodes, columns.len());
    if let Some(top) = stack.last() {
        return Err(fail::<STRICT>(
            "num_children exceeds the schema elements that follow",
            paths.get(top.node).map_or("", String::as_str),
        ));
    }
    if let Some(root) = nodes.first_mut() {
        root.columns = 0..columns.len();
    }
    let by_path = path_index::PathIndex::build(&paths);
    Ok(Schema {
        nodes,
        columns,
        paths,
        by_path,
    })
}

/// Checks a `num_children` against the elements that remain after its element.
fn child_count<const STRICT: bool>(n: i32, remaining: usize, path: &str) -> Result<usize> {
    match usize::try_from(n) {
        Ok(n) if n <= remaining => Ok(n),
        Ok(_) if STRICT => Err(fail::<STRICT>("more children than elements", path)),
        Ok(_) => Err(in_path(
            Error::out_of_range(
                "num_children beyond the remaining schema elements",
                n as i64,
            ),
            path,
        )),
        Err(_) if STRICT => Err(fail::<STRICT>("negative num_children", path)),
        Err(_) => Err(in_path(Error::out_of_range("num_children", n as i64), path)),
    }
}

/// Pops the groups whose children have all been read, closing their column ranges.
fn close_finished(stack: &mut Vec<Frame>, nodes: &mut [Node], columns_len: usize) {
    while let Some(top) = stack.last() {
        if top.remaining > 0 {
            break;
        }
        if let Some(node) = nodes.get_mut(top.node) {
            node.columns.end = columns_len;
        }
        stack.pop();
    }
}

/// Names from the root's child down to a new leaf named `name` whose parent is the top of
/// `stack`: the open groups are its ancestors, from the root down (a depth-first walk).
fn leaf_path(nodes: &[Node], stack: &[Frame], name: &str) -> Vec<String> {
    let mut path = Vec::with_capacity(stack.len());
    for f in stack.iter().skip(1) {
        path.push(
            nodes
                .get(f.node)
                .map_or_else(String::new, |n| n.name.clone()),
        );
    }
    path.push(String::from(name));
    path
}

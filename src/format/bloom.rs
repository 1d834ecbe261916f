//! `BloomFilterHeader` and its unions.
//!
//! Spec: BloomFilter.md and parquet.thrift. A bloom filter is this header followed by
//! `numBytes` bytes of split-block filter.
//!
//! ```text
//! union BloomFilterAlgorithm { 1: SplitBlockAlgorithm BLOCK }
//! union BloomFilterHash { 1: XxHash XXHASH }
//! union BloomFilterCompression { 1: Uncompressed UNCOMPRESSED }
//! struct BloomFilterHeader { 1: required i32 numBytes  2: required BloomFilterAlgorithm algorithm
//!   3: required BloomFilterHash hash  4: required BloomFilterCompression compression }
//! ```
//!
//! Worked example, a 32-byte filter:
//!
//! ```text
//! 15 40        field 1, I32: numBytes = 32, zigzag 64
//! 1c 1c 00 00  field 2, STRUCT: algorithm { field 1 STRUCT BLOCK {} }
//! 1c 1c 00 00  field 3, STRUCT: hash { XXHASH {} }
//! 1c 1c 00 00  field 4, STRUCT: compression { UNCOMPRESSED {} }
//! 00           stop
//! ```
//!
//! ```
//! use parket::format::{BloomFilterHeader, BloomFilterAlgorithm, BloomFilterHash, BloomFilterCompression};
//! let h = BloomFilterHeader {
//!     num_bytes: 32,
//!     algorithm: BloomFilterAlgorithm::Block,
//!     hash: BloomFilterHash::XxHash,
//!     compression: BloomFilterCompression::Uncompressed,
//! };
//! let mut out = Vec::new();
//! h.encode(&mut out);
//! assert_eq!(out, [0x15, 0x40, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0x1c, 0x1c, 0, 0, 0]);
//! assert_eq!(BloomFilterHeader::decode(&out).unwrap(), (h, out.len()));
//! ```

use crate::error::Result;
use crate::thrift::{
    read_empty_union, thrift_struct, write_empty, Ctx, FieldDef, Reader, StructDef, ThriftType, Ty,
    Writer, STRUCT,
};

/// A union whose members are all empty structs, as a Rust enum of unit variants.
macro_rules! empty_union {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $id:literal : $member:literal ($ty:ident) => $variant:ident, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }

        impl StructDef for $name {
            const NAME: &'static str = stringify!($name);
            const IS_UNION: bool = true;
            const FIELDS: &'static [FieldDef] = &[
                $( FieldDef { id: $id, name: $member, ty: <$ty as ThriftType>::TY, required: false }, )*
            ];
        }

        impl crate::thrift::__Placeholder for $name {
            fn placeholder() -> Self {
                [$($name::$variant),*][0]
            }
        }

        impl ThriftType for $name {
            const TY: Ty = Ty::Struct(stringify!($name));
            const WIRE: u8 = STRUCT;
            fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
                let id = read_empty_union(
                    r,
                    concat!(stringify!($name), " must have exactly one known member"),
                    concat!(stringify!($name), " member is not a struct"),
                    0 $( | 1 << $id )*,
                    false,
                )?;
                // The first member for any other id, which `read_empty_union` refuses.
                Ok(match id {
                    $( $id => $name::$variant, )*
                    _ => [$($name::$variant),*][0],
                })
            }
            fn write(&self, w: &mut Writer<'_>) {
                let saved = w.struct_begin();
                let id = match self {
                    $( $name::$variant => $id, )*
                };
                write_empty(w, id);
                w.struct_end(saved);
            }
        }
    };
}

thrift_struct! {
    /// `SplitBlockAlgorithm` (member BLOCK).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct SplitBlockAlgorithm {}
}
thrift_struct! {
    /// `XxHash` (member XXHASH).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct XxHash {}
}
thrift_struct! {
    /// `Uncompressed` (member UNCOMPRESSED).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct Uncompressed {}
}

empty_union! {
    /// The bloom filter algorithm (Thrift union `BloomFilterAlgorithm`).
    pub enum BloomFilterAlgorithm {
        /// Field 1 `BLOCK`: split-block bloom filter.
        1: "BLOCK" (SplitBlockAlgorithm) => Block,
    }
}

empty_union! {
    /// The hash function (Thrift union `BloomFilterHash`).
    pub enum BloomFilterHash {
        /// Field 1 `XXHASH`: xxHash64 with seed 0.
        1: "XXHASH" (XxHash) => XxHash,
    }
}

empty_union! {
    /// The filter's compression (Thrift union `BloomFilterCompression`).
    pub enum BloomFilterCompression {
        /// Field 1 `UNCOMPRESSED`.
        1: "UNCOMPRESSED" (Uncompressed) => Uncompressed,
    }
}

thrift_struct! {
    /// The header in front of a bloom filter's bytes (Thrift struct `BloomFilterHeader`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct BloomFilterHeader {
        /// 1: byte size of the filter that follows (`numBytes`); kept as the file says it.
        1: required num_bytes: i32,
        /// 2: algorithm.
        2: required algorithm: BloomFilterAlgorithm,
        /// 3: hash.
        3: required hash: BloomFilterHash,
        /// 4: compression.
        4: required compression: BloomFilterCompression,
    }
}

impl BloomFilterHeader {
    /// Decodes a bloom filter header from the start of `buf`: the header and the bytes it
    /// took (the filter follows). Never panics, for any input.
    pub fn decode(buf: &[u8]) -> Result<(BloomFilterHeader, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }
}

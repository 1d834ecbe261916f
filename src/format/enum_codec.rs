//! How the enums of [`crate::format::enums`] are stored: as a Thrift `i32`.
//!
//! Spec: parquet.thrift declares `enum Type`, `enum Encoding`, ...; Thrift stores an enum as an
//! `i32` (zigzag varint in the compact protocol). A number the spec does not define is an
//! error (`PARQUET-1481.parquet` has physical type -7), never a default.
//!
//! ```text
//! Encoding::RleDictionary = 8  ->  zigzag 16 = 0x10
//! ```

use alloc::vec::Vec;

use super::{
    BoundaryOrder, CompressionCodec, ConvertedType, EdgeInterpolationAlgorithm, Encoding,
    FieldRepetitionType, PageType, PhysicalType,
};
use crate::error::Result;
use crate::thrift::{Ctx, Reader, ThriftType, Ty, Writer, I32};

macro_rules! enum_codec {
    ($($t:ident => $idl:literal = $code:literal),* $(,)?) => {
        $(
            impl crate::thrift::__Placeholder for $t {
                fn placeholder() -> Self {
                    $t::ALL[0]
                }
            }

            impl ThriftType for $t {
                const TY: Ty = Ty::Enum($idl);
                const WIRE: u8 = I32;
                fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
                    // Read and checked by one function for every enum (the number is out of
                    // range for a value the spec does not define, as `TryFrom` says).
                    r.enum_value($t::WHAT, $t::VALID).map($t::from_valid)
                }
                fn write(&self, w: &mut Writer<'_>) {
                    w.i32(self.to_i32())
                }
                #[cfg(any(parket_opt_size, test))]
                #[inline(always)]
                fn __compact_req(r: &mut Reader<'_>, _: u8, slot: &mut Self, _: &'static Ctx) {
                    let v = crate::thrift::compact::__read_enum(r, $t::WHAT, $t::VALID);
                    if v != u8::MAX {
                        *slot = $t::from_valid(v);
                    }
                }
                #[cfg(any(parket_opt_size, test))]
                #[inline(always)]
                fn __compact_opt(
                    r: &mut Reader<'_>,
                    _: u8,
                    slot: &mut Option<Self>,
                    _: &'static Ctx,
                ) {
                    let v = crate::thrift::compact::__read_enum(r, $t::WHAT, $t::VALID);
                    if v != u8::MAX {
                        *slot = Some($t::from_valid(v));
                    }
                }
                const __FLAT: u8 = $code;
                const __ENUMS: &'static [(&'static str, u32)] = &FLAT_ENUMS;
                #[inline(always)]
                fn __from_flat(v: i64) -> Option<Self> {
                    Some($t::from_valid(v as u8))
                }
            }
        )*

        /// The compact decoder's flat path: each enum's `(what, valid)` for
        /// [`Reader::enum_value`], at its code minus one (its `ThriftType::__FLAT`; only
        /// builds for size and tests read them).
        static FLAT_ENUMS: [(&str, u32); 8] = [$( ($t::WHAT, $t::VALID), )*];
        const _: () = { let mut i = 0; $( assert!($code == { i += 1; i }); )* };

        /// Every enum, by IDL name, with its `(number, spelling)` pairs (for the IDL test).
        #[doc(hidden)]
        pub fn idl_enums() -> Vec<(&'static str, Vec<(i32, &'static str)>)> {
            alloc::vec![
                $( ($idl, $t::ALL.iter().map(|v| (v.to_i32(), v.name())).collect()), )*
            ]
        }
    };
}

enum_codec! {
    PhysicalType => "Type" = 1,
    ConvertedType => "ConvertedType" = 2,
    FieldRepetitionType => "FieldRepetitionType" = 3,
    Encoding => "Encoding" = 4,
    CompressionCodec => "CompressionCodec" = 5,
    PageType => "PageType" = 6,
    BoundaryOrder => "BoundaryOrder" = 7,
    EdgeInterpolationAlgorithm => "EdgeInterpolationAlgorithm" = 8,
}

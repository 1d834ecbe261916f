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
    ($($t:ident => $idl:literal),* $(,)?) => {
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
                    let pos = r.position() as u64;
                    $t::try_from(r.i32()?).map_err(|e| e.at_offset(pos))
                }
                fn write(&self, w: &mut Writer<'_>) {
                    w.i32(self.to_i32())
                }
            }
        )*

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
    PhysicalType => "Type",
    ConvertedType => "ConvertedType",
    FieldRepetitionType => "FieldRepetitionType",
    Encoding => "Encoding",
    CompressionCodec => "CompressionCodec",
    PageType => "PageType",
    BoundaryOrder => "BoundaryOrder",
    EdgeInterpolationAlgorithm => "EdgeInterpolationAlgorithm",
}

//! Parquet Modular Encryption metadata: `FileCryptoMetaData`, `EncryptionAlgorithm`,
//! `AesGcmV1`, `AesGcmCtrV1`, `ColumnCryptoMetaData` and its members.
//!
//! Spec: Encryption.md and parquet.thrift. This crate does not decrypt; it decodes these
//! structs so that an encrypted file is recognised and a plaintext footer (magic `PAR1` with
//! `FileMetaData.encryption_algorithm`) is readable.
//!
//! ```text
//! struct AesGcmV1 { 1: optional binary aad_prefix  2: optional binary aad_file_unique
//!                   3: optional bool supply_aad_prefix }          (AesGcmCtrV1: the same)
//! union EncryptionAlgorithm { 1: AesGcmV1 AES_GCM_V1  2: AesGcmCtrV1 AES_GCM_CTR_V1 }
//! struct EncryptionWithFooterKey {}
//! struct EncryptionWithColumnKey { 1: required list<string> path_in_schema
//!                                  2: optional binary key_metadata }
//! union ColumnCryptoMetaData { 1: EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY
//!                              2: EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY }
//! struct FileCryptoMetaData { 1: required EncryptionAlgorithm encryption_algorithm
//!                             2: optional binary key_metadata }
//! ```
//!
//! Worked example, `AES_GCM_V1 { supply_aad_prefix: false }`:
//!
//! ```text
//! 1c       field 1, STRUCT: AES_GCM_V1
//!    32    field 3 (delta 3), BOOL_FALSE: supply_aad_prefix = false
//!    00    stop (AesGcmV1)
//! 00       stop (EncryptionAlgorithm)
//! ```
//!
//! ```
//! use parket::format::{AesGcmV1, EncryptionAlgorithm};
//! let a = EncryptionAlgorithm::AesGcmV1(AesGcmV1 { supply_aad_prefix: Some(false), ..Default::default() });
//! let mut out = Vec::new();
//! a.encode(&mut out);
//! assert_eq!(out, [0x1c, 0x32, 0x00, 0x00]);
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::thrift::{
    read_union, thrift_struct, Ctx, FieldDef, Reader, StructDef, ThriftType, Ty, Writer, STRUCT,
};

thrift_struct! {
    /// AES-GCM for pages and metadata (Thrift struct `AesGcmV1`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct AesGcmV1 {
        /// 1: AAD prefix stored in the file.
        1: optional aad_prefix: Vec<u8>,
        /// 2: unique part of the AAD.
        2: optional aad_file_unique: Vec<u8>,
        /// 3: whether the reader must supply the AAD prefix.
        3: optional supply_aad_prefix: bool,
    }
}

thrift_struct! {
    /// AES-CTR for pages, AES-GCM for metadata (Thrift struct `AesGcmCtrV1`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct AesGcmCtrV1 {
        /// 1: AAD prefix stored in the file.
        1: optional aad_prefix: Vec<u8>,
        /// 2: unique part of the AAD.
        2: optional aad_file_unique: Vec<u8>,
        /// 3: whether the reader must supply the AAD prefix.
        3: optional supply_aad_prefix: bool,
    }
}

thrift_struct! {
    /// The column is encrypted with the footer key (Thrift struct `EncryptionWithFooterKey`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct EncryptionWithFooterKey {}
}

thrift_struct! {
    /// The column is encrypted with its own key (Thrift struct `EncryptionWithColumnKey`).
    #[derive(Debug, Clone, PartialEq, Eq, Default)]
    pub struct EncryptionWithColumnKey {
        /// 1: column path.
        1: required path_in_schema: Vec<String>,
        /// 2: metadata to retrieve the column key.
        2: optional key_metadata: Vec<u8>,
    }
}

thrift_struct! {
    /// The tail of a file with an encrypted footer (magic `PARE`), in front of the encrypted
    /// FileMetaData (Thrift struct `FileCryptoMetaData`).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct FileCryptoMetaData {
        /// 1: the algorithm.
        1: required encryption_algorithm: EncryptionAlgorithm,
        /// 2: metadata to retrieve the footer key.
        2: optional key_metadata: Vec<u8>,
    }
}

/// The encryption algorithm (Thrift union `EncryptionAlgorithm`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncryptionAlgorithm {
    /// Field 1 `AES_GCM_V1`.
    AesGcmV1(AesGcmV1),
    /// Field 2 `AES_GCM_CTR_V1`.
    AesGcmCtrV1(AesGcmCtrV1),
}

/// How a column chunk is encrypted (Thrift union `ColumnCryptoMetaData`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnCryptoMetaData {
    /// Field 1 `ENCRYPTION_WITH_FOOTER_KEY`.
    EncryptionWithFooterKey,
    /// Field 2 `ENCRYPTION_WITH_COLUMN_KEY`.
    EncryptionWithColumnKey(EncryptionWithColumnKey),
}

fn member_struct<T: ThriftType>(r: &mut Reader<'_>, wire: u8, what: &'static str) -> Result<T> {
    if wire != STRUCT {
        return Err(Error::out_of_spec(what).at_offset(r.position() as u64));
    }
    T::read(r, Ctx::NONE)
}

/// The `ENCRYPTION_WITH_COLUMN_KEY` member of a [`ColumnCryptoMetaData`].
#[cfg(feature = "metadata-extras")]
fn column_key(r: &mut Reader<'_>, wire: u8, what: &'static str) -> Result<EncryptionWithColumnKey> {
    member_struct(r, wire, what)
}

fn write_member<T: ThriftType>(w: &mut Writer<'_>, id: i16, v: &T) {
    let saved = w.struct_begin();
    w.field_header(id, STRUCT);
    v.write(w);
    w.struct_end(saved);
}

impl StructDef for EncryptionAlgorithm {
    const NAME: &'static str = "EncryptionAlgorithm";
    const IS_UNION: bool = true;
    const FIELDS: &'static [FieldDef] = &[
        FieldDef {
            id: 1,
            name: "AES_GCM_V1",
            ty: AesGcmV1::TY,
            required: false,
        },
        FieldDef {
            id: 2,
            name: "AES_GCM_CTR_V1",
            ty: AesGcmCtrV1::TY,
            required: false,
        },
    ];
}

impl crate::thrift::__Placeholder for EncryptionAlgorithm {
    fn placeholder() -> Self {
        EncryptionAlgorithm::AesGcmV1(AesGcmV1::default())
    }
}

impl ThriftType for EncryptionAlgorithm {
    const TY: Ty = Ty::Struct("EncryptionAlgorithm");
    const WIRE: u8 = STRUCT;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        const WHAT: &str = "EncryptionAlgorithm member is not a struct";
        read_union(
            r,
            "EncryptionAlgorithm must have exactly one known member",
            |r, id, wire| match id {
                1 => member_struct(r, wire, WHAT).map(|v| Some(EncryptionAlgorithm::AesGcmV1(v))),
                2 => {
                    member_struct(r, wire, WHAT).map(|v| Some(EncryptionAlgorithm::AesGcmCtrV1(v)))
                }
                _ => Ok(None),
            },
            |_| None,
        )
    }
    fn write(&self, w: &mut Writer<'_>) {
        match self {
            EncryptionAlgorithm::AesGcmV1(v) => write_member(w, 1, v),
            EncryptionAlgorithm::AesGcmCtrV1(v) => write_member(w, 2, v),
        }
    }
}

impl EncryptionAlgorithm {
    /// Appends the Thrift compact encoding of `self` to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        crate::thrift::encode(self, out)
    }
}

impl StructDef for ColumnCryptoMetaData {
    const NAME: &'static str = "ColumnCryptoMetaData";
    const IS_UNION: bool = true;
    const FIELDS: &'static [FieldDef] = &[
        FieldDef {
            id: 1,
            name: "ENCRYPTION_WITH_FOOTER_KEY",
            ty: EncryptionWithFooterKey::TY,
            required: false,
        },
        FieldDef {
            id: 2,
            name: "ENCRYPTION_WITH_COLUMN_KEY",
            ty: EncryptionWithColumnKey::TY,
            required: false,
        },
    ];
}

impl ThriftType for ColumnCryptoMetaData {
    const TY: Ty = Ty::Struct("ColumnCryptoMetaData");
    const WIRE: u8 = STRUCT;
    fn read(r: &mut Reader<'_>, _: Ctx) -> Result<Self> {
        const NAME: &str = "ColumnCryptoMetaData must have exactly one known member";
        const WHAT: &str = "ColumnCryptoMetaData member is not a struct";
        // Without `metadata-extras` (a lean reader, which needs to know only that a column is
        // encrypted, to refuse it with [`ErrorKind::Encrypted`](crate::ErrorKind::Encrypted))
        // the member's fields are skipped at the Thrift level, as every encryption detail is,
        // and read as empty: both members are empty structs to the function of all-empty
        // unions, which gives the errors `read_union` gives below (144 bytes less in the
        // size probe than `read_union` with a closure of its own).
        #[cfg(not(feature = "metadata-extras"))]
        {
            let id = crate::thrift::read_empty_union(r, NAME, WHAT, 0b110, false)?;
            Ok(if id == 1 {
                ColumnCryptoMetaData::EncryptionWithFooterKey
            } else {
                ColumnCryptoMetaData::EncryptionWithColumnKey(EncryptionWithColumnKey::default())
            })
        }
        #[cfg(feature = "metadata-extras")]
        read_union(
            r,
            NAME,
            |r, id, wire| match id {
                // An empty struct: skipped, fields a newer writer added included.
                1 => crate::thrift::read_empty(r, wire, WHAT)
                    .map(|()| Some(ColumnCryptoMetaData::EncryptionWithFooterKey)),
                2 => column_key(r, wire, WHAT)
                    .map(|v| Some(ColumnCryptoMetaData::EncryptionWithColumnKey(v))),
                _ => Ok(None),
            },
            |_| None,
        )
    }
    fn write(&self, w: &mut Writer<'_>) {
        match self {
            ColumnCryptoMetaData::EncryptionWithFooterKey => {
                write_member(w, 1, &EncryptionWithFooterKey {})
            }
            ColumnCryptoMetaData::EncryptionWithColumnKey(v) => write_member(w, 2, v),
        }
    }
}

impl FileCryptoMetaData {
    /// Decodes a FileCryptoMetaData from the start of `buf`: the value and the bytes it took.
    /// Never panics, for any input.
    pub fn decode(buf: &[u8]) -> Result<(FileCryptoMetaData, usize)> {
        crate::thrift::decode_prefix(buf, crate::Limits::default().nesting_depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ENCRYPTION_WITH_COLUMN_KEY { path_in_schema: ["a"], key_metadata: "k" }`, by hand:
    /// `2c` field 2 (delta 2), STRUCT; `19 18 01 61` field 1, LIST of 1 BINARY, "a"; `18 01 6b`
    /// field 2, BINARY, "k"; `00` stop (member); `00` stop (union). Decoded with
    /// `metadata-extras`; without it, skipped to an empty member (all a lean reader needs is
    /// that the column is encrypted), every byte consumed either way.
    #[test]
    fn column_key_member_is_decoded_or_skipped() {
        let bytes = [0x2c, 0x19, 0x18, 0x01, b'a', 0x18, 0x01, b'k', 0x00, 0x00];
        let (v, n) = crate::thrift::decode_prefix::<ColumnCryptoMetaData>(&bytes, 64).unwrap();
        assert_eq!(n, bytes.len());
        let member = if cfg!(feature = "metadata-extras") {
            EncryptionWithColumnKey {
                path_in_schema: alloc::vec![String::from("a")],
                key_metadata: Some(b"k".to_vec()),
            }
        } else {
            EncryptionWithColumnKey::default()
        };
        assert_eq!(v, ColumnCryptoMetaData::EncryptionWithColumnKey(member));
        // A member that is not a struct is an error either way.
        let e = crate::thrift::decode_prefix::<ColumnCryptoMetaData>(&[0x25, 0x02, 0x00], 64);
        assert_eq!(
            e.unwrap_err().to_string(),
            "invalid file: ColumnCryptoMetaData member is not a struct (byte offset 1)"
        );
    }
}

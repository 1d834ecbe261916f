//! Module AADs: the additional authenticated data that binds each encrypted module to its
//! place in its file.
//!
//! Spec: Encryption.md 4.4 "Additional Authenticated Data". A module's AAD is the file AAD
//! (the AAD prefix, if any, then `aad_file_unique` from the file) followed by the suffix: the
//! module type (1 byte), then for every module but the footer the row group ordinal and the
//! column ordinal (2 bytes each, little-endian), then for data pages and data page headers the
//! page ordinal (2 bytes, little-endian; data pages only are counted, from 0).
//!
//! Worked example: file AAD `aa bb`, the header of data page 3 of column 1 in row group 0:
//!
//! ```text
//! aa bb     file AAD (prefix + aad_file_unique)
//! 04        module type: Data Page Header
//! 00 00     row group ordinal 0
//! 01 00     column ordinal 1
//! 03 00     page ordinal 3
//! ```
//!
//! ```
//! use parket::encryption::{module_aad, ModuleType};
//! let aad = module_aad(&[0xaa, 0xbb], ModuleType::DataPageHeader, 0, 1, Some(3)).unwrap();
//! assert_eq!(aad, [0xaa, 0xbb, 4, 0, 0, 1, 0, 3, 0]);
//! ```

use alloc::vec::Vec;

use crate::error::{Error, Result};

/// The module types of Encryption.md 4.4.2, with their ordinals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModuleType {
    /// 0: the footer (FileMetaData).
    Footer = 0,
    /// 1: a column's ColumnMetaData encrypted with its column key.
    ColumnMetaData = 1,
    /// 2: a data page.
    DataPage = 2,
    /// 3: a dictionary page.
    DictionaryPage = 3,
    /// 4: a data page header.
    DataPageHeader = 4,
    /// 5: a dictionary page header.
    DictionaryPageHeader = 5,
    /// 6: a ColumnIndex.
    ColumnIndex = 6,
    /// 7: an OffsetIndex.
    OffsetIndex = 7,
    /// 8: a Bloom filter header.
    BloomFilterHeader = 8,
    /// 9: a Bloom filter bitset.
    BloomFilterBitset = 9,
}

impl ModuleType {
    /// The spec's name of the module type, for messages.
    pub fn name(self) -> &'static str {
        match self {
            ModuleType::Footer => "footer",
            ModuleType::ColumnMetaData => "column metadata",
            ModuleType::DataPage => "data page",
            ModuleType::DictionaryPage => "dictionary page",
            ModuleType::DataPageHeader => "data page header",
            ModuleType::DictionaryPageHeader => "dictionary page header",
            ModuleType::ColumnIndex => "column index",
            ModuleType::OffsetIndex => "offset index",
            ModuleType::BloomFilterHeader => "Bloom filter header",
            ModuleType::BloomFilterBitset => "Bloom filter bitset",
        }
    }

    /// Whether the AAD carries a page ordinal (data pages and their headers).
    pub fn has_page_ordinal(self) -> bool {
        matches!(self, ModuleType::DataPage | ModuleType::DataPageHeader)
    }
}

/// A 2-byte ordinal of the AAD suffix.
fn ordinal(what: &'static str, n: usize) -> Result<[u8; 2]> {
    // Spec: the ordinals are 2-byte shorts; parquet-java refuses those above i16::MAX.
    i16::try_from(n)
        .map(i16::to_le_bytes)
        .map_err(|_| Error::out_of_range(what, n as i64))
}

/// The AAD of one module: `file_aad`, the module type, and (except for the footer) the row
/// group and column ordinals, and for data pages and their headers `page` (the ordinal among
/// the chunk's data pages). Errors when an ordinal does not fit in 2 bytes (i16), or when
/// `page` is missing for a data page (or given for another module).
pub fn module_aad(
    file_aad: &[u8],
    module: ModuleType,
    row_group: usize,
    column: usize,
    page: Option<usize>,
) -> Result<Vec<u8>> {
    let mut aad = Vec::with_capacity(file_aad.len() + 7);
    aad.extend_from_slice(file_aad);
    aad.push(module as u8);
    if module == ModuleType::Footer {
        return Ok(aad);
    }
    aad.extend_from_slice(&ordinal("row group ordinal (AAD)", row_group)?);
    aad.extend_from_slice(&ordinal("column ordinal (AAD)", column)?);
    match (module.has_page_ordinal(), page) {
        (true, Some(p)) => aad.extend_from_slice(&ordinal("page ordinal (AAD)", p)?),
        (false, None) => {}
        _ => {
            return Err(Error::invalid_argument(
                "a page ordinal is part of the AAD of data pages and data page headers only",
            ))
        }
    }
    Ok(aad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_by_module_type() {
        // Encryption.md 4.4.2, the table: which modules carry which ordinals.
        assert_eq!(
            module_aad(b"F", ModuleType::Footer, 0, 0, None).unwrap(),
            [b'F', 0]
        );
        assert_eq!(
            module_aad(b"F", ModuleType::ColumnMetaData, 2, 0x0103, None).unwrap(),
            [b'F', 1, 2, 0, 3, 1]
        );
        assert_eq!(
            module_aad(b"", ModuleType::DataPage, 1, 2, Some(258)).unwrap(),
            [2, 1, 0, 2, 0, 2, 1]
        );
        assert_eq!(
            module_aad(b"", ModuleType::BloomFilterBitset, 0, 0, None).unwrap(),
            [9, 0, 0, 0, 0]
        );
        assert!(module_aad(b"", ModuleType::DataPage, 0, 0, None).is_err());
        assert!(module_aad(b"", ModuleType::DictionaryPage, 0, 0, Some(0)).is_err());
        // 32767 fits, 32768 does not.
        assert!(module_aad(b"", ModuleType::DataPage, 0, 0, Some(32767)).is_ok());
        let e = module_aad(b"", ModuleType::DataPage, 0, 0, Some(32768)).unwrap_err();
        assert_eq!(e.to_string(), "page ordinal (AAD) out of range: 32768");
    }
}

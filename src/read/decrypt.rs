//! Decryption as the reader applies it (Encryption.md 5): the footer (encrypted behind `PARE`,
//! or plaintext behind `PAR1` with its signature checked), each column's metadata, and the
//! page headers and pages of encrypted column chunks. The ciphers, AADs and keys are
//! [`crate::encryption`]'s; this module knows where the modules are.
//!
//! An encrypted footer's tail (the footer length counts both parts):
//!
//! ```text
//! FileCryptoMetaData | length (4, LE) | nonce (12) | encrypted FileMetaData | tag (16)
//!   | footer length (4, LE) | "PARE"
//! ```
//!
//! A plaintext footer with its signature:
//!
//! ```text
//! FileMetaData (with encryption_algorithm) | nonce (12) | tag (16) | footer length | "PAR1"
//! ```
//!
//! A column chunk encrypted with its own key keeps its ColumnMetaData as a GCM module in
//! `ColumnChunk.encrypted_column_metadata` (AAD module type 1); it is decrypted when the file
//! is opened if the key is known, and a chunk whose key is unknown is an error only when it is
//! read. Each page header (module type 5 for the dictionary page, 4 with the data page's
//! ordinal for data pages) is a GCM module in place of the plain header, and each page body
//! (`compressed_page_size` bytes) is a GCM module (`AES_GCM_V1`, types 3 and 2) or a CTR module
//! (`AES_GCM_CTR_V1`). The page walk ([`super::walk::PageWalk`]) decrypts the headers as it
//! finds them and the bodies for the readers, so every way of reading pages (column chunks,
//! records, scans through the offset index, typed rows, raw pages) decrypts the same way.
//! Column and offset indexes (types 6 and 7) and Bloom filter headers and bitsets (8 and 9)
//! are GCM modules too, decrypted where the reader reads them (`FileReader::column_index`,
//! `offset_index`, `bloom_filter`).

use alloc::vec::Vec;

use crate::encryption::cipher::{self, LENGTH_LEN, NONCE_LEN, TAG_LEN};
use crate::encryption::{module_aad, DecryptionProperties, Key, ModuleType};
use crate::error::{Error, ErrorKind, Result};
use crate::format::{
    AesGcmCtrV1, AesGcmV1, ColumnCryptoMetaData, ColumnMetaData, EncryptionAlgorithm,
    FileCryptoMetaData, FileMetaData, PageHeader, PageType,
};
use crate::limits::Limits;

fn decryption(module: &'static str, what: &'static str) -> Error {
    Error::new(ErrorKind::Decryption { module, what })
}

/// The file-wide state: algorithm, file AAD, footer key and the caller's keys.
pub(crate) struct FileDecryptor {
    ctr_pages: bool,
    file_aad: Vec<u8>,
    footer_key: Option<Key>,
    props: DecryptionProperties,
}

impl core::fmt::Debug for FileDecryptor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FileDecryptor")
            .field("ctr_pages", &self.ctr_pages)
            .finish_non_exhaustive()
    }
}

/// The file AAD (prefix + aad_file_unique) from the algorithm and the caller's prefix.
fn file_aad(alg: &EncryptionAlgorithm, props: &DecryptionProperties) -> Result<(Vec<u8>, bool)> {
    let (prefix, unique, supply, ctr) = match alg {
        EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
            aad_prefix,
            aad_file_unique,
            supply_aad_prefix,
        }) => (aad_prefix, aad_file_unique, supply_aad_prefix, false),
        EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
            aad_prefix,
            aad_file_unique,
            supply_aad_prefix,
        }) => (aad_prefix, aad_file_unique, supply_aad_prefix, true),
    };
    let given = props.given_aad_prefix();
    let prefix: &[u8] = match (prefix.as_deref(), given) {
        (Some(stored), Some(given)) if stored != given => {
            return Err(decryption(
                "footer",
                "the AAD prefix given differs from the one the file stores",
            ))
        }
        (Some(stored), _) => stored,
        (None, Some(given)) => given,
        (None, None) if *supply == Some(true) => {
            return Err(decryption(
                "footer",
                "the file was written with an AAD prefix that it does not store: supply it \
                 (--aad-prefix)",
            ))
        }
        (None, None) => &[],
    };
    let mut aad = prefix.to_vec();
    aad.extend_from_slice(unique.as_deref().unwrap_or(&[]));
    Ok((aad, ctr))
}

/// Splits a length-prefixed module off the front of `buf`: the module (without its length)
/// and the bytes it took with its length. Never panics, for any input.
pub(crate) fn split_module<'b>(buf: &'b [u8], what: &'static str) -> Result<(&'b [u8], usize)> {
    let len_bytes = buf
        .get(..LENGTH_LEN)
        .ok_or_else(|| Error::truncated(what, LENGTH_LEN as u64, buf.len() as u64))?;
    let mut l = [0u8; 4];
    l.copy_from_slice(len_bytes);
    let len = u32::from_le_bytes(l) as usize;
    let body = buf
        .get(LENGTH_LEN..)
        .and_then(|b| b.get(..len))
        .ok_or_else(|| {
            Error::truncated(
                what,
                len as u64,
                buf.len().saturating_sub(LENGTH_LEN) as u64,
            )
        })?;
    Ok((body, LENGTH_LEN + len))
}

/// Decodes the footer bytes (between the data and the 8-byte tail), decrypting or verifying
/// them with `props`. `encrypted`: the tail's magic was `PARE`. Returns the metadata, and the
/// decryptor when the file is encrypted (a plaintext footer without `encryption_algorithm`
/// is a plain file).
pub(crate) fn open_footer(
    footer: &[u8],
    encrypted: bool,
    props: DecryptionProperties,
    limits: &Limits,
) -> Result<(FileMetaData, Option<FileDecryptor>)> {
    let depth = limits.nesting_depth;
    if encrypted {
        let (crypto, used) = FileCryptoMetaData::decode(footer)?;
        let (aad, ctr_pages) = file_aad(&crypto.encryption_algorithm, &props)?;
        let key = props
            .find_footer_key(crypto.key_metadata.as_deref())
            .ok_or_else(|| {
                decryption(
                    "footer",
                    "no footer key was given (nor one for its key_metadata)",
                )
            })?;
        let rest = footer.get(used..).unwrap_or(&[]);
        let (module, _) =
            split_module(rest, "encrypted footer module").map_err(|e| e.at_offset(used as u64))?;
        let footer_aad = module_aad(&aad, ModuleType::Footer, 0, 0, None)?;
        let plain = cipher::decrypt_gcm(&key, module, &footer_aad, "footer")?;
        let (metadata, _) = crate::thrift::decode_prefix::<FileMetaData>(&plain, depth)
            .map_err(|e| e.without_offset())?;
        let d = FileDecryptor {
            ctr_pages,
            file_aad: aad,
            footer_key: Some(key),
            props,
        };
        return Ok((metadata, Some(d)));
    }
    let (metadata, used) = crate::thrift::decode_prefix::<FileMetaData>(footer, depth)?;
    let Some(alg) = &metadata.encryption_algorithm else {
        return Ok((metadata, None));
    };
    let (aad, ctr_pages) = file_aad(alg, &props)?;
    // Spec 5.5: the signature (nonce, tag) follows the footer. Without the footer key, the
    // plaintext footer is read unverified: its plaintext columns are readable as by a reader
    // that knows nothing of encryption, and its encrypted columns need their keys anyway.
    let key = props.find_footer_key(metadata.footer_signing_key_metadata.as_deref());
    if let Some(key) = &key {
        let signature = footer.get(used..).unwrap_or(&[]);
        if signature.len() != NONCE_LEN + TAG_LEN {
            return Err(decryption(
                "footer",
                "the plaintext footer is not followed by exactly its 28-byte signature",
            )
            .at_offset(used as u64));
        }
        let footer_aad = module_aad(&aad, ModuleType::Footer, 0, 0, None)?;
        cipher::verify_signature(key, &footer[..used], signature, &footer_aad)?;
    }
    let d = FileDecryptor {
        ctr_pages,
        file_aad: aad,
        footer_key: key,
        props,
    };
    Ok((metadata, Some(d)))
}

/// What a reader knows of one column chunk's encryption.
#[derive(Clone)]
pub(crate) enum ChunkKey {
    /// Not encrypted.
    Plain,
    /// Encrypted with this key.
    Key(Key),
    /// Encrypted, key unknown: `what` says which key.
    Missing(&'static str),
}

impl FileDecryptor {
    /// Decrypts the ColumnMetaData of every chunk whose key is known, in place; returns each
    /// chunk's key state, by row group then column.
    pub(crate) fn open_columns(
        &self,
        metadata: &mut FileMetaData,
        paths: &[alloc::string::String],
        limits: &Limits,
    ) -> Result<Vec<Vec<ChunkKey>>> {
        let mut out = Vec::with_capacity(metadata.row_groups.len());
        for (rg_index, rg) in metadata.row_groups.iter_mut().enumerate() {
            let rg_ordinal = rg.ordinal.map_or(rg_index, |o| o.max(0) as usize);
            let mut keys = Vec::with_capacity(rg.columns.len());
            for (c, chunk) in rg.columns.iter_mut().enumerate() {
                let path = paths.get(c).map_or("", |p| p.as_str());
                let state = match &chunk.crypto_metadata {
                    None => ChunkKey::Plain,
                    Some(ColumnCryptoMetaData::EncryptionWithFooterKey) => match &self.footer_key {
                        Some(k) => ChunkKey::Key(k.clone()),
                        None => ChunkKey::Missing("no footer key was given for this column"),
                    },
                    Some(ColumnCryptoMetaData::EncryptionWithColumnKey(ck)) => {
                        match self.props.find_column_key(path, ck.key_metadata.as_deref()) {
                            None => ChunkKey::Missing(
                                "no key was given for this column (nor for its key_metadata)",
                            ),
                            Some(key) => {
                                if let Some(enc) = &chunk.encrypted_column_metadata {
                                    let locate =
                                        |e: Error| e.in_column(path).in_row_group(rg_index);
                                    let (module, _) =
                                        split_module(enc, "encrypted column metadata")
                                            .map_err(locate)?;
                                    let aad = module_aad(
                                        &self.file_aad,
                                        ModuleType::ColumnMetaData,
                                        rg_ordinal,
                                        c,
                                        None,
                                    )
                                    .map_err(locate)?;
                                    let plain =
                                        cipher::decrypt_gcm(&key, module, &aad, "column metadata")
                                            .map_err(locate)?;
                                    let (meta, _) = crate::thrift::decode_prefix::<ColumnMetaData>(
                                        &plain,
                                        limits.nesting_depth,
                                    )
                                    .map_err(|e| locate(e.without_offset()))?;
                                    chunk.meta_data = Some(meta);
                                }
                                ChunkKey::Key(key)
                            }
                        }
                    }
                };
                keys.push(state);
            }
            out.push(keys);
        }
        Ok(out)
    }

    /// The decryptor of one column chunk's modules (`row_group`: the row group's ordinal).
    pub(crate) fn chunk(&self, key: Key, row_group: usize, column: usize) -> ChunkDecryptor {
        ChunkDecryptor {
            key,
            ctr_pages: self.ctr_pages,
            file_aad: self.file_aad.clone(),
            row_group,
            column,
        }
    }
}

/// Decrypts the modules of one column chunk: page headers and pages (as the page walk finds
/// them: [`super::walk::PageWalk`]), column and offset indexes, Bloom filter headers and
/// bitsets.
#[derive(Clone)]
pub(crate) struct ChunkDecryptor {
    key: Key,
    ctr_pages: bool,
    file_aad: Vec<u8>,
    row_group: usize,
    column: usize,
}

impl core::fmt::Debug for ChunkDecryptor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChunkDecryptor")
            .field("row_group", &self.row_group)
            .field("column", &self.column)
            .finish_non_exhaustive()
    }
}

impl ChunkDecryptor {
    /// The AAD of `module`; `ordinal` (the data page's, counted from 0 without the dictionary
    /// page) is used only by the module types that carry one.
    fn aad(&self, module: ModuleType, ordinal: usize) -> Result<Vec<u8>> {
        let page = module.has_page_ordinal().then_some(ordinal);
        module_aad(&self.file_aad, module, self.row_group, self.column, page)
    }

    /// Decrypts and decodes the page header module at the front of `buf` (`first`: the chunk's
    /// first page, which may be the dictionary page's; `ordinal`: the data page ordinal it has
    /// if it is a data page's). Returns the header and the bytes the module took. Never panics,
    /// for any input.
    pub(crate) fn header(
        &self,
        buf: &[u8],
        first: bool,
        ordinal: usize,
        limits: &Limits,
    ) -> Result<(PageHeader, usize)> {
        let (module, used) = split_module(buf, "encrypted page header module")?;
        // The header's type is inside it: a first page is the dictionary page's header when it
        // authenticates as one (its AAD differs from a data page header's).
        let mut plain = None;
        if first {
            let aad = self.aad(ModuleType::DictionaryPageHeader, 0)?;
            plain = cipher::decrypt_gcm(&self.key, module, &aad, "dictionary page header").ok();
        }
        let dictionary = plain.is_some();
        let plain = match plain {
            Some(p) => p,
            None => {
                let aad = self.aad(ModuleType::DataPageHeader, ordinal)?;
                cipher::decrypt_gcm(&self.key, module, &aad, "data page header")?
            }
        };
        let (header, _) = crate::thrift::decode_prefix::<PageHeader>(&plain, limits.nesting_depth)
            .map_err(|e| {
                // Decrypted bytes: their offsets are not the file's, and a header cut short
                // inside an authenticated module is not a matter of reading more.
                let e = e.without_offset();
                match e.kind() {
                    ErrorKind::Truncated { .. } => {
                        Error::out_of_spec("a decrypted page header ends before its last field")
                    }
                    _ => e,
                }
            })?;
        if dictionary != (header.type_ == PageType::DictionaryPage) {
            return Err(decryption(
                "page header",
                "the header's page type differs from the module type it authenticated as",
            ));
        }
        Ok((header, used))
    }

    /// Decrypts the body module of the page whose header is `header` (all of `body`, the page's
    /// `compressed_page_size` bytes as stored; `ordinal`: the data page ordinal). Never panics,
    /// for any input.
    pub(crate) fn body(&self, header: &PageHeader, ordinal: usize, body: &[u8]) -> Result<Vec<u8>> {
        let (module, used) = split_module(body, "encrypted page module")?;
        if used != body.len() {
            return Err(Error::out_of_spec(
                "an encrypted page's module length differs from its compressed_page_size",
            ));
        }
        let (kind, name) = match header.type_ {
            PageType::DictionaryPage => (ModuleType::DictionaryPage, "dictionary page"),
            PageType::DataPage | PageType::DataPageV2 => (ModuleType::DataPage, "data page"),
            _ => {
                return Err(Error::unsupported(
                    "encrypted pages other than dictionary and data pages",
                ))
            }
        };
        if self.ctr_pages {
            cipher::decrypt_ctr(&self.key, module)
        } else {
            let aad = self.aad(kind, ordinal)?;
            cipher::decrypt_gcm(&self.key, module, &aad, name)
        }
    }

    /// Decrypts a whole-module structure of this chunk (column index, offset index, Bloom
    /// filter header or bitset) given as its length-prefixed bytes (at the front of `buf`);
    /// returns the plaintext and the bytes the module took.
    pub(crate) fn module(&self, module: ModuleType, buf: &[u8]) -> Result<(Vec<u8>, usize)> {
        let (m, used) = split_module(buf, module.name())?;
        let aad = self.aad(module, 0)?;
        Ok((
            cipher::decrypt_gcm(&self.key, m, &aad, module.name())?,
            used,
        ))
    }
}

impl super::FileReader<'_> {
    /// The Bloom filter of an encrypted chunk at file offset `start`: its header module
    /// (module type 8) and, right after it, its bitset module (module type 9), each read as
    /// its 4-byte length says (checked against [`Limits::metadata_bytes`]) and decrypted.
    pub(crate) fn encrypted_bloom_filter(
        &self,
        d: &ChunkDecryptor,
        start: u64,
    ) -> Result<crate::bloom::Sbbf> {
        let (head, bits_at) = self.read_module(d, ModuleType::BloomFilterHeader, start)?;
        let (header, _) = crate::format::BloomFilterHeader::decode(&head)
            .map_err(|e| e.without_offset().at_offset(start))?;
        let (bits, _) = self.read_module(d, ModuleType::BloomFilterBitset, bits_at)?;
        if i64::try_from(bits.len()).ok() != Some(i64::from(header.num_bytes)) {
            return Err(Error::out_of_spec(
                "a decrypted Bloom filter bitset's size differs from BloomFilterHeader.num_bytes",
            )
            .at_offset(bits_at));
        }
        crate::bloom::Sbbf::from_bytes(&bits).map_err(|e| e.without_offset().at_offset(bits_at))
    }

    /// Reads the module at file offset `at` (its 4-byte length first) and decrypts it as a
    /// `module` of the chunk `d` decrypts; returns the plaintext and the offset after it.
    fn read_module(
        &self,
        d: &ChunkDecryptor,
        module: ModuleType,
        at: u64,
    ) -> Result<(Vec<u8>, u64)> {
        let len = self.read_range(at..at.saturating_add(LENGTH_LEN as u64), module.name())?;
        let len = <[u8; 4]>::try_from(&*len)
            .map_err(|_| Error::truncated(module.name(), 4, 0).at_offset(at))?;
        let n = LENGTH_LEN as u64 + u64::from(u32::from_le_bytes(len));
        self.limits()
            .check_metadata_bytes(n)
            .map_err(|e| e.at_offset(at))?;
        let bytes = self.read_range(at..at.saturating_add(n), module.name())?;
        let (plain, used) = d.module(module, &bytes).map_err(|e| e.at_offset(at))?;
        Ok((plain, at + used as u64))
    }
}

//! Parquet Modular Encryption as the writer applies it (Encryption.md 5), behind the feature
//! `encryption-write`: which key encrypts which column, and every module the file then holds.
//! The ciphers and AADs are [`crate::encryption`]'s; the nonces come from the operating
//! system's random source, a fresh one for every module
//! ([`crate::encryption::random`]).
//!
//! What an encrypted column chunk looks like (module = `length (4, LE) | nonce (12) |
//! ciphertext | tag (16)`, the tag absent from CTR pages):
//!
//! ```text
//! [dictionary page header module (type 5) | dictionary page module (type 3)]
//! data page header module (type 4, page ordinal 0) | data page module (type 2, ordinal 0)
//! data page header module (type 4, page ordinal 1) | ...
//! ```
//!
//! A page header's `compressed_page_size` is the size of its page's module (length prefix
//! included), its `crc` the CRC-32 of that module as stored; `uncompressed_page_size` stays the
//! plaintext's. The column and offset indexes and the Bloom filter's header and bitset are GCM
//! modules of their own (types 6, 7, 8, 9). The `ColumnMetaData` of a column whose key is not
//! the footer key, and of every encrypted column under a plaintext footer, is a GCM module
//! (type 1) in `ColumnChunk.encrypted_column_metadata`; under an encrypted footer such a chunk
//! has no plaintext `meta_data`, under a plaintext footer it keeps one stripped of everything
//! that tells about the values (statistics, encoding statistics, size statistics and
//! geospatial statistics: parquet-java and parquet-cpp strip the first two; the level
//! histograms and bounding boxes of the newer two tell as much).
//!
//! The file's tail (Encryption.md 5.4 and 5.5):
//!
//! ```text
//! encrypted footer:  FileCryptoMetaData | footer module (type 0) | length (4, LE) | "PARE"
//!                    (and "PARE" at offset 0)
//! plaintext footer:  FileMetaData (with encryption_algorithm, footer_signing_key_metadata)
//!                    | nonce (12) | tag (16) | length (4, LE) | "PAR1"
//! ```
//!
//! The file AAD is the AAD prefix (if any) followed by 8 random bytes, `aad_file_unique`, as
//! parquet-java writes. Writing a uniformly encrypted file:
//!
//! ```
//! use parket::encryption::Key;
//! use parket::schema::Schema;
//! use parket::values::ValuesRef;
//! use parket::write::{FileEncryptionProperties, FileWriter, WriteOptions};
//! let key = Key::new(b"0123456789012345").unwrap();
//! let options = WriteOptions::default().encryption(FileEncryptionProperties::new(key));
//! let schema = Schema::parse("message m { required int32 x; }").unwrap();
//! let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
//! let mut rg = w.next_row_group().unwrap();
//! rg.write("x", ValuesRef::Int32(&[7]), &[], &[]).unwrap();
//! rg.finish().unwrap();
//! w.finish().unwrap();
//! let file = w.into_inner();
//! assert_eq!(&file[..4], b"PARE");
//! assert_eq!(&file[file.len() - 4..], b"PARE");
//! ```

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::encryption::cipher::{encrypt_ctr, encrypt_gcm, GCM_OVERHEAD, TAG_LEN};
use crate::encryption::{module_aad, random, Key, ModuleType};
use crate::error::{Error, Result};
use crate::format::{
    AesGcmCtrV1, AesGcmV1, ColumnChunk, ColumnCryptoMetaData, EncryptionAlgorithm,
    EncryptionWithColumnKey, FileCryptoMetaData, FileMetaData, PageType,
};
use crate::page::encode::EncodedPage;
use crate::schema::Schema;

/// Bytes of `aad_file_unique` (parquet-java's `AAD_FILE_UNIQUE_LENGTH`).
const AAD_FILE_UNIQUE_LEN: usize = 8;

/// The encryption algorithm (Encryption.md 4.1, 4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// `AES_GCM_V1`: every module, pages included, AES-GCM (authenticated).
    #[default]
    AesGcmV1,
    /// `AES_GCM_CTR_V1`: pages AES-CTR (not authenticated, faster), every other module
    /// AES-GCM.
    AesGcmCtrV1,
}

/// A key the writer encrypts with, and the `key_metadata` stored beside it for readers to
/// find the key with (Encryption.md 4.3).
#[derive(Debug, Clone, PartialEq)]
struct WriteKey {
    key: Key,
    metadata: Option<Vec<u8>>,
}

/// How [`FileWriter`](crate::write::FileWriter) encrypts a file (set with
/// [`WriteOptions::encryption`](crate::write::WriteOptions::encryption)): the algorithm, the
/// footer key, keys per column, the footer mode and the AAD prefix.
///
/// Without column keys every column is encrypted with the footer key (uniform encryption);
/// with column keys, the columns given are encrypted with theirs and every other column is
/// left in plaintext. Keys print as their size only (`Key(128 bits)`).
///
/// ```
/// use parket::encryption::Key;
/// use parket::write::{Algorithm, FileEncryptionProperties};
/// let props = FileEncryptionProperties::new(Key::new(b"0123456789012345").unwrap())
///     .footer_key_metadata(b"kf")
///     .column_key_with_metadata("a.b", Key::new(b"1234567890123450").unwrap(), b"kc1")
///     .algorithm(Algorithm::AesGcmCtrV1)
///     .plaintext_footer(true)
///     .aad_prefix(b"table.part0")
///     .store_aad_prefix(false);
/// assert!(!format!("{props:?}").contains("0123456789012345"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct FileEncryptionProperties {
    algorithm: Algorithm,
    footer: WriteKey,
    columns: BTreeMap<String, WriteKey>,
    plaintext_footer: bool,
    aad_prefix: Option<Vec<u8>>,
    store_aad_prefix: bool,
}

impl FileEncryptionProperties {
    /// `AES_GCM_V1`, an encrypted footer, every column encrypted with `footer_key`, no AAD
    /// prefix, no key metadata.
    pub fn new(footer_key: Key) -> Self {
        FileEncryptionProperties {
            algorithm: Algorithm::AesGcmV1,
            footer: WriteKey {
                key: footer_key,
                metadata: None,
            },
            columns: BTreeMap::new(),
            plaintext_footer: false,
            aad_prefix: None,
            store_aad_prefix: true,
        }
    }

    /// The algorithm.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// The footer key's `key_metadata` (in `FileCryptoMetaData`, or as
    /// `footer_signing_key_metadata` under a plaintext footer).
    pub fn footer_key_metadata(mut self, metadata: impl AsRef<[u8]>) -> Self {
        self.footer.metadata = Some(metadata.as_ref().to_vec());
        self
    }

    /// Encrypts the column at `path` (dotted) with `key`. Once any column has a key, the
    /// columns without one are written in plaintext.
    pub fn column_key(mut self, path: &str, key: Key) -> Self {
        self.columns.insert(
            String::from(path),
            WriteKey {
                key,
                metadata: None,
            },
        );
        self
    }

    /// [`column_key`](Self::column_key), with the key's `key_metadata`.
    pub fn column_key_with_metadata(
        mut self,
        path: &str,
        key: Key,
        metadata: impl AsRef<[u8]>,
    ) -> Self {
        self.columns.insert(
            String::from(path),
            WriteKey {
                key,
                metadata: Some(metadata.as_ref().to_vec()),
            },
        );
        self
    }

    /// A plaintext footer, signed with the footer key (Encryption.md 5.5): readers without keys
    /// read the plaintext columns. Default: an encrypted footer.
    pub fn plaintext_footer(mut self, plaintext: bool) -> Self {
        self.plaintext_footer = plaintext;
        self
    }

    /// The AAD prefix (Encryption.md 4.4.1), binding the file to its name or place.
    pub fn aad_prefix(mut self, prefix: impl AsRef<[u8]>) -> Self {
        self.aad_prefix = Some(prefix.as_ref().to_vec());
        self
    }

    /// Whether the AAD prefix is stored in the file (default) or left for readers to supply.
    pub fn store_aad_prefix(mut self, store: bool) -> Self {
        self.store_aad_prefix = store;
        self
    }
}

/// One file's encryption: the properties, the file AAD, and each leaf column's key.
#[derive(Debug)]
pub(crate) struct FileEncryptor {
    props: FileEncryptionProperties,
    file_aad: Vec<u8>,
    algorithm: EncryptionAlgorithm,
    /// Per leaf column, in schema order: its key and crypto metadata, `None` in plaintext.
    columns: Vec<Option<(Key, ColumnCryptoMetaData)>>,
}

impl FileEncryptor {
    /// Resolves each column's key; errors for a column key whose path is not a leaf column.
    /// Draws `aad_file_unique`.
    pub fn new(props: FileEncryptionProperties, schema: &Schema) -> Result<FileEncryptor> {
        for path in props.columns.keys() {
            if schema.column_index(path.as_str()).is_none() {
                return Err(Error::invalid_argument(alloc::format!(
                    "an encryption key for column {path:?}, which is not a leaf column of the \
                     schema"
                )));
            }
        }
        let columns = schema
            .columns()
            .iter()
            .map(|c| {
                if props.columns.is_empty() {
                    return Some((
                        props.footer.key.clone(),
                        ColumnCryptoMetaData::EncryptionWithFooterKey,
                    ));
                }
                let k = props.columns.get(&c.path_string())?;
                let crypto =
                    ColumnCryptoMetaData::EncryptionWithColumnKey(EncryptionWithColumnKey {
                        path_in_schema: c.path.clone(),
                        key_metadata: k.metadata.clone(),
                    });
                Some((k.key.clone(), crypto))
            })
            .collect();
        let mut unique = alloc::vec![0u8; AAD_FILE_UNIQUE_LEN];
        random::fill(&mut unique)?;
        let mut file_aad = props.aad_prefix.clone().unwrap_or_default();
        file_aad.extend_from_slice(&unique);
        let stored_prefix = props.aad_prefix.clone().filter(|_| props.store_aad_prefix);
        let supply = (props.aad_prefix.is_some() && !props.store_aad_prefix).then_some(true);
        let algorithm = match props.algorithm {
            Algorithm::AesGcmV1 => EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
                aad_prefix: stored_prefix,
                aad_file_unique: Some(unique),
                supply_aad_prefix: supply,
            }),
            Algorithm::AesGcmCtrV1 => EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
                aad_prefix: stored_prefix,
                aad_file_unique: Some(unique),
                supply_aad_prefix: supply,
            }),
        };
        Ok(FileEncryptor {
            props,
            file_aad,
            algorithm,
            columns,
        })
    }

    /// The magic at both ends of the file: `PARE` under an encrypted footer, else `PAR1`.
    pub fn magic(&self) -> &'static [u8; 4] {
        if self.props.plaintext_footer {
            b"PAR1"
        } else {
            b"PARE"
        }
    }

    /// The encryptor of leaf column `column`'s chunk in row group `row_group`; `None` for a
    /// plaintext column.
    pub fn chunk(&self, row_group: usize, column: usize) -> Option<ChunkEncryptor> {
        let (key, _) = self.columns.get(column)?.as_ref()?;
        Some(ChunkEncryptor {
            key: key.clone(),
            ctr_pages: self.props.algorithm == Algorithm::AesGcmCtrV1,
            file_aad: self.file_aad.clone(),
            row_group,
            column,
            data_pages: 0,
        })
    }

    /// Sets a finished chunk's `crypto_metadata` and, where Encryption.md 5.3 asks for it,
    /// encrypts its `ColumnMetaData` into `encrypted_column_metadata` (keeping a stripped
    /// copy under a plaintext footer, none under an encrypted one).
    pub fn seal_column(
        &self,
        chunk: &mut ColumnChunk,
        row_group: usize,
        column: usize,
    ) -> Result<()> {
        let Some(Some((key, crypto))) = self.columns.get(column) else {
            return Ok(());
        };
        chunk.crypto_metadata = Some(crypto.clone());
        let own_key = matches!(crypto, ColumnCryptoMetaData::EncryptionWithColumnKey(_));
        if !own_key && !self.props.plaintext_footer {
            return Ok(());
        }
        let Some(meta) = chunk.meta_data.take() else {
            return Err(Error::unsupported("a column chunk without metadata"));
        };
        let mut plain = Vec::new();
        meta.encode(&mut plain);
        let aad = module_aad(
            &self.file_aad,
            ModuleType::ColumnMetaData,
            row_group,
            column,
            None,
        )?;
        let mut module = Vec::with_capacity(plain.len() + GCM_OVERHEAD);
        encrypt_gcm(key, &random::nonce()?, &plain, &aad, &mut module)?;
        chunk.encrypted_column_metadata = Some(module);
        if self.props.plaintext_footer {
            let mut stripped = meta;
            stripped.statistics = None;
            stripped.encoding_stats = None;
            stripped.size_statistics = None;
            stripped.geospatial_statistics = None;
            chunk.meta_data = Some(stripped);
        }
        Ok(())
    }

    /// The file's tail after the page indexes: the footer, encrypted or signed, its length and
    /// the magic. Sets `encryption_algorithm` and `footer_signing_key_metadata` in `meta`
    /// under a plaintext footer.
    pub fn footer(&self, meta: &mut FileMetaData) -> Result<Vec<u8>> {
        let key = &self.props.footer.key;
        let aad = module_aad(&self.file_aad, ModuleType::Footer, 0, 0, None)?;
        let mut out = Vec::new();
        if self.props.plaintext_footer {
            meta.encryption_algorithm = Some(self.algorithm.clone());
            meta.footer_signing_key_metadata = self.props.footer.metadata.clone();
            meta.encode(&mut out);
            // The signature: the nonce and tag of the footer's GCM encryption (5.5).
            let nonce = random::nonce()?;
            let mut sealed = Vec::with_capacity(out.len() + GCM_OVERHEAD);
            encrypt_gcm(key, &nonce, &out, &aad, &mut sealed)?;
            let tag = sealed
                .get(sealed.len() - TAG_LEN..)
                .ok_or(Error::unsupported("a GCM module without its tag"))?;
            out.extend_from_slice(&nonce);
            out.extend_from_slice(tag);
        } else {
            FileCryptoMetaData {
                encryption_algorithm: self.algorithm.clone(),
                key_metadata: self.props.footer.metadata.clone(),
            }
            .encode(&mut out);
            let mut plain = Vec::new();
            meta.encode(&mut plain);
            encrypt_gcm(key, &random::nonce()?, &plain, &aad, &mut out)?;
        }
        let len = u32::try_from(out.len())
            .map_err(|_| Error::limit("footer bytes", out.len() as u64, u32::MAX as u64))?;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(self.magic());
        Ok(out)
    }
}

/// Encrypts the modules of one column chunk: its pages in order (counting the data pages for
/// their AADs), and its indexes and Bloom filter.
#[derive(Debug, Clone)]
pub(crate) struct ChunkEncryptor {
    key: Key,
    ctr_pages: bool,
    file_aad: Vec<u8>,
    row_group: usize,
    column: usize,
    /// Data pages encrypted so far: the next data page's ordinal.
    data_pages: usize,
}

impl ChunkEncryptor {
    fn aad(&self, module: ModuleType) -> Result<Vec<u8>> {
        let page = module.has_page_ordinal().then_some(self.data_pages);
        module_aad(&self.file_aad, module, self.row_group, self.column, page)
    }

    /// `plain` as a GCM module of type `module` (a column or offset index, a Bloom filter
    /// header or bitset), appended to `out`.
    pub fn module(&self, module: ModuleType, plain: &[u8], out: &mut Vec<u8>) -> Result<()> {
        encrypt_gcm(&self.key, &random::nonce()?, plain, &self.aad(module)?, out)
    }

    /// The page as stored: its header module, then its body module. Returns the bytes and the
    /// header module's length.
    pub fn page(&mut self, page: &EncodedPage<'_>) -> Result<(Vec<u8>, usize)> {
        let [_, first, last] = page.parts();
        let (body_type, header_type) = if page.header().type_ == PageType::DictionaryPage {
            (ModuleType::DictionaryPage, ModuleType::DictionaryPageHeader)
        } else {
            (ModuleType::DataPage, ModuleType::DataPageHeader)
        };
        let mut body = Vec::with_capacity(first.len() + last.len());
        body.extend_from_slice(first);
        body.extend_from_slice(last);
        let mut module = Vec::with_capacity(body.len() + GCM_OVERHEAD);
        let nonce = random::nonce()?;
        if self.ctr_pages {
            encrypt_ctr(&self.key, &nonce, &body, &mut module)?;
        } else {
            encrypt_gcm(&self.key, &nonce, &body, &self.aad(body_type)?, &mut module)?;
        }
        let mut header = page.header().clone();
        header.compressed_page_size = i32::try_from(module.len())
            .map_err(|_| Error::limit("page size", module.len() as u64, i32::MAX as u64))?;
        if header.crc.is_some() {
            // Spec (PageHeader.crc): the CRC of the page as written, here the encrypted module.
            header.crc = Some(crate::bytes::crc32::crc32(&module) as i32);
        }
        let mut header_bytes = Vec::new();
        header.encode(&mut header_bytes);
        let mut out = Vec::with_capacity(header_bytes.len() + GCM_OVERHEAD + module.len());
        encrypt_gcm(
            &self.key,
            &random::nonce()?,
            &header_bytes,
            &self.aad(header_type)?,
            &mut out,
        )?;
        let header_len = out.len();
        out.extend_from_slice(&module);
        if body_type == ModuleType::DataPage {
            self.data_pages += 1;
        }
        Ok((out, header_len))
    }
}

/// Replaces `buf`, a plaintext module of the chunk `(row group, column)`, with its GCM module
/// of type `module` when that chunk is encrypted.
pub(crate) fn seal_module(
    encryptor: Option<&FileEncryptor>,
    module: ModuleType,
    (row_group, column): (usize, usize),
    buf: &mut Vec<u8>,
) -> Result<()> {
    let Some(c) = encryptor.and_then(|e| e.chunk(row_group, column)) else {
        return Ok(());
    };
    let mut out = Vec::with_capacity(buf.len() + GCM_OVERHEAD);
    c.module(module, buf, &mut out)?;
    *buf = out;
    Ok(())
}

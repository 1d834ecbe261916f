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

#[cfg(test)]
mod tests {
    //! The bytes the writer lays out, taken apart with the spec's rules alone (the module
    //! framing, the AADs of Encryption.md 4.4 and the NIST-checked ciphers), not with the
    //! reader.
    use super::*;
    use crate::encryption::cipher::{decrypt_ctr, decrypt_gcm, verify_signature, NONCE_LEN};
    use crate::format::{ColumnMetaData, PageHeader};
    use crate::thrift::decode_prefix;
    use crate::values::ValuesRef;
    use crate::write::{FileWriter, WriteOptions};

    fn k(b: u8) -> Key {
        Key::new(&[b; 16]).unwrap()
    }

    /// A file of columns `x` (INT32, 300 rows: 3 pages of 100) and `y` (optional DOUBLE).
    fn write(props: FileEncryptionProperties) -> Vec<u8> {
        let schema = Schema::parse("message m { required int32 x; optional double y; }").unwrap();
        let options = WriteOptions::default()
            .dictionary(false)
            .codec(crate::compression::Codec::Uncompressed)
            .max_rows_per_page(100)
            .encryption(props);
        let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
        let mut rg = w.next_row_group().unwrap();
        let xs: Vec<i32> = (0..300).collect();
        rg.write("x", ValuesRef::Int32(&xs), &[], &[]).unwrap();
        let ys: Vec<f64> = (0..150).map(|i| i as f64 - 0.5).collect();
        let def: Vec<u16> = (0..300).map(|i| (i % 2) as u16).collect();
        rg.write("y", ValuesRef::Double(&ys), &def, &[]).unwrap();
        rg.finish().unwrap();
        w.finish().unwrap();
        w.into_inner()
    }

    /// The module at `at` (without its length) and the bytes it takes.
    fn module(file: &[u8], at: usize) -> (&[u8], usize) {
        let len = u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
        (&file[at + 4..at + 4 + len], 4 + len)
    }

    fn tail(file: &[u8]) -> &[u8] {
        let n = file.len();
        let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
        &file[n - 8 - len..n - 8]
    }

    fn aes_gcm_v1(a: &EncryptionAlgorithm) -> &AesGcmV1 {
        match a {
            EncryptionAlgorithm::AesGcmV1(g) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn encrypted_footer_uniform() {
        let file = write(FileEncryptionProperties::new(k(1)).footer_key_metadata(b"kf"));
        assert_eq!(&file[..4], b"PARE");
        assert_eq!(&file[file.len() - 4..], b"PARE");
        let tail = tail(&file);
        let (crypto, used) = FileCryptoMetaData::decode(tail).unwrap();
        assert_eq!(crypto.key_metadata.as_deref(), Some(&b"kf"[..]));
        let alg = aes_gcm_v1(&crypto.encryption_algorithm);
        let unique = alg.aad_file_unique.clone().unwrap();
        assert_eq!(unique.len(), 8);
        assert_eq!(
            (alg.aad_prefix.as_ref(), alg.supply_aad_prefix),
            (None, None)
        );
        // The footer module: the rest of the tail, AAD = aad_file_unique + module type 0.
        let (m, taken) = module(tail, used);
        assert_eq!(used + taken, tail.len());
        let mut aad = unique.clone();
        aad.push(0);
        let plain = decrypt_gcm(&k(1), m, &aad, "footer").unwrap();
        assert!(decrypt_gcm(&k(2), m, &aad, "footer").is_err());
        let meta = FileMetaData::decode(&plain).unwrap();
        assert_eq!(meta.num_rows, 300);
        assert_eq!(meta.encryption_algorithm, None);
        for c in &meta.row_groups[0].columns {
            // Footer key, encrypted footer: the metadata stays in place (5.4).
            assert_eq!(
                c.crypto_metadata,
                Some(ColumnCryptoMetaData::EncryptionWithFooterKey)
            );
            assert!(c.meta_data.as_ref().unwrap().statistics.is_some());
            assert_eq!(c.encrypted_column_metadata, None);
        }
        // Pages of x: header module (type 4, page ordinal n), then the page module (type 2),
        // whose length the header gives and whose stored bytes its CRC covers.
        let x = meta.row_groups[0].columns[0].meta_data.as_ref().unwrap();
        let mut at = x.data_page_offset as usize;
        for ordinal in 0..3u8 {
            let (hm, hlen) = module(&file, at);
            let mut aad = unique.clone();
            aad.extend_from_slice(&[4, 0, 0, 0, 0, ordinal, 0]);
            let (h, _) =
                decode_prefix::<PageHeader>(&decrypt_gcm(&k(1), hm, &aad, "h").unwrap(), 64)
                    .unwrap();
            let (pm, plen) = module(&file, at + hlen);
            assert_eq!(h.compressed_page_size as usize, plen);
            let stored = &file[at + hlen..at + hlen + plen];
            assert_eq!(h.crc, Some(crate::bytes::crc32::crc32(stored) as i32));
            aad[unique.len()] = 2;
            let body = decrypt_gcm(&k(1), pm, &aad, "page").unwrap();
            assert_eq!(body.len(), h.uncompressed_page_size as usize);
            assert_eq!(h.data_page_header.unwrap().num_values, 100);
            at += hlen + plen;
        }
    }

    #[test]
    fn plaintext_footer_column_key_and_plaintext_column() {
        let props = FileEncryptionProperties::new(k(1))
            .footer_key_metadata(b"kf")
            .column_key_with_metadata("x", k(2), b"kc")
            .plaintext_footer(true)
            .algorithm(Algorithm::AesGcmCtrV1)
            .aad_prefix(b"pre")
            .store_aad_prefix(false);
        let file = write(props);
        assert_eq!(&file[..4], b"PAR1");
        assert_eq!(&file[file.len() - 4..], b"PAR1");
        let tail = tail(&file);
        let (meta, used) = decode_prefix::<FileMetaData>(tail, 64).unwrap();
        assert_eq!(
            meta.footer_signing_key_metadata.as_deref(),
            Some(&b"kf"[..])
        );
        let EncryptionAlgorithm::AesGcmCtrV1(alg) = meta.encryption_algorithm.clone().unwrap()
        else {
            panic!()
        };
        // The prefix is not stored: the reader must supply it.
        assert_eq!((alg.aad_prefix, alg.supply_aad_prefix), (None, Some(true)));
        let mut file_aad = b"pre".to_vec();
        file_aad.extend_from_slice(&alg.aad_file_unique.unwrap());
        // The signature: nonce and tag of the footer's GCM encryption with the footer key.
        let sig = &tail[used..];
        assert_eq!(sig.len(), NONCE_LEN + TAG_LEN);
        let mut aad = file_aad.clone();
        aad.push(0);
        verify_signature(&k(1), &tail[..used], sig, &aad).unwrap();
        assert!(verify_signature(&k(2), &tail[..used], sig, &aad).is_err());
        assert!(verify_signature(&k(1), &tail[..used], sig, b"other").is_err());
        let [x, y] = &meta.row_groups[0].columns[..] else {
            panic!()
        };
        // x: its own key; the plaintext copy has no statistics, the encrypted one has them.
        assert_eq!(
            x.crypto_metadata,
            Some(ColumnCryptoMetaData::EncryptionWithColumnKey(
                EncryptionWithColumnKey {
                    path_in_schema: alloc::vec![String::from("x")],
                    key_metadata: Some(b"kc".to_vec()),
                }
            ))
        );
        let stripped = x.meta_data.as_ref().unwrap();
        assert_eq!(stripped.statistics, None);
        assert_eq!(stripped.encoding_stats, None);
        assert_eq!(stripped.size_statistics, None);
        let enc = x.encrypted_column_metadata.as_ref().unwrap();
        let (m, taken) = module(enc, 0);
        assert_eq!(taken, enc.len());
        let mut aad = file_aad.clone();
        aad.extend_from_slice(&[1, 0, 0, 0, 0]);
        let full = decrypt_gcm(&k(2), m, &aad, "column metadata").unwrap();
        let (full, _) = decode_prefix::<ColumnMetaData>(&full, 64).unwrap();
        assert!(full.statistics.is_some());
        assert_eq!(full.data_page_offset, stripped.data_page_offset);
        assert_eq!(full.total_compressed_size, stripped.total_compressed_size);
        // CTR pages: the page module has no tag and decrypts with the column key.
        let at = full.data_page_offset as usize;
        let (hm, hlen) = module(&file, at);
        let mut aad = file_aad.clone();
        aad.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0]);
        let (h, _) =
            decode_prefix::<PageHeader>(&decrypt_gcm(&k(2), hm, &aad, "h").unwrap(), 64).unwrap();
        let (pm, plen) = module(&file, at + hlen);
        assert_eq!(h.compressed_page_size as usize, plen);
        assert_eq!(plen, 4 + NONCE_LEN + decrypt_ctr(&k(2), pm).unwrap().len());
        // y: plaintext, its header in the clear where the metadata says.
        assert_eq!(y.crypto_metadata, None);
        assert_eq!(y.encrypted_column_metadata, None);
        let ym = y.meta_data.as_ref().unwrap();
        assert!(ym.statistics.is_some());
        let (h, _) = PageHeader::decode(&file[ym.data_page_offset as usize..]).unwrap();
        assert_eq!(h.data_page_header.unwrap().num_values, 100);
    }

    #[test]
    fn fresh_nonces_and_no_key_in_debug() {
        let props = FileEncryptionProperties::new(k(7));
        let (a, b) = (write(props.clone()), write(props.clone()));
        // Same data, same keys: only aad_file_unique and the nonces differ, and with them the
        // page CRCs over the encrypted bytes (zigzag varints: the lengths may differ by a byte).
        assert_ne!(a, b);
        let d = alloc::format!("{:?}", WriteOptions::default().encryption(props));
        assert!(d.contains("Key(128 bits)"), "{d}");
        assert!(!d.contains("7, 7"), "{d}");
    }

    #[test]
    fn column_key_for_unknown_column_is_an_error() {
        let schema = Schema::parse("message m { required int32 x; }").unwrap();
        let options = WriteOptions::default()
            .encryption(FileEncryptionProperties::new(k(1)).column_key("nope", k(2)));
        let e = FileWriter::new(Vec::new(), schema, options).err().unwrap();
        assert!(e.to_string().contains("\"nope\""), "{e}");
    }
}

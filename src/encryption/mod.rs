//! Layer 4: Parquet Modular Encryption (Encryption.md), behind the `encryption` feature.
//!
//! A file's modules (footer, column metadata, page headers, pages, column and offset indexes,
//! Bloom filter headers and bitsets) are each encrypted on their own, with the footer key or a
//! column's key, and bound to their place by an AAD. This module owns the parts that know no
//! file layout:
//!
//! - [`aad`]: module types and module AADs (Encryption.md 4.4);
//! - [`key`]: keys, and where a reader finds them ([`DecryptionProperties`]);
//! - [`cipher`]: AES-GCM and AES-CTR over one module (Encryption.md 4.2, 5.1);
//! - [`key_material`]: PKMT1 key material (the KMS key tools'), read;
//! - `random` and `wrap` (feature `encryption-write`): nonces and keys from the OS random
//!   source, and PKMT1 key material written. The writer's side is
//!   `write::WriteOptions::encryption`.
//!
//! The reader ([`FileReader::from_bytes_with_decryption`](crate::read::FileReader::from_bytes_with_decryption),
//! `new_with_decryption`) applies them to the footer and
//! the column chunks. Reading an encrypted file:
//!
//! ```
//! # fn main() -> parket::Result<()> {
//! # let bytes = parket::testing::corpus_file("uniform_encryption.parquet.encrypted");
//! use parket::encryption::{DecryptionProperties, Key};
//! use parket::read::FileReader;
//! let keys = DecryptionProperties::new().footer_key(Key::new(b"0123456789012345")?);
//! let file = FileReader::from_bytes_with_decryption(&bytes, keys)?;
//! assert_eq!(file.metadata().num_rows, 50);
//! assert_eq!(file.records(None)?.count(), 50);
//! # Ok(()) }
//! ```

pub mod aad;
pub mod cipher;
pub mod key;
pub mod key_material;
#[cfg(feature = "encryption-write")]
pub mod random;
#[cfg(feature = "encryption-write")]
pub mod wrap;

pub use aad::{module_aad, ModuleType};
pub use cipher::{decrypt_ctr, decrypt_gcm, encrypt_ctr, encrypt_gcm, verify_signature};
pub use key::{DecryptionProperties, Key, KeyRetriever};

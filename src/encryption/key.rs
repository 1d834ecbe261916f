//! Keys and where a reader gets them: the footer key, a key per column path, or a retriever
//! that maps a key's `key_metadata` bytes (stored in the file) to the key.
//!
//! Spec: Encryption.md 4 "Encryption Algorithms and Keys" (AES keys of 128, 192 or 256 bits)
//! and 4.3 "Key metadata" (an arbitrary byte string the writer stores beside each key, for the
//! reader to recover the key with). The AAD prefix (4.4.1) is given here too when the file
//! does not store it.
//!
//! A [`Key`] never shows its bytes: its `Debug` prints only its size, no error message contains
//! it, and its buffer is zeroed when it is dropped (`zeroize`).
//!
//! ```
//! use parket::encryption::{DecryptionProperties, Key};
//! let footer = Key::new(b"0123456789012345").unwrap(); // 16 bytes: AES-128
//! assert_eq!(format!("{footer:?}"), "Key(128 bits)");
//! let from_hex = Key::from_hex("30313233343536373839303132333435").unwrap();
//! assert_eq!(from_hex, footer);
//! let props = DecryptionProperties::new()
//!     .footer_key(footer)
//!     .column_key("double_field", Key::new(b"1234567890123450").unwrap())
//!     .key_by_id("kc2", Key::new(b"1234567890123451").unwrap())
//!     .aad_prefix(b"tester");
//! assert!(format!("{props:?}").contains("double_field"));
//! assert!(!format!("{props:?}").contains("1234567890123450"));
//! ```

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroize;

use crate::error::{Error, Result};

/// An AES key of 16, 24 or 32 bytes. Zeroed on drop; never printed.
#[derive(Clone)]
pub struct Key {
    bytes: [u8; 32],
    len: u8,
}

impl Key {
    /// A key from its raw bytes: 16, 24 or 32 of them (AES-128, -192, -256).
    pub fn new(bytes: &[u8]) -> Result<Key> {
        if !matches!(bytes.len(), 16 | 24 | 32) {
            return Err(Error::invalid_argument_fmt(format_args!(
                "an AES key has 16, 24 or 32 bytes, not {}",
                bytes.len()
            )));
        }
        let mut k = Key {
            bytes: [0; 32],
            len: bytes.len() as u8,
        };
        k.bytes[..bytes.len()].copy_from_slice(bytes);
        Ok(k)
    }

    /// A key from 32, 48 or 64 hexadecimal digits. The error never repeats the text.
    pub fn from_hex(text: &str) -> Result<Key> {
        let t = text.as_bytes();
        if !matches!(t.len(), 32 | 48 | 64) {
            return Err(Error::invalid_argument_fmt(format_args!(
                "a key is 32, 48 or 64 hexadecimal digits, not {}",
                t.len()
            )));
        }
        let mut raw = [0u8; 32];
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        };
        for (i, pair) in t.chunks_exact(2).enumerate() {
            match (digit(pair[0]), digit(pair[1])) {
                (Some(h), Some(l)) => raw[i] = h << 4 | l,
                _ => {
                    raw.zeroize();
                    return Err(Error::invalid_argument(
                        "a key is hexadecimal digits (0-9, a-f): found another character",
                    ));
                }
            }
        }
        let key = Key::new(&raw[..t.len() / 2]);
        raw.zeroize();
        key
    }

    /// The key's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The key's size in bits (128, 192 or 256).
    pub fn bits(&self) -> usize {
        usize::from(self.len) * 8
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl PartialEq for Key {
    /// Constant-time in the key's bytes.
    fn eq(&self, other: &Key) -> bool {
        self.len == other.len
            && self
                .bytes
                .iter()
                .zip(other.bytes.iter())
                .fold(0u8, |d, (a, b)| d | (a ^ b))
                == 0
    }
}

impl Eq for Key {}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({} bits)", self.bits())
    }
}

/// Maps a key's `key_metadata` (the bytes the writer stored beside the key) to the key, as a
/// key management system would. `None`: this retriever does not know the key.
pub trait KeyRetriever: Send + Sync {
    /// The key for `key_metadata`, if known.
    fn retrieve(&self, key_metadata: &[u8]) -> Option<Key>;
}

impl<F: Fn(&[u8]) -> Option<Key> + Send + Sync> KeyRetriever for F {
    fn retrieve(&self, key_metadata: &[u8]) -> Option<Key> {
        self(key_metadata)
    }
}

/// What a reader needs to decrypt a file: keys and, when the file does not store it, the AAD
/// prefix. See the [module documentation](self).
///
/// A key is looked up, in order: the footer key (for the footer and the columns under it) or
/// the key given for the column's dotted path; then a key given for the key's `key_metadata`
/// ([`DecryptionProperties::key_by_id`]); then the [`KeyRetriever`].
#[derive(Default)]
pub struct DecryptionProperties {
    footer_key: Option<Key>,
    column_keys: BTreeMap<String, Key>,
    keys_by_id: BTreeMap<Vec<u8>, Key>,
    retriever: Option<Box<dyn KeyRetriever>>,
    aad_prefix: Option<Vec<u8>>,
}

impl DecryptionProperties {
    /// No keys yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The footer key: decrypts (or verifies the signature of) the footer and the columns
    /// encrypted with it.
    pub fn footer_key(mut self, key: Key) -> Self {
        self.footer_key = Some(key);
        self
    }

    /// The key of the column at `path` (dotted: `a.b.c`).
    pub fn column_key(mut self, path: &str, key: Key) -> Self {
        self.column_keys.insert(String::from(path), key);
        self
    }

    /// The key whose `key_metadata` in the file is `id` (a footer or column key).
    pub fn key_by_id(mut self, id: impl AsRef<[u8]>, key: Key) -> Self {
        self.keys_by_id.insert(id.as_ref().to_vec(), key);
        self
    }

    /// A retriever asked for keys found no other way.
    pub fn key_retriever(mut self, retriever: impl KeyRetriever + 'static) -> Self {
        self.retriever = Some(Box::new(retriever));
        self
    }

    /// The AAD prefix, for files written with one they do not store. When the file stores
    /// one too, they must be equal.
    pub fn aad_prefix(mut self, prefix: impl AsRef<[u8]>) -> Self {
        self.aad_prefix = Some(prefix.as_ref().to_vec());
        self
    }

    /// The AAD prefix given, if any.
    pub fn given_aad_prefix(&self) -> Option<&[u8]> {
        self.aad_prefix.as_deref()
    }

    fn by_metadata(&self, key_metadata: Option<&[u8]>) -> Option<Key> {
        let m = key_metadata?;
        if let Some(k) = self.keys_by_id.get(m) {
            return Some(k.clone());
        }
        self.retriever.as_ref()?.retrieve(m)
    }

    /// The footer key: the one given, else the one for `key_metadata`.
    pub fn find_footer_key(&self, key_metadata: Option<&[u8]>) -> Option<Key> {
        self.footer_key
            .clone()
            .or_else(|| self.by_metadata(key_metadata))
    }

    /// The key of column `path`: the one given for it, else the one for `key_metadata`.
    pub fn find_column_key(&self, path: &str, key_metadata: Option<&[u8]>) -> Option<Key> {
        self.column_keys
            .get(path)
            .cloned()
            .or_else(|| self.by_metadata(key_metadata))
    }
}

impl fmt::Debug for DecryptionProperties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecryptionProperties")
            .field("footer_key", &self.footer_key)
            .field("column_keys", &self.column_keys)
            .field("keys_by_id", &self.keys_by_id.len())
            .field("key_retriever", &self.retriever.is_some())
            .field("aad_prefix", &self.aad_prefix.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn sizes_and_hex() {
        assert_eq!(Key::new(&[7; 24]).unwrap().bits(), 192);
        assert!(Key::new(&[7; 20]).is_err());
        let k = Key::from_hex(&"Ab".repeat(32)).unwrap();
        assert_eq!(k.bytes(), [0xab; 32]);
        let e = Key::from_hex(&"zz".repeat(16)).unwrap_err().to_string();
        assert!(!e.contains("zz"), "{e}");
        assert!(Key::from_hex("0123").is_err());
    }

    #[test]
    fn lookup_order_and_no_key_in_debug() {
        let a = Key::new(&[1; 16]).unwrap();
        let b = Key::new(&[2; 16]).unwrap();
        let c = Key::new(&[3; 16]).unwrap();
        let cc = c.clone();
        let p = DecryptionProperties::new()
            .column_key("x", a.clone())
            .key_by_id("kb", b.clone())
            .key_retriever(move |m: &[u8]| (m == b"kc").then(|| cc.clone()));
        assert_eq!(p.find_column_key("x", Some(b"kb")), Some(a));
        assert_eq!(p.find_column_key("y", Some(b"kb")), Some(b));
        assert_eq!(p.find_column_key("y", Some(b"kc")), Some(c));
        assert_eq!(p.find_column_key("y", Some(b"kd")), None);
        assert_eq!(p.find_footer_key(None), None);
        let d = format!("{p:?}");
        assert!(!d.contains("[1") && !d.contains("1, 1"), "{d}");
    }
}

//! Key material of the key management tools of parquet-java and pyarrow (`PKMT1`): data keys
//! wrapped by master keys held in a KMS, stored in the file's `key_metadata` (internal
//! storage) or in a side file `_KEY_MATERIAL_FOR_<file name>.json` (external storage).
//!
//! Format (parquet-java `KeyMaterial`, `KeyMetadata`): `key_metadata` is a JSON object.
//! With `"internalStorage": true` it is the key material itself; otherwise it holds a
//! `"keyReference"`, the name of the material in the side file (a JSON object of name ->
//! material text). The material holds `"masterKeyID"` and `"wrappedDEK"` (base64); with
//! `"doubleWrapping": true` the data key is wrapped by a key-encryption key (KEK) with AES-GCM
//! (`nonce | ciphertext | tag`, AAD = the KEK's id, `"keyEncryptionKeyID"`, base64), and the KEK
//! is wrapped by the master key (`"wrappedKEK"`); otherwise the master key wraps the data key
//! directly. Unwrapping with a master key is the KMS's business: the caller supplies it
//! ([`KmsUnwrap`]); [`InMemoryKms`] is the test KMS of parquet-java and pyarrow (AES-GCM with
//! the master key, AAD = the master key's id).
//!
//! ```
//! use parket::encryption::key_material::{InMemoryKms, KeyMaterialRetriever};
//! use parket::encryption::{DecryptionProperties, Key};
//! let kms = InMemoryKms::new().master_key("kf", Key::new(b"0123456789012345").unwrap());
//! let keys = DecryptionProperties::new().key_retriever(KeyMaterialRetriever::new(kms));
//! # let _ = keys;
//! ```

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::cipher::decrypt_gcm;
use super::key::{Key, KeyRetriever};

/// Unwraps a key wrapped by a master key (what a KMS client does).
pub trait KmsUnwrap: Send + Sync {
    /// The key `wrapped` (base64-decoded) under master key `master_key_id`, if it unwraps.
    fn unwrap_key(&self, wrapped: &[u8], master_key_id: &str) -> Option<Key>;
}

/// The in-memory test KMS of parquet-java and pyarrow: master keys by id; a wrapped key is
/// AES-GCM `nonce | ciphertext | tag` under the master key, with the master key's id as AAD.
#[derive(Default, Debug)]
pub struct InMemoryKms {
    keys: BTreeMap<String, Key>,
}

impl InMemoryKms {
    /// No master keys yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the master key `id`.
    pub fn master_key(mut self, id: &str, key: Key) -> Self {
        self.keys.insert(String::from(id), key);
        self
    }

    /// The master key `id`, for wrapping (`wrap.rs`).
    #[cfg(feature = "encryption-write")]
    pub(crate) fn get(&self, id: &str) -> Option<&Key> {
        self.keys.get(id)
    }
}

impl KmsUnwrap for InMemoryKms {
    fn unwrap_key(&self, wrapped: &[u8], master_key_id: &str) -> Option<Key> {
        let master = self.keys.get(master_key_id)?;
        unwrap_locally(master, wrapped, master_key_id.as_bytes())
    }
}

fn unwrap_locally(kek: &Key, wrapped: &[u8], aad: &[u8]) -> Option<Key> {
    let mut plain = decrypt_gcm(kek, wrapped, aad, "wrapped key").ok()?;
    let key = Key::new(&plain).ok();
    zeroize::Zeroize::zeroize(plain.as_mut_slice());
    key
}

/// A [`KeyRetriever`] for `PKMT1` key metadata: see the [module documentation](self).
pub struct KeyMaterialRetriever {
    kms: Box<dyn KmsUnwrap>,
    external: BTreeMap<String, String>,
}

impl KeyMaterialRetriever {
    /// Unwraps with `kms`; no side file.
    pub fn new(kms: impl KmsUnwrap + 'static) -> Self {
        KeyMaterialRetriever {
            kms: Box::new(kms),
            external: BTreeMap::new(),
        }
    }

    /// The side file's text (`_KEY_MATERIAL_FOR_<file name>.json`), for external storage.
    /// `None` when it is not a JSON object of strings.
    pub fn with_external_material(mut self, json: &str) -> Option<Self> {
        self.external = json_object(json)?
            .into_iter()
            .filter_map(|(k, v)| match v {
                Json::Str(s) => Some((k, s)),
                _ => None,
            })
            .collect();
        Some(self)
    }

    fn material(&self, key_metadata: &[u8]) -> Option<BTreeMap<String, Json>> {
        let meta = json_object(core::str::from_utf8(key_metadata).ok()?)?;
        if meta.get("keyMaterialType") != Some(&Json::Str(String::from("PKMT1"))) {
            return None;
        }
        match meta.get("internalStorage") {
            Some(Json::Bool(false)) => {
                let Some(Json::Str(r)) = meta.get("keyReference") else {
                    return None;
                };
                json_object(self.external.get(r)?)
            }
            _ => Some(meta),
        }
    }
}

impl KeyRetriever for KeyMaterialRetriever {
    fn retrieve(&self, key_metadata: &[u8]) -> Option<Key> {
        let m = self.material(key_metadata)?;
        let text = |k: &str| match m.get(k) {
            Some(Json::Str(s)) => Some(s.as_str()),
            _ => None,
        };
        let master = text("masterKeyID")?;
        let dek = base64(text("wrappedDEK")?)?;
        if m.get("doubleWrapping") == Some(&Json::Bool(true)) {
            let kek_id = base64(text("keyEncryptionKeyID")?)?;
            let kek = self.kms.unwrap_key(&base64(text("wrappedKEK")?)?, master)?;
            unwrap_locally(&kek, &dek, &kek_id)
        } else {
            self.kms.unwrap_key(&dek, master)
        }
    }
}

/// Standard base64, padded or not (parquet-java pads; other writers may not).
fn base64(s: &str) -> Option<Vec<u8>> {
    crate::bytes::base64::decode(s.as_bytes(), crate::bytes::base64::Padding::Optional)
}

/// A JSON value, as far as key material needs: strings and booleans; the rest is `Other`.
#[derive(Debug, PartialEq)]
enum Json {
    Str(String),
    Bool(bool),
    Other,
}

/// A flat JSON object (values: strings, booleans, numbers, null). `None` when it is not one.
fn json_object(s: &str) -> Option<BTreeMap<String, Json>> {
    let b = s.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while b.get(*i).is_some_and(|c| c.is_ascii_whitespace()) {
            *i += 1;
        }
    };
    let string = |i: &mut usize| -> Option<String> {
        if b.get(*i) != Some(&b'"') {
            return None;
        }
        *i += 1;
        let mut out = Vec::new();
        loop {
            match *b.get(*i)? {
                b'"' => {
                    *i += 1;
                    return String::from_utf8(out).ok();
                }
                b'\\' => {
                    let e = *b.get(*i + 1)?;
                    *i += 2;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = core::str::from_utf8(b.get(*i..*i + 4)?).ok()?;
                            let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                            *i += 4;
                        }
                        _ => return None,
                    }
                }
                c => {
                    out.push(c);
                    *i += 1;
                }
            }
        }
    };
    let mut map = BTreeMap::new();
    ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    ws(&mut i);
    if b.get(i) == Some(&b'}') {
        return Some(map);
    }
    loop {
        ws(&mut i);
        let k = string(&mut i)?;
        ws(&mut i);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        ws(&mut i);
        let v = match b.get(i)? {
            b'"' => Json::Str(string(&mut i)?),
            b't' if b.get(i..i + 4) == Some(b"true") => {
                i += 4;
                Json::Bool(true)
            }
            b'f' if b.get(i..i + 5) == Some(b"false") => {
                i += 5;
                Json::Bool(false)
            }
            _ => {
                let start = i;
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || b"+-.".contains(c))
                {
                    i += 1;
                }
                if i == start {
                    return None;
                }
                Json::Other
            }
        };
        map.insert(k, v);
        ws(&mut i);
        match b.get(i)? {
            b',' => i += 1,
            b'}' => return Some(map),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_json() {
        assert_eq!(base64("TWFu").unwrap(), b"Man");
        assert_eq!(base64("TWE=").unwrap(), b"Ma");
        assert_eq!(base64("TQ==").unwrap(), b"M");
        assert!(base64("T!").is_none());
        let m = json_object(r#"{"a":"x\"y","b":true, "c": 12, "d":null}"#).unwrap();
        assert_eq!(m["a"], Json::Str(String::from("x\"y")));
        assert_eq!(m["b"], Json::Bool(true));
        assert_eq!(m["c"], Json::Other);
        assert!(json_object(r#"{"a":}"#).is_none());
        assert!(json_object(r#"{"a":"b""#).is_none());
    }
}

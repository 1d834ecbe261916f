//! Writing the key material of the key management tools of parquet-java and pyarrow
//! (`PKMT1`, read by [`key_material`](super::key_material)): a data key wrapped by a master key
//! held in a KMS, directly or through a key-encryption key (KEK), as the JSON text a file
//! stores in a key's `key_metadata` (internal storage). Behind the feature
//! `encryption-write`: KEKs, their ids and the nonces are random.
//!
//! The JSON (parquet-java `KeyMaterial.createSerialized`, `KeyMetadata`), with the footer key's
//! extra fields:
//!
//! ```text
//! {"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,
//!  "kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","masterKeyID":"kf",
//!  "doubleWrapping":true,"keyEncryptionKeyID":"<base64 16 random bytes>",
//!  "wrappedKEK":"<base64 of the KMS's wrapping of the KEK>",
//!  "wrappedDEK":"<base64 of nonce | AES-GCM(KEK, DEK, AAD = KEK id) | tag>"}
//! ```
//!
//! Without double wrapping there is no KEK: `wrappedDEK` is the KMS's wrapping of the data key
//! itself. Wrapping with a master key is the KMS's business: the caller supplies it
//! ([`KmsWrap`]); [`InMemoryKms`] wraps as parquet-java's and pyarrow's test KMS do (AES-GCM
//! under the master key, AAD = the master key's id, `nonce | ciphertext | tag`).
//!
//! ```
//! use parket::encryption::key_material::{InMemoryKms, KeyMaterialRetriever};
//! use parket::encryption::wrap::{generate_key, KeyMaterialWriter};
//! use parket::encryption::{Key, KeyRetriever};
//! let kms = InMemoryKms::new().master_key("kf", Key::new(b"0123456789012345").unwrap());
//! let dek = generate_key(128).unwrap();
//! let metadata = KeyMaterialWriter::new(&kms).key_metadata(&dek, "kf", true).unwrap();
//! assert!(metadata.starts_with(br#"{"keyMaterialType":"PKMT1""#));
//! let back = KeyMaterialRetriever::new(kms).retrieve(&metadata).unwrap();
//! assert_eq!(back, dek);
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::cipher::{encrypt_gcm, LENGTH_LEN};
use super::key::Key;
use super::key_material::InMemoryKms;
use super::random;
use crate::bytes::base64::encode as base64;
use crate::error::{Error, Result};

/// Wraps a key with a master key (what a KMS client does).
pub trait KmsWrap {
    /// `key` wrapped under master key `master_key_id` (the material stores it in base64).
    fn wrap_key(&self, key: &Key, master_key_id: &str) -> Result<Vec<u8>>;
}

impl<T: KmsWrap + ?Sized> KmsWrap for &T {
    fn wrap_key(&self, key: &Key, master_key_id: &str) -> Result<Vec<u8>> {
        (**self).wrap_key(key, master_key_id)
    }
}

impl KmsWrap for InMemoryKms {
    fn wrap_key(&self, key: &Key, master_key_id: &str) -> Result<Vec<u8>> {
        let master = self.get(master_key_id).ok_or_else(|| {
            Error::invalid_argument(alloc::format!(
                "the KMS has no master key {master_key_id:?}"
            ))
        })?;
        wrap_locally(master, key, master_key_id.as_bytes())
    }
}

/// `key` encrypted with AES-GCM under `kek` with `aad`: `nonce | ciphertext | tag`.
fn wrap_locally(kek: &Key, key: &Key, aad: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encrypt_gcm(kek, &random::nonce()?, key.bytes(), aad, &mut out)?;
    out.drain(..LENGTH_LEN);
    Ok(out)
}

/// A random AES key of `bits` (128, 192 or 256), from the operating system's random source.
pub fn generate_key(bits: usize) -> Result<Key> {
    let mut raw = [0u8; 32];
    let n = bits / 8;
    let buf = raw
        .get_mut(..n)
        .ok_or_else(|| Error::invalid_argument("an AES key has 128, 192 or 256 bits"))?;
    random::fill(buf)?;
    let key = Key::new(buf);
    zeroize::Zeroize::zeroize(&mut raw);
    key
}

/// Writes `PKMT1` key material: see the [module documentation](self).
pub struct KeyMaterialWriter<K: KmsWrap> {
    kms: K,
    double_wrapping: bool,
    kms_instance_id: String,
    kms_instance_url: String,
}

impl<K: KmsWrap> KeyMaterialWriter<K> {
    /// Wraps with `kms`; double wrapping (the default of parquet-java and pyarrow), KMS
    /// instance `DEFAULT` at `DEFAULT`.
    pub fn new(kms: K) -> Self {
        KeyMaterialWriter {
            kms,
            double_wrapping: true,
            kms_instance_id: String::from("DEFAULT"),
            kms_instance_url: String::from("DEFAULT"),
        }
    }

    /// Double wrapping (a fresh KEK per data key, wrapped by the master key) or single (the
    /// master key wraps the data key).
    pub fn double_wrapping(mut self, on: bool) -> Self {
        self.double_wrapping = on;
        self
    }

    /// The KMS instance id and URL stored with the footer key.
    pub fn kms_instance(mut self, id: &str, url: &str) -> Self {
        self.kms_instance_id = String::from(id);
        self.kms_instance_url = String::from(url);
        self
    }

    /// The `key_metadata` of data key `dek` wrapped under master key `master_key_id`:
    /// internally stored key material. `footer`: the footer key's (it carries the KMS
    /// instance).
    pub fn key_metadata(&self, dek: &Key, master_key_id: &str, footer: bool) -> Result<Vec<u8>> {
        let mut j = JsonObject::new();
        j.string("keyMaterialType", "PKMT1");
        j.bool("internalStorage", true);
        j.bool("isFooterKey", footer);
        if footer {
            j.string("kmsInstanceID", &self.kms_instance_id);
            j.string("kmsInstanceURL", &self.kms_instance_url);
        }
        j.string("masterKeyID", master_key_id);
        j.bool("doubleWrapping", self.double_wrapping);
        let wrapped_dek = if self.double_wrapping {
            let kek = generate_key(128)?;
            let mut kek_id = [0u8; 16];
            random::fill(&mut kek_id)?;
            j.string("keyEncryptionKeyID", &base64(&kek_id));
            j.string(
                "wrappedKEK",
                &base64(&self.kms.wrap_key(&kek, master_key_id)?),
            );
            wrap_locally(&kek, dek, &kek_id)?
        } else {
            self.kms.wrap_key(dek, master_key_id)?
        };
        j.string("wrappedDEK", &base64(&wrapped_dek));
        Ok(j.finish().into_bytes())
    }
}

/// A flat JSON object, written field by field.
struct JsonObject(String);

impl JsonObject {
    fn new() -> Self {
        JsonObject(String::from("{"))
    }

    fn key(&mut self, k: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        quote(k, &mut self.0);
        self.0.push(':');
    }

    fn string(&mut self, k: &str, v: &str) {
        self.key(k);
        quote(v, &mut self.0);
    }

    fn bool(&mut self, k: &str, v: bool) {
        self.key(k);
        self.0.push_str(if v { "true" } else { "false" });
    }

    fn finish(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// `s` as a JSON string (RFC 8259: `"` and `\` escaped, control characters as `\u00XX`).
fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = core::fmt::Write::write_fmt(out, format_args!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encryption::key_material::KeyMaterialRetriever;
    use crate::encryption::KeyRetriever;

    #[test]
    fn json_quoting() {
        let mut s = String::new();
        quote("a\"b\\c\n", &mut s);
        assert_eq!(s, r#""a\"b\\c\u000a""#);
    }

    #[test]
    fn single_and_double_wrapping_read_back() {
        let kms = InMemoryKms::new()
            .master_key("kf", Key::new(&[1; 16]).unwrap())
            .master_key("k\"c", Key::new(&[2; 32]).unwrap());
        let dek = generate_key(256).unwrap();
        for double in [false, true] {
            for (id, footer) in [("kf", true), ("k\"c", false)] {
                let w = KeyMaterialWriter::new(&kms).double_wrapping(double);
                let m = w.key_metadata(&dek, id, footer).unwrap();
                let text = core::str::from_utf8(&m).unwrap();
                assert_eq!(text.contains("\"wrappedKEK\""), double, "{text}");
                assert_eq!(
                    text.contains("\"kmsInstanceID\":\"DEFAULT\""),
                    footer,
                    "{text}"
                );
                let r = KeyMaterialRetriever::new(
                    InMemoryKms::new()
                        .master_key("kf", Key::new(&[1; 16]).unwrap())
                        .master_key("k\"c", Key::new(&[2; 32]).unwrap()),
                );
                assert_eq!(r.retrieve(&m).as_ref(), Some(&dek), "{text}");
                // Another master key under the same id does not unwrap it.
                let wrong = KeyMaterialRetriever::new(
                    InMemoryKms::new()
                        .master_key("kf", Key::new(&[9; 16]).unwrap())
                        .master_key("k\"c", Key::new(&[9; 32]).unwrap()),
                );
                assert!(wrong.retrieve(&m).is_none());
            }
        }
        assert!(KeyMaterialWriter::new(&kms)
            .key_metadata(&dek, "nope", true)
            .is_err());
        assert!(generate_key(100).is_err());
    }
}

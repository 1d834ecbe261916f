//! The ciphers of the two algorithms, over one module at a time: AES-GCM for every module of
//! `AES_GCM_V1` and for all but pages in `AES_GCM_CTR_V1`, whose pages use AES-CTR. The AES,
//! GCM and CTR code is RustCrypto's (`aes-gcm`, `aes`, `ctr`).
//!
//! Spec: Encryption.md 4.2 and 5.1. A module is stored as its length (4 bytes, little-endian,
//! not counting themselves) then the buffer:
//!
//! ```text
//! GCM:  length | nonce (12) | ciphertext (length - 28) | tag (16)
//! CTR:  length | nonce (12) | ciphertext (length - 12)
//! ```
//!
//! CTR's 16-byte IV is the nonce followed by the counter `00 00 00 01`. A plaintext footer's
//! signature is the nonce and tag (28 bytes) of its GCM encryption, whose ciphertext is not
//! stored.
//!
//! Decrypted bytes leave this module only after their GCM tag has authenticated them (CTR has
//! no tag: `AES_GCM_CTR_V1` pages are not authenticated, by design of the spec).
//!
//! Worked example (NIST SP 800-38D test case 2: key and nonce all zero, 16 zero bytes):
//!
//! ```
//! use parket::encryption::{decrypt_gcm, Key};
//! let key = Key::new(&[0; 16]).unwrap();
//! let mut module = vec![0u8; 12];                                   // nonce
//! module.extend_from_slice(&[0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92,   // ciphertext
//!                            0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78]);
//! module.extend_from_slice(&[0xab, 0x6e, 0x47, 0xd4, 0x2c, 0xec, 0x13, 0xbd,   // tag
//!                            0xf5, 0x3a, 0x67, 0xb2, 0x12, 0x57, 0xbd, 0xdf]);
//! assert_eq!(decrypt_gcm(&key, &module, b"", "data page").unwrap(), [0; 16]);
//! module[20] ^= 1;
//! assert!(decrypt_gcm(&key, &module, b"", "data page").is_err());
//! ```

use alloc::vec::Vec;

use aes_gcm::aead::consts::U12;
use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::aead::{AeadInPlace, KeyInit};
use aes_gcm::AesGcm;
use ctr::cipher::{KeyIvInit, StreamCipher};

use super::key::Key;
use crate::error::{Error, ErrorKind, Result};

/// Bytes of a nonce.
pub const NONCE_LEN: usize = 12;
/// Bytes of a GCM tag.
pub const TAG_LEN: usize = 16;
/// Bytes of the length prefix of a module.
pub const LENGTH_LEN: usize = 4;
/// Bytes a GCM module adds to its plaintext, length prefix included.
pub const GCM_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN + TAG_LEN;
/// Bytes a CTR module adds to its plaintext, length prefix included.
pub const CTR_OVERHEAD: usize = LENGTH_LEN + NONCE_LEN;

/// The error of a module that does not authenticate.
fn auth_failed(module: &'static str) -> Error {
    Error::new(ErrorKind::Decryption {
        module,
        what: "the authentication tag does not match (wrong key, wrong or missing AAD prefix, \
               or altered bytes)",
    })
}

fn gcm_apply(
    key: &Key,
    nonce: &[u8],
    aad: &[u8],
    buf: &mut [u8],
    tag: Option<&[u8]>,
) -> core::result::Result<[u8; TAG_LEN], ()> {
    fn run<C: AeadInPlace + KeyInit>(
        key: &[u8],
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: Option<&[u8]>,
    ) -> core::result::Result<[u8; TAG_LEN], ()> {
        let cipher = C::new_from_slice(key).map_err(|_| ())?;
        let nonce = GenericArray::from_slice(nonce);
        match tag {
            Some(t) => {
                let t = GenericArray::from_slice(t);
                cipher
                    .decrypt_in_place_detached(nonce, aad, buf, t)
                    .map_err(|_| ())?;
                Ok([0; TAG_LEN])
            }
            None => {
                let t = cipher
                    .encrypt_in_place_detached(nonce, aad, buf)
                    .map_err(|_| ())?;
                let mut out = [0; TAG_LEN];
                out.copy_from_slice(&t);
                Ok(out)
            }
        }
    }
    let k = key.bytes();
    match k.len() {
        16 => run::<AesGcm<aes::Aes128, U12>>(k, nonce, aad, buf, tag),
        24 => run::<AesGcm<aes::Aes192, U12>>(k, nonce, aad, buf, tag),
        _ => run::<AesGcm<aes::Aes256, U12>>(k, nonce, aad, buf, tag),
    }
}

/// Decrypts a GCM module (`nonce | ciphertext | tag`, without its length prefix) whose AAD is
/// `aad`. The plaintext is returned only when the tag authenticates it; `module` names the
/// module in the error. Never panics, for any input.
pub fn decrypt_gcm(key: &Key, buf: &[u8], aad: &[u8], module: &'static str) -> Result<Vec<u8>> {
    if buf.len() < NONCE_LEN + TAG_LEN {
        return Err(Error::truncated(
            "AES-GCM module (nonce and tag)",
            (NONCE_LEN + TAG_LEN) as u64,
            buf.len() as u64,
        ));
    }
    let (nonce, rest) = buf.split_at(NONCE_LEN);
    let (ct, tag) = rest.split_at(rest.len() - TAG_LEN);
    let mut out = crate::limits::copied(ct, module)?;
    match gcm_apply(key, nonce, aad, &mut out, Some(tag)) {
        Ok(_) => Ok(out),
        Err(()) => {
            // Nothing unauthenticated leaves: aes-gcm leaves `out` as it was on failure, and
            // it is dropped here anyway.
            Err(auth_failed(module))
        }
    }
}

/// Decrypts a CTR module (`nonce | ciphertext`, without its length prefix). CTR does not
/// authenticate. Never panics, for any input.
pub fn decrypt_ctr(key: &Key, buf: &[u8]) -> Result<Vec<u8>> {
    if buf.len() < NONCE_LEN {
        return Err(Error::truncated(
            "AES-CTR module (nonce)",
            NONCE_LEN as u64,
            buf.len() as u64,
        ));
    }
    let (nonce, ct) = buf.split_at(NONCE_LEN);
    let mut out = crate::limits::copied(ct, "an AES-CTR module")?;
    ctr_apply(key, nonce, &mut out);
    Ok(out)
}

fn ctr_apply(key: &Key, nonce: &[u8], buf: &mut [u8]) {
    fn run<C: KeyIvInit + StreamCipher>(key: &[u8], iv: &[u8; 16], buf: &mut [u8]) {
        if let Ok(mut c) = C::new_from_slices(key, iv) {
            c.apply_keystream(buf);
        }
    }
    // Spec 4.2.2: the IV is the nonce, then a 4-byte counter whose last bit is 1.
    let mut iv = [0u8; 16];
    iv[..NONCE_LEN].copy_from_slice(nonce);
    iv[15] = 1;
    let k = key.bytes();
    match k.len() {
        16 => run::<ctr::Ctr32BE<aes::Aes128>>(k, &iv, buf),
        24 => run::<ctr::Ctr32BE<aes::Aes192>>(k, &iv, buf),
        _ => run::<ctr::Ctr32BE<aes::Aes256>>(k, &iv, buf),
    }
}

/// Checks a plaintext footer's signature (`nonce | tag`, 28 bytes): the tag of the footer's GCM
/// encryption with `nonce` and `aad` (the footer module's AAD). Never panics, for any input.
pub fn verify_signature(key: &Key, footer: &[u8], signature: &[u8], aad: &[u8]) -> Result<()> {
    if signature.len() != NONCE_LEN + TAG_LEN {
        return Err(Error::truncated(
            "plaintext footer signature (nonce and tag)",
            (NONCE_LEN + TAG_LEN) as u64,
            signature.len() as u64,
        ));
    }
    let (nonce, tag) = signature.split_at(NONCE_LEN);
    let mut buf = crate::limits::copied(footer, "the footer")?;
    let computed = gcm_apply(key, nonce, aad, &mut buf, None).map_err(|_| auth_failed("footer"))?;
    // Constant time in the tag.
    let diff = computed
        .iter()
        .zip(tag.iter())
        .fold(0u8, |d, (a, b)| d | (a ^ b));
    if diff != 0 {
        return Err(Error::new(ErrorKind::Decryption {
            module: "footer",
            what: "the plaintext footer's signature does not match (wrong footer key, wrong or \
                   missing AAD prefix, or altered footer)",
        }));
    }
    Ok(())
}

/// Encrypts `plaintext` as a GCM module with `nonce` and `aad`, appending the length prefix,
/// nonce, ciphertext and tag to `out`. Errors when the module would not fit a 4-byte length.
pub fn encrypt_gcm(
    key: &Key,
    nonce: &[u8; NONCE_LEN],
    plaintext: &[u8],
    aad: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    let len = u32::try_from(plaintext.len() + NONCE_LEN + TAG_LEN)
        .map_err(|_| Error::out_of_range("encrypted module length", plaintext.len() as i64))?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(nonce);
    let start = out.len();
    out.extend_from_slice(plaintext);
    let tag = gcm_apply(key, nonce, aad, &mut out[start..], None)
        .map_err(|_| Error::invalid_argument("AES-GCM refused the key or nonce"))?;
    out.extend_from_slice(&tag);
    Ok(())
}

/// Encrypts `plaintext` as a CTR module with `nonce`, appending the length prefix, nonce and
/// ciphertext to `out`. Errors when the module would not fit a 4-byte length.
pub fn encrypt_ctr(
    key: &Key,
    nonce: &[u8; NONCE_LEN],
    plaintext: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    let len = u32::try_from(plaintext.len() + NONCE_LEN)
        .map_err(|_| Error::out_of_range("encrypted module length", plaintext.len() as i64))?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(nonce);
    let start = out.len();
    out.extend_from_slice(plaintext);
    ctr_apply(key, nonce, &mut out[start..]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn nist_gcm_test_case_4() {
        // NIST SP 800-38D / McGrew-Viega test case 4: AES-128, 12-byte IV, 60-byte plaintext, AAD.
        let key = Key::new(&hex("feffe9928665731c6d6a8f9467308308")).unwrap();
        let iv = hex("cafebabefacedbaddecaf888");
        let pt = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39");
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2");
        let ct = hex("42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091");
        let tag = hex("5bc94fbc3221a5db94fae95ae7121a47");
        let mut out = Vec::new();
        encrypt_gcm(&key, iv.as_slice().try_into().unwrap(), &pt, &aad, &mut out).unwrap();
        assert_eq!(out[..4], ((12 + 60 + 16) as u32).to_le_bytes());
        assert_eq!(out[4..16], iv[..]);
        assert_eq!(out[16..76], ct[..]);
        assert_eq!(out[76..], tag[..]);
        assert_eq!(decrypt_gcm(&key, &out[4..], &aad, "x").unwrap(), pt);
        let e = decrypt_gcm(&key, &out[4..], b"other", "data page").unwrap_err();
        assert!(e.to_string().contains("data page"), "{e}");
        // Signature = nonce + tag of the same encryption.
        let mut sig = iv.clone();
        sig.extend_from_slice(&tag);
        verify_signature(&key, &pt, &sig, &aad).unwrap();
        sig[27] ^= 0x80;
        assert!(verify_signature(&key, &pt, &sig, &aad).is_err());
    }

    #[test]
    fn nist_ctr_f51() {
        // NIST SP 800-38A F.5.1, CTR-AES128: the counter block f0f1..fcfd fefeff; parquet's IV
        // is nonce + 00000001, so take the nonce f0..fb with a plaintext aligned so that its
        // first block uses counter ...00000001: check the keystream against ECB of that block.
        let key = Key::new(&hex("2b7e151628aed2a6abf7158809cf4f3c")).unwrap();
        let nonce: [u8; 12] = hex("f0f1f2f3f4f5f6f7f8f9fafb").try_into().unwrap();
        let pt = hex("6bc1bee22e409f96e93d7e117393172a");
        let mut out = Vec::new();
        encrypt_ctr(&key, &nonce, &pt, &mut out).unwrap();
        // Expected: AES-128-ECB(key, f0..fb 00000001) XOR pt, computed with the aes crate's
        // block cipher (independent of the ctr crate's counter handling).
        use aes::cipher::{BlockEncrypt, KeyInit as _};
        let ecb = aes::Aes128::new_from_slice(key.bytes()).unwrap();
        let mut block = GenericArray::clone_from_slice(&hex("f0f1f2f3f4f5f6f7f8f9fafb00000001"));
        ecb.encrypt_block(&mut block);
        let want: Vec<u8> = block.iter().zip(&pt).map(|(a, b)| a ^ b).collect();
        assert_eq!(out[16..], want[..]);
        assert_eq!(decrypt_ctr(&key, &out[4..]).unwrap(), pt);
    }
}

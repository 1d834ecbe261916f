//! The encryption options of `write` (../shared/json-mapping.md): `--encrypt-footer-key KEY`,
//! `--encrypt-column PATH=KEY` (repeatable; without it every column is encrypted with the
//! footer key), `--footer-key-id ID`, `--column-key-id PATH=ID`,
//! `--encryption-algorithm aes_gcm_v1|aes_gcm_ctr_v1`, `--plaintext-footer`,
//! `--aad-prefix TEXT`, `--store-aad-prefix on|off`. KEY is 32, 48 or 64 hex digits; an ID is
//! stored as the key's key_metadata (the text's bytes), which readers give back with
//! `--key ID=KEY`. Keys are never echoed in messages.

use parket::encryption::Key;
use parket::write::{Algorithm, FileEncryptionProperties, WriteOptions};

use crate::args::Args;

fn pair(flag: &str, v: &str) -> Result<(String, String), String> {
    match v.split_once('=') {
        Some((a, b)) if !a.is_empty() => Ok((a.to_string(), b.to_string())),
        // The value may be a key: not repeated.
        _ => Err(format!("{flag} takes PATH=VALUE")),
    }
}

fn key(flag: &str, hex: &str) -> Result<Key, String> {
    Key::from_hex(hex).map_err(|e| format!("{flag}: {e}"))
}

/// Takes the encryption options from `args` into `o`; errors for options that need
/// `--encrypt-footer-key` without it, for ids of columns without a key, and for bad values.
pub fn options(args: &mut Args, o: WriteOptions) -> Result<WriteOptions, String> {
    let footer = args.value("--encrypt-footer-key")?;
    let columns = args.values("--encrypt-column")?;
    let footer_id = args.value("--footer-key-id")?;
    let column_ids = args.values("--column-key-id")?;
    let algorithm = args.value("--encryption-algorithm")?;
    let plaintext_footer = args.flag("--plaintext-footer");
    let aad_prefix = args.value("--aad-prefix")?;
    let store = args.value("--store-aad-prefix")?;
    let Some(footer) = footer else {
        let given = !columns.is_empty()
            || footer_id.is_some()
            || !column_ids.is_empty()
            || algorithm.is_some()
            || plaintext_footer
            || aad_prefix.is_some()
            || store.is_some();
        if given {
            return Err("the encryption options need --encrypt-footer-key KEY".into());
        }
        return Ok(o);
    };
    let mut p = FileEncryptionProperties::new(key("--encrypt-footer-key", &footer)?);
    if let Some(id) = footer_id {
        p = p.footer_key_metadata(id.as_bytes());
    }
    let mut ids = Vec::new();
    for v in &column_ids {
        ids.push(pair("--column-key-id", v)?);
    }
    for v in &columns {
        let (path, hex) = pair("--encrypt-column", v)?;
        let k = key(&format!("--encrypt-column {path}"), &hex)?;
        p = match ids.iter().position(|(q, _)| *q == path) {
            Some(i) => {
                let (_, id) = ids.swap_remove(i);
                p.column_key_with_metadata(&path, k, id.as_bytes())
            }
            None => p.column_key(&path, k),
        };
    }
    if let Some((path, _)) = ids.first() {
        return Err(format!(
            "--column-key-id {path}=...: no --encrypt-column key was given for {path}"
        ));
    }
    if let Some(a) = algorithm {
        p = p.algorithm(match a.as_str() {
            "aes_gcm_v1" => Algorithm::AesGcmV1,
            "aes_gcm_ctr_v1" => Algorithm::AesGcmCtrV1,
            _ => {
                return Err(format!(
                    "--encryption-algorithm {a}: expected aes_gcm_v1 or aes_gcm_ctr_v1"
                ))
            }
        });
    }
    p = p.plaintext_footer(plaintext_footer);
    if let Some(prefix) = aad_prefix {
        p = p.aad_prefix(prefix.as_bytes());
    }
    if let Some(v) = store {
        p = p.store_aad_prefix(crate::write::on_off("--store-aad-prefix", &v)?);
    }
    Ok(o.encryption(p))
}

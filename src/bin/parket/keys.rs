//! The key options of the reading commands (../shared/json-mapping.md): `--footer-key KEY`,
//! `--column-key PATH=KEY` (repeatable), `--key ID=KEY` (repeatable: the key whose
//! key_metadata is the text ID), `--aad-prefix TEXT`. KEY is 32, 48 or 64 hex digits.
//!
//! A key given by id is also a master key for the key material of parquet-java's and
//! pyarrow's key tools (PKMT1, see `parket::encryption::key_material`), read from the file's
//! key_metadata or from the side file `_KEY_MATERIAL_FOR_<file name>.json` beside the file.
//!
//! They are taken from the arguments once, before the command runs, and every reading command
//! opens its file through [`open_reader`] with them. Keys are never echoed in messages.

use std::sync::OnceLock;

use parket::encryption::key_material::{InMemoryKms, KeyMaterialRetriever};
use parket::encryption::{DecryptionProperties, Key};
use parket::read::FileReader;

/// The key options as given: (footer key, column keys, keys by id, AAD prefix).
#[derive(Default)]
struct KeyArgs {
    footer: Option<String>,
    columns: Vec<(String, String)>,
    ids: Vec<(String, String)>,
    aad_prefix: Option<String>,
}

static KEYS: OnceLock<KeyArgs> = OnceLock::new();

fn pair(flag: &str, v: String) -> Result<(String, String), String> {
    match v.split_once('=') {
        Some((a, b)) if !a.is_empty() => Ok((a.to_string(), b.to_string())),
        _ => Err(format!("{flag} takes NAME=KEY")),
    }
}

/// Removes the key options from `args` and keeps them for [`open_reader`].
pub fn take(args: &mut crate::args::Args) -> Result<(), String> {
    let k = KeyArgs {
        footer: args.value("--footer-key")?,
        columns: args
            .values("--column-key")?
            .into_iter()
            .map(|v| pair("--column-key", v))
            .collect::<Result<_, _>>()?,
        ids: args
            .values("--key")?
            .into_iter()
            .map(|v| pair("--key", v))
            .collect::<Result<_, _>>()?,
        aad_prefix: args.value("--aad-prefix")?,
    };
    // Parse now, so that a malformed key is an error before the file is touched.
    properties(&k, None)?;
    let _ = KEYS.set(k);
    Ok(())
}

fn key(flag: &str, hex: &str) -> Result<Key, String> {
    Key::from_hex(hex).map_err(|e| format!("{flag}: {e}"))
}

fn properties(k: &KeyArgs, path: Option<&str>) -> Result<Option<DecryptionProperties>, String> {
    if k.footer.is_none() && k.columns.is_empty() && k.ids.is_empty() && k.aad_prefix.is_none() {
        return Ok(None);
    }
    let mut p = DecryptionProperties::new();
    if let Some(f) = &k.footer {
        p = p.footer_key(key("--footer-key", f)?);
    }
    for (path, hex) in &k.columns {
        p = p.column_key(path, key("--column-key", hex)?);
    }
    // A key by id is also a master key of the KMS key tools' material (PKMT1), unwrapped as
    // their in-memory test KMS does, with the side file `_KEY_MATERIAL_FOR_<name>.json` next
    // to the file when there is one.
    let mut kms = InMemoryKms::new();
    for (id, hex) in &k.ids {
        p = p.key_by_id(id.as_bytes(), key("--key", hex)?);
        kms = kms.master_key(id, key("--key", hex)?);
    }
    if !k.ids.is_empty() {
        let mut retriever = KeyMaterialRetriever::new(kms);
        if let Some(path) = path {
            let path = std::path::Path::new(path);
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let side = path.with_file_name(format!("_KEY_MATERIAL_FOR_{name}.json"));
            if let Ok(text) = std::fs::read_to_string(&side) {
                retriever = retriever.with_external_material(&text).ok_or_else(|| {
                    format!("{}: not a JSON object of key material", side.display())
                })?;
            }
        }
        p = p.key_retriever(retriever);
    }
    if let Some(a) = &k.aad_prefix {
        p = p.aad_prefix(a.as_bytes());
    }
    Ok(Some(p))
}

/// Opens `path` streaming, decrypting it with the key options when any were given.
pub fn open_reader<R: std::io::Read + std::io::Seek + Send + 'static>(
    path: &str,
    reader: R,
) -> Result<FileReader<'static>, String> {
    let props = match KEYS.get() {
        Some(k) => properties(k, Some(path))?,
        None => None,
    };
    match props {
        Some(p) => FileReader::new_with_decryption(reader, p),
        None => FileReader::new(reader),
    }
    .map_err(|e| crate::file_error(path, e))
}

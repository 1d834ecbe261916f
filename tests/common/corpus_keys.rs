//! The keys parquet-testing's INDEX.md gives for its encrypted files (one table, for the
//! library tests and the CLI tests alike). AES-128 files: the footer key `0123456789012345`,
//! column keys by path (`double_field` `1234567890123450`, `float_field`
//! `1234567890123451`). AES-256 files (`aes256/`): the footer key
//! `01234567890123456789012345678901` and the column keys by key id, `kcN` =
//! `123456789012345678901234567890` followed by `1(N+1)`. The `disable_aad_storage` files
//! need the AAD prefix `tester`.

/// The encrypted files of `data/` that hold uniform_encryption's rows under the keys
/// [`corpus_keys`] gives (uniform_encryption itself first).
pub const SAME_ROWS: &[&str] = &[
    "uniform_encryption.parquet.encrypted",
    "encrypt_columns_and_footer.parquet.encrypted",
    "encrypt_columns_and_footer_aad.parquet.encrypted",
    "encrypt_columns_and_footer_ctr.parquet.encrypted",
    "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
    "encrypt_columns_plaintext_footer.parquet.encrypted",
    "aes256/uniform_encryption.parquet.encrypted",
    "aes256/encrypt_columns_and_footer.parquet.encrypted",
    "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted",
    "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
    "aes256/encrypt_columns_plaintext_footer.parquet.encrypted",
];

/// How a column key is found: by the column's path, or by the key id in its key_metadata.
pub enum ColumnKeyRef {
    Path(&'static str),
    Id(String),
}

/// The keys that open one encrypted corpus file.
pub struct CorpusKeys {
    pub footer: &'static [u8],
    pub columns: Vec<(ColumnKeyRef, Vec<u8>)>,
    pub aad_prefix: Option<&'static [u8]>,
}

/// The keys of `name` (a path under `data/`).
pub fn corpus_keys(name: &str) -> CorpusKeys {
    let (footer, columns) = if name.starts_with("aes256/") {
        let columns = (1..=8u8)
            .map(|i| {
                let mut k = b"123456789012345678901234567890".to_vec();
                k.extend_from_slice(format!("1{}", i + 1).as_bytes());
                (ColumnKeyRef::Id(format!("kc{i}")), k)
            })
            .collect();
        (&b"01234567890123456789012345678901"[..], columns)
    } else {
        let columns = vec![
            (
                ColumnKeyRef::Path("double_field"),
                b"1234567890123450".to_vec(),
            ),
            (
                ColumnKeyRef::Path("float_field"),
                b"1234567890123451".to_vec(),
            ),
        ];
        (&b"0123456789012345"[..], columns)
    };
    let aad_prefix = name
        .contains("disable_aad_storage")
        .then_some(&b"tester"[..]);
    CorpusKeys {
        footer,
        columns,
        aad_prefix,
    }
}

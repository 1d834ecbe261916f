//! Parquet Modular Encryption, read side: the 12 encrypted files of parquet-testing that take
//! plain keys read to the same records as uniform_encryption (whose rows pyarrow 26 reads and
//! which are checked here against pyarrow's values); wrong or missing keys and AAD prefixes are
//! clean errors that name the key or module; flipping any byte of a small AES_GCM_V1 file
//! never yields different rows; keys never show in `Debug` or errors.
#![cfg(feature = "encryption")]

use parket::encryption::{DecryptionProperties, Key};
use parket::read::FileReader;
use parket::record::Value;
use parket::testing::corpus_file;
use parket::{ErrorKind, Result};

#[path = "common/corpus_keys.rs"]
mod corpus_keys;
use corpus_keys::{corpus_keys, ColumnKeyRef};

const FOOTER_128: &[u8] = b"0123456789012345";

/// The decryption properties of corpus file `name`, from INDEX.md's keys.
fn keys_for(name: &str) -> DecryptionProperties {
    let k = corpus_keys(name);
    let mut p = DecryptionProperties::new().footer_key(Key::new(k.footer).unwrap());
    for (by, key) in k.columns {
        let key = Key::new(&key).unwrap();
        p = match by {
            ColumnKeyRef::Path(path) => p.column_key(path, key),
            ColumnKeyRef::Id(id) => p.key_by_id(id, key),
        };
    }
    match k.aad_prefix {
        Some(prefix) => p.aad_prefix(prefix),
        None => p,
    }
}

/// The keys of the AES-128 files whose AAD prefix is stored.
fn keys_128() -> DecryptionProperties {
    keys_for("uniform_encryption.parquet.encrypted")
}

fn records(name: &str, keys: DecryptionProperties) -> Result<Vec<Value>> {
    let bytes = corpus_file(name);
    let file = FileReader::from_bytes_with_decryption(&bytes, keys)?;
    let rows = file.records(None)?.collect::<Result<Vec<_>>>()?;
    // The same through a Read + Seek source.
    let file2 = FileReader::new_with_decryption(std::io::Cursor::new(&bytes), keys_for(name))?;
    let rows2 = file2.records(None)?.collect::<Result<Vec<_>>>()?;
    assert_eq!(rows, rows2, "{name}: slice and reader differ");
    Ok(rows)
}

/// The files besides uniform_encryption itself.
const SAME_DATA: &[&str] = corpus_keys::SAME_ROWS.split_at(1).1;

#[test]
fn corpus_files_read_with_their_keys() {
    let uniform = records("uniform_encryption.parquet.encrypted", keys_128()).unwrap();
    assert_eq!(uniform.len(), 50);
    // Row 1 as pyarrow 26 reads it (create_decryption_properties(footer_key=...)):
    // boolean False, time 00:00:00.001, [2e12, 3e12], float 1.1f, double 1.1111111, ba null,
    // flba ten 0x01 bytes.
    let Value::Group(row1) = &uniform[1] else {
        panic!("{:?}", uniform[1])
    };
    assert_eq!(row1[0], Value::Boolean(false));
    assert_eq!(row1[1], Value::Int32(1));
    assert_eq!(
        row1[2],
        Value::List(vec![
            Value::Int64(2_000_000_000_000),
            Value::Int64(3_000_000_000_000)
        ])
    );
    assert_eq!(row1[4], Value::Float(1.1));
    assert_eq!(row1[5], Value::Double(1.1111111));
    assert_eq!(row1[6], Value::Null);
    assert_eq!(row1[7], Value::Bytes(vec![1; 10]));
    for name in SAME_DATA {
        let rows = records(name, keys_for(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rows, uniform, "{name}");
    }
    // Different data, with encrypted Bloom filters: 2000 rows, row i = (i + 0.5, i + 0.25, i,
    // "name_i").
    let rows = records(
        "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        keys_128(),
    )
    .unwrap();
    assert_eq!(rows.len(), 2000);
    assert_eq!(
        rows[1999],
        Value::Group(vec![
            Value::Double(1999.5),
            Value::Float(1999.25),
            Value::Int32(1999),
            Value::Bytes(b"name_1999".to_vec()),
        ])
    );
}

fn open_err(name: &str, keys: DecryptionProperties) -> parket::Error {
    let bytes = corpus_file(name);
    let e = match FileReader::from_bytes_with_decryption(&bytes, keys) {
        Err(e) => e,
        Ok(f) => match f.records(None).and_then(|r| r.collect::<Result<Vec<_>>>()) {
            Err(e) => e,
            Ok(_) => panic!("{name}: read without error"),
        },
    };
    e
}

#[test]
fn wrong_or_missing_keys_and_prefixes_are_clean_errors() {
    let f = "encrypt_columns_and_footer.parquet.encrypted";
    // No footer key.
    let e = open_err(f, DecryptionProperties::new());
    assert!(e.to_string().contains("no footer key"), "{e}");
    // A wrong footer key: the footer does not authenticate.
    let wrong = DecryptionProperties::new().footer_key(Key::new(&[9; 16]).unwrap());
    let e = open_err(f, wrong);
    assert!(
        matches!(
            e.kind(),
            ErrorKind::Decryption {
                module: "footer",
                ..
            }
        ),
        "{e}"
    );
    // A missing column key: the file opens, the other columns read, the column fails.
    let bytes = corpus_file(f);
    let only_footer = DecryptionProperties::new().footer_key(Key::new(FOOTER_128).unwrap());
    let file = FileReader::from_bytes_with_decryption(&bytes, only_footer).unwrap();
    let rows: Vec<Value> = file
        .records(Some(&["int32_field", "ba_field"]))
        .unwrap()
        .collect::<Result<_>>()
        .unwrap();
    assert_eq!(rows.len(), 50);
    let e = file.column_chunk(0, "double_field").err().unwrap();
    assert!(
        e.to_string().contains("no key was given for this column"),
        "{e}"
    );
    assert_eq!(e.location().column.as_deref(), Some("double_field"));
    // A wrong column key.
    let wrong_col = keys_128().column_key("float_field", Key::new(&[7; 16]).unwrap());
    let e = open_err(f, wrong_col);
    assert!(e.to_string().contains("column metadata"), "{e}");
    assert_eq!(e.location().column.as_deref(), Some("float_field"), "{e}");
    // The AAD prefix: required but not given; given but different from the stored one.
    let e = open_err(
        "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        keys_128(),
    );
    assert!(e.to_string().contains("supply it"), "{e}");
    let e = open_err(
        "encrypt_columns_and_footer_aad.parquet.encrypted",
        keys_128().aad_prefix(b"other"),
    );
    assert!(e.to_string().contains("differs"), "{e}");
    // A wrong prefix where none is stored: nothing authenticates.
    let e = open_err(
        "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        keys_128().aad_prefix(b"tester2"),
    );
    assert!(matches!(e.kind(), ErrorKind::Decryption { .. }), "{e}");
    // The plaintext footer with a wrong footer key: the signature does not verify.
    let e = open_err(
        "encrypt_columns_plaintext_footer.parquet.encrypted",
        DecryptionProperties::new().footer_key(Key::new(&[1; 16]).unwrap()),
    );
    assert!(e.to_string().contains("signature"), "{e}");
    // Without keys: the clean "encrypted" error.
    let e = FileReader::from_bytes(&bytes).err().unwrap();
    assert_eq!(e.kind(), &ErrorKind::Encrypted);
}

#[test]
fn keys_never_show() {
    let secret = b"0123456789abcdef";
    let p = DecryptionProperties::new()
        .footer_key(Key::new(secret).unwrap())
        .column_key("a", Key::new(secret).unwrap());
    let shown = format!("{p:?} {:?}", Key::new(secret).unwrap());
    for needle in ["0123456789abcdef", "48, 49", "0x30", "30313233"] {
        assert!(!shown.contains(needle), "{shown}");
    }
    let e = open_err(
        "uniform_encryption.parquet.encrypted",
        DecryptionProperties::new().footer_key(Key::new(secret).unwrap()),
    );
    let text = format!("{e} {e:?}");
    assert!(
        !text.contains("0123456789abcdef") && !text.contains("48, 49"),
        "{text}"
    );
}

/// Flipping one bit of each byte of a small AES_GCM_V1 file either fails or reads the very
/// same records: never different rows. The flips that do not fail are all in bytes the records
/// do not depend on or that the spec leaves unauthenticated: the page indexes (not read for
/// records) and the FileCryptoMetaData (its key_metadata and unknown fields; a changed
/// aad_file_unique fails through the AADs).
#[test]
fn tampering_never_changes_rows() {
    let name = "uniform_encryption.parquet.encrypted";
    let bytes = corpus_file(name);
    let want = records(name, keys_128()).unwrap();
    let file = FileReader::from_bytes_with_decryption(&bytes, keys_128()).unwrap();
    let mut index = (u64::MAX, 0u64);
    for c in &file.metadata().row_groups[0].columns {
        for (o, l) in [
            (c.column_index_offset, c.column_index_length),
            (c.offset_index_offset, c.offset_index_length),
        ] {
            if let (Some(o), Some(l)) = (o, l) {
                index = (index.0.min(o as u64), index.1.max(o as u64 + l as u64));
            }
        }
    }
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let crypto_start = n - 8 - footer_len;
    let (_, crypto_len) =
        parket::format::FileCryptoMetaData::decode(&bytes[crypto_start..]).unwrap();
    let unauthenticated = |i: usize| {
        (index.0..index.1).contains(&(i as u64))
            || (crypto_start..crypto_start + crypto_len).contains(&i)
    };
    let mut failed = 0;
    for i in 0..n {
        let mut b = bytes.clone();
        b[i] ^= 0x01 << (i % 8);
        let got = FileReader::from_bytes_with_decryption(&b, keys_128())
            .and_then(|f| f.records(None)?.collect::<Result<Vec<_>>>());
        match got {
            Ok(rows) => {
                assert_eq!(rows, want, "byte {i}: different rows");
                assert!(unauthenticated(i), "byte {i}: a flip went unnoticed");
            }
            Err(_) => failed += 1,
        }
    }
    assert!(failed > n * 8 / 10, "{failed} of {n}");
}

/// external_key_material_java: PKMT1 key material in a side file, data keys double-wrapped
/// under the master keys kf, kc1, kc2 of parquet-java's in-memory test KMS.
#[test]
fn external_key_material() {
    use parket::encryption::key_material::{InMemoryKms, KeyMaterialRetriever};
    let name = "external_key_material_java.parquet.encrypted";
    let bytes = corpus_file(name);
    let side = std::fs::read_to_string(
        parket::testing::corpus_dir().join(format!("data/_KEY_MATERIAL_FOR_{name}.json")),
    )
    .unwrap();
    let kms = InMemoryKms::new()
        .master_key("kf", Key::new(FOOTER_128).unwrap())
        .master_key("kc1", Key::new(b"1234567890123450").unwrap())
        .master_key("kc2", Key::new(b"1234567890123451").unwrap());
    let retriever = KeyMaterialRetriever::new(kms)
        .with_external_material(&side)
        .unwrap();
    let keys = DecryptionProperties::new().key_retriever(retriever);
    let file = FileReader::from_bytes_with_decryption(&bytes, keys).unwrap();
    let rows = file
        .records(None)
        .unwrap()
        .collect::<Result<Vec<_>>>()
        .unwrap();
    // parquet-java's writer of this file: row i = (i, the letter 'a' + i % 10, then i).
    assert_eq!(rows.len(), 100);
    for (i, r) in rows.iter().enumerate() {
        let text = format!("{}{i}", (b'a' + (i % 10) as u8) as char);
        let want = Value::Group(vec![
            Value::Int32(i as i32),
            Value::Bytes(text.into_bytes()),
        ]);
        assert_eq!(r, &want);
    }
}

/// The encrypted Bloom filters of encrypt_columns_and_footer_bloom_filter: the header (module
/// type 8) and the bitset (module type 9) decrypt with the column keys, and the filters hold
/// the columns' values (double_field = i + 0.5, float_field = i + 0.25 for i < 2000).
#[test]
fn encrypted_bloom_filters() {
    use parket::bloom::{xxhash64, Sbbf};
    use parket::encryption::ModuleType;
    use parket::format::BloomFilterHeader;
    let bytes = corpus_file("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    let file = FileReader::from_bytes_with_decryption(&bytes, keys_128()).unwrap();
    let mut checked = 0;
    for (col, path) in file
        .schema()
        .columns()
        .iter()
        .map(|c| c.path_string())
        .enumerate()
    {
        let meta = file.metadata().row_groups[0].columns[col]
            .meta_data
            .as_ref()
            .unwrap();
        let Some(at) = meta.bloom_filter_offset else {
            continue;
        };
        let at = at as usize;
        let module_len =
            |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize + 4;
        let header_len = module_len(at);
        let header = file
            .decrypt_chunk_module(
                0,
                col,
                ModuleType::BloomFilterHeader,
                &bytes[at..at + header_len],
            )
            .unwrap()
            .expect("the column is encrypted");
        let (header, _) = BloomFilterHeader::decode(&header).unwrap();
        let bitset_at = at + header_len;
        let bitset_len = module_len(bitset_at);
        let bitset = file
            .decrypt_chunk_module(
                0,
                col,
                ModuleType::BloomFilterBitset,
                &bytes[bitset_at..bitset_at + bitset_len],
            )
            .unwrap()
            .unwrap();
        assert_eq!(bitset.len(), header.num_bytes as usize, "{path}");
        // Swapping the module types fails: the AAD binds each module to its type.
        assert!(file
            .decrypt_chunk_module(
                0,
                col,
                ModuleType::BloomFilterHeader,
                &bytes[bitset_at..bitset_at + bitset_len]
            )
            .is_err());
        let filter = Sbbf::from_bytes(&bitset).unwrap();
        for i in 0..2000 {
            let hash = match path.as_str() {
                "double_field" => xxhash64(&(i as f64 + 0.5).to_le_bytes()),
                "float_field" => xxhash64(&(i as f32 + 0.25).to_le_bytes()),
                other => panic!("unexpected Bloom filter on {other}"),
            };
            assert!(filter.check_hash(hash), "{path}: {i}");
        }
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// The `decrypt` fuzz harness over every encrypted corpus file, whole and with bytes changed
/// (a fixed pseudo-random sequence): no panic, and the slice and one-byte-per-read paths agree.
#[cfg(feature = "fuzzing")]
#[test]
fn decrypt_fuzz_harness_smoke() {
    let mut names: Vec<String> = SAME_DATA.iter().map(|s| s.to_string()).collect();
    names.push("uniform_encryption.parquet.encrypted".into());
    names.push("encrypt_columns_and_footer_bloom_filter.parquet.encrypted".into());
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for name in &names {
        let choice = if name.starts_with("aes256/") {
            2
        } else if name.contains("disable_aad_storage") {
            1
        } else {
            0
        };
        let mut input = vec![choice];
        input.extend_from_slice(&corpus_file(name));
        parket::read::fuzz::fuzz_decrypt(&input);
        for _ in 0..40 {
            let mut m = input.clone();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = 1 + (state as usize) % (m.len() - 1);
                m[at] = (state >> 32) as u8;
            }
            parket::read::fuzz::fuzz_decrypt(&m);
        }
    }
}

/// Opens encrypt_columns_and_footer_bloom_filter (2000 rows, row i = (i + 0.5, i + 0.25, i,
/// "name_i"); double_field and float_field encrypted with their column keys, each with an
/// encrypted column index, offset index and Bloom filter; int32_field and name in plaintext
/// with plaintext indexes) from a slice and through `Read + Seek`.
fn bloom_filter_file(bytes: &[u8], keys: fn() -> DecryptionProperties) -> [FileReader<'_>; 2] {
    [
        FileReader::from_bytes_with_decryption(bytes, keys()).unwrap(),
        FileReader::new_with_decryption(std::io::Cursor::new(bytes), keys()).unwrap(),
    ]
}

fn bloom_row(i: usize) -> Value {
    Value::Group(vec![
        Value::Double(i as f64 + 0.5),
        Value::Float(i as f32 + 0.25),
        Value::Int32(i as i32),
        Value::Bytes(format!("name_{i}").into_bytes()),
    ])
}

/// The page indexes and Bloom filters of encrypted chunks (module types 6 to 9) decrypt where
/// the reader reads them: `column_index`, `offset_index`, `bloom_filter`; and the scan uses
/// them: a predicate prunes pages through the decrypted column and offset indexes (reading
/// only the pages that hold the matching rows) and row groups through the decrypted Bloom
/// filters, with exactly the matching rows.
#[test]
fn scan_with_predicate_and_page_index() {
    use parket::predicate::Predicate;
    let bytes = corpus_file("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    for file in bloom_filter_file(&bytes, keys_128) {
        let schema = file.schema().clone();
        // The indexes of an encrypted column (0) and of a plaintext one (2) decode.
        for c in [0, 2] {
            let oi = file.offset_index(0, c).unwrap().expect("an offset index");
            let ci = file.column_index(0, c).unwrap().expect("a column index");
            assert_eq!(oi.page_locations.len(), ci.null_pages.len(), "column {c}");
            assert_eq!(oi.page_locations[0].first_row_index, 0, "column {c}");
        }
        let pages = file.offset_index(0, 0).unwrap().unwrap().page_locations;
        assert!(pages.len() > 1, "double_field has {} pages", pages.len());
        // The Bloom filters: the encrypted columns' hold their values.
        let filter = file.bloom_filter(0, 0).unwrap().expect("a Bloom filter");
        let hash = |x: f64| parket::bloom::xxhash64(&x.to_le_bytes());
        assert!((0..2000).all(|i| filter.check_hash(hash(i as f64 + 0.5))));
        assert!(file.bloom_filter(0, 2).unwrap().is_none());

        // Page pruning through the decrypted indexes: the last rows are in the last page.
        let last_page_row = pages.last().unwrap().first_row_index as usize;
        let text = format!("double_field >= {}", 1999.5 - 5.0);
        let p = Predicate::parse(&text, &schema).unwrap();
        let explain = file.scan().predicate(p.clone()).explain().unwrap();
        assert_eq!(explain.indexed_chunks, 4, "{explain:?}");
        let mut scan = file.scan().predicate(p.clone()).build().unwrap();
        let mut got = Vec::new();
        for b in scan.by_ref() {
            got.extend(b.unwrap().rows);
        }
        assert_eq!((got.len(), got[0].clone()), (1, 1994..2000));
        let stats = scan.stats();
        // One page per column, not all of them (each column's last page).
        assert_eq!(stats.indexed_chunks, 4, "{stats:?}");
        assert_eq!(stats.pages_read, 4, "{stats:?}");
        let rows: Vec<Value> = file
            .scan()
            .predicate(p)
            .build()
            .unwrap()
            .records()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(rows, (1994..2000).map(bloom_row).collect::<Vec<_>>());
        assert!(last_page_row <= 1994);

        // A predicate on an encrypted column with a projection to plaintext ones, offset and
        // limit; the same rows without the page index.
        let p = Predicate::parse("float_field < 10 AND int32_field >= 3", &schema).unwrap();
        for page_index in [true, false] {
            let rows: Vec<Value> = file
                .scan()
                .columns(&["name"])
                .predicate(p.clone())
                .use_page_index(page_index)
                .offset(1)
                .limit(3)
                .build()
                .unwrap()
                .records()
                .collect::<Result<_>>()
                .unwrap();
            let want: Vec<Value> = (4..7)
                .map(|i| Value::Group(vec![Value::Bytes(format!("name_{i}").into_bytes())]))
                .collect();
            assert_eq!(rows, want, "page index {page_index}");
        }

        // Bloom filters rule the row group out: 3.0 is within the statistics and every page's
        // bounds, but no value (they are all i + 0.5), so only the decrypted filter can tell.
        // With the page index on, the scan consults the filters only when the index has not
        // already narrowed the row group (read/scan.rs: a point lookup then skips a large
        // filter), so there the index's one page is read and yields nothing.
        for page_index in [true, false] {
            let p = Predicate::parse("double_field = 3.0", &schema).unwrap();
            let scan = file.scan().predicate(p).use_page_index(page_index);
            if !page_index {
                assert!(scan.plan().unwrap().is_empty());
            }
            assert_eq!(scan.build().unwrap().records().count(), 0);
        }
        let p = Predicate::parse("double_field = 3.5", &schema).unwrap();
        let rows: Vec<Value> = file
            .scan()
            .predicate(p)
            .build()
            .unwrap()
            .records()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(rows, [bloom_row(3)]);
    }
}

/// A column whose key the caller lacks fails only when the scan selects it (as an output
/// column or through the predicate), naming the column; the other columns scan.
#[test]
fn scan_without_a_column_key() {
    use parket::predicate::Predicate;
    fn only_footer() -> DecryptionProperties {
        DecryptionProperties::new().footer_key(Key::new(FOOTER_128).unwrap())
    }
    let bytes = corpus_file("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    for file in bloom_filter_file(&bytes, only_footer) {
        let schema = file.schema().clone();
        let rows: Vec<Value> = file
            .scan()
            .columns(&["int32_field", "name"])
            .predicate(Predicate::parse("int32_field >= 1998", &schema).unwrap())
            .build()
            .unwrap()
            .records()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(rows.len(), 2);
        for (columns, predicate) in [
            (&["double_field"][..], None),
            (&["name", "float_field"][..], None),
            (&["name"][..], Some("double_field > 1.0")),
        ] {
            let mut b = file.scan().columns(columns);
            if let Some(p) = predicate {
                b = b.predicate(Predicate::parse(p, &schema).unwrap());
            }
            let e = b
                .build()
                .and_then(|s| s.records().collect::<Result<Vec<_>>>())
                .unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Decryption { .. }), "{e}");
            let column = e.location().column.clone().unwrap_or_default();
            assert!(column.ends_with("_field"), "{e}");
            assert!(e.to_string().contains("no key was given"), "{e}");
        }
        // The page index of a column without its key is an error, not plaintext.
        assert!(file.offset_index(0, 0).is_err());
        assert!(file.bloom_filter(0, 1).is_err());
        assert!(file.offset_index(0, 3).unwrap().is_some());
    }
}

/// `read_typed` on an encrypted file, whole and projected to fewer fields.
#[cfg(feature = "derive")]
#[test]
fn read_typed_encrypted() {
    #[derive(parket::Record, Debug, PartialEq)]
    struct Row {
        double_field: f64,
        float_field: f32,
        int32_field: Option<i32>,
        name: Option<String>,
    }
    #[derive(parket::Record, Debug, PartialEq)]
    struct Some2 {
        name: Option<String>,
        int32_field: Option<i64>,
    }
    let bytes = corpus_file("encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
    for file in bloom_filter_file(&bytes, keys_128) {
        let rows: Vec<Row> = file.read_typed().unwrap().collect::<Result<_>>().unwrap();
        assert_eq!(rows.len(), 2000);
        assert_eq!(
            rows[1234],
            Row {
                double_field: 1234.5,
                float_field: 1234.25,
                int32_field: Some(1234),
                name: Some("name_1234".into()),
            }
        );
        let some: Vec<Some2> = file.read_typed().unwrap().collect::<Result<_>>().unwrap();
        assert_eq!(
            some[7],
            Some2 {
                name: Some("name_7".into()),
                int32_field: Some(7)
            }
        );
    }
    // The uniformly encrypted file (every column with the footer key, CTR-free GCM pages).
    #[derive(parket::Record, Debug, PartialEq)]
    struct Uniform {
        boolean_field: bool,
        float_field: f32,
        double_field: f64,
    }
    let bytes = corpus_file("uniform_encryption.parquet.encrypted");
    let file = FileReader::from_bytes_with_decryption(&bytes, keys_128()).unwrap();
    let rows: Vec<Uniform> = file.read_typed().unwrap().collect::<Result<_>>().unwrap();
    assert_eq!(rows.len(), 50);
    assert_eq!(
        rows[1],
        Uniform {
            boolean_field: false,
            float_field: 1.1,
            double_field: 1.1111111
        }
    );
}

//! Encrypted files written by parket, read back by parket's reader: every mode (both
//! algorithms, encrypted and plaintext footer, no / stored / supplied AAD prefix, uniform and
//! per-column keys with a plaintext column) gives the rows, page indexes and Bloom filters of the
//! same file written without encryption; wrong keys and a missing AAD prefix are errors; a
//! flipped byte anywhere is an error or changes nothing. (pyarrow reads these modes too:
//! tests/interop_encryption.rs.)

use parket::bloom::xxhash64;
use parket::encryption::{DecryptionProperties, Key};
use parket::read::FileReader;
use parket::record::Value;
use parket::schema::Schema;
use parket::values::ValuesRef;
use parket::write::{
    Algorithm, BloomFilterOptions, FileEncryptionProperties, FileWriter, PageVersion, WriteOptions,
};
use parket::Result;

const SCHEMA: &str =
    "message m { required int64 a; optional binary b (STRING); optional double c; }";

fn key(b: u8) -> Key {
    Key::new(&[b; 16]).unwrap()
}

/// `rows` rows in row groups of 100, pages of 20 rows (V1 or V2), a Bloom filter on b.
fn write(encryption: Option<FileEncryptionProperties>, rows: usize) -> Vec<u8> {
    write_pages(encryption, rows, PageVersion::V1)
}

fn write_pages(
    encryption: Option<FileEncryptionProperties>,
    rows: usize,
    version: PageVersion,
) -> Vec<u8> {
    let schema = Schema::parse(SCHEMA).unwrap();
    let mut options = WriteOptions::default()
        .page_version(version)
        .max_rows_per_page(20)
        .column("b", |c| c.bloom_filter(Some(BloomFilterOptions::default())));
    if let Some(e) = encryption {
        options = options.encryption(e);
    }
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    for start in (0..rows).step_by(100) {
        let end = (start + 100).min(rows);
        let mut rg = w.next_row_group().unwrap();
        let a: Vec<i64> = (start as i64..end as i64).collect();
        rg.write("a", ValuesRef::Int64(&a), &[], &[]).unwrap();
        let def: Vec<u16> = (start..end).map(|i| u16::from(i % 3 != 0)).collect();
        let b: parket::values::ByteArrays = (start..end)
            .filter(|i| i % 3 != 0)
            .map(|i| format!("s{}", i % 17))
            .collect();
        rg.write("b", ValuesRef::ByteArray(b.as_ref()), &def, &[])
            .unwrap();
        let c: Vec<f64> = (start..end)
            .filter(|i| i % 3 != 0)
            .map(|i| [-0.0, f64::NAN, 1e308, i as f64][i % 4])
            .collect();
        rg.write("c", ValuesRef::Double(&c), &def, &[]).unwrap();
        rg.finish().unwrap();
    }
    w.finish().unwrap();
    w.into_inner()
}

/// What a reader gets from a file: rows, and for every chunk its page indexes and Bloom
/// filter bits (compared by value; a NaN row compares by its bits through Debug).
fn contents(bytes: &[u8], keys: DecryptionProperties) -> Result<String> {
    let file = FileReader::from_bytes_with_decryption(bytes, keys)?;
    let rows = file.records(None)?.collect::<Result<Vec<Value>>>()?;
    let mut out = format!("{rows:?}\n");
    for rg in 0..file.metadata().row_groups.len() {
        for c in 0..3 {
            out += &format!(
                "{rg}/{c}: {:?} {:?}\n",
                file.column_index(rg, c)?,
                file.offset_index(rg, c)?.map(|o| o
                    .page_locations
                    .iter()
                    .map(|p| p.first_row_index)
                    .collect::<Vec<_>>())
            );
            if let Some(f) = file.bloom_filter(rg, c)? {
                let hits: Vec<bool> = (0..17)
                    .map(|i| f.check_hash(xxhash64(format!("s{i}").as_bytes())))
                    .collect();
                out += &format!("bloom {rg}/{c}: {hits:?}\n");
            }
        }
    }
    Ok(out)
}

fn plain_contents(bytes: &[u8]) -> String {
    let file = FileReader::from_bytes(bytes).unwrap();
    let rows = file
        .records(None)
        .unwrap()
        .collect::<Result<Vec<Value>>>()
        .unwrap();
    let mut out = format!("{rows:?}\n");
    for rg in 0..file.metadata().row_groups.len() {
        for c in 0..3 {
            out += &format!(
                "{rg}/{c}: {:?} {:?}\n",
                file.column_index(rg, c).unwrap(),
                file.offset_index(rg, c).unwrap().map(|o| o
                    .page_locations
                    .iter()
                    .map(|p| p.first_row_index)
                    .collect::<Vec<_>>())
            );
            if let Some(f) = file.bloom_filter(rg, c).unwrap() {
                let hits: Vec<bool> = (0..17)
                    .map(|i| f.check_hash(xxhash64(format!("s{i}").as_bytes())))
                    .collect();
                out += &format!("bloom {rg}/{c}: {hits:?}\n");
            }
        }
    }
    out
}

/// One mode: the properties, the keys that read the file, a name.
type Mode = (
    FileEncryptionProperties,
    fn() -> DecryptionProperties,
    String,
);

/// Every mode.
fn modes() -> Vec<Mode> {
    let mut out = Vec::new();
    for alg in [Algorithm::AesGcmV1, Algorithm::AesGcmCtrV1] {
        for plaintext_footer in [false, true] {
            for aad in ["none", "stored", "supplied"] {
                for per_column in [false, true] {
                    let mut p = FileEncryptionProperties::new(key(1))
                        .algorithm(alg)
                        .plaintext_footer(plaintext_footer)
                        .footer_key_metadata(b"kf");
                    if aad != "none" {
                        p = p.aad_prefix(b"part0").store_aad_prefix(aad == "stored");
                    }
                    // Per column: b under its own key (found by its key_metadata), c under
                    // another given by path, a in plaintext.
                    if per_column {
                        p = p
                            .column_key_with_metadata("b", key(2), b"kb")
                            .column_key("c", key(3));
                    }
                    let keys: fn() -> DecryptionProperties = match (aad == "supplied", per_column) {
                        (false, false) => || DecryptionProperties::new().footer_key(key(1)),
                        (true, false) => || {
                            DecryptionProperties::new()
                                .footer_key(key(1))
                                .aad_prefix(b"part0")
                        },
                        (false, true) => || {
                            DecryptionProperties::new()
                                .key_by_id("kf", key(1))
                                .key_by_id("kb", key(2))
                                .column_key("c", key(3))
                        },
                        (true, true) => || {
                            DecryptionProperties::new()
                                .key_by_id("kf", key(1))
                                .key_by_id("kb", key(2))
                                .column_key("c", key(3))
                                .aad_prefix(b"part0")
                        },
                    };
                    let name =
                        format!("{alg:?} plaintext_footer={plaintext_footer} aad={aad} per_column={per_column}");
                    out.push((p, keys, name));
                }
            }
        }
    }
    out
}

#[test]
fn every_mode_round_trips() {
    let want = plain_contents(&write(None, 250));
    assert!(want.contains("bloom 2/1"), "{want}");
    assert!(want.contains("2/0: Some(ColumnIndex"), "{want}");
    let modes = modes();
    assert_eq!(modes.len(), 24);
    for (i, (props, keys, name)) in modes.into_iter().enumerate() {
        // Every other mode with V2 pages (levels outside the compressed values; the whole
        // body is one module).
        let version = [PageVersion::V1, PageVersion::V2][(i / 2) % 2];
        let name = format!("{name} {version:?}");
        let bytes = write_pages(Some(props.clone()), 250, version);
        let got = contents(&bytes, keys()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, want, "{name}");
        // The wrong footer key, and (when the file does not store it) no AAD prefix.
        let wrong = DecryptionProperties::new()
            .footer_key(key(9))
            .key_by_id("kb", key(2))
            .column_key("c", key(3))
            .aad_prefix(b"part0");
        let e = contents(&bytes, wrong).unwrap_err().to_string();
        assert!(!e.contains("[9, 9") && e.contains("decrypt"), "{name}: {e}");
        if name.contains("aad=supplied") {
            let no_prefix = DecryptionProperties::new()
                .footer_key(key(1))
                .key_by_id("kb", key(2))
                .column_key("c", key(3));
            let e = contents(&bytes, no_prefix).unwrap_err().to_string();
            assert!(e.contains("AAD prefix"), "{name}: {e}");
        }
        if name.contains("per_column=true") {
            // Without b's key: a and c read, b is an error when selected.
            let no_b = || {
                let p = DecryptionProperties::new()
                    .footer_key(key(1))
                    .column_key("c", key(3));
                if name.contains("aad=none") {
                    p
                } else {
                    p.aad_prefix(b"part0")
                }
            };
            let f = FileReader::from_bytes_with_decryption(&bytes, no_b()).unwrap();
            assert_eq!(f.records(Some(&["a", "c"])).unwrap().count(), 250, "{name}");
            let f = FileReader::from_bytes_with_decryption(&bytes, no_b()).unwrap();
            let b = f
                .records(Some(&["b"]))
                .and_then(|r| r.collect::<Result<Vec<_>>>());
            assert!(b.is_err(), "{name}");
        }
    }
}

/// Flips one bit of every byte of a small file (two row groups, several pages, indexes and a
/// Bloom filter): each flip is an error or leaves what a reader gets unchanged. Returns the
/// flips caught and the bytes.
fn flips(props: FileEncryptionProperties, keys: fn() -> DecryptionProperties) -> (usize, usize) {
    let bytes = write(Some(props), 130);
    let want = contents(&bytes, keys()).unwrap();
    let (mut caught, n) = (0, bytes.len());
    for i in 0..n {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        match contents(&b, keys()) {
            Ok(got) => assert_eq!(got, want, "byte {i} of {n}: different contents"),
            Err(e) => {
                let e = e.to_string();
                assert!(!e.contains("[1, 1"), "{e}");
                caught += 1;
            }
        }
    }
    eprintln!("{caught} of {n} flips caught");
    (caught, n)
}

#[test]
fn tampering_gcm_never_changes_contents() {
    let keys = || DecryptionProperties::new().footer_key(key(1));
    for plaintext_footer in [false, true] {
        let (caught, n) = flips(
            FileEncryptionProperties::new(key(1)).plaintext_footer(plaintext_footer),
            keys,
        );
        // Every byte is checked: authenticated, or the magic.
        assert_eq!(caught, n, "plaintext_footer={plaintext_footer}");
    }
}

#[test]
fn tampering_ctr_headers_footer_indexes_caught() {
    // CTR pages carry no tag, but the page CRC (over the stored module) catches their flips;
    // headers, footer, indexes and Bloom filters are GCM.
    let keys = || DecryptionProperties::new().footer_key(key(1));
    let (caught, n) = flips(
        FileEncryptionProperties::new(key(1)).algorithm(Algorithm::AesGcmCtrV1),
        keys,
    );
    assert_eq!(caught, n);
}

/// The large-file half of the tamper acceptance: a 20,000-row file (200 row groups, 1,000
/// pages per column, indexes and Bloom filters), uniformly encrypted with AES_GCM_V1 under both
/// footer modes; 150 bytes at random positions (a fixed seed) are each replaced by another
/// random value, one at a time: every read is an error or gives the same contents.
#[test]
fn tampering_random_bytes_of_a_large_gcm_file() {
    let keys = || DecryptionProperties::new().footer_key(key(1));
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for plaintext_footer in [false, true] {
        let bytes = write(
            Some(FileEncryptionProperties::new(key(1)).plaintext_footer(plaintext_footer)),
            20_000,
        );
        let want = contents(&bytes, keys()).unwrap();
        let n = bytes.len();
        assert!(n > 200_000, "{n} bytes");
        let mut caught = 0;
        for _ in 0..150 {
            let i = (next() % n as u64) as usize;
            let mut b = bytes.clone();
            let v = (next() % 255) as u8 + 1; // 1..=255: never the same byte
            b[i] ^= v;
            match contents(&b, keys()) {
                Ok(got) => assert_eq!(got, want, "byte {i} of {n} ^ {v:#04x}: different contents"),
                Err(_) => caught += 1,
            }
        }
        // Only the magics are not authenticated; 150 random positions of a large file all
        // land in authenticated modules (or the length fields that locate them).
        eprintln!("plaintext_footer={plaintext_footer}: {caught} of 150 random flips caught");
        assert!(caught >= 149, "{caught} of 150");
    }
}

//! Every footer of the parquet-testing corpus decodes, and re-encodes to an equal value.
//!
//! The corpus lives in `$PARQUET_TEST_DATA` (default: `../shared/parquet-testing` next to the
//! crate). A missing corpus fails the test, saying how to point at it.
//!
//! - `data/`, `data/aes256/`, `data/geospatial/`: every `*.parquet` file's footer decodes;
//!   `*.parquet.encrypted` files with the `PARE` magic give `ErrorKind::Encrypted`, those with
//!   a plaintext footer (`PAR1`) decode and carry `encryption_algorithm`. Decoding the
//!   re-encoded footer gives the same value (compared through its bytes when a NaN is involved).
//! - `bad_data/`: decoding never panics (a value or an error).

use std::path::{Path, PathBuf};

use parket::format::FileMetaData;
use parket::read::footer::{metadata_from_bytes, read_metadata};
use parket::{ErrorKind, Limits};

fn corpus() -> PathBuf {
    parket::testing::corpus_dir()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let rel = dir.strip_prefix(corpus()).expect("a corpus subdirectory");
    parket::testing::corpus_files(&rel.to_string_lossy())
}

fn round_trip(m: &FileMetaData, name: &str) {
    let mut bytes = Vec::new();
    m.encode(&mut bytes);
    let again = FileMetaData::decode(&bytes).unwrap_or_else(|e| panic!("{name}: re-encoded: {e}"));
    let mut bytes2 = Vec::new();
    again.encode(&mut bytes2);
    assert_eq!(bytes, bytes2, "{name}: re-encoding is not stable");
    if !format!("{m:?}").contains("NaN") {
        assert_eq!(&again, m, "{name}: round trip changed the value");
    }
}

#[test]
fn every_footer_decodes_and_round_trips() {
    let root = corpus();
    let limits = Limits::default();
    let mut decoded = 0;
    let mut encrypted = 0;
    for sub in ["data", "data/aes256", "data/geospatial"] {
        for path in files(&root.join(sub)) {
            let name = path.strip_prefix(&root).unwrap().display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            let result = metadata_from_bytes(&bytes, &limits);
            // The streaming reader agrees with the in-memory one.
            let mut f = std::fs::File::open(&path).unwrap();
            let streamed = read_metadata(&mut f, &limits);
            assert_eq!(
                format!("{result:?}"),
                format!("{streamed:?}"),
                "{name}: read_metadata differs from metadata_from_bytes"
            );
            if bytes.ends_with(b"PARE") {
                let e = result.expect_err(&name);
                assert_eq!(e.kind(), &ErrorKind::Encrypted, "{name}: {e}");
                encrypted += 1;
                continue;
            }
            let m = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            if name.ends_with(".encrypted") {
                assert!(
                    m.encryption_algorithm.is_some(),
                    "{name}: plaintext footer of an encrypted file has no encryption_algorithm"
                );
            }
            round_trip(&m, &name);
            decoded += 1;
        }
    }
    assert!(decoded > 50, "only {decoded} footers decoded");
    assert!(encrypted > 5, "only {encrypted} encrypted footers seen");
}

#[test]
fn bad_data_never_panics() {
    let root = corpus();
    let mut n = 0;
    for path in files(&root.join("bad_data")) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match metadata_from_bytes(&bytes, &Limits::default()) {
            Ok(m) => {
                println!("{name}: footer decodes");
                round_trip(&m, &name);
            }
            Err(e) => println!("{name}: {e}"),
        }
        // The whole file as a footer / page header: never panics either.
        #[cfg(feature = "fuzzing")]
        parket::format::fuzz_metadata(&bytes);
        n += 1;
    }
    assert!(n >= 5, "only {n} files in bad_data/");
}

#[test]
fn known_facts_of_the_corpus() {
    let root = corpus();
    let read =
        |p: &str| metadata_from_bytes(&std::fs::read(root.join(p)).unwrap(), &Limits::default());
    // PARQUET-1481: physical type -7 is an error, never a default.
    let e = read("bad_data/PARQUET-1481.parquet").unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::OutOfRange { value: -7, .. }),
        "{e}"
    );
    // overflow_i16_page_cnt: sorting_columns present but empty.
    let m = read("data/overflow_i16_page_cnt.parquet").unwrap();
    assert_eq!(m.row_groups[0].sorting_columns.as_deref(), Some(&[][..]));
    // geospatial: GeospatialStatistics with a bounding box.
    let m = read("data/geospatial/geospatial.parquet").unwrap();
    let has_bbox = m.row_groups.iter().any(|rg| {
        rg.columns.iter().any(|c| {
            c.meta_data
                .as_ref()
                .and_then(|md| md.geospatial_statistics.as_ref())
                .is_some_and(|g| g.bbox.is_some())
        })
    });
    assert!(has_bbox);
}

//! Fuzzing harness for whole files: [`fuzz_file`] (the `file` target of `fuzz/`, replayed by
//! `tests/fuzz_regressions.rs`). Not part of the public API.
//!
//! The same bytes are opened twice, with tight [`Limits`]: from a slice
//! ([`FileReader::from_bytes_with_limits`]) and through a `Read + Seek` that returns at most
//! one byte per `read` call ([`FileReader::new_with_limits`]). Every column chunk of every row
//! group is read with [`ColumnChunkReader::next_batch`](super::ColumnChunkReader::next_batch),
//! then the records; both paths must agree step by step: the same levels and values (floats
//! bit for bit), or an error on both. The records, streamed page by page, must also equal each
//! row group read whole and assembled at once (or both fail in the same row group), and a
//! scan of a selection of rows (through the offset indexes the file has: the index-driven
//! walk) must agree on both paths and give exactly those rows of the whole read; so must
//! scans with predicates (every pruning stage, the column index among them). The
//! harness panics only on a panic in the library or a disagreement; an error is a fine
//! answer to hostile bytes.

use alloc::format;
use alloc::string::String;

use super::{Batch, FileReader};
use crate::error::Result;
use crate::limits::Limits;
use crate::record::Value;
use crate::values::ValuesRef;

/// The limits of both paths (and of the `arrow` target's reads): small enough that no input
/// can claim much memory.
pub(crate) fn limits() -> Limits {
    Limits::default()
        .max_metadata_bytes(1 << 20)
        .max_page_bytes(1 << 20)
        .max_dictionary_bytes(1 << 20)
        .max_values_per_page(1 << 16)
}

/// Level positions per `next_batch` call: small, so that pages split into several batches.
const BATCH: usize = 1000;

/// Records are read only when the chunks declare at most this many level positions in all
/// (assembled records cost far more memory than their levels).
const MAX_RECORD_LEVELS: u64 = 1 << 16;

/// A `Read + Seek` over `data` that returns at most one byte per `read`: every reading path
/// must work with short reads.
struct OneByte<'a> {
    data: &'a [u8],
    pos: u64,
}

impl std::io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let next = usize::try_from(self.pos)
            .ok()
            .and_then(|p| self.data.get(p));
        match (next, buf.first_mut()) {
            (Some(&b), Some(slot)) => {
                *slot = b;
                self.pos += 1;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

impl std::io::Seek for OneByte<'_> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let len = self.data.len() as i128;
        let target = match to {
            std::io::SeekFrom::Start(n) => i128::from(n),
            std::io::SeekFrom::End(d) => len + i128::from(d),
            std::io::SeekFrom::Current(d) => i128::from(self.pos) + i128::from(d),
        };
        self.pos = u64::try_from(target).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start")
        })?;
        Ok(self.pos)
    }
}

/// Equality of two value runs, floats bit for bit.
fn values_bit_eq(a: ValuesRef<'_>, b: ValuesRef<'_>) -> bool {
    match (a, b) {
        (ValuesRef::Float(x), ValuesRef::Float(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        (ValuesRef::Double(x), ValuesRef::Double(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        (ValuesRef::ByteArray(x), ValuesRef::ByteArray(y)) => {
            x.len() == y.len() && x.iter().eq(y.iter())
        }
        (ValuesRef::FixedLenByteArray(x), ValuesRef::FixedLenByteArray(y)) => {
            x.width() == y.width() && x.len() == y.len() && x.iter().eq(y.iter())
        }
        (a, b) => a == b,
    }
}

fn batch_eq(a: &Batch<'_>, b: &Batch<'_>) -> bool {
    a.len() == b.len()
        && a.def_levels() == b.def_levels()
        && a.rep_levels() == b.rep_levels()
        && values_bit_eq(a.values(), b.values())
}

/// Panics, naming where, when `a` and `b` differ: one failed and not the other, or both
/// succeeded with different answers (compared by `same`).
fn agree<T>(
    what: &dyn Fn() -> String,
    a: &Result<T>,
    b: &Result<T>,
    same: impl Fn(&T, &T) -> bool,
) {
    match (a, b) {
        (Ok(x), Ok(y)) => assert!(same(x, y), "{}: the two paths read different data", what()),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("{}: only the one-byte reader fails: {e}", what()),
        (Err(e), Ok(_)) => panic!("{}: only the slice reader fails: {e}", what()),
    }
}

/// Fuzzing harness: opens `data` as a file from a slice and through a one-byte-per-read
/// `Read + Seek`, reads every column chunk batch by batch and then the records, and panics if
/// the two paths disagree (or if the library panics). Never panics otherwise, for any input.
#[doc(hidden)]
pub fn fuzz_file(data: &[u8]) {
    let slice = FileReader::from_bytes_with_limits(data, limits()).map(|f| f.with_limits(limits()));
    let stream = FileReader::new_with_limits(OneByte { data, pos: 0 }, limits())
        .map(|f| f.with_limits(limits()));
    read_both(slice, stream);
}

/// The keys of parquet-testing's encrypted files (INDEX.md): `choice` 0, the 128-bit footer
/// and column keys; 1, the same with the AAD prefix "tester"; 2, the 256-bit keys by key id.
#[cfg(feature = "encryption")]
fn corpus_keys(choice: u8) -> crate::encryption::DecryptionProperties {
    use crate::encryption::{DecryptionProperties, Key};
    let key = |k: &[u8]| Key::new(k).ok();
    let mut p = DecryptionProperties::new();
    if choice % 3 == 2 {
        if let Some(k) = key(b"01234567890123456789012345678901") {
            p = p.footer_key(k);
        }
        for i in 1..=8u8 {
            let mut k = b"123456789012345678901234567890".to_vec();
            k.extend_from_slice(&[b'1', b'1' + i]);
            if let Some(k) = key(&k) {
                p = p.key_by_id([b'k', b'c', b'0' + i], k);
            }
        }
        return p;
    }
    for (path, k) in [
        (None, b"0123456789012345"),
        (Some("double_field"), b"1234567890123450"),
        (Some("float_field"), b"1234567890123451"),
    ] {
        if let Some(k) = key(k) {
            p = match path {
                None => p.footer_key(k),
                Some(path) => p.column_key(path, k),
            };
        }
    }
    if choice % 3 == 1 {
        p = p.aad_prefix(b"tester");
    }
    p
}

/// Fuzzing harness for encrypted files: the first byte picks the keys (see `corpus_keys`), the
/// rest is the file, opened with them from a slice and through a one-byte-per-read source and
/// read as [`fuzz_file`] reads. Panics only if the library panics or the two paths disagree.
#[cfg(feature = "encryption")]
#[doc(hidden)]
pub fn fuzz_decrypt(data: &[u8]) {
    let Some((&choice, file)) = data.split_first() else {
        return;
    };
    let slice = FileReader::from_bytes_with_decryption(file, corpus_keys(choice))
        .map(|f| f.with_limits(limits()));
    let stream =
        FileReader::new_with_decryption(OneByte { data: file, pos: 0 }, corpus_keys(choice))
            .map(|f| f.with_limits(limits()));
    read_both(slice, stream);
}

/// Reads every chunk and the records of `slice` and `stream` (the same file opened two ways)
/// and panics if they disagree.
fn read_both(slice: Result<FileReader<'_>>, stream: Result<FileReader<'_>>) {
    agree(&|| String::from("open"), &slice, &stream, |x, y| {
        // Debug text, not ==: statistics may hold NaN.
        format!("{:?}", x.metadata()) == format!("{:?}", y.metadata()) && x.schema() == y.schema()
    });
    let (Ok(slice), Ok(stream)) = (slice, stream) else {
        return;
    };
    let columns = slice.schema().columns().len();
    let mut levels: u64 = 0;
    for rg in 0..slice.num_row_groups() {
        for c in 0..columns {
            let where_ = || format!("row group {rg}, column {c}");
            let a = slice.column_chunk(rg, c);
            let b = stream.column_chunk(rg, c);
            agree(&where_, &a, &b, |_, _| true);
            let (Ok(mut a), Ok(mut b)) = (a, b) else {
                continue;
            };
            let meta = slice.metadata().row_groups.get(rg);
            let chunk = meta.and_then(|m| m.columns.get(c));
            if let Some(n) = chunk.and_then(|c| c.meta_data.as_ref()) {
                levels = levels.saturating_add(u64::try_from(n.num_values).unwrap_or(u64::MAX));
            }
            let mut batch = 0usize;
            loop {
                let (x, y) = (a.next_batch(BATCH), b.next_batch(BATCH));
                let where_ = || format!("row group {rg}, column {c}, batch {batch}");
                agree(&where_, &x, &y, |p, q| match (p, q) {
                    (Some(p), Some(q)) => batch_eq(p, q),
                    (None, None) => true,
                    _ => false,
                });
                if !matches!((x, y), (Ok(Some(_)), Ok(Some(_)))) {
                    break;
                }
                batch += 1;
            }
        }
    }
    if levels > MAX_RECORD_LEVELS {
        return;
    }
    let a = slice.records(None);
    let b = stream.records(None);
    agree(&|| String::from("records"), &a, &b, |_, _| true);
    let (Ok(a), Ok(b)) = (a, b) else { return };
    let mut a = a;
    let mut b = b;
    let mut n = 0usize;
    loop {
        let where_ = || format!("record {n}");
        match (a.next(), b.next()) {
            (None, None) => break,
            (Some(x), Some(y)) => agree(&where_, &x, &y, Value::bit_eq),
            (x, y) => panic!(
                "{}: one path has more records ({} / {})",
                where_(),
                x.is_some(),
                y.is_some()
            ),
        }
        n += 1;
    }
    let whole = streamed_equals_whole(&slice);
    scan_equals_whole(&slice, &stream, whole.as_deref());
    predicate_scans(&slice, &stream);
}

/// Scans with predicates on the first flat leaf columns (`IS NULL`, comparisons with a literal
/// of the column's type, `NOT`, `OR`): every pruning stage (statistics, dictionaries, Bloom
/// filters, the column and offset indexes) and the row evaluation run on hostile metadata,
/// from the slice and from the one-byte reader, which must agree. Where no chunk of the column
/// has a column index, the page index only steers the walk: the scan through it and the scan
/// without it give the same rows when both succeed.
fn predicate_scans(slice: &FileReader<'_>, stream: &FileReader<'_>) {
    use crate::format::PhysicalType;
    let schema = slice.schema();
    let flat = schema
        .columns()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.max_rep_level == 0);
    for (c, col) in flat.take(3) {
        let path = col.path.join(".");
        let lit = match col.physical_type {
            PhysicalType::Boolean => "TRUE",
            PhysicalType::Int32 | PhysicalType::Int64 => "3",
            PhysicalType::Float | PhysicalType::Double => "0.5",
            PhysicalType::ByteArray | PhysicalType::FixedLenByteArray => "'a'",
            PhysicalType::Int96 => continue,
        };
        let indexed = (0..slice.num_row_groups()).any(|rg| {
            let chunk = slice
                .metadata()
                .row_groups
                .get(rg)
                .and_then(|g| g.columns.get(c));
            chunk.is_some_and(|k| k.column_index_offset.is_some())
        });
        for text in [
            format!("{path} IS NULL"),
            format!("NOT {path} < {lit}"),
            format!("{path} = {lit} OR {path} IS NULL"),
        ] {
            let Ok(p) = crate::predicate::Predicate::parse(&text, schema) else {
                continue;
            };
            let run = |f: &FileReader<'_>, page_index: bool| -> Result<alloc::vec::Vec<Value>> {
                let b = f.scan().predicate(p.clone()).use_page_index(page_index);
                b.explain()?;
                b.batch_size(7).build()?.records().collect()
            };
            let same = |x: &alloc::vec::Vec<Value>, y: &alloc::vec::Vec<Value>| {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.bit_eq(q))
            };
            let (a, b) = (run(slice, true), run(stream, true));
            agree(&|| format!("scan where {text}"), &a, &b, same);
            if !indexed {
                if let (Ok(a), Ok(off)) = (&a, run(slice, false)) {
                    assert!(
                        same(a, &off),
                        "scan where {text}: the offset index changes the rows"
                    );
                }
            }
        }
    }
}

/// Scans of every third run of rows (through the offset indexes when the chunks have them),
/// from the slice and from the one-byte reader: the two agree, and when the whole read
/// succeeded (`whole`) a scan that succeeds gives exactly its selected records. (A scan may
/// fail where the whole read does not: an offset index that disagrees with a page header is
/// an error.)
fn scan_equals_whole(slice: &FileReader<'_>, stream: &FileReader<'_>, whole: Option<&[Value]>) {
    let total: u64 = slice
        .metadata()
        .row_groups
        .iter()
        .map(|rg| u64::try_from(rg.num_rows).unwrap_or(0))
        .fold(0, u64::saturating_add)
        .min(1 << 20);
    let sel = super::RowRanges::from_ranges((0..total.div_ceil(9)).map(|k| k * 9 + 2..k * 9 + 5));
    let scan = |f: &FileReader<'_>| -> Result<alloc::vec::Vec<Value>> {
        f.scan()
            .rows(sel.clone())
            .batch_size(7)
            .build()?
            .records()
            .collect()
    };
    let (a, b) = (scan(slice), scan(stream));
    agree(&|| String::from("scan"), &a, &b, |x, y| {
        x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.bit_eq(q))
    });
    if let (Ok(got), Some(whole)) = (a, whole) {
        let expected: alloc::vec::Vec<&Value> = whole
            .iter()
            .enumerate()
            .filter(|(i, _)| sel.overlaps(*i as u64..*i as u64 + 1))
            .map(|(_, v)| v)
            .collect();
        assert_eq!(got.len(), expected.len(), "scan: another number of records");
        for (n, (g, e)) in got.iter().zip(expected).enumerate() {
            assert!(
                g.bit_eq(e),
                "scan: selected record {n} differs from the whole read"
            );
        }
    }
}

/// Records streamed page by page ([`FileReader::records`]) against each row group read whole
/// and assembled at once: the same records, and an error in the same row group. Records of
/// the failing row group before the error are not compared (streaming may return some).
/// Returns the records when every row group was read whole without error.
fn streamed_equals_whole(file: &FileReader<'_>) -> Option<alloc::vec::Vec<Value>> {
    let leaves: alloc::vec::Vec<usize> = (0..file.schema().columns().len()).collect();
    let mut whole = alloc::vec::Vec::new();
    let mut whole_failed = false;
    for rg in 0..file.num_row_groups() {
        let records = file
            .read_row_group(rg, &leaves)
            .and_then(|columns| crate::levels::assemble(file.schema(), &columns));
        match records {
            Ok(records) => whole.extend(records),
            Err(_) => {
                whole_failed = true;
                break;
            }
        }
    }
    let Ok(streamed) = file.records(None) else {
        return None;
    };
    let (mut n, mut failed) = (0usize, false);
    for record in streamed {
        match record {
            Ok(v) => {
                match whole.get(n) {
                    Some(w) => assert!(v.bit_eq(w), "record {n}: streamed and whole differ"),
                    None => assert!(whole_failed, "record {n}: streaming reads more records"),
                }
                n += 1;
            }
            Err(e) => {
                assert!(
                    whole_failed && n >= whole.len(),
                    "record {n}: streaming fails ({e}) where whole-row-group assembly does not"
                );
                failed = true;
            }
        }
    }
    assert!(
        failed || (!whole_failed && n == whole.len()),
        "streaming read {n} records without error; whole-row-group assembly read {} and {}",
        whole.len(),
        if whole_failed { "failed" } else { "ended" }
    );
    (!whole_failed).then_some(whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_byte_reader_reads_and_seeks() {
        use std::io::{Read, Seek, SeekFrom};
        let mut r = OneByte {
            data: b"PAR1",
            pos: 0,
        };
        let mut buf = [0u8; 4];
        assert_eq!(r.read(&mut buf).unwrap(), 1);
        assert_eq!(r.seek(SeekFrom::End(-1)).unwrap(), 3);
        r.read_exact(&mut buf[..1]).unwrap();
        assert_eq!(buf[0], b'1');
        assert_eq!(r.read(&mut buf).unwrap(), 0);
        assert!(r.seek(SeekFrom::Current(-5)).is_err());
    }

    #[test]
    fn garbage_and_empty_inputs_do_not_panic() {
        fuzz_file(b"");
        fuzz_file(b"PAR1");
        fuzz_file(b"PAR1\x00\x00\x00\x00PAR1");
        fuzz_file(b"PAR1\x15\x00\x15\x04\x00\x00\x00PAR1");
    }
}

//! The footer: find, bound and decode the file's FileMetaData.
//!
//! Spec: README "File Format" and Encryption.md ("Encrypted footer mode"):
//!
//! ```text
//! file   ::= "PAR1" <column chunks...> <footer> <footer length: 4 bytes LE> <magic>
//! magic  ::= "PAR1" (plaintext footer) | "PARE" (encrypted footer: FileCryptoMetaData then the
//!            encrypted FileMetaData)
//! ```
//!
//! Worked example: the smallest file this module accepts is 8 + 13 + 4 bytes, `PAR1`, a
//! 13-byte FileMetaData (version 2, one schema element "m", 0 rows, no row groups), its
//! length, `PAR1`:
//!
//! ```text
//! 50 41 52 31                                    "PAR1"
//! 15 04 19 1c 48 01 6d 00 16 00 19 0c 00         FileMetaData (see crate::format)
//! 0d 00 00 00                                    footer length 13, little-endian
//! 50 41 52 31                                    "PAR1"
//! ```
//!
//! ```
//! use parket::{Limits, read::footer::metadata_from_bytes};
//! let mut file = b"PAR1".to_vec();
//! file.extend_from_slice(&[0x15, 0x04, 0x19, 0x1c, 0x48, 0x01, b'm', 0x00, 0x16, 0x00, 0x19, 0x0c, 0x00]);
//! file.extend_from_slice(&13u32.to_le_bytes());
//! file.extend_from_slice(b"PAR1");
//! let m = metadata_from_bytes(&file, &Limits::default()).unwrap();
//! assert_eq!((m.version, m.num_rows), (2, 0));
//!
//! // A footer length larger than the file is an error that says so, with the offset.
//! let mut bad = file.clone();
//! let n = bad.len();
//! bad[n - 8..n - 4].copy_from_slice(&1234567u32.to_le_bytes());
//! let e = metadata_from_bytes(&bad, &Limits::default()).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "truncated footer (length from the file's tail): needed 1234567 bytes, 13 available (byte offset 17)"
//! );
//! ```
//!
//! Errors carry file offsets: a footer that does not decode reports the offset in the file of
//! the byte where decoding failed.

use crate::error::{Error, ErrorKind, Result};
use crate::format::FileMetaData;
use crate::limits::Limits;

/// Magic at both ends of a file with a plaintext footer.
pub const MAGIC: [u8; 4] = *b"PAR1";
/// Magic at the end (and start) of a file with an encrypted footer.
pub const MAGIC_ENCRYPTED: [u8; 4] = *b"PARE";
/// Bytes of the tail: the footer length and the magic.
pub const TAIL_LEN: usize = 8;

/// Reads the 8-byte tail (at file offset `tail_offset`): the footer length. Checks the magic.
fn parse_tail(tail: [u8; 8], tail_offset: u64) -> Result<u32> {
    let mut len = [0u8; 4];
    let mut magic = [0u8; 4];
    len.copy_from_slice(&tail[..4]);
    magic.copy_from_slice(&tail[4..]);
    if magic == MAGIC_ENCRYPTED {
        return Err(Error::new(ErrorKind::Encrypted).at_offset(tail_offset + 4));
    }
    if magic != MAGIC {
        return Err(Error::out_of_spec(
            "file does not end with the magic \"PAR1\": the file is truncated, or not Parquet",
        )
        .at_offset(tail_offset + 4));
    }
    Ok(u32::from_le_bytes(len))
}

/// [`parse_tail`], accepting `PARE` too: the footer length and whether the footer is
/// encrypted.
#[cfg(feature = "encryption")]
fn parse_tail_any(tail: [u8; 8], tail_offset: u64) -> Result<(u32, bool)> {
    if tail.get(4..) == Some(&MAGIC_ENCRYPTED[..]) {
        let mut len = [0u8; 4];
        len.copy_from_slice(&tail[..4]);
        return Ok((u32::from_le_bytes(len), true));
    }
    Ok((parse_tail(tail, tail_offset)?, false))
}

/// Checks the footer length against the file size and the limit; returns the footer's file
/// offset.
fn footer_start(footer_len: u32, file_len: u64, limits: &Limits) -> Result<u64> {
    let tail_offset = file_len - TAIL_LEN as u64;
    // Spec: the file starts with the 4-byte magic, so the footer fits between it and the tail.
    let room = tail_offset.saturating_sub(MAGIC.len() as u64);
    if u64::from(footer_len) > room {
        return Err(Error::truncated(
            "footer (length from the file's tail)",
            footer_len.into(),
            room,
        )
        .at_offset(tail_offset));
    }
    limits
        .check_metadata_bytes(footer_len.into())
        .map_err(|e| e.at_offset(tail_offset))?;
    Ok(tail_offset - u64::from(footer_len))
}

/// Decodes the footer of a whole file held in memory.
///
/// Checks the magic at both ends (`PARE` at the end: [`ErrorKind::Encrypted`]), the footer
/// length against the file size and [`Limits::metadata_bytes`], then decodes the FileMetaData
/// with [`Limits::nesting_depth`]. Errors carry file offsets. Never panics, for any input;
/// allocates only for the decoded metadata.
pub fn metadata_from_bytes(file: &[u8], limits: &Limits) -> Result<FileMetaData> {
    let file_len = file.len() as u64;
    if file.len() < MAGIC.len() + TAIL_LEN {
        return Err(Error::truncated(
            "Parquet file (magic, footer length, magic)",
            (MAGIC.len() + TAIL_LEN) as u64,
            file_len,
        )
        .at_offset(0));
    }
    let tail_offset = file.len() - TAIL_LEN;
    let mut tail = [0u8; 8];
    tail.copy_from_slice(&file[tail_offset..]);
    let footer_len = parse_tail(tail, tail_offset as u64)?;
    check_head(&file[..4])?;
    let start = footer_start(footer_len, file_len, limits)?;
    // `start` and `tail_offset` are within the file: checked by footer_start.
    let footer = &file[start as usize..tail_offset];
    FileMetaData::decode_with_limits(footer, limits).map_err(|e| e.offset_by(start))
}

/// Decodes the footer from the last bytes of a file of `file_len` bytes (`tail`: at least the
/// last 8, the footer length and magic): for a caller who fetches the bytes itself (HTTP range
/// requests, an object store). When `tail` is shorter than the footer, the error is
/// [`ErrorKind::Truncated`] whose `needed` is the tail length to fetch instead. The head magic
/// is not checked (it is not in the tail).
///
/// ```
/// # fn main() -> parket::Result<()> {
/// # let file = parket::testing::corpus_file("alltypes_plain.parquet");
/// use parket::read::footer::metadata_from_tail;
/// use parket::{ErrorKind, Limits};
/// let len = file.len() as u64;
/// let e = metadata_from_tail(&file[file.len() - 8..], len, &Limits::default()).unwrap_err();
/// let ErrorKind::Truncated { needed, .. } = *e.kind() else { panic!() };
/// let tail = &file[file.len() - needed as usize..];
/// assert_eq!(metadata_from_tail(tail, len, &Limits::default())?.num_rows, 8);
/// # Ok(()) }
/// ```
///
/// Never panics, for any input; allocates only for the decoded metadata.
pub fn metadata_from_tail(tail: &[u8], file_len: u64, limits: &Limits) -> Result<FileMetaData> {
    let short = || {
        Error::truncated(
            "Parquet file (magic, footer length, magic)",
            (MAGIC.len() + TAIL_LEN) as u64,
            file_len,
        )
        .at_offset(0)
    };
    if file_len < (MAGIC.len() + TAIL_LEN) as u64 || (tail.len() as u64) > file_len {
        return Err(short());
    }
    let last = tail
        .len()
        .checked_sub(TAIL_LEN)
        .ok_or_else(|| Error::truncated("the file's tail", TAIL_LEN as u64, tail.len() as u64))?;
    let mut t = [0u8; 8];
    t.copy_from_slice(tail.get(last..).unwrap_or(&[0; 8]));
    let tail_offset = file_len - TAIL_LEN as u64;
    let footer_len = parse_tail(t, tail_offset)?;
    let start = footer_start(footer_len, file_len, limits)?;
    let needed = file_len - start;
    let from = tail.len() as u64 - needed.min(tail.len() as u64);
    if (tail.len() as u64) < needed {
        return Err(Error::truncated(
            "the file's tail (footer included)",
            needed,
            tail.len() as u64,
        ));
    }
    let footer = tail.get(from as usize..last).unwrap_or(&[]);
    FileMetaData::decode_with_limits(footer, limits).map_err(|e| e.offset_by(start))
}

/// The footer bytes of a whole file held in memory (the FileMetaData, or for an encrypted
/// footer the FileCryptoMetaData and the encrypted FileMetaData): their file offset (they end
/// at the 8-byte tail), and whether the footer is encrypted. Checks as [`metadata_from_bytes`]
/// does, but accepts `PARE`.
#[cfg(feature = "encryption")]
pub(crate) fn footer_bytes(file: &[u8], limits: &Limits) -> Result<(u64, bool)> {
    let file_len = file.len() as u64;
    let (Some(head), Some(tail)) = (file.get(..4), file.len().checked_sub(TAIL_LEN)) else {
        return Err(short_file(file_len));
    };
    let mut t = [0u8; TAIL_LEN];
    t.copy_from_slice(file.get(tail..).unwrap_or(&[0; TAIL_LEN]));
    locate_any(t, head, file_len, limits)
}

/// [`footer_bytes`] through the reader's random access: the footer bytes, their file offset,
/// and whether the footer is encrypted.
#[cfg(all(feature = "encryption", feature = "std"))]
pub(crate) fn read_footer_bytes_at(
    r: &dyn super::ReadAt,
    limits: &Limits,
) -> Result<(Vec<u8>, u64, bool)> {
    let file_len = r.len()?;
    if file_len < (MAGIC.len() + TAIL_LEN) as u64 {
        return Err(short_file(file_len));
    }
    let tail_offset = file_len - TAIL_LEN as u64;
    let mut tail = [0u8; TAIL_LEN];
    r.read_at(tail_offset, &mut tail)?;
    let mut head = [0u8; 4];
    r.read_at(0, &mut head)?;
    let (start, encrypted) = locate_any(tail, &head, file_len, limits)?;
    let len = usize::try_from(tail_offset - start)
        .map_err(|_| Error::out_of_range("footer length", i64::MAX))?;
    let mut footer = crate::limits::zeroed(len, "the footer")?;
    r.read_at(start, &mut footer)?;
    Ok((footer, start, encrypted))
}

/// The checks of [`footer_bytes`] on the 8-byte tail and the 4-byte head of a file of
/// `file_len` bytes (at least 12): the footer's file offset, and whether it is encrypted.
#[cfg(feature = "encryption")]
fn locate_any(tail: [u8; 8], head: &[u8], file_len: u64, limits: &Limits) -> Result<(u64, bool)> {
    if file_len < (MAGIC.len() + TAIL_LEN) as u64 {
        return Err(short_file(file_len));
    }
    let (footer_len, encrypted) = parse_tail_any(tail, file_len - TAIL_LEN as u64)?;
    if head != if encrypted { MAGIC_ENCRYPTED } else { MAGIC } {
        return Err(Error::out_of_spec(
            "the file's head magic differs from its tail's (PAR1 / PARE)",
        )
        .at_offset(0));
    }
    Ok((footer_start(footer_len, file_len, limits)?, encrypted))
}

/// A file too short for the two magics and the footer length.
#[cfg(feature = "encryption")]
fn short_file(file_len: u64) -> Error {
    Error::truncated(
        "Parquet file (magic, footer length, magic)",
        (MAGIC.len() + TAIL_LEN) as u64,
        file_len,
    )
    .at_offset(0)
}

fn check_head(head: &[u8]) -> Result<()> {
    if head == MAGIC_ENCRYPTED {
        return Err(Error::new(ErrorKind::Encrypted).at_offset(0));
    }
    if head != MAGIC {
        return Err(Error::out_of_spec("file does not start with the magic \"PAR1\"").at_offset(0));
    }
    Ok(())
}

/// Reads and decodes the footer of a file through `Read + Seek`: the 8-byte tail first, then
/// only the footer (after checking its length against the file size and
/// [`Limits::metadata_bytes`]), then the 4-byte head magic.
///
/// Never panics; allocates at most the footer length, which is bounded by the limit.
#[cfg(feature = "std")]
pub fn read_metadata<R: std::io::Read + std::io::Seek>(
    r: &mut R,
    limits: &Limits,
) -> Result<FileMetaData> {
    read_metadata_at(&std::sync::Mutex::new(r), limits)
}

/// [`read_metadata`] through the reader's random access (not generic: one copy whatever the
/// source type).
#[cfg(feature = "std")]
pub(crate) fn read_metadata_at(r: &dyn super::ReadAt, limits: &Limits) -> Result<FileMetaData> {
    let file_len = r.len()?;
    if file_len < (MAGIC.len() + TAIL_LEN) as u64 {
        return Err(Error::truncated(
            "Parquet file (magic, footer length, magic)",
            (MAGIC.len() + TAIL_LEN) as u64,
            file_len,
        )
        .at_offset(0));
    }
    let tail_offset = file_len - TAIL_LEN as u64;
    let mut tail = [0u8; TAIL_LEN];
    r.read_at(tail_offset, &mut tail)?;
    let footer_len = parse_tail(tail, tail_offset)?;
    let start = footer_start(footer_len, file_len, limits)?;
    let mut head = [0u8; 4];
    r.read_at(0, &mut head)?;
    check_head(&head)?;
    // `resize` rather than `vec![0; n]`, inside `zeroed`: the readers link `resize` anyway,
    // not `alloc_zeroed` (smaller builds; the footer is read once).
    let mut footer = crate::limits::zeroed(footer_len as usize, "the footer")?;
    r.read_at(start, &mut footer)?;
    FileMetaData::decode_with_limits(&footer, limits).map_err(|e| e.offset_by(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    /// The 13-byte footer of the module docs.
    const FOOTER: [u8; 13] = [
        0x15, 0x04, 0x19, 0x1c, 0x48, 0x01, b'm', 0x00, 0x16, 0x00, 0x19, 0x0c, 0x00,
    ];

    fn file(footer: &[u8], len: u32, magic: &[u8; 4]) -> Vec<u8> {
        let mut f = b"PAR1".to_vec();
        f.extend_from_slice(footer);
        f.extend_from_slice(&len.to_le_bytes());
        f.extend_from_slice(magic);
        f
    }

    #[test]
    fn minimal_file() {
        let f = file(&FOOTER, 13, b"PAR1");
        let m = metadata_from_bytes(&f, &Limits::default()).unwrap();
        assert_eq!(m.schema[0].name, "m");
        #[cfg(feature = "std")]
        {
            let m2 = read_metadata(&mut std::io::Cursor::new(&f), &Limits::default()).unwrap();
            assert_eq!(m, m2);
        }
    }

    #[test]
    fn errors_name_what_and_where() {
        let lim = Limits::default();
        let f = file(&FOOTER, 1234567, b"PAR1");
        let e = metadata_from_bytes(&f, &lim).unwrap_err();
        assert_eq!(
            e.to_string(),
            "truncated footer (length from the file's tail): needed 1234567 bytes, 13 available (byte offset 17)"
        );
        let e = metadata_from_bytes(&file(&FOOTER, 13, b"PARE"), &lim).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::Encrypted);
        let e = metadata_from_bytes(&file(&FOOTER, 13, b"XXXX"), &lim).unwrap_err();
        assert_eq!(e.location().offset, Some(21)); // the magic at 25 - 4
        let e = metadata_from_bytes(b"PAR1PAR1", &lim).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Truncated { .. }));
        let e = metadata_from_bytes(&file(&FOOTER, 13, b"PAR1"), &lim.max_metadata_bytes(12))
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }));
        // The footer cut short: its last byte (the stop field) replaced by a field header of
        // an unknown type. The error's offset is a file offset: 4 (magic) + 12.
        let mut bad = FOOTER;
        bad[12] = 0x1f;
        let e = metadata_from_bytes(&file(&bad, 13, b"PAR1"), &lim).unwrap_err();
        assert_eq!(e.location().offset, Some(16), "{e}");
        #[cfg(feature = "std")]
        {
            let e = read_metadata(&mut std::io::Cursor::new(file(&bad, 13, b"PAR1")), &lim)
                .unwrap_err();
            assert_eq!(e.location().offset, Some(16), "{e}");
            let e = read_metadata(&mut std::io::Cursor::new(file(&FOOTER, 99, b"PAR1")), &lim)
                .unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Truncated { needed: 99, .. }));
        }
    }
}

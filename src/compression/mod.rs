//! Page compression: one file per codec of Compression.md, each behind its cargo feature.
//!
//! Compression.md: "For all compression codecs except the deprecated `LZ4` codec, the raw data
//! of a (data or dictionary) page is fed *as-is* to the underlying compression library, without
//! any additional framing or padding. The information required for precise allocation of
//! compressed and decompressed buffers is written in the `PageHeader` struct."
//!
//! | spec codec | id | here | cargo feature |
//! |---|---|---|---|
//! | UNCOMPRESSED | 0 | copy | — |
//! | SNAPPY | 1 | `snap` (raw format) | `snappy` |
//! | GZIP | 2 | `flate2`, multi-member | `gzip` |
//! | LZO | 3 | `lzo.rs` (ours), Hadoop framing | `lzo` |
//! | BROTLI | 4 | `brotli` | `brotli` |
//! | LZ4 | 5 | `lz4_flex`, Hadoop framing (`hadoop.rs`), bare-block fallback | `lz4` |
//! | ZSTD | 6 | `zstd` (libzstd), or `ruzstd` for decoding | `zstd` / `zstd-pure` |
//! | LZ4_RAW | 7 | `lz4_flex`, bare block | `lz4` |
//!
//! [`decompress`] is given the page's `uncompressed_page_size` and appends exactly that many
//! bytes or fails: a page that inflates past its declared size is an error found one byte past
//! the size (never more output than declared: stream codecs are read in bounded steps), and so
//! is a page that inflates to less. A codec whose feature is off is an
//! [`ErrorKind::FeatureDisabled`](crate::ErrorKind::FeatureDisabled) naming the feature.
//!
//! ```
//! # #[cfg(all(feature = "gzip", feature = "zstd"))] {
//! use parket::compression::{compress, decompress, Codec};
//! use parket::format::CompressionCodec;
//!
//! let codec: Codec = "zstd:3".parse().unwrap();
//! assert_eq!(codec, Codec::Zstd { level: 3 });
//! assert_eq!(codec.to_spec(), CompressionCodec::Zstd);
//!
//! let page = b"hello hello hello hello";
//! let mut compressed = Vec::new();
//! compress(codec, page, &mut compressed).unwrap();
//! let mut out = Vec::new();
//! decompress(CompressionCodec::Zstd, &compressed, page.len(), &mut out).unwrap();
//! assert_eq!(out, page);
//! // A wrong declared size is an error either way.
//! assert!(decompress(CompressionCodec::Zstd, &compressed, page.len() - 1, &mut out).is_err());
//! assert!(decompress(CompressionCodec::Zstd, &compressed, page.len() + 1, &mut out).is_err());
//!
//! // GZIP of the empty input, as Python's gzip.compress(b"", mtime=0) writes it.
//! let gz = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0];
//! let mut out = Vec::new();
//! decompress(CompressionCodec::Gzip, &gz, 0, &mut out).unwrap();
//! assert!(out.is_empty());
//! # }
//! ```

#[cfg(feature = "brotli")]
mod brotli;
#[cfg(feature = "gzip")]
mod gzip;
#[cfg(any(feature = "lz4", feature = "lzo"))]
pub mod hadoop;
#[cfg(feature = "lz4")]
mod lz4;
#[cfg(feature = "lzo")]
pub mod lzo;
#[cfg(feature = "snappy")]
mod snappy;
#[cfg(feature = "snappy")]
pub(crate) use snappy::Prefix as SnappyPrefix;
#[cfg(any(feature = "zstd", feature = "zstd-pure"))]
mod zstd;

#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::error::{Error, Result};
use crate::format::CompressionCodec;

/// A codec with its compression level: what the writer needs (the reader needs only the
/// [`CompressionCodec`] of the column chunk).
///
/// Text form (CLI): the lower-case spec name, with `:LEVEL` for the codecs that have levels:
/// `uncompressed`, `snappy`, `gzip`, `gzip:9`, `lzo`, `brotli:5`, `lz4`, `zstd:-1`, `lz4_raw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Codec {
    /// No compression.
    Uncompressed,
    /// Snappy raw format.
    Snappy,
    /// GZIP, deflate level 0..=9 (default 6, zlib's default).
    Gzip {
        /// 0 (store) ..= 9 (best).
        level: u32,
    },
    /// Brotli, quality 0..=11 (default 8, what Arrow C++ uses).
    Brotli {
        /// 0 (fastest) ..= 11 (best).
        level: u32,
    },
    /// Deprecated LZ4 with Hadoop framing. Prefer [`Codec::Lz4Raw`].
    Lz4,
    /// LZ4 block format.
    Lz4Raw,
    /// Zstandard, level -131072..=22 (default 3, libzstd's default).
    Zstd {
        /// Negative: faster; 22: best.
        level: i32,
    },
    /// LZO1X with Hadoop framing.
    Lzo,
}

/// GZIP's default level.
pub const GZIP_DEFAULT_LEVEL: u32 = 6;
/// BROTLI's default quality.
pub const BROTLI_DEFAULT_LEVEL: u32 = 8;
/// ZSTD's default level.
pub const ZSTD_DEFAULT_LEVEL: i32 = 3;
/// The fastest ZSTD level (libzstd's `ZSTD_minCLevel()`).
pub const ZSTD_MIN_LEVEL: i32 = -(1 << 17);
/// The best ZSTD level.
pub const ZSTD_MAX_LEVEL: i32 = 22;

impl Codec {
    /// The codec for a spec codec, with the default level.
    pub fn from_spec(codec: CompressionCodec) -> Codec {
        match codec {
            CompressionCodec::Uncompressed => Codec::Uncompressed,
            CompressionCodec::Snappy => Codec::Snappy,
            CompressionCodec::Gzip => Codec::Gzip {
                level: GZIP_DEFAULT_LEVEL,
            },
            CompressionCodec::Lzo => Codec::Lzo,
            CompressionCodec::Brotli => Codec::Brotli {
                level: BROTLI_DEFAULT_LEVEL,
            },
            CompressionCodec::Lz4 => Codec::Lz4,
            CompressionCodec::Zstd => Codec::Zstd {
                level: ZSTD_DEFAULT_LEVEL,
            },
            CompressionCodec::Lz4Raw => Codec::Lz4Raw,
        }
    }

    /// The spec codec written in `ColumnMetaData.codec`.
    pub fn to_spec(self) -> CompressionCodec {
        match self {
            Codec::Uncompressed => CompressionCodec::Uncompressed,
            Codec::Snappy => CompressionCodec::Snappy,
            Codec::Gzip { .. } => CompressionCodec::Gzip,
            Codec::Brotli { .. } => CompressionCodec::Brotli,
            Codec::Lz4 => CompressionCodec::Lz4,
            Codec::Lz4Raw => CompressionCodec::Lz4Raw,
            Codec::Zstd { .. } => CompressionCodec::Zstd,
            Codec::Lzo => CompressionCodec::Lzo,
        }
    }

    /// The level, for the codecs that have one.
    pub fn level(self) -> Option<i32> {
        match self {
            Codec::Gzip { level } | Codec::Brotli { level } => Some(level as i32),
            Codec::Zstd { level } => Some(level),
            _ => None,
        }
    }

    /// Checks the level against the codec's range.
    pub fn validate(self) -> Result<()> {
        let ok = match self {
            Codec::Gzip { level } => level <= 9,
            Codec::Brotli { level } => level <= 11,
            Codec::Zstd { level } => (ZSTD_MIN_LEVEL..=ZSTD_MAX_LEVEL).contains(&level),
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::invalid_argument(alloc::format!(
                "compression level {} is out of range for {}",
                self.level().unwrap_or(0),
                self.to_spec()
            )))
        }
    }
}

impl fmt::Display for Codec {
    /// The text form that [`Codec::from_str`] parses: `zstd:3`, `lz4_raw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.to_spec().name().chars() {
            write!(f, "{}", c.to_ascii_lowercase())?;
        }
        if let Some(level) = self.level() {
            write!(f, ":{level}")?;
        }
        Ok(())
    }
}

impl FromStr for Codec {
    type Err = Error;

    /// Parses `NAME[:LEVEL]`: a spec codec name in any case, and a level for GZIP, BROTLI and
    /// ZSTD (the default level when absent).
    fn from_str(s: &str) -> Result<Codec> {
        let (name, level) = match s.split_once(':') {
            Some((n, l)) => (n, Some(l)),
            None => (s, None),
        };
        let upper: String = name
            .trim()
            .chars()
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let spec: CompressionCodec = upper.parse()?;
        let codec = Codec::from_spec(spec);
        let Some(level) = level else {
            return Ok(codec);
        };
        let bad = || Error::invalid_argument(alloc::format!("bad compression level in {s:?}"));
        let codec = match codec {
            Codec::Gzip { .. } => Codec::Gzip {
                level: level.trim().parse().map_err(|_| bad())?,
            },
            Codec::Brotli { .. } => Codec::Brotli {
                level: level.trim().parse().map_err(|_| bad())?,
            },
            Codec::Zstd { .. } => Codec::Zstd {
                level: level.trim().parse().map_err(|_| bad())?,
            },
            _ => {
                return Err(Error::invalid_argument(alloc::format!(
                    "{spec} has no compression levels: {s:?}"
                )))
            }
        };
        codec.validate()?;
        Ok(codec)
    }
}

/// Decompresses one page body compressed with `codec`, appending exactly `uncompressed_size`
/// bytes to `out`.
///
/// Errors (and leaves `out` as it was) when the input does not decode, when it inflates to more
/// or to fewer bytes than `uncompressed_size`, or when `codec`'s cargo feature is off. Never
/// panics, for any input. Work is bounded by the input and `uncompressed_size`; allocation is
/// at most `uncompressed_size` (plus the codecs' own working memory: a ZSTD window up to
/// 128 MiB), so the caller checks `uncompressed_size` against its
/// [`Limits`](crate::Limits) first.
pub fn decompress(
    codec: CompressionCodec,
    input: &[u8],
    uncompressed_size: usize,
    out: &mut Vec<u8>,
) -> Result<()> {
    Decompressor::default().decompress(codec, input, uncompressed_size, out)
}

/// Decompression with state kept from call to call, for a reader that decompresses page
/// after page: a ZSTD decompression context is made once (making one costs about as much as
/// decoding a small page), libzstd's or, with `zstd-pure` alone, ruzstd's (its window buffer
/// and entropy tables are allocated on its first frame and reset for the next). Results and
/// errors are those of [`decompress`]. Without a ZSTD feature it holds nothing.
///
/// ```
/// use parket::compression::Decompressor;
/// use parket::format::CompressionCodec;
/// let mut d = Decompressor::default();
/// let mut out = Vec::new();
/// d.decompress(CompressionCodec::Uncompressed, b"page", 4, &mut out)?;
/// assert_eq!(out, b"page");
/// # Ok::<(), parket::Error>(())
/// ```
#[derive(Default)]
pub struct Decompressor {
    #[cfg(feature = "zstd")]
    zstd: Option<zstd::DContext>,
    #[cfg(all(feature = "zstd-pure", not(feature = "zstd")))]
    zstd: Option<zstd::DContext>,
}

/// A clone starts without state: what a decompressor holds is a cache.
impl Clone for Decompressor {
    fn clone(&self) -> Self {
        Decompressor::default()
    }
}

impl fmt::Debug for Decompressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decompressor").finish_non_exhaustive()
    }
}

impl Decompressor {
    /// Decompresses one page body compressed with `codec`, appending exactly
    /// `uncompressed_size` bytes to `out`; errors (leaving `out` as it was) as [`decompress`].
    pub fn decompress(
        &mut self,
        codec: CompressionCodec,
        input: &[u8],
        uncompressed_size: usize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let start = out.len();
        // The declared size, reserved once and fallibly: no doubling (which asked for 2 GiB for
        // a 1 GiB page), and too little memory is an error, not an abort. The size was
        // checked against the caller's limits and, per codec, against the input's length.
        crate::limits::reserve(out, uncompressed_size, "the decompressed page")?;
        let r = self.decompress_inner(codec, input, uncompressed_size, out);
        match r {
            Ok(()) if out.len() - start == uncompressed_size => Ok(()),
            Ok(()) => {
                let n = out.len() - start;
                out.truncate(start);
                Err(if n > uncompressed_size {
                    too_large(uncompressed_size)
                } else {
                    too_small(n, uncompressed_size)
                })
            }
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    /// Decompresses one page body into the first `uncompressed_size` bytes of `buf`, for a
    /// reader that decompresses page after page into one buffer and decodes from there.
    ///
    /// The same bytes and errors as [`Decompressor::decompress`] into an empty `buf`, but
    /// `buf` is not cleared first: SNAPPY, and ZSTD frames that declare their content size
    /// (libzstd), decode over the bytes an earlier page left, so that only the part of `buf`
    /// never used before is zeroed, instead of the whole page before every page. On success
    /// `buf` holds at least `uncompressed_size` bytes, the page first (bytes past it are
    /// stale); after an error its contents are unspecified.
    pub(crate) fn decompress_over(
        &mut self,
        codec: CompressionCodec,
        input: &[u8],
        uncompressed_size: usize,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        match codec {
            #[cfg(feature = "snappy")]
            CompressionCodec::Snappy => {
                // The sizes are checked before anything is allocated.
                snappy::check_sizes(input, uncompressed_size)?;
                let page = grown(buf, uncompressed_size)?;
                return snappy::decompress_to(input, page);
            }
            #[cfg(feature = "zstd")]
            CompressionCodec::Zstd if zstd::one_shot(input, uncompressed_size) => {
                // Into the spare capacity, sized once: a grown buffer is not zeroed first.
                buf.clear();
                buf.try_reserve_exact(uncompressed_size).map_err(|_| {
                    Error::out_of_memory("the decompressed page", uncompressed_size as u64)
                })?;
                if zstd::decompress_over(&mut self.zstd, input, uncompressed_size, buf) {
                    return Ok(());
                }
                // Anything else takes the bounded path, which gives the precise error.
            }
            _ => {}
        }
        buf.clear();
        self.decompress(codec, input, uncompressed_size, buf)
    }

    #[allow(unused_variables)]
    fn decompress_inner(
        &mut self,
        codec: CompressionCodec,
        input: &[u8],
        uncompressed_size: usize,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match codec {
            CompressionCodec::Uncompressed => {
                if input.len() != uncompressed_size {
                    return Err(if input.len() > uncompressed_size {
                        too_large(uncompressed_size)
                    } else {
                        too_small(input.len(), uncompressed_size)
                    });
                }
                out.extend_from_slice(input);
                Ok(())
            }
            #[cfg(feature = "snappy")]
            CompressionCodec::Snappy => snappy::decompress(input, uncompressed_size, out),
            #[cfg(not(feature = "snappy"))]
            CompressionCodec::Snappy => Err(Error::feature_disabled("SNAPPY", "snappy")),
            #[cfg(feature = "gzip")]
            CompressionCodec::Gzip => gzip::decompress(input, uncompressed_size, out),
            #[cfg(not(feature = "gzip"))]
            CompressionCodec::Gzip => Err(Error::feature_disabled("GZIP", "gzip")),
            #[cfg(feature = "lzo")]
            CompressionCodec::Lzo => lzo::decompress(input, uncompressed_size, out),
            #[cfg(not(feature = "lzo"))]
            CompressionCodec::Lzo => Err(Error::feature_disabled("LZO", "lzo")),
            #[cfg(feature = "brotli")]
            CompressionCodec::Brotli => brotli::decompress(input, uncompressed_size, out),
            #[cfg(not(feature = "brotli"))]
            CompressionCodec::Brotli => Err(Error::feature_disabled("BROTLI", "brotli")),
            #[cfg(feature = "lz4")]
            CompressionCodec::Lz4 => lz4::decompress_hadoop(input, uncompressed_size, out),
            #[cfg(not(feature = "lz4"))]
            CompressionCodec::Lz4 => Err(Error::feature_disabled("LZ4", "lz4")),
            #[cfg(feature = "zstd")]
            CompressionCodec::Zstd => {
                zstd::decompress_reusing(&mut self.zstd, input, uncompressed_size, out)
            }
            #[cfg(all(feature = "zstd-pure", not(feature = "zstd")))]
            CompressionCodec::Zstd => {
                zstd::decompress_reusing(&mut self.zstd, input, uncompressed_size, out)
            }
            #[cfg(not(any(feature = "zstd", feature = "zstd-pure")))]
            CompressionCodec::Zstd => Err(Error::feature_disabled("ZSTD", "zstd")),
            #[cfg(feature = "lz4")]
            CompressionCodec::Lz4Raw => lz4::decompress_raw(input, uncompressed_size, out),
            #[cfg(not(feature = "lz4"))]
            CompressionCodec::Lz4Raw => Err(Error::feature_disabled("LZ4_RAW", "lz4")),
        }
    }
}

/// The first `size` bytes of `buf`, grown (fallibly, zeroing only the new bytes) when it is
/// shorter.
#[allow(dead_code)]
fn grown(buf: &mut Vec<u8>, size: usize) -> Result<&mut [u8]> {
    if buf.len() < size {
        buf.try_reserve_exact(size - buf.len())
            .map_err(|_| Error::out_of_memory("the decompressed page", size as u64))?;
        buf.resize(size, 0);
    }
    Ok(&mut buf[..size])
}

/// Compresses one page body with `codec`, appending the result to `out`.
///
/// Errors when the level is out of range or `codec`'s cargo feature is off (ZSTD compression
/// needs `zstd`: `zstd-pure` decodes only). On error `out` is left as it was.
pub fn compress(codec: Codec, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    codec.validate()?;
    let start = out.len();
    let r = compress_inner(codec, input, out);
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// Compression with state kept from call to call, for a writer that compresses page after
/// page: a ZSTD context and a Snappy encoder are made once, and the output buffer is reused.
/// The bytes are those of [`compress`].
///
/// ```
/// use parket::compression::{Codec, Compressor};
/// let mut c = Compressor::default();
/// let mut out = Vec::new();
/// let n = c.compress(Codec::Uncompressed, b"page", &mut out)?;
/// assert_eq!(&out[..n], b"page");
/// # Ok::<(), parket::Error>(())
/// ```
#[derive(Default)]
pub struct Compressor {
    #[cfg(feature = "zstd")]
    zstd: Option<zstd::Context>,
    #[cfg(feature = "snappy")]
    snappy: Option<snap::raw::Encoder>,
}

impl fmt::Debug for Compressor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Compressor").finish_non_exhaustive()
    }
}

impl Compressor {
    /// Writes the compression of `input` by `codec` at the start of `out` and returns its
    /// length `n`: the result is `out[..n]`. Bytes of `out` past `n` are scratch (kept so
    /// that a reused buffer is not zeroed again). Errors as [`compress`].
    pub fn compress(&mut self, codec: Codec, input: &[u8], out: &mut Vec<u8>) -> Result<usize> {
        codec.validate()?;
        match codec {
            #[cfg(feature = "zstd")]
            Codec::Zstd { level } => zstd::compress_reusing(&mut self.zstd, input, level, out),
            #[cfg(feature = "snappy")]
            Codec::Snappy => snappy::compress_reusing(
                self.snappy.get_or_insert_with(snap::raw::Encoder::new),
                input,
                out,
            ),
            _ => {
                out.clear();
                compress(codec, input, out)?;
                Ok(out.len())
            }
        }
    }
}

#[allow(unused_variables)]
fn compress_inner(codec: Codec, input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    match codec {
        Codec::Uncompressed => {
            out.extend_from_slice(input);
            Ok(())
        }
        #[cfg(feature = "snappy")]
        Codec::Snappy => snappy::compress(input, out),
        #[cfg(not(feature = "snappy"))]
        Codec::Snappy => Err(Error::feature_disabled("SNAPPY", "snappy")),
        #[cfg(feature = "gzip")]
        Codec::Gzip { level } => gzip::compress(input, level, out),
        #[cfg(not(feature = "gzip"))]
        Codec::Gzip { .. } => Err(Error::feature_disabled("GZIP", "gzip")),
        #[cfg(feature = "brotli")]
        Codec::Brotli { level } => brotli::compress(input, level, out),
        #[cfg(not(feature = "brotli"))]
        Codec::Brotli { .. } => Err(Error::feature_disabled("BROTLI", "brotli")),
        #[cfg(feature = "lz4")]
        Codec::Lz4 => lz4::compress_hadoop(input, out),
        #[cfg(feature = "lz4")]
        Codec::Lz4Raw => lz4::compress_block(input, out),
        #[cfg(not(feature = "lz4"))]
        Codec::Lz4 => Err(Error::feature_disabled("LZ4", "lz4")),
        #[cfg(not(feature = "lz4"))]
        Codec::Lz4Raw => Err(Error::feature_disabled("LZ4_RAW", "lz4")),
        #[cfg(feature = "zstd")]
        Codec::Zstd { level } => zstd::compress(input, level, out),
        #[cfg(not(feature = "zstd"))]
        Codec::Zstd { .. } => Err(Error::feature_disabled("ZSTD compression", "zstd")),
        #[cfg(feature = "lzo")]
        Codec::Lzo => lzo::compress(input, out),
        #[cfg(not(feature = "lzo"))]
        Codec::Lzo => Err(Error::feature_disabled("LZO", "lzo")),
    }
}

/// The error for a page that inflates past its declared size.
#[cold]
pub(crate) fn too_large(declared: usize) -> Error {
    Error::limit(
        "decompressed page size",
        declared as u64 + 1,
        declared as u64,
    )
}

/// The error for a page that inflates to fewer bytes than declared.
#[cold]
pub(crate) fn too_small(got: usize, declared: usize) -> Error {
    Error::truncated("decompressed page", declared as u64, got as u64)
}

/// Rejects a declared size that `input_len` bytes of a codec with at most `ratio` output
/// bytes per input byte cannot produce, before allocating it.
#[allow(dead_code)]
pub(crate) fn check_ratio(input_len: usize, declared: usize, ratio: usize) -> Result<()> {
    let max = input_len.saturating_mul(ratio).saturating_add(64);
    if declared > max {
        return Err(too_small(max, declared));
    }
    Ok(())
}

/// Reads exactly `size` bytes from a decompressing reader into `out`, then checks that the
/// stream has ended. `out` has room for them ([`Decompressor::decompress`] reserved it): it is
/// zero-filled only as far as the stream really produces (geometric steps), so a page that
/// declares more than it holds costs no more than it holds.
#[cfg(feature = "std")]
#[allow(dead_code)]
pub(crate) fn read_bounded<R: std::io::Read>(
    mut r: R,
    size: usize,
    out: &mut Vec<u8>,
    what: &'static str,
) -> Result<()> {
    use std::io::ErrorKind;
    let start = out.len();
    let mut filled = 0usize;
    while filled < size {
        if out.len() == start + filled {
            let grow = (size - filled).min(filled.max(64 << 10));
            out.resize(start + filled + grow, 0);
        }
        match r.read(&mut out[start + filled..]) {
            Ok(0) => {
                out.truncate(start + filled);
                return Err(too_small(filled, size));
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => {
                out.truncate(start + filled);
                return Err(Error::out_of_spec(what));
            }
        }
    }
    // The declared size is reached: the stream must end here (this also checks trailers such
    // as GZIP's CRC-32).
    let mut probe = [0u8; 1];
    loop {
        match r.read(&mut probe) {
            Ok(0) => return Ok(()),
            Ok(_) => return Err(too_large(size)),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Err(Error::out_of_spec(what)),
        }
    }
}

/// Fuzzing harness: `data[0]` picks the codec, `data[1..4]` (LE) the declared size (capped at
/// 1 MiB), the rest is the compressed input. Panics only if [`decompress`] breaks its contract.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decompress(data: &[u8]) {
    let [sel, a, b, c, input @ ..] = data else {
        return;
    };
    let codec = CompressionCodec::ALL[*sel as usize % CompressionCodec::ALL.len()];
    let size = (u32::from_le_bytes([*a, *b, *c, 0]) as usize).min(1 << 20);
    let mut out = alloc::vec![0xAA];
    let decoded = decompress(codec, input, size, &mut out).is_ok();
    match decoded {
        true => assert_eq!(out.len(), 1 + size, "{codec}: wrong output size"),
        false => assert_eq!(out, [0xAA], "{codec}: output changed on error"),
    }
    assert_eq!(out[0], 0xAA, "{codec}: earlier output overwritten");
    // SNAPPY: parket's prefix decoder gives the first bytes of what `snap` gives, from a
    // prefix length `a` picks, then the rest; it fails only where `snap` does.
    #[cfg(feature = "snappy")]
    if codec == CompressionCodec::Snappy {
        // From the result, not the length: a failed stream declared empty leaves `out` at the
        // length a good one would.
        let whole = decoded.then(|| &out[1..]);
        let mut part = alloc::vec::Vec::new();
        let Ok(mut p) = SnappyPrefix::new(input, size, &mut part) else {
            assert!(
                whole.is_none(),
                "SNAPPY: prefix decoder rejects a valid header"
            );
            return;
        };
        let first = p.extend(
            input,
            &mut part,
            (usize::from(*a) * 37).min(size.saturating_sub(1)),
        );
        let rest = first.and_then(|()| p.extend(input, &mut part, size));
        match (rest, whole) {
            (Ok(()), Some(w)) => assert_eq!(&part[..p.len()], w, "SNAPPY: prefix decoder differs"),
            (Err(e), Some(_)) => panic!("SNAPPY: prefix decoder fails where snap does not: {e}"),
            (Ok(()), None) => panic!("SNAPPY: prefix decoder decodes what snap rejects"),
            (Err(_), None) => {}
        }
        assert!(p.len() <= size && part.len() <= size);
        // `snap` taking over after the first part: the same bytes, or `snap`'s error.
        let mut part = alloc::vec::Vec::new();
        if let Ok(mut p) = SnappyPrefix::new(input, size, &mut part) {
            let cut = (usize::from(*a) * 37).min(size.saturating_sub(1));
            if p.extend(input, &mut part, cut).is_ok() {
                match (p.whole(input, &mut part), whole) {
                    (Ok(()), Some(w)) => assert_eq!(&part[..p.len()], w, "SNAPPY: whole differs"),
                    (Ok(()), None) => panic!("SNAPPY: whole decodes what snap rejects"),
                    (Err(e), Some(_)) => panic!("SNAPPY: whole fails where snap does not: {e}"),
                    (Err(_), None) => {}
                }
            }
        }
    }
}

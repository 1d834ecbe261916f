//! LZO (codec 3): our own LZO1X decompressor and an LZO1X-1 style compressor.
//!
//! Compression.md: "A codec based on or interoperable with the LZO compression library." The
//! page bytes are not a bare LZO1X block: parquet-java (the only writer that ever produced LZO
//! pages) compresses through `com.hadoop.compression.lzo.LzoCodec`, whose output stream is
//! Hadoop's `BlockCompressorStream`: the same framing as the deprecated LZ4 codec, see
//! [`super::hadoop`]. Reading tries that framing and falls back to one bare LZO1X block.
//!
//! # The LZO1X block format
//!
//! A block is a sequence of instructions, ended by the marker `11 00 00`. What an opcode byte
//! `t` means depends on the *state*: how many literals the previous instruction copied.
//! Every match instruction carries, in the low two bits `S` of its last-but-one byte, the number
//! of literals (0..=3) that follow it; `S = 0` lets the next instruction be a longer literal run.
//!
//! ```text
//! first byte t > 17        t - 17 literals (then state 1..3 if t - 17 < 4, else state 4)
//! t = 0..15, state 0       literal run of t + 3 bytes; t = 0: 18 + (255 per 00 byte) + next
//!                          byte. Then state 4.
//! t = 0..15, state 4   M1  3-byte match, distance 2049 + (t >> 2) + (next << 2)
//! t = 0..15, state 1..3 M1 2-byte match, distance 1 + (t >> 2) + (next << 2)
//! t = 64..255          M2  length (t >> 5) + 1 (3..8), distance 1 + ((t >> 2) & 7) + (next << 3)
//! t = 32..63           M3  length (t & 31) + 2, or t & 31 = 0: 33 + zeros*255 + next byte;
//!                          then LE16 d: distance 1 + (d >> 2)           (up to 16384)
//! t = 16..31           M4  length (t & 7) + 2, or t & 7 = 0: 9 + zeros*255 + next byte;
//!                          then LE16 d: distance 16384 + ((t & 8) << 11) + (d >> 2)
//!                          (up to 49151); a distance of exactly 16384 is the end marker
//! after M1..M4: S = low 2 bits of the opcode (M1, M2) or of d (M3, M4); copy S literals
//! ```
//!
//! Worked example: `"abcabcabcabc"` (12 bytes) compresses to 10 bytes (the unit test
//! `worked_example` checks these bytes, which the reference liblzo2 decompresses too):
//!
//! ```text
//! 14 61 62 63     first byte 0x14 = 17 + 3: copy 3 literals "abc"   (then state 1..3)
//! 27 08 00        M3: t = 0x20 | 7, length 7 + 2 = 9; d = 0x0008: distance 1 + (8 >> 2) = 3
//!                 (the match overlaps its own output); S = d & 3 = 0 literals follow
//! 11 00 00        end marker
//! ```
//!
//! The decoder checks every match distance against the output of the block so far and every
//! length against the declared size, so it never panics and never writes more than it was told.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Largest M2 distance.
const M2_MAX_OFFSET: usize = 0x0800;
/// Largest M3 distance.
const M3_MAX_OFFSET: usize = 0x4000;
/// Largest M4 distance.
const M4_MAX_OFFSET: usize = 0xBFFF;

/// The end-of-block marker (an M4 with distance 16384).
const END_MARKER: [u8; 3] = [0x11, 0x00, 0x00];

/// What an opcode below 16 means: set by the previous instruction.
#[derive(Clone, Copy)]
enum State {
    /// After a match with no trailing literals, or at the start: a literal run.
    Run,
    /// After a literal run of 4 or more: a 3-byte M1 at distance 2049..=3072.
    AfterRun,
    /// After 1..=3 trailing literals: a 2-byte M1 at distance 1..=1024.
    AfterShort,
}

struct Decoder<'a> {
    input: &'a [u8],
    ip: usize,
    base: usize,
    limit: usize,
}

impl Decoder<'_> {
    #[inline]
    fn byte(&mut self) -> Result<u8> {
        match self.input.get(self.ip) {
            Some(&b) => {
                self.ip += 1;
                Ok(b)
            }
            None => Err(Error::truncated("LZO instruction", 1, 0).at_offset(self.ip as u64)),
        }
    }

    /// An extended length: `base` + 255 per zero byte + the first non-zero byte.
    fn extended(&mut self, base: usize) -> Result<usize> {
        let mut n = base;
        loop {
            let b = self.byte()?;
            if b != 0 {
                return Ok(n.saturating_add(b as usize));
            }
            n = n.saturating_add(255);
        }
    }

    fn room(&self, out: &[u8], n: usize) -> Result<()> {
        if n > self.limit - out.len() {
            return Err(Error::limit(
                "decompressed LZO block size",
                (out.len() - self.base).saturating_add(n) as u64,
                (self.limit - self.base) as u64,
            ));
        }
        Ok(())
    }

    fn literals(&mut self, n: usize, out: &mut Vec<u8>) -> Result<()> {
        self.room(out, n)?;
        let rest = self.input.len() - self.ip;
        if n > rest {
            return Err(
                Error::truncated("LZO literals", n as u64, rest as u64).at_offset(self.ip as u64)
            );
        }
        out.extend_from_slice(&self.input[self.ip..self.ip + n]);
        self.ip += n;
        Ok(())
    }

    fn copy_match(&mut self, distance: usize, len: usize, out: &mut Vec<u8>) -> Result<()> {
        // Spec (lzo1x_decompress_safe): a look-behind before the start of the output is an
        // error ("LZO_E_LOOKBEHIND_OVERRUN").
        if distance == 0 || distance > out.len() - self.base {
            return Err(Error::out_of_range("LZO match distance", distance as i64)
                .at_offset(self.ip as u64));
        }
        self.room(out, len)?;
        let start = out.len() - distance;
        if distance >= len {
            out.extend_from_within(start..start + len);
        } else {
            // Overlapping: the match repeats the last `distance` bytes.
            for k in 0..len {
                let b = out[start + k];
                out.push(b);
            }
        }
        Ok(())
    }
}

/// Decompresses one bare LZO1X block, appending at most `max_out` bytes to `out`; returns the
/// number of bytes appended. Errors when the block is truncated, refers before its own start,
/// would exceed `max_out`, or has bytes after its end marker. Never panics, for any input;
/// allocates at most `max_out` bytes.
pub fn decompress_block(input: &[u8], max_out: usize, out: &mut Vec<u8>) -> Result<usize> {
    let base = out.len();
    let mut d = Decoder {
        input,
        ip: 0,
        base,
        limit: base.saturating_add(max_out),
    };
    let mut state = State::Run;
    if let Some(&first) = input.first() {
        if first > 17 {
            d.ip = 1;
            let n = (first - 17) as usize;
            d.literals(n, out)?;
            state = if n < 4 {
                State::AfterShort
            } else {
                State::AfterRun
            };
        }
    }
    loop {
        let t = d.byte()? as usize;
        let (distance, len, trailing);
        if t >= 64 {
            // M2
            let b = d.byte()? as usize;
            distance = 1 + ((t >> 2) & 7) + (b << 3);
            len = (t >> 5) + 1;
            trailing = t & 3;
        } else if t >= 32 {
            // M3
            let l = match t & 31 {
                0 => d.extended(31)?,
                l => l,
            };
            let lo = d.byte()? as usize;
            let hi = d.byte()? as usize;
            distance = 1 + (lo >> 2) + (hi << 6);
            len = l.saturating_add(2);
            trailing = lo & 3;
        } else if t >= 16 {
            // M4
            let l = match t & 7 {
                0 => d.extended(7)?,
                l => l,
            };
            let lo = d.byte()? as usize;
            let hi = d.byte()? as usize;
            let far = ((t & 8) << 11) + (lo >> 2) + (hi << 6);
            if far == 0 {
                // The end marker.
                if d.ip != input.len() {
                    return Err(Error::out_of_spec("bytes after the end of an LZO block")
                        .at_offset(d.ip as u64));
                }
                return Ok(out.len() - base);
            }
            distance = far + M3_MAX_OFFSET;
            len = l.saturating_add(2);
            trailing = lo & 3;
        } else {
            match state {
                State::Run => {
                    let n = match t {
                        0 => d.extended(15)?,
                        n => n,
                    };
                    d.literals(n.saturating_add(3), out)?;
                    state = State::AfterRun;
                    continue;
                }
                State::AfterRun => {
                    let b = d.byte()? as usize;
                    distance = 1 + M2_MAX_OFFSET + (t >> 2) + (b << 2);
                    len = 3;
                }
                State::AfterShort => {
                    let b = d.byte()? as usize;
                    distance = 1 + (t >> 2) + (b << 2);
                    len = 2;
                }
            }
            trailing = t & 3;
        }
        d.copy_match(distance, len, out)?;
        if trailing == 0 {
            state = State::Run;
        } else {
            d.literals(trailing, out)?;
            state = State::AfterShort;
        }
    }
}

/// Compresses `input` as one LZO1X block (greedy matching with a hash table of 4-byte
/// sequences, LZO1X-1 style), appending it to `out`. Any LZO1X decompressor accepts it.
pub fn compress_block(input: &[u8], out: &mut Vec<u8>) {
    const HASH_BITS: u32 = 14;
    let n = input.len();
    let mut table = vec![usize::MAX; 1 << HASH_BITS];
    let mut enc = Encoder {
        out,
        start: 0,
        state_pos: None,
    };
    enc.start = enc.out.len();
    let mut lit_start = 0;
    let mut ip = 0;
    while ip + 4 <= n {
        let seq = u32::from_le_bytes([input[ip], input[ip + 1], input[ip + 2], input[ip + 3]]);
        let h = (seq.wrapping_mul(0x1E35_A7BD) >> (32 - HASH_BITS)) as usize;
        let cand = table[h];
        table[h] = ip;
        if cand < ip && ip - cand <= M4_MAX_OFFSET && input[cand..cand + 4] == input[ip..ip + 4] {
            let mut len = 4;
            while ip + len < n && input[cand + len] == input[ip + len] {
                len += 1;
            }
            enc.literals(&input[lit_start..ip]);
            enc.matched(ip - cand, len);
            ip += len;
            lit_start = ip;
        } else {
            ip += 1;
        }
    }
    enc.literals(&input[lit_start..]);
    enc.out.extend_from_slice(&END_MARKER);
}

struct Encoder<'a> {
    out: &'a mut Vec<u8>,
    /// Where this block starts in `out`.
    start: usize,
    /// The byte whose low two bits say how many literals follow the last match.
    state_pos: Option<usize>,
}

impl Encoder<'_> {
    /// `extra >= 1` as zero bytes (255 each) and a final non-zero byte.
    fn extension(&mut self, mut extra: usize) {
        while extra > 255 {
            self.out.push(0);
            extra -= 255;
        }
        self.out.push(extra as u8);
    }

    fn literals(&mut self, lits: &[u8]) {
        let k = lits.len();
        if k == 0 {
            return;
        }
        match self.state_pos {
            None if self.out.len() == self.start && k <= 238 => {
                // Spec: a first byte above 17 is a literal count + 17.
                self.out.push(17 + k as u8);
            }
            Some(pos) if k <= 3 => self.out[pos] |= k as u8,
            _ => {
                // A literal run (k >= 4): after a match whose S is 0, or at the start.
                if k - 3 <= 15 {
                    self.out.push((k - 3) as u8);
                } else {
                    self.out.push(0);
                    self.extension(k - 18);
                }
            }
        }
        self.out.extend_from_slice(lits);
    }

    /// A match of `len >= 4` bytes at `distance` in 1..=49151.
    fn matched(&mut self, distance: usize, len: usize) {
        if len <= 8 && distance <= M2_MAX_OFFSET {
            let d = distance - 1;
            self.state_pos = Some(self.out.len());
            self.out.push((((len - 1) << 5) | ((d & 7) << 2)) as u8);
            self.out.push((d >> 3) as u8);
        } else if distance <= M3_MAX_OFFSET {
            let d = distance - 1;
            if len - 2 <= 31 {
                self.out.push(32 | (len - 2) as u8);
            } else {
                self.out.push(32);
                self.extension(len - 2 - 31);
            }
            self.state_pos = Some(self.out.len());
            self.out.push(((d & 63) << 2) as u8);
            self.out.push((d >> 6) as u8);
        } else {
            let d = distance - M3_MAX_OFFSET;
            let hi = if d & 0x4000 != 0 { 8 } else { 0 };
            if len - 2 <= 7 {
                self.out.push(16 | hi | (len - 2) as u8);
            } else {
                self.out.push(16 | hi);
                self.extension(len - 2 - 7);
            }
            let d = d & 0x3FFF;
            self.state_pos = Some(self.out.len());
            self.out.push(((d & 63) << 2) as u8);
            self.out.push((d >> 6) as u8);
        }
    }
}

/// LZO page: appends exactly `uncompressed_size` bytes, Hadoop-framed or one bare block.
pub(super) fn decompress(input: &[u8], uncompressed_size: usize, out: &mut Vec<u8>) -> Result<()> {
    super::hadoop::decompress(input, uncompressed_size, out, decompress_block)
}

/// LZO page: appends `input` in Hadoop framing, as parquet-java's `LzoCodec` writes it.
pub(super) fn compress(input: &[u8], out: &mut Vec<u8>) -> Result<()> {
    super::hadoop::compress(input, out, |piece, out| {
        compress_block(piece, out);
        Ok(())
    })
}

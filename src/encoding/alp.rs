//! ALP (encoding 10): Adaptive Lossless floating-Point, for FLOAT and DOUBLE.
//!
//! Spec: Encodings.md, "Adaptive Lossless floating-Point: (ALP = 10)" (in Preview since
//! 2026-08-01), and AlpEncoding.md for the layout. Each value `v` is stored as an integer
//! `encoded` that decodes as `encoded * 10^f * 10^-e` (two multiplications by the correctly
//! rounded constants, in the value's own precision); integers are stored as deltas from their
//! minimum (frame of reference), bit-packed LSB first; values that do not come back bit for bit
//! (NaN, infinities, `-0.0`, too many digits) are *exceptions*, stored whole with their
//! position.
//!
//! ```text
//! page   := header(7) offset[num_vectors] (u32 LE, from the offsets' start) vector...
//! header := compression_mode(u8 = 0) integer_encoding(u8 = 0) log_vector_size(u8, 3..=15)
//!           num_elements(i32 LE)
//! vector := exponent(u8) factor(u8) num_exceptions(u16 LE)              AlpInfo
//!           frame_of_reference(i32 | i64 LE) bit_width(u8)              ForInfo
//!           packed deltas (ceil(len * bit_width / 8) bytes)
//!           exception positions (u16 LE each) exception values (4 | 8 bytes LE each)
//! ```
//!
//! Every vector holds `2^log_vector_size` values but the last, which holds the rest.
//!
//! # Worked example
//!
//! The spec's "Worked Example: Exceptions and Non-Zero Factor": the doubles
//! `1500.0, NaN, 2500.0, 333.5` with `e = 4, f = 3` are the integers `15000, (NaN), 25000,
//! 3335`; the NaN becomes an exception, its slot takes the first integer (15000), the minimum
//! 3335 is the frame of reference, and the deltas `11665, 11665, 21665, 0` need 15 bits:
//!
//! ```text
//! 00 00 0a 04 00 00 00      mode 0, FOR + bit packing, vectors of 2^10, 4 values
//! 04 00 00 00               vector 0 starts 4 bytes after the offsets' start
//! 04 03 01 00               e = 4, f = 3, 1 exception
//! 07 0d 00 00 00 00 00 00   frame of reference 3335
//! 0f                        bit width 15
//! 91 ad c8 56 28 15 00 00   11665 | 11665 << 15 | 21665 << 30 | 0 << 45
//! 01 00                     exception at position 1 ...
//! 00 00 00 00 00 00 f8 7f   ... is the NaN 0x7ff8000000000000
//! ```
//!
//! ```
//! use parket::encoding::alp;
//! use parket::values::Values;
//! let page = [
//!     0x00, 0x00, 0x0a, 0x04, 0x00, 0x00, 0x00, //
//!     0x04, 0x00, 0x00, 0x00, //
//!     0x04, 0x03, 0x01, 0x00, //
//!     0x07, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, //
//!     0x91, 0xad, 0xc8, 0x56, 0x28, 0x15, 0x00, 0x00, //
//!     0x01, 0x00, //
//!     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f,
//! ];
//! let mut out = Values::Double(Vec::new());
//! assert_eq!(alp::decode(&page, 4, &mut out).unwrap(), page.len());
//! let nan = f64::from_bits(0x7ff8_0000_0000_0000);
//! assert!(out.bit_eq(&Values::Double(vec![1500.0, nan, 2500.0, 333.5])));
//! ```
//!
//! # Encoding
//!
//! [`encode`] follows the spec's informative pipeline: per page, up to 8 vectors (one in 4)
//! are sampled (64 values each) against every `(e, f)` pair, and the (up to) 5 pairs that win
//! most often form the preset; each vector then takes the preset pair that makes its 256-value
//! sample smallest. Rounding is the spec's `fast_round` (with a sign test). Whatever the choice, every
//! value is checked against the normative decode, so a round trip is bit-identical for every
//! float, NaN payloads included.
//!
//! # Limits
//!
//! The decoder never panics: every field is checked (mode, vector size, exponent and factor,
//! bit width, exception count and positions, offsets) before it is used, each section's length
//! against the bytes that remain, and the output grows one vector at a time after that vector's
//! sections were found in the input. On an error, `out` is left as it was.

use alloc::vec::Vec;

use crate::bytes::bitpack;
use crate::bytes::Cursor;
use crate::error::{Error, Result};
use crate::values::{Values, ValuesRef};

/// Size of the page header (compression mode, integer encoding, log vector size, count).
pub const HEADER_LEN: usize = 7;
/// The vector size the encoder writes, as its base-2 logarithm (the spec's default, 1024).
pub const LOG_VECTOR_SIZE: u8 = 10;
const MIN_LOG_VECTOR_SIZE: u8 = 3;
const MAX_LOG_VECTOR_SIZE: u8 = 15;

/// `10^0 ..= 10^18` as doubles (each literal is correctly rounded, as the spec requires).
const F64_POW10: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];
/// `10^-0 ..= 10^-18` as doubles.
const F64_NEG_POW10: [f64; 19] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18,
];
/// `10^0 ..= 10^10` as floats.
const F32_POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/// `10^-0 ..= 10^-10` as floats.
const F32_NEG_POW10: [f32; 11] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10,
];

/// FLOAT or DOUBLE, as ALP sees them: the encoded integer is kept in an `i64` for both (a
/// FLOAT's fits an `i32`).
trait AlpFloat: Copy {
    /// Largest exponent (10 for FLOAT, 18 for DOUBLE).
    const MAX_EXPONENT: u8;
    /// Bytes of a value and of the frame of reference (4 or 8).
    const BYTES: usize;
    /// Largest bit width.
    const MAX_BIT_WIDTH: u8;
    /// `encoded * 10^f * 10^-e`, the normative decode; `e` and `f` were checked.
    fn decode(encoded: i64, e: usize, f: usize) -> Self;
    /// `fast_round(v * 10^e * 10^-f)`, or `None` when that is NaN or outside the integer type.
    fn encode(self, e: usize, f: usize) -> Option<i64>;
    /// The integer of `delta + frame` in the type's width, wrapping.
    fn reconstruct(delta: u64, frame: i64) -> i64;
    fn to_bits(self) -> u64;
    fn from_le(bytes: &[u8]) -> Self;
    fn put_le(self, out: &mut Vec<u8>);
}

impl AlpFloat for f64 {
    const MAX_EXPONENT: u8 = 18;
    const BYTES: usize = 8;
    const MAX_BIT_WIDTH: u8 = 64;

    #[inline(always)]
    fn decode(encoded: i64, e: usize, f: usize) -> f64 {
        (encoded as f64) * F64_POW10[f] * F64_NEG_POW10[e]
    }

    #[inline(always)]
    fn encode(self, e: usize, f: usize) -> Option<i64> {
        round_f64(self * F64_POW10[e] * F64_NEG_POW10[f])
    }

    #[inline(always)]
    fn reconstruct(delta: u64, frame: i64) -> i64 {
        delta.wrapping_add(frame as u64) as i64
    }

    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }

    fn from_le(bytes: &[u8]) -> f64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes.get(..8).unwrap_or(&[0; 8]));
        f64::from_le_bytes(b)
    }

    fn put_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl AlpFloat for f32 {
    const MAX_EXPONENT: u8 = 10;
    const BYTES: usize = 4;
    const MAX_BIT_WIDTH: u8 = 32;

    #[inline(always)]
    fn decode(encoded: i64, e: usize, f: usize) -> f32 {
        (encoded as i32 as f32) * F32_POW10[f] * F32_NEG_POW10[e]
    }

    #[inline(always)]
    fn encode(self, e: usize, f: usize) -> Option<i64> {
        round_f32(self * F32_POW10[e] * F32_NEG_POW10[f])
    }

    #[inline(always)]
    fn reconstruct(delta: u64, frame: i64) -> i64 {
        (delta as u32).wrapping_add(frame as u32) as i32 as i64
    }

    fn to_bits(self) -> u64 {
        u64::from(f32::to_bits(self))
    }

    fn from_le(bytes: &[u8]) -> f32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(bytes.get(..4).unwrap_or(&[0; 4]));
        f32::from_le_bytes(b)
    }

    fn put_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

/// The spec's `fast_round` (adding and subtracting a magic power of two, with a sign test):
/// `None` for NaN and outside the integer type; a value of magnitude `magic` or more is
/// already an integer.
macro_rules! fast_round {
    ($(#[$doc:meta])* $name:ident, $t:ty, $int:ty, $magic:expr, $limit:expr) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name(x: $t) -> Option<i64> {
            const MAGIC: $t = $magic;
            const LIMIT: $t = $limit;
            let a = if x < 0.0 { -x } else { x };
            if a.is_nan() || a >= LIMIT {
                return None;
            }
            let r = if a >= MAGIC {
                x
            } else if x >= 0.0 {
                (x + MAGIC) - MAGIC
            } else {
                (x - MAGIC) + MAGIC
            };
            Some(i64::from(r as $int))
        }
    };
}

fast_round!(
    /// `fast_round` for doubles: magic 2^52, integers below 2^63 in magnitude.
    round_f64, f64, i64, 4_503_599_627_370_496.0, 9_223_372_036_854_775_808.0
);
fast_round!(
    /// `fast_round` for floats: magic 2^23, integers below 2^31 in magnitude.
    round_f32, f32, i32, 8_388_608.0, 2_147_483_648.0
);

/// `v` stored as the integer `encode(v)` with `(e, f)`, if that decodes to `v` bit for bit.
#[inline(always)]
fn exact<T: AlpFloat>(v: T, e: usize, f: usize) -> Option<i64> {
    let i = v.encode(e, f)?;
    (T::decode(i, e, f).to_bits() == v.to_bits()).then_some(i)
}

// ------------------------------------------------------------------------------------------
// Decoding

/// Decodes `num_values` FLOAT or DOUBLE values (by `out`'s type) from the ALP page data
/// `input` (after levels and decompression); appends to `out` and returns the bytes consumed
/// (the header, the offsets and the vectors; bytes after the last vector are not read).
///
/// The header's `num_elements` must equal `num_values`. Never panics, for any input; on an
/// error `out` is unchanged and the error's offset is within `input`.
pub fn decode(input: &[u8], num_values: usize, out: &mut Values) -> Result<usize> {
    match out {
        Values::Double(v) => decode_typed::<f64>(input, num_values, v),
        Values::Float(v) => decode_typed::<f32>(input, num_values, v),
        _ => Err(Error::unsupported(
            "ALP for a type other than FLOAT or DOUBLE",
        )),
    }
}

fn decode_typed<T: AlpFloat>(input: &[u8], num_values: usize, out: &mut Vec<T>) -> Result<usize> {
    let start = out.len();
    // The layout is read and unpacked by one non-generic walk; only the arithmetic is per type.
    let r = walk(
        input,
        num_values,
        Width {
            bytes: T::BYTES,
            max_exponent: T::MAX_EXPONENT,
            max_bit_width: T::MAX_BIT_WIDTH,
        },
        &mut |v, deltas| emit::<T>(v, deltas, out),
    );
    if r.is_err() {
        out.truncate(start);
    }
    r
}

/// What the layout of FLOAT and DOUBLE pages differs by.
#[derive(Clone, Copy)]
struct Width {
    bytes: usize,
    max_exponent: u8,
    max_bit_width: u8,
}

/// One vector, its fields checked and its sections found in the input.
struct Vector<'a> {
    e: usize,
    f: usize,
    frame: i64,
    bit_width: u32,
    packed: &'a [u8],
    /// Exception positions, each checked to be below `len`.
    positions: &'a [u8],
    values: &'a [u8],
}

/// Reads the page's header and offsets and each vector's header and sections, checking every
/// field, and hands each vector to `each`; returns the bytes read.
fn walk(
    input: &[u8],
    num_values: usize,
    w: Width,
    each: &mut dyn FnMut(&Vector<'_>, &[u64]),
) -> Result<usize> {
    let mut c = Cursor::new(input);
    let [mode, int_enc, log, n @ ..] = c.array::<HEADER_LEN>("ALP page header")?;
    if mode != 0 {
        return Err(Error::unsupported("ALP compression_mode other than 0").at_offset(0));
    }
    if int_enc != 0 {
        return Err(Error::unsupported("ALP integer_encoding other than 0").at_offset(1));
    }
    if !(MIN_LOG_VECTOR_SIZE..=MAX_LOG_VECTOR_SIZE).contains(&log) {
        return Err(bad("ALP log_vector_size", i64::from(log), 2));
    }
    let vector_size = 1usize << log;
    let count = i32::from_le_bytes(n);
    if usize::try_from(count).ok() != Some(num_values) {
        return Err(bad(
            "ALP num_elements (not the page's non-null values)",
            i64::from(count),
            3,
        ));
    }
    let num_vectors = num_values.div_ceil(vector_size);
    // The offsets are 4 bytes a vector: checked against the input before anything is read.
    let offsets = c.take(num_vectors.saturating_mul(4), "ALP offset array")?;
    let mut left = num_values;
    let mut deltas: Vec<u64> = Vec::new();
    for (i, off) in offsets.chunks_exact(4).enumerate() {
        let off = u32::from_le_bytes([off[0], off[1], off[2], off[3]]);
        // No padding between vectors: each starts where the one before ended.
        if u64::from(off) != (c.position() - HEADER_LEN) as u64 {
            return Err(bad(
                "ALP vector offset (not where the last vector ends)",
                i64::from(off),
                (HEADER_LEN + 4 * i) as u64,
            ));
        }
        let len = left.min(vector_size);
        left -= len;
        let v = read_vector(&mut c, len, w)?;
        // Every section is in the input: the vector's values may be allocated now.
        deltas.clear();
        deltas.resize(len, 0);
        bitpack::unpack64(v.packed, v.bit_width, &mut deltas);
        each(&v, &deltas);
    }
    Ok(c.position())
}

/// Reads one vector of `len` values at the cursor.
fn read_vector<'a>(c: &mut Cursor<'a>, len: usize, w: Width) -> Result<Vector<'a>> {
    let at = c.position() as u64;
    // AlpInfo and ForInfo: 9 bytes for FLOAT, 13 for DOUBLE.
    let head = c.take(5 + w.bytes, "ALP vector header")?;
    let mut h = [0u8; 14];
    h[..head.len()].copy_from_slice(head);
    let (e, f) = (h[0], h[1]);
    if e > w.max_exponent {
        return Err(bad("ALP exponent", i64::from(e), at));
    }
    if f > e {
        return Err(bad("ALP factor (above the exponent)", i64::from(f), at + 1));
    }
    let num_exceptions = usize::from(u16::from_le_bytes([h[2], h[3]]));
    if num_exceptions > len {
        return Err(bad(
            "ALP num_exceptions (above the vector's length)",
            num_exceptions as i64,
            at + 2,
        ));
    }
    let mut frame = [0u8; 8];
    frame.copy_from_slice(&h[4..12]);
    let frame = if w.bytes == 4 {
        i64::from(i32::from_le_bytes([h[4], h[5], h[6], h[7]]))
    } else {
        i64::from_le_bytes(frame)
    };
    let bit_width = h[4 + w.bytes];
    if bit_width > w.max_bit_width {
        return Err(bad(
            "ALP bit_width",
            i64::from(bit_width),
            at + 4 + w.bytes as u64,
        ));
    }
    let bit_width = u32::from(bit_width);
    let packed = c.take(bitpack::packed_len(len, bit_width), "ALP packed values")?;
    let positions_at = c.position();
    let positions = c.take(2 * num_exceptions, "ALP exception positions")?;
    for (j, p) in positions.chunks_exact(2).enumerate() {
        let pos = u16::from_le_bytes([p[0], p[1]]);
        if usize::from(pos) >= len {
            return Err(bad(
                "ALP exception position (past the vector)",
                i64::from(pos),
                (positions_at + 2 * j) as u64,
            ));
        }
    }
    let values = c.take(w.bytes * num_exceptions, "ALP exception values")?;
    Ok(Vector {
        e: usize::from(e),
        f: usize::from(f),
        frame,
        bit_width,
        packed,
        positions,
        values,
    })
}

/// Appends a checked vector's values: add the frame to the unpacked deltas, scale, patch the
/// exceptions.
fn emit<T: AlpFloat>(v: &Vector<'_>, deltas: &[u64], out: &mut Vec<T>) {
    let base = out.len();
    let (e, f, frame) = (v.e, v.f, v.frame);
    out.extend(
        deltas
            .iter()
            .map(|&d| T::decode(T::reconstruct(d, frame), e, f)),
    );
    for (p, x) in v
        .positions
        .chunks_exact(2)
        .zip(v.values.chunks_exact(T::BYTES))
    {
        // Positions were checked against the vector's length.
        if let Some(slot) = out.get_mut(base + usize::from(u16::from_le_bytes([p[0], p[1]]))) {
            *slot = T::from_le(x);
        }
    }
}

/// An out-of-range field at `at` (one call site per check, not one error build).
#[cold]
#[inline(never)]
fn bad(what: &'static str, value: i64, at: u64) -> Error {
    Error::out_of_range(what, value).at_offset(at)
}

// ------------------------------------------------------------------------------------------
// Encoding

/// Values sampled from a vector to rank `(e, f)` pairs (the spec's "Sample Size").
const SAMPLE_SIZE: usize = 256;
/// Pairs kept in a page's preset (the spec's "Max Combinations").
const MAX_COMBINATIONS: usize = 5;
/// Vectors sampled per page to build the preset, at most (the spec's "Sample Vectors").
const SAMPLE_VECTORS: usize = 8;
/// One vector in this many is sampled for the preset.
const PRESET_VECTOR_STRIDE: usize = 4;
/// Values of a sampled vector tried against every pair for the preset.
const PRESET_SAMPLE_SIZE: usize = 64;

/// Appends the ALP page data of `values` (FLOAT or DOUBLE) to `out`, in vectors of
/// 2^[`LOG_VECTOR_SIZE`] values.
///
/// Lossless: every value that does not decode back bit for bit (NaN of any payload,
/// infinities, `-0.0`, values with too many digits) is stored as an exception.
///
/// ```
/// use parket::encoding::alp;
/// use parket::values::{Values, ValuesRef};
/// let fares = [7.5, 12.25, -0.0, f64::NAN, 19.99];
/// let mut bytes = Vec::new();
/// alp::encode(ValuesRef::Double(&fares), &mut bytes).unwrap();
/// let mut back = Values::Double(Vec::new());
/// alp::decode(&bytes, fares.len(), &mut back).unwrap();
/// assert!(back.bit_eq(&Values::Double(fares.to_vec())));
/// ```
pub fn encode(values: ValuesRef<'_>, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ValuesRef::Double(v) => encode_typed(v, out),
        ValuesRef::Float(v) => encode_typed(v, out),
        _ => Err(Error::unsupported(
            "ALP for a type other than FLOAT or DOUBLE",
        )),
    }
}

fn encode_typed<T: AlpFloat>(values: &[T], out: &mut Vec<u8>) -> Result<()> {
    let count = i32::try_from(values.len())
        .map_err(|_| Error::invalid_argument("ALP page of more than 2^31 - 1 values"))?;
    let vector_size = 1usize << LOG_VECTOR_SIZE;
    out.extend_from_slice(&[0, 0, LOG_VECTOR_SIZE]);
    out.extend_from_slice(&count.to_le_bytes());
    let num_vectors = values.len().div_ceil(vector_size);
    let offsets_at = out.len();
    out.resize(offsets_at + 4 * num_vectors, 0);
    let preset = preset(values, vector_size);
    let mut scratch = Scratch::default();
    for (i, vector) in values.chunks(vector_size).enumerate() {
        let offset = (out.len() - offsets_at) as u32;
        let slot = offsets_at + 4 * i;
        out[slot..slot + 4].copy_from_slice(&offset.to_le_bytes());
        let (e, f) = choose(vector, &preset);
        encode_vector(vector, e, f, &mut scratch, out);
    }
    Ok(())
}

/// Buffers reused from vector to vector.
#[derive(Default)]
struct Scratch {
    encoded: Vec<i64>,
    deltas: Vec<u64>,
    positions: Vec<u16>,
}

/// Writes one vector with `(e, f)`.
fn encode_vector<T: AlpFloat>(v: &[T], e: u8, f: u8, s: &mut Scratch, out: &mut Vec<u8>) {
    let (eu, fu) = (usize::from(e), usize::from(f));
    s.encoded.clear();
    s.positions.clear();
    let mut placeholder = None;
    for (i, &x) in v.iter().enumerate() {
        match exact(x, eu, fu) {
            Some(n) => {
                placeholder.get_or_insert(n);
                s.encoded.push(n);
            }
            None => {
                // A vector holds at most 2^15 values: the position fits.
                s.positions.push(i as u16);
                s.encoded.push(i64::MIN); // replaced below
            }
        }
    }
    let placeholder = placeholder.unwrap_or(0);
    for &p in &s.positions {
        s.encoded[usize::from(p)] = placeholder;
    }
    let min = s.encoded.iter().copied().min().unwrap_or(0);
    let max = s.encoded.iter().copied().max().unwrap_or(0);
    let bit_width = 64 - (max.wrapping_sub(min) as u64).leading_zeros();
    s.deltas.clear();
    s.deltas
        .extend(s.encoded.iter().map(|&n| n.wrapping_sub(min) as u64));
    out.extend_from_slice(&[e, f]);
    out.extend_from_slice(&(s.positions.len() as u16).to_le_bytes());
    if T::BYTES == 4 {
        out.extend_from_slice(&(min as i32).to_le_bytes());
    } else {
        out.extend_from_slice(&min.to_le_bytes());
    }
    out.push(bit_width as u8);
    bitpack::pack64(&s.deltas, bit_width, out);
    for &p in &s.positions {
        out.extend_from_slice(&p.to_le_bytes());
    }
    for &p in &s.positions {
        v[usize::from(p)].put_le(out);
    }
}

/// Up to `SAMPLE_SIZE` values of `v`, evenly spaced.
fn sample<T: Copy>(v: &[T]) -> impl Iterator<Item = T> + '_ {
    let step = v.len().div_ceil(SAMPLE_SIZE).max(1);
    v.iter().step_by(step).copied()
}

/// Estimated bits of `v` stored with `(e, f)`: packed deltas plus exceptions; `u64::MAX` as
/// soon as the exceptions alone cost more than `bound` (a pair that cannot win).
fn estimate<T: AlpFloat>(v: impl Iterator<Item = T>, e: u8, f: u8, bound: u64) -> u64 {
    let (e, f) = (usize::from(e), usize::from(f));
    let exception_bits = 16 + 8 * T::BYTES as u64;
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    let (mut n, mut exceptions) = (0u64, 0u64);
    for x in v {
        n += 1;
        match exact(x, e, f) {
            Some(i) => {
                min = min.min(i);
                max = max.max(i);
            }
            None => {
                exceptions += exception_bits;
                if exceptions > bound {
                    return u64::MAX;
                }
            }
        }
    }
    let width = if min > max {
        0
    } else {
        u64::from(64 - (max.wrapping_sub(min) as u64).leading_zeros())
    };
    (n * width).saturating_add(exceptions)
}

/// The page's preset: the pairs that make the most sampled vectors smallest, then the pairs
/// with the fewest estimated bits over all sampled vectors (ties: larger exponent, then larger
/// factor), at most `MAX_COMBINATIONS`.
///
/// The spec suggests sampling 8 vectors per row group; the encoder sees a page at a time (a
/// few vectors when pages hold 20,000 values), so it samples at most one vector in
/// `PRESET_VECTOR_STRIDE`, and `PRESET_SAMPLE_SIZE` values of each, to keep the search (all
/// 66 or 190 pairs) to a few trials per value. Runners-up stay in the preset, so that
/// [`choose`], which looks at more of each vector, can correct a small sample's verdict.
fn preset<T: AlpFloat>(values: &[T], vector_size: usize) -> Vec<(u8, u8)> {
    let num_vectors = values.len().div_ceil(vector_size);
    let sampled = num_vectors
        .div_ceil(PRESET_VECTOR_STRIDE)
        .clamp(1, SAMPLE_VECTORS);
    let step = num_vectors.div_ceil(sampled).max(1);
    // (wins, estimated bits summed, e, f) per pair, in increasing e and f.
    let mut score: Vec<(u32, u64, u8, u8)> = Vec::new();
    for e in 0..=T::MAX_EXPONENT {
        for f in 0..=e {
            score.push((0, 0, e, f));
        }
    }
    for vector in values.chunks(vector_size).step_by(step) {
        let stride = vector.len().div_ceil(PRESET_SAMPLE_SIZE).max(1);
        let mut best: Option<(u64, usize)> = None;
        for (k, s) in score.iter_mut().enumerate() {
            let bound = best.map_or(u64::MAX, |b| b.0);
            let bits = estimate(vector.iter().step_by(stride).copied(), s.2, s.3, bound);
            s.1 = s.1.saturating_add(bits);
            // Later pairs have larger e (and f): prefer them on a tie.
            if bits != u64::MAX && bits <= bound {
                best = Some((bits, k));
            }
        }
        if let Some((_, k)) = best {
            score[k].0 += 1;
        }
    }
    score.retain(|s| s.0 > 0 || s.1 != u64::MAX);
    score.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.cmp(&b.1))
            .then(b.2.cmp(&a.2))
            .then(b.3.cmp(&a.3))
    });
    score.truncate(MAX_COMBINATIONS);
    score.into_iter().map(|s| (s.2, s.3)).collect()
}

/// The preset pair that makes `vector`'s sample smallest (`(0, 0)` for an empty preset).
fn choose<T: AlpFloat>(vector: &[T], preset: &[(u8, u8)]) -> (u8, u8) {
    match preset {
        [] => (0, 0),
        [one] => *one,
        _ => {
            let mut best = (u64::MAX, preset[0]);
            for &(e, f) in preset {
                let bits = estimate(sample(vector), e, f, best.0);
                if bits < best.0 {
                    best = (bits, (e, f));
                }
            }
            best.1
        }
    }
}

// ------------------------------------------------------------------------------------------
// Fuzzing

/// Fuzz harness (see `fuzz/README.md`): `data[0]` bit 0 picks FLOAT (0) or DOUBLE (1); bit 1
/// set takes the value count from `data[0] >> 2`, clear from the header's `num_elements`
/// (when it is at most 2^20); the rest is the ALP page data. Panics only when the contract
/// breaks: a panic in the decoder, output left behind by an error, bytes consumed past the
/// input, or values that do not come back bit for bit through [`encode`] and [`decode`].
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn fuzz_decode(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let n = if sel & 2 != 0 {
        usize::from(sel >> 2)
    } else {
        match rest.get(3..7) {
            Some(b) => match usize::try_from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])) {
                Ok(n) if n <= 1 << 20 => n,
                _ => 0,
            },
            None => 0,
        }
    };
    let mut out = if sel & 1 == 0 {
        Values::Float(Vec::new())
    } else {
        Values::Double(Vec::new())
    };
    match decode(rest, n, &mut out) {
        Ok(consumed) => {
            assert!(consumed <= rest.len());
            assert_eq!(out.len(), n);
            let mut again = Vec::new();
            encode(out.as_ref(), &mut again).expect("FLOAT or DOUBLE");
            let mut back = match out {
                Values::Float(_) => Values::Float(Vec::new()),
                _ => Values::Double(Vec::new()),
            };
            let used = decode(&again, n, &mut back).expect("the encoder's own output decodes");
            assert_eq!(used, again.len());
            assert!(back.bit_eq(&out), "ALP round trip changed a value");
        }
        Err(_) => assert_eq!(out.len(), 0, "an error left values behind"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    /// The spec's worked example (AlpEncoding.md, "Worked Example: Exceptions and Non-Zero
    /// Factor"), its 31-byte vector worked by hand, behind the page header and the offset.
    const SPEC_PAGE: [u8; 42] = [
        0x00, 0x00, 0x0a, 0x04, 0x00, 0x00, 0x00, // header
        0x04, 0x00, 0x00, 0x00, // offset of vector 0
        0x04, 0x03, 0x01, 0x00, // AlpInfo: e = 4, f = 3, 1 exception
        0x07, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0f, // ForInfo: 3335, 15 bits
        0x91, 0xad, 0xc8, 0x56, 0x28, 0x15, 0x00, 0x00, // 11665 11665 21665 0
        0x01, 0x00, // exception position 1
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x7f, // NaN
    ];

    fn spec_values() -> Vec<f64> {
        vec![1500.0, f64::from_bits(0x7ff8_0000_0000_0000), 2500.0, 333.5]
    }

    fn dec_f64(bytes: &[u8], n: usize) -> Result<Vec<f64>> {
        let mut out = Values::Double(Vec::new());
        decode(bytes, n, &mut out)?;
        match out {
            Values::Double(v) => Ok(v),
            _ => unreachable!(),
        }
    }

    fn dec_f32(bytes: &[u8], n: usize) -> Result<Vec<f32>> {
        let mut out = Values::Float(Vec::new());
        decode(bytes, n, &mut out)?;
        match out {
            Values::Float(v) => Ok(v),
            _ => unreachable!(),
        }
    }

    fn bits64(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    fn bits32(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn spec_worked_example_decodes() {
        // The vector is the spec's 31 bytes.
        assert_eq!(SPEC_PAGE.len() - HEADER_LEN - 4, 31);
        let got = dec_f64(&SPEC_PAGE, 4).unwrap();
        assert_eq!(bits64(&got), bits64(&spec_values()));
    }

    #[test]
    fn spec_worked_example_encodes_with_e4_f3() {
        // The encoder, told the spec's (e, f), writes the spec's vector byte for byte.
        let mut out = Vec::new();
        encode_vector(&spec_values(), 4, 3, &mut Scratch::default(), &mut out);
        assert_eq!(out, SPEC_PAGE[11..]);
    }

    #[test]
    fn spec_for_example_packs_in_five_bytes() {
        // "Example: Frame of Reference and Bit-Packing": 123 456 789 12 -> FOR 12, deltas
        // 111 444 777 0 at 10 bits = 5 bytes; e = f = 0 so the integers are the values.
        let mut out = Vec::new();
        let v = [123.0f32, 456.0, 789.0, 12.0];
        encode_vector(&v, 0, 0, &mut Scratch::default(), &mut out);
        // 111 | 444 << 10 | 777 << 20 | 0 << 30 = 0x3090_6f, 40 bits.
        let packed = 111u64 | 444 << 10 | 777 << 20;
        let mut want = vec![0, 0, 0, 0, 12, 0, 0, 0, 10];
        want.extend_from_slice(&packed.to_le_bytes()[..5]);
        assert_eq!(out, want);
        let mut page = vec![0, 0, 3, 4, 0, 0, 0, 4, 0, 0, 0];
        page.extend_from_slice(&out);
        assert_eq!(bits32(&dec_f32(&page, 4).unwrap()), bits32(&v));
    }

    #[test]
    fn float_hand_worked() {
        // 0.25 and 1.5 with e = 2, f = 0: integers 25 and 150, FOR 25, deltas 0 and 125 in 7
        // bits: 125 << 7 = 0x3e80.
        let page = [
            0, 0, 3, 2, 0, 0, 0, // header: vectors of 8, 2 values
            4, 0, 0, 0, // offset
            2, 0, 0, 0, // e = 2, f = 0, no exceptions
            25, 0, 0, 0, 7, // FOR 25, 7 bits
            0x80, 0x3e,
        ];
        assert_eq!(dec_f32(&page, 2).unwrap(), [0.25, 1.5]);
    }

    #[test]
    fn bit_width_zero_and_several_vectors() {
        // Vectors of 8: 10 values = 8 + 2. Vector 0 all 7.0 (width 0), vector 1 -1.0 and
        // an exception -0.0 at position 1.
        let mut page = vec![0, 0, 3, 10, 0, 0, 0, 8, 0, 0, 0, 21, 0, 0, 0];
        page.extend_from_slice(&[0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0]); // 13 bytes
        page.extend_from_slice(&[0, 0, 1, 0]);
        page.extend_from_slice(&(-1i64).to_le_bytes());
        page.extend_from_slice(&[0, 1, 0]); // width 0, position 1
        page.extend_from_slice(&(-0.0f64).to_le_bytes());
        let got = dec_f64(&page, 10).unwrap();
        let mut want = vec![7.0; 8];
        want.extend_from_slice(&[-1.0, -0.0]);
        assert_eq!(bits64(&got), bits64(&want));
    }

    #[test]
    fn for_wraps_in_the_type_width() {
        // FLOAT: FOR i32::MIN and a delta of 2^32 - 1 reach i32::MAX (no overflow).
        let mut page = vec![0, 0, 3, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
        page.extend_from_slice(&i32::MIN.to_le_bytes());
        page.push(32);
        page.extend_from_slice(&0u32.to_le_bytes());
        page.extend_from_slice(&u32::MAX.to_le_bytes());
        let got = dec_f32(&page, 2).unwrap();
        assert_eq!(got, [i32::MIN as f32, i32::MAX as f32]);
        // DOUBLE: FOR i64::MIN, delta u64::MAX at width 64.
        let mut page = vec![0, 0, 3, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
        page.extend_from_slice(&i64::MIN.to_le_bytes());
        page.push(64);
        page.extend_from_slice(&0u64.to_le_bytes());
        page.extend_from_slice(&u64::MAX.to_le_bytes());
        let got = dec_f64(&page, 2).unwrap();
        assert_eq!(got, [i64::MIN as f64, i64::MAX as f64]);
    }

    #[test]
    fn empty_page() {
        let page = [0, 0, 10, 0, 0, 0, 0];
        assert_eq!(dec_f64(&page, 0).unwrap(), []);
        let mut out = Vec::new();
        encode(ValuesRef::Double(&[]), &mut out).unwrap();
        assert_eq!(out, page);
    }

    fn err(bytes: &[u8], n: usize) -> String {
        let mut out = Values::Double(vec![1.0]);
        let e = decode(bytes, n, &mut out).unwrap_err();
        assert_eq!(out.len(), 1, "error left output");
        e.to_string()
    }

    #[test]
    fn hostile_headers_are_located_errors() {
        let p = &SPEC_PAGE;
        let with = |at: usize, b: u8| {
            let mut q = p.to_vec();
            q[at] = b;
            q
        };
        assert!(err(&with(0, 1), 4).contains("compression_mode"));
        assert!(err(&with(1, 1), 4).contains("integer_encoding"));
        let e = err(&with(2, 16), 4);
        assert!(
            e.contains("log_vector_size") && e.contains("byte offset 2"),
            "{e}"
        );
        assert!(err(&with(2, 2), 4).contains("log_vector_size"));
        assert!(err(p, 5).contains("num_elements"));
        let e = err(&with(7, 5), 4);
        assert!(
            e.contains("vector offset") && e.contains("byte offset 7"),
            "{e}"
        );
        let e = err(&with(11, 19), 4);
        assert!(
            e.contains("exponent") && e.contains("byte offset 11"),
            "{e}"
        );
        assert!(err(&with(12, 5), 4).contains("factor"));
        assert!(err(&with(13, 5), 4).contains("num_exceptions"));
        assert!(err(&with(23, 65), 4).contains("bit_width"));
        let e = err(&with(32, 4), 4);
        assert!(
            e.contains("exception position") && e.contains("byte offset 32"),
            "{e}"
        );
        for cut in 0..p.len() {
            let e = err(&p[..cut], 4);
            assert!(e.contains("truncated"), "{cut}: {e}");
        }
        // A huge count needs its offsets in the input first.
        let e = err(&[0, 0, 3, 0xff, 0xff, 0xff, 0x7f], i32::MAX as usize);
        assert!(e.contains("offset array"), "{e}");
        // Other types.
        let mut out = Values::Int32(vec![]);
        assert!(decode(p, 4, &mut out).is_err());
        assert!(encode(ValuesRef::Int64(&[1]), &mut Vec::new()).is_err());
    }

    #[test]
    fn float_limits() {
        // FLOAT: exponent 11 and bit width 33 are out of range.
        let page = [0, 0, 3, 1, 0, 0, 0, 4, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0];
        let mut out = Values::Float(vec![]);
        assert!(decode(&page, 1, &mut out)
            .unwrap_err()
            .to_string()
            .contains("exponent"));
        let page = [
            0, 0, 3, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 33, 0, 0, 0, 0, 0,
        ];
        assert!(decode(&page, 1, &mut out)
            .unwrap_err()
            .to_string()
            .contains("bit_width"));
    }

    fn rt64(v: &[f64]) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode(ValuesRef::Double(v), &mut bytes).unwrap();
        let got = dec_f64(&bytes, v.len()).unwrap();
        assert_eq!(bits64(&got), bits64(v));
        bytes
    }

    fn rt32(v: &[f32]) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode(ValuesRef::Float(v), &mut bytes).unwrap();
        let got = dec_f32(&bytes, v.len()).unwrap();
        assert_eq!(bits32(&got), bits32(v));
        bytes
    }

    #[test]
    fn special_values_round_trip() {
        let d = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::from_bits(0x7ff0_0000_0000_0001), // signalling NaN
            f64::from_bits(0xfff8_dead_beef_0001), // negative quiet NaN with a payload
            f64::MIN_POSITIVE,
            f64::from_bits(1), // smallest subnormal
            -f64::from_bits(0x000f_ffff_ffff_ffff),
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            9_223_372_036_854_774_784.0, // the largest double below 2^63
            -9.223_372_036_854_776e18,   // -2^63
            4503599627370496.5,
            1e-18,
            0.1,
            1.0 / 3.0,
        ];
        rt64(&d);
        let f = [
            0.0f32,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xffc0_1234),
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            2147483648.0,
            -2147483648.0,
            0.1,
            1.0 / 3.0,
        ];
        rt32(&f);
        // All exceptions, in several vectors.
        let many: Vec<f64> = (0..3000)
            .map(|i| f64::from_bits(0x7ff8_0000_0000_0000 | i))
            .collect();
        rt64(&many);
    }

    #[test]
    fn decimal_data_compresses() {
        // Prices with two decimals: 1024 values fit in far fewer than 8 bytes each.
        let v: Vec<f64> = (0..4096).map(|i| (i * 37 % 5000) as f64 / 100.0).collect();
        let bytes = rt64(&v);
        assert!(bytes.len() < v.len() * 2, "{} bytes", bytes.len());
        // Every vector's exponent should give integers: no exceptions in the first vector.
        assert_eq!(&bytes[HEADER_LEN + 16 + 2..HEADER_LEN + 16 + 4], [0, 0]);
        // FLOAT tenths: only e = 6 decodes every one of them (0.1f32 is not a tenth), and
        // (6, 5) makes them the integers 0..=999: 10 bits a value.
        let f: Vec<f32> = (0..3000).map(|i| (i % 1000) as f32 / 10.0).collect();
        let bytes = rt32(&f);
        assert!(bytes.len() < f.len() * 11 / 8 + 64, "{} bytes", bytes.len());
    }

    proptest! {
        #[test]
        fn any_doubles_round_trip(v in proptest::collection::vec(any::<u64>(), 0..2100)) {
            let v: Vec<f64> = v.into_iter().map(f64::from_bits).collect();
            rt64(&v);
        }

        #[test]
        fn any_floats_round_trip(v in proptest::collection::vec(any::<u32>(), 0..2100)) {
            let v: Vec<f32> = v.into_iter().map(f32::from_bits).collect();
            rt32(&v);
        }

        #[test]
        fn decimals_round_trip(
            v in proptest::collection::vec((any::<i32>(), 0u32..12, any::<bool>()), 0..1500)
        ) {
            // Decimal-like values with mixed scales, some NaN / -0.0 sprinkled in.
            let d: Vec<f64> = v.iter().map(|&(m, s, odd)| {
                if odd && m % 7 == 0 { -0.0 } else { m as f64 / F64_POW10[s as usize] }
            }).collect();
            rt64(&d);
            let f: Vec<f32> = v.iter().map(|&(m, s, _)| (m % 100_000) as f32 / F32_POW10[(s % 6) as usize]).collect();
            rt32(&f);
        }

        #[test]
        fn hostile_bytes_never_panic(sel in any::<u8>(), data in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut input = vec![sel];
            input.extend_from_slice(&data);
            fuzz_decode(&input);
            // And mutations of a valid page.
            let mut page = SPEC_PAGE.to_vec();
            for (i, b) in data.iter().enumerate().take(8) {
                let at = usize::from(*b) % page.len();
                page[at] ^= (i as u8).wrapping_mul(37) | 1;
            }
            let mut input = vec![1u8];
            input.extend_from_slice(&page);
            fuzz_decode(&input);
        }
    }
}

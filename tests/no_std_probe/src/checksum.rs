//! A checksum of every value of a Parquet file, written against parket's no_std API only
//! (`core`, `alloc` and `FileReader::from_bytes`): the no_std probe links it into a bare-metal
//! binary, `examples/no_std_checksum.rs` runs it with parket built without `std`, and
//! `tests/no_std_reader.rs` compares it with the same sum taken through the std reader.
//!
//! The sum is FNV-1a (64 bit) over, for each row group and each leaf column in order: the
//! number of definition and repetition levels and the levels, then the non-null values (floats
//! by their bits, byte arrays with their lengths). It depends only on the values, not on how
//! they were split into pages or batches.

use parket::levels::LeafData;
use parket::read::FileReader;
use parket::values::ValuesRef;

/// FNV-1a, 64 bit.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv {
    /// The FNV-1a offset basis.
    pub fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Folds `bytes` in.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Folds in a count, as 8 little-endian bytes.
    pub fn count(&mut self, n: usize) {
        self.bytes(&(n as u64).to_le_bytes());
    }

    /// The sum so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// Folds one column chunk's levels and values into `h`.
pub fn leaf(h: &mut Fnv, data: &LeafData) {
    h.count(data.def_levels.len());
    for l in &data.def_levels {
        h.bytes(&l.to_le_bytes());
    }
    h.count(data.rep_levels.len());
    for l in &data.rep_levels {
        h.bytes(&l.to_le_bytes());
    }
    let values = data.values.as_ref();
    h.count(values.len());
    match values {
        ValuesRef::Boolean(v) => v.iter().for_each(|&b| h.bytes(&[b as u8])),
        ValuesRef::Int32(v) => v.iter().for_each(|x| h.bytes(&x.to_le_bytes())),
        ValuesRef::Int64(v) => v.iter().for_each(|x| h.bytes(&x.to_le_bytes())),
        ValuesRef::Int96(v) => v.iter().for_each(|x| h.bytes(x)),
        ValuesRef::Float(v) => v.iter().for_each(|x| h.bytes(&x.to_bits().to_le_bytes())),
        ValuesRef::Double(v) => v.iter().for_each(|x| h.bytes(&x.to_bits().to_le_bytes())),
        ValuesRef::ByteArray(v) => v.iter().for_each(|x| {
            h.count(x.len());
            h.bytes(x);
        }),
        ValuesRef::FixedLenByteArray(v) => {
            h.count(v.width());
            h.bytes(v.data());
        }
    }
}

/// The checksum of every value of the file held in `bytes`, read with
/// [`FileReader::from_bytes`].
pub fn checksum(bytes: &[u8]) -> parket::Result<u64> {
    let file = FileReader::from_bytes(bytes)?;
    let mut h = Fnv::new();
    for row_group in 0..file.num_row_groups() {
        for column in 0..file.schema().columns().len() {
            leaf(&mut h, &file.column_chunk(row_group, column)?.read_all()?);
        }
    }
    Ok(h.finish())
}

//! IEEE 754 half precision (binary16), the bytes of Parquet's FLOAT16 logical type (a
//! 2-byte FIXED_LEN_BYTE_ARRAY, little endian): the one conversion to and from `f32` that the
//! statistics, the typed values and the JSON form share.
//!
//! `00 3c` is 1.0 (sign 0, exponent 15, mantissa 0), `00 c0` is -2.0:
//!
//! ```
//! use parket::bytes::float16::{f16_to_f32, f32_to_f16};
//! assert_eq!(f16_to_f32(u16::from_le_bytes([0x00, 0x3c])), 1.0);
//! assert_eq!(f32_to_f16(-2.0).to_le_bytes(), [0x00, 0xc0]);
//! ```

/// IEEE 754 half precision to single: exact (subnormals, infinities, NaN payloads kept).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    match exp {
        0 => {
            // Subnormal or zero: mant x 2^-24, exact in f32.
            let v = mant as f32 * f32::from_bits(0x3380_0000); // 2^-24
            f32::from_bits(v.to_bits() | sign)
        }
        31 => f32::from_bits(sign | 0x7f80_0000 | (mant << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (mant << 13)),
    }
}

/// Single to half precision, rounding to nearest, ties to even (overflow to infinity; a NaN
/// stays a NaN with the top of its payload).
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        if mant == 0 {
            return sign | 0x7c00;
        }
        let m = (mant >> 13) as u16;
        return sign | 0x7c00 | if m == 0 { 0x200 } else { m };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    let round = |v: u32, shift: u32, rem: u32| -> u32 {
        let half = 1u32 << (shift - 1);
        if rem > half || (rem == half && v & 1 == 1) {
            v + 1
        } else {
            v
        }
    };
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let v = m >> shift;
        let rem = m & ((1 << shift) - 1);
        return sign | round(v, shift, rem) as u16;
    }
    let v = ((e as u32) << 10) | (mant >> 13);
    sign | round(v, 13, mant & 0x1fff) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float16() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8); // 2^-24
        assert_eq!(f16_to_f32(0x03ff), 1023.0 * f32::powi(2.0, -24)); // largest subnormal: 1023 x 2^-24
        assert_eq!(f16_to_f32(0x8000).to_bits(), 0x8000_0000);
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        // Every half round-trips through f32.
        for h in 0..=u16::MAX {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#06x}");
        }
        // Rounding: 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
        assert_eq!(f32_to_f16(1.0 + f32::powi(2.0, -11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * f32::powi(2.0, -11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(f32::powi(2.0, -25)), 0x0000);
        assert_eq!(f32_to_f16(f32::powi(2.0, -25) * 1.5), 0x0001);
    }
}

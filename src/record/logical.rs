//! The logical view of a leaf value: what its physical value means under the column's
//! annotation (LogicalTypes.md), with the text forms that `parket cat --json` prints and
//! `parket write` reads back (the JSON row contract).
//!
//! It stays in the core, not behind the `cli` feature: [`crate::predicate`] binds a text literal
//! (`"2009-01-01"` against a DATE column, `"-12.50"` against a DECIMAL) with the parsers here,
//! and [`crate::record::variant`] widens decimals with [`sign_extend`]. What a program does not
//! call is not linked (the size probe carries none of it).
//!
//! | annotation (physical)              | [`Logical`]           | text                          |
//! |------------------------------------|-----------------------|-------------------------------|
//! | none, INT(bits, true) (INT32/64)   | `Int`                 |                               |
//! | INT(bits, false), UINT_* (INT32/64)| `UInt` (same bits)    |                               |
//! | DECIMAL(p, s) (INT32, INT64, FLBA, BYTE_ARRAY) | `Text`    | `"-12.50"`: exactly s digits after the point |
//! | DATE (INT32)                       | `Text`                | `"2009-01-01"`, `"+290000-01-01"`, `"-0001-12-31"` |
//! | TIME(unit) (INT32 / INT64)         | `Text`                | `"13:45:00.250"` (3, 6 or 9 digits) |
//! | TIMESTAMP(unit, utc) (INT64)       | `Text`                | `"2009-01-01T00:00:00.000Z"` (`Z` when UTC) |
//! | INT96                              | `Text`                | as TIMESTAMP(NANOS, false)    |
//! | UUID (FLBA(16))                    | `Text`                | lower-case hyphenated         |
//! | FLOAT16 (FLBA(2))                  | `Float` (exact widening) |                            |
//! | INTERVAL (FLBA(12))                | `Interval`            | three little-endian u32       |
//! | STRING, ENUM, JSON                 | `Str` (UTF-8 checked) |                               |
//! | other BYTE_ARRAY / FLBA            | `Binary`              | base64 with padding           |
//! | UNKNOWN                            | `Null`                |                               |
//!
//! Worked examples (hand-computed; each is a test below):
//!
//! ```text
//! DATE -719162              1970-01-01 minus 719162 days      "0001-01-01"
//! DATE 2932896                                                "9999-12-31"
//! DECIMAL(5, 2) INT32 -1250                                   "-12.50"
//! DECIMAL(38, 10) FLBA(16) ff ff ff ff ff ff ff ff            -1 unscaled: "-0.0000000001"
//!                          ff ff ff ff ff ff ff ff
//! INT96 00 00 00 00 00 00 00 00 | 8c 3d 25 00                  Julian day 2440588 + 0 ns:
//!       (nanos of day, LE i64)  | (Julian day, LE i32)         "1970-01-01T00:00:00.000000000"
//! FLOAT16 0x0001                2^-24 (smallest subnormal)    5.9604645e-08
//! ```
//!
//! Dates use the proleptic Gregorian calendar on `i64` days (Howard Hinnant's
//! `civil_from_days` / `days_from_civil`), so no value overflows. Decimals of any length are
//! rendered and parsed with integer arithmetic only (long division by 10^9 on the big-endian
//! bytes), never through floats.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

pub use crate::bytes::float16::{f16_to_f32, f32_to_f16};
use crate::error::{Error, Result};
use crate::format::{ConvertedType, LogicalType, PhysicalType, TimeUnit};
use crate::record::Value;
use crate::schema::ColumnDescriptor;

/// What a leaf value means, per the JSON row contract.
#[derive(Debug, Clone, PartialEq)]
pub enum Logical<'a> {
    /// Null (a null value, or the UNKNOWN logical type).
    Null,
    /// BOOLEAN.
    Boolean(bool),
    /// A signed integer (INT32 / INT64 without annotation or with INT(bits, true)).
    Int(i64),
    /// An unsigned integer (INT(bits, false) / UINT_*): the stored bits read as unsigned.
    UInt(u64),
    /// FLOAT, or FLOAT16 widened exactly.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// STRING, ENUM, JSON: valid UTF-8.
    Str(&'a str),
    /// A value printed as a JSON string: DECIMAL, DATE, TIME, TIMESTAMP, INT96, UUID.
    Text(String),
    /// INTERVAL.
    Interval {
        /// Months.
        months: u32,
        /// Days.
        days: u32,
        /// Milliseconds.
        millis: u32,
    },
    /// Any other byte array (printed as base64).
    Binary(&'a [u8]),
}

fn mismatch() -> Error {
    Error::invalid_argument("a record value does not match its column's physical type")
}

/// The logical interpretation of leaf `value` of `column` (see the module table).
///
/// Errors: a value whose variant does not match the column's physical type; invalid UTF-8 in
/// a STRING / ENUM / JSON value; a TIME outside 00:00 to 24:00; INT96 nanoseconds of the day
/// outside [0, 86400 x 10^9); a value whose width does not fit its annotation.
pub fn logical_value<'a>(value: &'a Value, column: &ColumnDescriptor) -> Result<Logical<'a>> {
    if value.is_null() {
        return Ok(Logical::Null);
    }
    let p = column.physical_type;
    let lt = column.logical_type.as_ref();
    if lt == Some(&LogicalType::Unknown) {
        return Ok(Logical::Null);
    }
    Ok(match (value, lt) {
        (Value::Boolean(b), _) if p == PhysicalType::Boolean => Logical::Boolean(*b),
        (Value::Float(x), _) if p == PhysicalType::Float => Logical::Float(*x),
        (Value::Double(x), _) if p == PhysicalType::Double => Logical::Double(*x),
        (Value::Int96(b), _) if p == PhysicalType::Int96 => Logical::Text(int96_to_string(b)?),
        (Value::Int32(v), lt) if p == PhysicalType::Int32 => match lt {
            Some(LogicalType::Integer {
                is_signed: false, ..
            }) => Logical::UInt(u64::from(*v as u32)),
            Some(LogicalType::Decimal { scale, .. }) => {
                Logical::Text(decimal_to_string(&v.to_be_bytes(), *scale)?)
            }
            Some(LogicalType::Date) => Logical::Text(date_to_string(i64::from(*v))),
            Some(LogicalType::Time { unit, .. }) => {
                Logical::Text(time_to_string(i64::from(*v), *unit)?)
            }
            _ => Logical::Int(i64::from(*v)),
        },
        (Value::Int64(v), lt) if p == PhysicalType::Int64 => match lt {
            Some(LogicalType::Integer {
                is_signed: false, ..
            }) => Logical::UInt(*v as u64),
            Some(LogicalType::Decimal { scale, .. }) => {
                Logical::Text(decimal_to_string(&v.to_be_bytes(), *scale)?)
            }
            Some(LogicalType::Time { unit, .. }) => Logical::Text(time_to_string(*v, *unit)?),
            Some(LogicalType::Timestamp {
                unit,
                is_adjusted_to_utc,
            }) => Logical::Text(timestamp_to_string(*v, *unit, *is_adjusted_to_utc)),
            _ => Logical::Int(*v),
        },
        (Value::Bytes(b), lt)
            if p == PhysicalType::ByteArray || p == PhysicalType::FixedLenByteArray =>
        {
            match lt {
                Some(LogicalType::String | LogicalType::Enum | LogicalType::Json) => {
                    Logical::Str(core::str::from_utf8(b).map_err(|_| {
                        Error::out_of_spec("invalid UTF-8 in a STRING, ENUM or JSON value")
                    })?)
                }
                Some(LogicalType::Decimal { scale, .. }) => {
                    Logical::Text(decimal_to_string(b, *scale)?)
                }
                Some(LogicalType::Uuid) => Logical::Text(uuid_to_string(b)?),
                Some(LogicalType::Float16) => match b.as_slice() {
                    [lo, hi] => Logical::Float(f16_to_f32(u16::from_le_bytes([*lo, *hi]))),
                    _ => return Err(Error::out_of_range("FLOAT16 value width", b.len() as i64)),
                },
                _ if column.converted_type == Some(ConvertedType::Interval) => {
                    let [m0, m1, m2, m3, d0, d1, d2, d3, s0, s1, s2, s3] = b.as_slice() else {
                        return Err(Error::out_of_range("INTERVAL value width", b.len() as i64));
                    };
                    Logical::Interval {
                        months: u32::from_le_bytes([*m0, *m1, *m2, *m3]),
                        days: u32::from_le_bytes([*d0, *d1, *d2, *d3]),
                        millis: u32::from_le_bytes([*s0, *s1, *s2, *s3]),
                    }
                }
                _ => Logical::Binary(b),
            }
        }
        _ => return Err(mismatch()),
    })
}

// ---------------------------------------------------------------------------------------
// DECIMAL

/// Most bytes of a DECIMAL's unscaled value this module renders or parses (about 9800
/// digits): long division is quadratic in the length.
pub const MAX_DECIMAL_BYTES: usize = 4096;

/// Renders the unscaled big-endian two's complement integer `unscaled` (any length; empty is
/// 0) with `scale` digits after the point: `[0xfb, 0x1e]` (-1250) at scale 2 is `"-12.50"`.
pub fn decimal_to_string(unscaled: &[u8], scale: i32) -> Result<String> {
    let scale =
        usize::try_from(scale).map_err(|_| Error::out_of_range("DECIMAL scale", scale as i64))?;
    let negative = unscaled.first().is_some_and(|b| b & 0x80 != 0);
    // Magnitude, big-endian, without leading zeros.
    let mut mag: Vec<u8> = if negative {
        // Two's complement negation: invert and add one.
        let mut m: Vec<u8> = unscaled.iter().map(|b| !b).collect();
        for b in m.iter_mut().rev() {
            let (s, carry) = b.overflowing_add(1);
            *b = s;
            if !carry {
                break;
            }
        }
        // -2^(8n-1) negates to itself: its magnitude needs one more (zero) byte in front.
        m.insert(0, 0);
        m
    } else {
        unscaled.to_vec()
    };
    let start = mag.iter().position(|&b| b != 0).unwrap_or(mag.len());
    mag.drain(..start);
    if mag.len() > MAX_DECIMAL_BYTES {
        return Err(Error::limit(
            "DECIMAL unscaled value bytes",
            mag.len() as u64,
            MAX_DECIMAL_BYTES as u64,
        ));
    }
    // Repeated division by 10^9: base-10^9 limbs, least significant first.
    let mut limbs: Vec<u32> = Vec::new();
    while !mag.is_empty() {
        let mut rem: u64 = 0;
        for b in mag.iter_mut() {
            let cur = (rem << 8) | u64::from(*b);
            *b = (cur / 1_000_000_000) as u8;
            rem = cur % 1_000_000_000;
        }
        limbs.push(rem as u32);
        let start = mag.iter().position(|&b| b != 0).unwrap_or(mag.len());
        mag.drain(..start);
    }
    let mut digits = String::new();
    match limbs.split_last() {
        None => digits.push('0'),
        Some((top, rest)) => {
            let _ = write!(digits, "{top}");
            for l in rest.iter().rev() {
                let _ = write!(digits, "{l:09}");
            }
        }
    }
    let mut out = String::with_capacity(digits.len() + scale + 3);
    if negative && digits != "0" {
        out.push('-');
    }
    if scale == 0 {
        out.push_str(&digits);
    } else {
        if digits.len() <= scale {
            out.push('0');
            out.push('.');
            for _ in digits.len()..scale {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let (int, frac) = digits.split_at(digits.len() - scale);
            out.push_str(int);
            out.push('.');
            out.push_str(frac);
        }
    }
    Ok(out)
}

/// Parses a decimal number (`"-12.5"`, `"3"`, `"1.25e2"`, as JSON writes numbers) into the
/// unscaled value at `scale`, as minimal big-endian two's complement bytes. The text may have
/// fewer fractional digits than `scale`, never more (after the exponent is applied, only
/// zeros may be dropped), and at most `precision` significant digits.
pub fn parse_decimal(text: &str, precision: i32, scale: i32) -> Result<Vec<u8>> {
    let bad = || Error::invalid_argument(format!("not a DECIMAL({precision}, {scale}): {text:?}"));
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exp) = match body.find(['e', 'E']) {
        Some(i) => {
            let e: i64 = body[i + 1..].parse().map_err(|_| bad())?;
            (&body[..i], e)
        }
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    // digits * 10^(exp - frac.len()) must equal unscaled * 10^-scale.
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let shift = exp
        .checked_sub(frac.len() as i64)
        .and_then(|s| s.checked_add(i64::from(scale)))
        .ok_or_else(bad)?;
    if shift >= 0 {
        if shift as u64 > (MAX_DECIMAL_BYTES as u64) * 3 {
            return Err(bad());
        }
        digits.extend(core::iter::repeat_n(0, shift as usize));
    } else {
        let drop = usize::try_from(-shift).map_err(|_| bad())?;
        let keep = digits.len().saturating_sub(drop);
        if digits[keep..].iter().any(|&d| d != 0) {
            return Err(Error::invalid_argument(format!(
                "{text:?} has more fractional digits than DECIMAL({precision}, {scale}) holds"
            )));
        }
        digits.truncate(keep);
    }
    let first = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
    digits.drain(..first);
    if digits.len() > usize::try_from(precision).unwrap_or(0) {
        return Err(Error::invalid_argument(format!(
            "{text:?} has more digits than DECIMAL({precision}, {scale}) holds"
        )));
    }
    // Decimal digits to a big-endian magnitude: multiply by 10 and add, byte by byte.
    let mut mag: Vec<u8> = Vec::new();
    for d in digits {
        let mut carry = u32::from(d);
        for b in mag.iter_mut().rev() {
            let cur = u32::from(*b) * 10 + carry;
            *b = cur as u8;
            carry = cur >> 8;
        }
        while carry > 0 {
            mag.insert(0, carry as u8);
            carry >>= 8;
        }
    }
    // Room for the sign bit.
    if mag.first().is_none_or(|b| b & 0x80 != 0) {
        mag.insert(0, 0);
    }
    if negative {
        for b in mag.iter_mut() {
            *b = !*b;
        }
        for b in mag.iter_mut().rev() {
            let (s, carry) = b.overflowing_add(1);
            *b = s;
            if !carry {
                break;
            }
        }
        // Minimal form: drop 0xff bytes whose removal keeps the sign.
        while mag.len() > 1 && mag[0] == 0xff && mag[1] & 0x80 != 0 {
            mag.remove(0);
        }
    } else {
        while mag.len() > 1 && mag[0] == 0 && mag[1] & 0x80 == 0 {
            mag.remove(0);
        }
    }
    Ok(mag)
}

/// Sign-extends minimal big-endian two's complement bytes to `width` bytes; `None` when the
/// value does not fit.
pub fn sign_extend(bytes: &[u8], width: usize) -> Option<Vec<u8>> {
    if bytes.len() > width {
        return None;
    }
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0
    };
    let mut out = alloc::vec![fill; width - bytes.len()];
    out.extend_from_slice(bytes);
    Some(out)
}

/// Big-endian two's complement bytes as an `i64`; `None` when they do not fit.
pub fn be_to_i64(bytes: &[u8]) -> Option<i64> {
    let b: [u8; 8] = sign_extend(bytes, 8)?.try_into().ok()?;
    Some(i64::from_be_bytes(b))
}

// ---------------------------------------------------------------------------------------
// DATE, TIME, TIMESTAMP, INT96

/// (year, month, day) of `days` since 1970-01-01, proleptic Gregorian (Hinnant's
/// `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // In i128 so that no i64 input overflows.
    let z = i128::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365; // [0, 399]
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32; // [1, 31]
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32; // [1, 12]
                                                          // |y| < 2^56 for any i64 day count.
    ((if m <= 2 { y + 1 } else { y }) as i64, m, d)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400); // [0, 399]
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn push_date(out: &mut String, days: i64) {
    let (y, m, d) = civil_from_days(days);
    if (0..=9999).contains(&y) {
        let _ = write!(out, "{y:04}-{m:02}-{d:02}");
    } else if y > 9999 {
        let _ = write!(out, "+{y:05}-{m:02}-{d:02}");
    } else {
        let _ = write!(out, "-{:04}-{m:02}-{d:02}", y.unsigned_abs());
    }
}

/// `"YYYY-MM-DD"` for `days` since 1970-01-01; years outside 0..=9999 as `"+YYYYY-MM-DD"` /
/// `"-YYYY-MM-DD"`.
pub fn date_to_string(days: i64) -> String {
    let mut s = String::with_capacity(10);
    push_date(&mut s, days);
    s
}

fn per_second(unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Millis => 1_000,
        TimeUnit::Micros => 1_000_000,
        TimeUnit::Nanos => 1_000_000_000,
    }
}

fn frac_digits(unit: TimeUnit) -> usize {
    match unit {
        TimeUnit::Millis => 3,
        TimeUnit::Micros => 6,
        TimeUnit::Nanos => 9,
    }
}

/// `HH:MM:SS.f..` for `t` in [0, 86400 s] of `per_sec` units with `digits` fraction digits.
fn push_time_of_day(out: &mut String, t: u128, per_sec: u128, digits: usize) {
    let secs = t / per_sec;
    let frac = t % per_sec;
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}.{:0w$}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        frac,
        w = digits
    );
}

/// TIME: `"HH:MM:SS.fff"` / `.ffffff` / `.fffffffff`; a value outside 00:00 to 24:00
/// (inclusive) is an error.
pub fn time_to_string(value: i64, unit: TimeUnit) -> Result<String> {
    let ps = per_second(unit);
    if !(0..=86_400 * ps).contains(&value) {
        return Err(Error::out_of_range(
            "TIME value outside 00:00 to 24:00",
            value,
        ));
    }
    let mut s = String::with_capacity(18);
    push_time_of_day(&mut s, value as u128, ps as u128, frac_digits(unit));
    Ok(s)
}

/// TIMESTAMP: `"YYYY-MM-DDTHH:MM:SS.fff"` (6 or 9 digits for MICROS / NANOS), with `Z` when
/// adjusted to UTC.
pub fn timestamp_to_string(value: i64, unit: TimeUnit, utc: bool) -> String {
    let per_day = 86_400 * per_second(unit);
    let mut s = String::with_capacity(30);
    push_date(&mut s, value.div_euclid(per_day));
    s.push('T');
    push_time_of_day(
        &mut s,
        value.rem_euclid(per_day) as u128,
        per_second(unit) as u128,
        frac_digits(unit),
    );
    if utc {
        s.push('Z');
    }
    s
}

/// Julian day number of 1970-01-01.
pub const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;
const NANOS_PER_DAY: i64 = 86_400_000_000_000;

/// INT96 as TIMESTAMP(NANOS, not adjusted): 8 bytes of little-endian nanoseconds of the day,
/// then 4 bytes of little-endian (signed) Julian day. Exact for every Julian day; nanoseconds
/// outside [0, 86400 x 10^9) are an error.
pub fn int96_to_string(b: &[u8; 12]) -> Result<String> {
    let [n0, n1, n2, n3, n4, n5, n6, n7, d0, d1, d2, d3] = *b;
    let nanos = i64::from_le_bytes([n0, n1, n2, n3, n4, n5, n6, n7]);
    let julian = i32::from_le_bytes([d0, d1, d2, d3]);
    if !(0..NANOS_PER_DAY).contains(&nanos) {
        return Err(Error::out_of_range("INT96 nanoseconds of the day", nanos));
    }
    let mut s = String::with_capacity(30);
    push_date(&mut s, i64::from(julian) - JULIAN_DAY_OF_EPOCH);
    s.push('T');
    push_time_of_day(&mut s, nanos as u128, 1_000_000_000, 9);
    Ok(s)
}

fn bad_text(what: &str, text: &str) -> Error {
    Error::invalid_argument(format!("not a {what}: {text:?}"))
}

fn digits_u64(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 18 {
        return None;
    }
    s.parse().ok()
}

/// Parses `"YYYY-MM-DD"` (or `"+YYYYY-MM-DD"` / `"-YYYY-MM-DD"`) to days since 1970-01-01.
pub fn parse_date_days(text: &str) -> Result<i64> {
    let bad = || bad_text("date (YYYY-MM-DD)", text);
    let (sign, body) = match text.as_bytes().first() {
        Some(b'+') => (1, &text[1..]),
        Some(b'-') => (-1, &text[1..]),
        _ => (1, text),
    };
    let mut parts = body.splitn(3, '-');
    let (Some(y), Some(m), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    // At most 9 year digits: the day count stays far inside i64.
    if y.len() < 4 || y.len() > 9 || m.len() != 2 || d.len() != 2 {
        return Err(bad());
    }
    let y = digits_u64(y).ok_or_else(bad)? as i64 * sign;
    let m = digits_u64(m).ok_or_else(bad)? as u32;
    let d = digits_u64(d).ok_or_else(bad)? as u32;
    if !(1..=12).contains(&m) || d < 1 {
        return Err(bad());
    }
    let days = days_from_civil(y, m, d);
    // The day must exist in its month: it round-trips.
    if civil_from_days(days) != (y, m, d) {
        return Err(bad());
    }
    Ok(days)
}

/// Parses a DATE for an INT32 column.
pub fn parse_date(text: &str) -> Result<i32> {
    i32::try_from(parse_date_days(text)?).map_err(|_| bad_text("DATE in the INT32 range", text))
}

/// Parses `HH:MM:SS[.f...]` (24:00:00 allowed) into `unit`s since midnight. At most the
/// unit's fraction digits.
fn parse_time_of_day(text: &str, unit: TimeUnit) -> Option<i64> {
    let (hms, frac) = text.split_once('.').unwrap_or((text, ""));
    let mut it = hms.split(':');
    let (h, m, s) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() || h.len() != 2 || m.len() != 2 || s.len() != 2 {
        return None;
    }
    let (h, m, s) = (digits_u64(h)?, digits_u64(m)?, digits_u64(s)?);
    if h > 24 || m > 59 || s > 59 {
        return None;
    }
    let digits = frac_digits(unit);
    if frac.len() > digits || (text.contains('.') && frac.is_empty()) {
        return None;
    }
    let mut f = if frac.is_empty() {
        0
    } else {
        digits_u64(frac)? as i64
    };
    for _ in frac.len()..digits {
        f *= 10;
    }
    let t = ((h * 3600 + m * 60 + s) as i64) * per_second(unit) + f;
    (t <= 86_400 * per_second(unit)).then_some(t)
}

/// Parses a TIME in `unit`.
pub fn parse_time(text: &str, unit: TimeUnit) -> Result<i64> {
    parse_time_of_day(text, unit).ok_or_else(|| bad_text("time (HH:MM:SS.fff)", text))
}

/// Parses a TIMESTAMP `"YYYY-MM-DDTHH:MM:SS[.f...]"`, ending in `Z` exactly when `utc`.
pub fn parse_timestamp(text: &str, unit: TimeUnit, utc: bool) -> Result<i64> {
    let what = if utc {
        "UTC timestamp (YYYY-MM-DDTHH:MM:SS.fffZ)"
    } else {
        "local timestamp (YYYY-MM-DDTHH:MM:SS.fff, no Z)"
    };
    let bad = || bad_text(what, text);
    let body = if utc {
        text.strip_suffix('Z').ok_or_else(bad)?
    } else {
        if text.ends_with('Z') {
            return Err(bad());
        }
        text
    };
    let (date, time) = body.split_once('T').ok_or_else(bad)?;
    let days = parse_date_days(date).map_err(|_| bad())?;
    let t = parse_time_of_day(time, unit).ok_or_else(bad)?;
    let v = i128::from(days) * i128::from(86_400 * per_second(unit)) + i128::from(t);
    i64::try_from(v).map_err(|_| bad_text("timestamp in the INT64 range", text))
}

/// Parses an INT96 timestamp (as TIMESTAMP(NANOS, false) prints it) into its 12 bytes.
pub fn parse_int96(text: &str) -> Result<[u8; 12]> {
    let bad = || bad_text("INT96 timestamp (YYYY-MM-DDTHH:MM:SS.fffffffff)", text);
    let (date, time) = text.split_once('T').ok_or_else(bad)?;
    let days = parse_date_days(date).map_err(|_| bad())?;
    let nanos = parse_time_of_day(time, TimeUnit::Nanos).ok_or_else(bad)?;
    let (days, nanos) = if nanos == NANOS_PER_DAY {
        (days + 1, 0)
    } else {
        (days, nanos)
    };
    let julian = i32::try_from(days + JULIAN_DAY_OF_EPOCH).map_err(|_| bad())?;
    Ok(int96_from_parts(julian, nanos))
}

/// INT96 bytes of (Julian day, nanoseconds of the day).
pub fn int96_from_parts(julian_day: i32, nanos_of_day: i64) -> [u8; 12] {
    let mut b = [0u8; 12];
    b[..8].copy_from_slice(&nanos_of_day.to_le_bytes());
    b[8..].copy_from_slice(&julian_day.to_le_bytes());
    b
}

/// INT96 bytes of `nanos` since 1970-01-01T00:00:00 (a bare integer given for INT96).
pub fn int96_from_epoch_nanos(nanos: i64) -> [u8; 12] {
    let days = nanos.div_euclid(NANOS_PER_DAY);
    // |days| < 2^47: the Julian day fits an i32.
    int96_from_parts(
        (days + JULIAN_DAY_OF_EPOCH) as i32,
        nanos.rem_euclid(NANOS_PER_DAY),
    )
}

// ---------------------------------------------------------------------------------------
// UUID, FLOAT16, base64

/// `"0f8fad5b-d9cb-469f-a165-70867728950e"`: lower case, hyphenated.
pub fn uuid_to_string(b: &[u8]) -> Result<String> {
    if b.len() != 16 {
        return Err(Error::out_of_range("UUID value width", b.len() as i64));
    }
    let mut s = String::with_capacity(36);
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        let _ = write!(s, "{byte:02x}");
    }
    Ok(s)
}

/// Parses a hyphenated UUID (either case).
pub fn parse_uuid(text: &str) -> Result<[u8; 16]> {
    let bad = || bad_text("UUID", text);
    let t = text.as_bytes();
    if t.len() != 36 || [8, 13, 18, 23].iter().any(|&i| t[i] != b'-') {
        return Err(bad());
    }
    let hex: Vec<u8> = t.iter().copied().filter(|&c| c != b'-').collect();
    if hex.len() != 32 {
        return Err(bad());
    }
    let mut out = [0u8; 16];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let s = core::str::from_utf8(pair).map_err(|_| bad())?;
        *o = u8::from_str_radix(s, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

use crate::bytes::base64;
pub use crate::bytes::base64::encode as base64_encode;

/// Decodes standard base64 with padding (strict: length a multiple of 4, canonical last
/// bits).
pub fn base64_decode(text: &str) -> Result<Vec<u8>> {
    base64::decode(text.as_bytes(), base64::Padding::Required)
        .ok_or_else(|| bad_text("base64 string", text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    #[test]
    fn dates() {
        // Hand-worked: 719162 days separate 0001-01-01 from 1970-01-01 (1969 years, 477
        // leap days: 1969*365 + 477 = 719162); 9999-12-31 is 2932896 days after 1970-01-01.
        assert_eq!(date_to_string(-719_162), "0001-01-01");
        assert_eq!(date_to_string(2_932_896), "9999-12-31");
        assert_eq!(date_to_string(0), "1970-01-01");
        assert_eq!(date_to_string(11_016), "2000-02-29");
        assert_eq!(date_to_string(-719_163), "0000-12-31");
        assert_eq!(date_to_string(-719_529), "-0001-12-31");
        assert_eq!(date_to_string(2_932_897), "+10000-01-01");
        assert_eq!(date_to_string(i32::MIN as i64), "-5877641-06-23");
        assert_eq!(date_to_string(i32::MAX as i64), "+5881580-07-11");
        for d in [
            -719_529i64,
            -719_162,
            0,
            11_016,
            2_932_897,
            i32::MIN as i64,
            i32::MAX as i64,
        ] {
            assert_eq!(parse_date_days(&date_to_string(d)).unwrap(), d);
        }
        assert!(parse_date("2001-02-29").is_err());
        assert!(parse_date("2001-2-28").is_err());
        assert!(parse_date("+5881580-07-12").is_err()); // beyond i32 days
    }

    #[test]
    fn decimals() {
        assert_eq!(
            decimal_to_string(&(-1250i32).to_be_bytes(), 2).unwrap(),
            "-12.50"
        );
        assert_eq!(decimal_to_string(&1i32.to_be_bytes(), 3).unwrap(), "0.001");
        assert_eq!(decimal_to_string(&123i64.to_be_bytes(), 0).unwrap(), "123");
        assert_eq!(decimal_to_string(&[], 2).unwrap(), "0.00");
        assert_eq!(decimal_to_string(&[0x80], 0).unwrap(), "-128");
        // DECIMAL(38, 10) in FLBA(16): -1 and 10^38 - 1 (hand: 0x4b3b4ca85a86c47a098a223fffffffff).
        assert_eq!(decimal_to_string(&[0xff; 16], 10).unwrap(), "-0.0000000001");
        let max = [
            0x4b, 0x3b, 0x4c, 0xa8, 0x5a, 0x86, 0xc4, 0x7a, 0x09, 0x8a, 0x22, 0x3f, 0xff, 0xff,
            0xff, 0xff,
        ];
        assert_eq!(
            decimal_to_string(&max, 10).unwrap(),
            "9999999999999999999999999999.9999999999"
        );
        assert_eq!(
            parse_decimal("9999999999999999999999999999.9999999999", 38, 10).unwrap(),
            max
        );
        // i128::MIN as 16 bytes.
        let mut min = [0u8; 16];
        min[0] = 0x80;
        assert_eq!(
            decimal_to_string(&min, 0).unwrap(),
            "-170141183460469231731687303715884105728"
        );
        assert_eq!(
            parse_decimal("-12.5", 5, 2).unwrap(),
            (-1250i16).to_be_bytes()
        );
        assert_eq!(
            parse_decimal("-12.50", 5, 2).unwrap(),
            (-1250i16).to_be_bytes()
        );
        assert_eq!(parse_decimal("1.25e2", 5, 0).unwrap(), [125]);
        assert_eq!(parse_decimal("128", 5, 0).unwrap(), [0, 128]);
        assert_eq!(parse_decimal("-128", 5, 0).unwrap(), [0x80]);
        assert_eq!(parse_decimal("0", 1, 0).unwrap(), [0]);
        assert!(parse_decimal("1.234", 5, 2).is_err());
        assert!(parse_decimal("1234", 3, 0).is_err());
        assert!(parse_decimal("1.2.3", 5, 2).is_err());
        assert!(parse_decimal("", 5, 2).is_err());
        for text in ["-0.01", "12345.67", "0.00", "-99999.99"] {
            let b = parse_decimal(text, 7, 2).unwrap();
            assert_eq!(decimal_to_string(&b, 2).unwrap(), text);
        }
    }

    #[test]
    fn times_and_timestamps() {
        assert_eq!(time_to_string(0, TimeUnit::Millis).unwrap(), "00:00:00.000");
        assert_eq!(
            time_to_string(49_500_250, TimeUnit::Millis).unwrap(),
            "13:45:00.250"
        );
        assert_eq!(
            time_to_string(86_400_000_000_000, TimeUnit::Nanos).unwrap(),
            "24:00:00.000000000"
        );
        assert!(time_to_string(-1, TimeUnit::Micros).is_err());
        assert!(time_to_string(86_400_001, TimeUnit::Millis).is_err());
        assert_eq!(
            parse_time("13:45:00.25", TimeUnit::Millis).unwrap(),
            49_500_250
        );
        assert_eq!(
            timestamp_to_string(1_230_768_000_000, TimeUnit::Millis, true),
            "2009-01-01T00:00:00.000Z"
        );
        assert_eq!(
            timestamp_to_string(-1, TimeUnit::Micros, false),
            "1969-12-31T23:59:59.999999"
        );
        assert_eq!(
            timestamp_to_string(i64::MIN, TimeUnit::Nanos, false),
            "1677-09-21T00:12:43.145224192"
        );
        for (v, unit, utc) in [
            (i64::MIN, TimeUnit::Nanos, false),
            (i64::MAX, TimeUnit::Millis, true),
            (-1, TimeUnit::Micros, true),
            (i64::MAX, TimeUnit::Micros, false),
        ] {
            let t = timestamp_to_string(v, unit, utc);
            assert_eq!(parse_timestamp(&t, unit, utc).unwrap(), v, "{t}");
        }
        assert!(parse_timestamp("2009-01-01T00:00:00.000", TimeUnit::Millis, true).is_err());
        assert!(parse_timestamp("2009-01-01T00:00:00.000Z", TimeUnit::Millis, false).is_err());
    }

    #[test]
    fn int96() {
        // Julian day 2440588 (0x253d8c) is 1970-01-01.
        let epoch = [0, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x3d, 0x25, 0];
        assert_eq!(
            int96_to_string(&epoch).unwrap(),
            "1970-01-01T00:00:00.000000000"
        );
        // 2009-01-01 is 14245 days after the epoch: Julian day 2454833 = 0x257531.
        let b = int96_from_parts(2_454_833, 1);
        assert_eq!(b[8..], [0x31, 0x75, 0x25, 0]);
        assert_eq!(
            int96_to_string(&b).unwrap(),
            "2009-01-01T00:00:00.000000001"
        );
        // Year 290000 (beyond the int64 nanosecond range, as in data/int96_from_spark): the
        // Julian day of 290000-01-01 is 2440588 + days_from_civil, hand-checked via 400-year
        // cycles: (290000 - 2000) / 400 = 720 cycles of 146097 days after 2000-01-01 (10957).
        let days = 10_957 + 720 * 146_097;
        assert_eq!(date_to_string(days), "+290000-01-01");
        let b = int96_from_parts((days + JULIAN_DAY_OF_EPOCH) as i32, 3_600_000_000_000);
        assert_eq!(
            int96_to_string(&b).unwrap(),
            "+290000-01-01T01:00:00.000000000"
        );
        assert_eq!(parse_int96("+290000-01-01T01:00:00.000000000").unwrap(), b);
        let bad = int96_from_parts(2_440_588, NANOS_PER_DAY);
        assert!(int96_to_string(&bad).is_err());
        assert_eq!(
            int96_from_epoch_nanos(-1),
            int96_from_parts(2_440_587, NANOS_PER_DAY - 1)
        );
    }

    #[test]
    fn uuid_and_base64() {
        let u = parse_uuid("0F8FAD5B-D9CB-469F-A165-70867728950E").unwrap();
        assert_eq!(u[0], 0x0f);
        assert_eq!(
            uuid_to_string(&u).unwrap(),
            "0f8fad5b-d9cb-469f-a165-70867728950e"
        );
        assert!(parse_uuid("0f8fad5bd9cb469fa16570867728950e").is_err());
        // The vectors are in bytes::base64; here the strict rule JSON text gets.
        assert_eq!(base64_decode("Zm9vYg==").unwrap(), b"foob");
        assert!(base64_decode("Zg=").is_err());
        assert!(base64_decode("Zh==").is_err());
        assert!(base64_decode("Zg==Zg==").is_err());
    }

    #[test]
    fn logical_values() {
        let schema = Schema::parse(
            "message m { required int32 u (UINT_8); required int64 t (TIMESTAMP_MILLIS);
             required binary s (STRING); required fixed_len_byte_array(12) i (INTERVAL);
             required int32 n (UNKNOWN); required binary b; }",
        )
        .unwrap();
        let c = schema.columns();
        assert_eq!(
            logical_value(&Value::Int32(-1), &c[0]).unwrap(),
            Logical::UInt(4_294_967_295)
        );
        assert_eq!(
            logical_value(&Value::Int64(0), &c[1]).unwrap(),
            Logical::Text("1970-01-01T00:00:00.000Z".into())
        );
        assert_eq!(
            logical_value(&Value::Bytes(b"h\xc3\xa9".to_vec()), &c[2]).unwrap(),
            Logical::Str("hé")
        );
        assert!(logical_value(&Value::Bytes(b"\xff".to_vec()), &c[2]).is_err());
        let iv = Value::Bytes([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0].to_vec());
        assert_eq!(
            logical_value(&iv, &c[3]).unwrap(),
            Logical::Interval {
                months: 1,
                days: 2,
                millis: 3
            }
        );
        assert_eq!(
            logical_value(&Value::Int32(5), &c[4]).unwrap(),
            Logical::Null
        );
        assert_eq!(
            logical_value(&Value::Bytes(vec![1]), &c[5]).unwrap(),
            Logical::Binary(&[1])
        );
        assert!(logical_value(&Value::Int64(1), &c[0]).is_err());
    }
}

//! JSON text output, in the canonical form shared with the pyarrow side of the tests
//! (`json.dumps(obj, separators=(",", ":"), ensure_ascii=False)`): no spaces, non-ASCII as
//! UTF-8, floats as Python's `repr` prints them (the shortest text that parses back to the same
//! value, exponent form below 1e-4 and from 1e16 up).

use std::fmt::Write as _;

/// Appends `s` as a JSON string literal, escaped as Python's `json.dumps` escapes it.
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends a DOUBLE: a number, or the strings "NaN", "Infinity", "-Infinity".
pub fn push_f64(out: &mut String, x: f64) {
    if special(out, x.is_nan(), x.is_infinite(), x.is_sign_negative()) {
        return;
    }
    let sci = closest_shortest(format!("{x:e}"), x, |t| t.parse::<f64>().ok() == Some(x));
    push_repr(out, &sci);
}

/// Appends a FLOAT: the shortest text that parses back to the same f32.
pub fn push_f32(out: &mut String, x: f32) {
    if special(out, x.is_nan(), x.is_infinite(), x.is_sign_negative()) {
        return;
    }
    let sci = closest_shortest(format!("{x:e}"), x as f64, |t| {
        t.parse::<f32>().ok() == Some(x)
    });
    push_repr(out, &sci);
}

/// Among the shortest digit strings that parse back, Python's repr takes the one closest to
/// the exact value, and on a tie the even one. Rust's shortest `{:e}` can take the other one
/// of a tie (f32 -2.91015625 prints as -2.9101563, Python as -2.9101562), so this prefers the
/// correctly rounded digits of the same length (Rust rounds exact values half to even)
/// whenever they also parse back.
fn closest_shortest(sci: String, exact: f64, parses_back: impl Fn(&str) -> bool) -> String {
    let mantissa = sci.split_once('e').map_or(sci.as_str(), |(m, _)| m);
    let digits = mantissa.chars().filter(char::is_ascii_digit).count();
    let rounded = format!("{:.*e}", digits.saturating_sub(1), exact);
    if rounded != sci && parses_back(&rounded) {
        rounded
    } else {
        sci
    }
}

fn special(out: &mut String, nan: bool, inf: bool, neg: bool) -> bool {
    match (nan, inf, neg) {
        (true, _, _) => out.push_str("\"NaN\""),
        (_, true, false) => out.push_str("\"Infinity\""),
        (_, true, true) => out.push_str("\"-Infinity\""),
        _ => return false,
    }
    true
}

/// Rewrites Rust's shortest `{:e}` text (`-1.2345e-7`, `1e16`) the way Python's `repr` lays
/// out the same digits.
fn push_repr(out: &mut String, sci: &str) {
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci),
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if neg {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(&digits);
                for _ in digits.len()..int_len {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_repr() {
        // Golden text from Python 3.11:
        // json.dumps(vals, separators=(',', ':'))
        let vals = [
            0.0,
            -0.0,
            1.0,
            1.5,
            0.1,
            1e16,
            1e15,
            123456789012345678.0,
            1e-4,
            1e-5,
            1.2345e-7,
            5e-324,
            1.7976931348623157e308,
            -2.5e-300,
            100.0,
            1e22,
            0.00012,
        ];
        let expected = "[0.0,-0.0,1.0,1.5,0.1,1e+16,1000000000000000.0,1.2345678901234568e+17,\
            0.0001,1e-05,1.2345e-07,5e-324,1.7976931348623157e+308,-2.5e-300,100.0,1e+22,0.00012]";
        let mut out = String::from("[");
        for (i, v) in vals.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_f64(&mut out, *v);
        }
        out.push(']');
        assert_eq!(out, expected);
    }

    #[test]
    fn f32_is_shortest_for_its_width() {
        let mut out = String::new();
        push_f32(&mut out, 0.1f32);
        out.push(' ');
        push_f32(&mut out, f32::MAX);
        out.push(' ');
        push_f32(&mut out, -0.0f32);
        out.push(' ');
        push_f32(&mut out, f32::NAN);
        assert_eq!(out, "0.1 3.4028235e+38 -0.0 \"NaN\"");
    }

    #[test]
    fn ties_between_shortest_candidates_go_to_the_even_digit() {
        // The literals are the f32 values -2.91015625 and 7.00390625, each exactly halfway
        // between two 8-digit decimals. Python: json.dumps([-2.9101562, 7.0039062]).
        let mut out = String::new();
        push_f32(&mut out, -2.910_156_2_f32);
        out.push(' ');
        push_f32(&mut out, 7.003_906_2_f32);
        assert_eq!(out, "-2.9101562 7.0039062");
    }

    #[test]
    fn strings_escape_as_python() {
        // json.dumps('a"b\\c\n\t\x01\x7f é ☃ 😀 \u2028', ensure_ascii=False)
        let mut out = String::new();
        push_str(&mut out, "a\"b\\c\n\t\u{1}\u{7f} é ☃ 😀 \u{2028}");
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\t\\u0001\u{7f} é ☃ 😀 \u{2028}\"");
    }
}

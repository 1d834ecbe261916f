//! The text form of a predicate (json-mapping.md, "Row selection"):
//!
//! ```text
//! expr    := and ( OR and )*
//! and     := unary ( AND unary )*
//! unary   := NOT unary | "(" expr ")" | test
//! test    := path op literal | path [NOT] IN "(" literal ( "," literal )* ")" | path IS [NOT] NULL
//! op      := "=" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//! literal := integer | number | 'text' | TRUE | FALSE
//! path    := segment ( "." segment )*      segment := [A-Za-z_][A-Za-z0-9_]* | "quoted"
//! ```
//!
//! Keywords are case-insensitive; `''` inside a text literal and `""` inside a quoted name
//! stand for one quote. `x NOT IN (..)` parses as `NOT (x IN (..))` and `x IS NOT NULL` as
//! `NOT (x IS NULL)`, as the builder makes them. Errors give the byte offset in the text.
//!
//! ```
//! use parket::predicate::{col, parse_expr};
//! assert_eq!(
//!     parse_expr("a.b >= -1.5 or \"c d\" is not null").unwrap(),
//!     col("a.b").ge(-1.5).or(parket::predicate::col_path(["c d"]).is_not_null()),
//! );
//! let e = parse_expr("a = = 1").unwrap_err();
//! assert!(e.to_string().contains("byte 4"), "{e}");
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::expr::{CompareOp, Expr, Literal};
use crate::error::{Error, Result};

/// Deepest nesting of parentheses and NOTs the parser accepts (the tree is recursive).
pub const MAX_DEPTH: usize = 128;

/// Where a leaf test came from in the text: the byte offsets of its column path and of each
/// literal, in the order the leaves appear (pre-order of the tree).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LeafSpan {
    pub column: usize,
    pub literals: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String, bool), // text, quoted
    Text(String),
    Number(String),
    Op(CompareOp),
    LParen,
    RParen,
    Comma,
    Dot,
    End,
}

fn err(at: usize, what: impl core::fmt::Display) -> Error {
    Error::invalid_argument(alloc::format!("predicate: {what} at byte {at}")).at_offset(at as u64)
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'(' => {
                i += 1;
                Tok::LParen
            }
            b')' => {
                i += 1;
                Tok::RParen
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            b'.' => {
                i += 1;
                Tok::Dot
            }
            b'=' => {
                i += 1;
                Tok::Op(CompareOp::Eq)
            }
            b'!' if b.get(i + 1) == Some(&b'=') => {
                i += 2;
                Tok::Op(CompareOp::Ne)
            }
            b'<' => match b.get(i + 1) {
                Some(b'=') => {
                    i += 2;
                    Tok::Op(CompareOp::Le)
                }
                Some(b'>') => {
                    i += 2;
                    Tok::Op(CompareOp::Ne)
                }
                _ => {
                    i += 1;
                    Tok::Op(CompareOp::Lt)
                }
            },
            b'>' => {
                if b.get(i + 1) == Some(&b'=') {
                    i += 2;
                    Tok::Op(CompareOp::Ge)
                } else {
                    i += 1;
                    Tok::Op(CompareOp::Gt)
                }
            }
            b'\'' | b'"' => {
                let (s, next) = quoted(text, i, c)?;
                i = next;
                if c == b'\'' {
                    Tok::Text(s)
                } else {
                    Tok::Name(s, true)
                }
            }
            b'-' | b'0'..=b'9' => {
                i = number_end(b, i).ok_or_else(|| err(start, "malformed number"))?;
                Tok::Number(String::from(&text[start..i]))
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                Tok::Name(String::from(&text[start..i]), false)
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(err(i, alloc::format!("unexpected character {ch:?}")));
            }
        };
        out.push((tok, start));
    }
    out.push((Tok::End, b.len()));
    Ok(out)
}

/// A quoted string from `start` (the opening quote `q`); a doubled quote is one quote.
fn quoted(text: &str, start: usize, q: u8) -> Result<(String, usize)> {
    let b = text.as_bytes();
    let mut s = String::new();
    let mut i = start + 1;
    let mut run = i;
    loop {
        match b.get(i) {
            None => return Err(err(start, "unterminated quote")),
            Some(&c) if c == q => {
                s.push_str(&text[run..i]);
                if b.get(i + 1) == Some(&q) {
                    s.push(q as char);
                    i += 2;
                    run = i;
                } else {
                    return Ok((s, i + 1));
                }
            }
            Some(_) => i += 1,
        }
    }
}

/// The end of a JSON number starting at `i`, or `None` when it is malformed.
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        let s = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i > s).then_some(i)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let s = i;
    i = digits(b, i)?;
    if b[s] == b'0' && i - s > 1 {
        return None;
    }
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    // A number runs into no name: `1abc` is an error, not two tokens.
    if b.get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        return None;
    }
    Some(i)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    spans: Vec<LeafSpan>,
}

fn keyword(t: &Tok, k: &str) -> bool {
    matches!(t, Tok::Name(s, false) if s.eq_ignore_ascii_case(k))
}

impl Parser {
    fn peek(&self) -> &(Tok, usize) {
        // The token list always ends in `End`, and `pos` never passes it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn bump(&mut self) -> (Tok, usize) {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn at_keyword(&self, k: &str) -> bool {
        keyword(&self.peek().0, k)
    }
    fn expect_keyword(&mut self, k: &str) -> Result<()> {
        let (t, at) = self.bump();
        if keyword(&t, k) {
            Ok(())
        } else {
            Err(err(
                at,
                alloc::format!("expected {k}, found {}", describe(&t)),
            ))
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Expr> {
        let mut e = self.and(depth)?;
        while self.at_keyword("OR") {
            self.bump();
            e = e.or(self.and(depth)?);
        }
        Ok(e)
    }

    fn and(&mut self, depth: usize) -> Result<Expr> {
        let mut e = self.unary(depth)?;
        while self.at_keyword("AND") {
            self.bump();
            e = e.and(self.unary(depth)?);
        }
        Ok(e)
    }

    fn unary(&mut self, depth: usize) -> Result<Expr> {
        let at = self.peek().1;
        if depth >= MAX_DEPTH {
            return Err(err(at, alloc::format!("nesting deeper than {MAX_DEPTH}")));
        }
        if self.at_keyword("NOT") {
            self.bump();
            return Ok(super::not(self.unary(depth + 1)?));
        }
        if self.peek().0 == Tok::LParen {
            self.bump();
            let e = self.expr(depth + 1)?;
            let (t, at) = self.bump();
            if t != Tok::RParen {
                return Err(err(
                    at,
                    alloc::format!("expected ')', found {}", describe(&t)),
                ));
            }
            return Ok(e);
        }
        self.test()
    }

    fn path(&mut self) -> Result<(Vec<String>, usize)> {
        let mut names = Vec::new();
        let start = self.peek().1;
        loop {
            let (t, at) = self.bump();
            match t {
                Tok::Name(s, quoted)
                    if quoted
                        || !["AND", "OR", "NOT", "IN", "IS", "NULL"]
                            .iter()
                            .any(|k| s.eq_ignore_ascii_case(k)) =>
                {
                    names.push(s)
                }
                t => {
                    return Err(err(
                        at,
                        alloc::format!("expected a column name, found {}", describe(&t)),
                    ))
                }
            }
            if self.peek().0 != Tok::Dot {
                return Ok((names, start));
            }
            self.bump();
        }
    }

    fn literal(&mut self) -> Result<(Literal, usize)> {
        let (t, at) = self.bump();
        let lit = match t {
            Tok::Number(n) => Literal::Number(n),
            Tok::Text(s) => Literal::Text(s),
            ref t if keyword(t, "TRUE") => Literal::Boolean(true),
            ref t if keyword(t, "FALSE") => Literal::Boolean(false),
            ref t if keyword(t, "NULL") => {
                return Err(err(
                    at,
                    "a comparison with NULL is never true; write IS NULL or IS NOT NULL",
                ))
            }
            t => {
                return Err(err(
                    at,
                    alloc::format!("expected a literal, found {}", describe(&t)),
                ))
            }
        };
        Ok((lit, at))
    }

    fn test(&mut self) -> Result<Expr> {
        let (column, column_at) = self.path()?;
        let (t, at) = self.bump();
        let mut span = LeafSpan {
            column: column_at,
            literals: Vec::new(),
        };
        let e = match t {
            Tok::Op(op) => {
                let (value, lat) = self.literal()?;
                span.literals.push(lat);
                Expr::Compare { column, op, value }
            }
            ref t if keyword(t, "IS") => {
                let negated = self.at_keyword("NOT");
                if negated {
                    self.bump();
                }
                self.expect_keyword("NULL")?;
                let e = Expr::IsNull { column };
                self.spans.push(span);
                return Ok(if negated { super::not(e) } else { e });
            }
            ref t if keyword(t, "NOT") || keyword(t, "IN") => {
                let negated = keyword(t, "NOT");
                if negated {
                    self.expect_keyword("IN")?;
                }
                let (t, at) = self.bump();
                if t != Tok::LParen {
                    return Err(err(
                        at,
                        alloc::format!("expected '(', found {}", describe(&t)),
                    ));
                }
                let mut values = Vec::new();
                loop {
                    let (v, lat) = self.literal()?;
                    values.push(v);
                    span.literals.push(lat);
                    let (t, at) = self.bump();
                    match t {
                        Tok::Comma => {}
                        Tok::RParen => break,
                        t => {
                            return Err(err(
                                at,
                                alloc::format!("expected ',' or ')', found {}", describe(&t)),
                            ))
                        }
                    }
                }
                let e = Expr::In { column, values };
                self.spans.push(span);
                return Ok(if negated { super::not(e) } else { e });
            }
            t => {
                return Err(err(
                    at,
                    alloc::format!(
                        "expected an operator, IN or IS after the column, found {}",
                        describe(&t)
                    ),
                ))
            }
        };
        self.spans.push(span);
        Ok(e)
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Name(s, _) => alloc::format!("{s:?}"),
        Tok::Text(s) => alloc::format!("'{s}'"),
        Tok::Number(n) => n.clone(),
        Tok::Op(o) => alloc::format!("'{}'", o.symbol()),
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::Comma => "','".into(),
        Tok::Dot => "'.'".into(),
        Tok::End => "the end".into(),
    }
}

/// Parses the text form into an unbound [`Expr`] (no schema needed; see
/// [`crate::predicate::Predicate::parse`] to bind it too).
pub fn parse_expr(text: &str) -> Result<Expr> {
    parse_with_spans(text).map(|(e, _)| e)
}

pub(crate) fn parse_with_spans(text: &str) -> Result<(Expr, Vec<LeafSpan>)> {
    let mut p = Parser {
        toks: lex(text)?,
        pos: 0,
        spans: Vec::new(),
    };
    let e = p.expr(0)?;
    let (t, at) = p.bump();
    if t != Tok::End {
        return Err(err(
            at,
            alloc::format!("expected AND, OR or the end, found {}", describe(&t)),
        ));
    }
    Ok((e, p.spans))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::{col, col_path, not};

    #[test]
    fn precedence_and_spellings() {
        let e = parse_expr("a = 1 OR b < 2 AND NOT c IS NULL").unwrap();
        assert_eq!(
            e,
            col("a")
                .eq(1)
                .or(col("b").lt(2).and(not(col("c").is_null())))
        );
        let e = parse_expr("(a <> 'x''y' or a != 'z') and b not in (1, -2.5e-3, true)").unwrap();
        assert_eq!(
            e,
            col("a")
                .ne("x'y")
                .or(col("a").ne("z"))
                .and(not(col("b").in_list([
                    Literal::Number("1".into()),
                    Literal::Number("-2.5e-3".into()),
                    Literal::Boolean(true)
                ])))
        );
        let e = parse_expr("\"we\"\"ird\".x >= 0 and y is not null").unwrap();
        assert_eq!(
            e,
            col_path(["we\"ird", "x"]).ge(0).and(col("y").is_not_null())
        );
    }

    #[test]
    fn spans_point_at_leaves() {
        let (_, spans) = parse_with_spans("a = 1 and (bb in ('x', 'y'))").unwrap();
        assert_eq!(
            spans[0],
            LeafSpan {
                column: 0,
                literals: alloc::vec![4]
            }
        );
        assert_eq!(
            spans[1],
            LeafSpan {
                column: 11,
                literals: alloc::vec![18, 23]
            }
        );
    }

    #[test]
    fn errors_say_where() {
        for (text, at) in [
            ("a = ", 4),
            ("a == 1", 3),
            ("a = 1 b", 6),
            ("a = 'x", 4),
            ("(a = 1", 6),
            ("a = 01", 4),
            ("a in ()", 6),
            ("a = NULL", 4),
            ("and = 1", 0),
            ("a = 1abc", 4),
            ("a # 1", 2),
        ] {
            let e = parse_expr(text).unwrap_err();
            assert!(
                e.to_string().contains(&alloc::format!("at byte {at}")),
                "{text}: {e}"
            );
        }
        let deep = alloc::format!("{}a = 1{}", "(".repeat(1000), ")".repeat(1000));
        assert!(parse_expr(&deep).is_err());
        let deep = alloc::format!("{}a = 1", "not ".repeat(1000));
        assert!(parse_expr(&deep).is_err());
    }
}

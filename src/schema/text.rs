//! The message text format of parquet-java (`MessageType.toString`, `MessageTypeParser`).
//!
//! ```text
//! message  := "message" name "{" field* "}"
//! field    := repetition ( "group" name annotation? id? "{" field* "}"
//!                        | primitive name annotation? id? ";" )
//! repetition := "required" | "optional" | "repeated"                (any case)
//! primitive  := "boolean" | "int32" | "int64" | "int96" | "float" | "double" | "binary"
//!             | "fixed_len_byte_array" "(" length ")"               (any case)
//! annotation := "(" NAME ( "(" param ( "," param )* ")" )? ")"
//! id         := "=" integer
//! ```
//!
//! Annotation names are the LogicalType spellings of parquet-java — `STRING`, `MAP`, `LIST`,
//! `ENUM`, `DECIMAL(precision,scale)`, `DATE`, `TIME(unit,isAdjustedToUTC)`,
//! `TIMESTAMP(unit,isAdjustedToUTC)`, `INTEGER(bitWidth,isSigned)`, `UNKNOWN`, `JSON`, `BSON`,
//! `UUID`, `FLOAT16`, `VARIANT(version)`, `GEOMETRY(crs)`, `GEOGRAPHY(crs,algorithm)`,
//! `INTERVAL`, `MAP_KEY_VALUE` — and the old ConvertedType names (`UTF8`, `INT_8`, `UINT_64`,
//! `TIME_MILLIS`, `TIMESTAMP_MICROS`, ...), which parse as their logical type (see the
//! module above). `INT(8,true)` (the spelling of LogicalTypes.md) is accepted for `INTEGER`,
//! `binary` may be written `byte_array`. Names of annotations, units and booleans are
//! case-insensitive.
//!
//! Printing uses 2-space indentation, one field per line, no trailing newline, and the
//! LogicalType spelling (as parquet-java does): a ConvertedType alone is printed only for
//! `INTERVAL` and `MAP_KEY_VALUE`.
//!
//! Beyond parquet-java, so that `parse(print(s)) == s` for every schema a file can hold:
//! a name (or a CRS) that is empty or holds whitespace, a control character, `"`, `\` or one
//! of `;{}(),=` is printed in double quotes with `\"`, `\\`, `\n`, `\r`, `\t` and `\u{hex}`
//! escapes (parquet-java cannot read such names at all); `GEOGRAPHY(,SPHERICAL)` is a
//! geography with an algorithm but no CRS; `VARIANT` without parameters has no
//! specification version. parquet-java's `column_order(...)` suffix is not supported
//! (column orders live in FileMetaData, not in this tree).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::error::{Error, Result};
use crate::format::{
    ConvertedType, EdgeInterpolationAlgorithm, FieldRepetitionType, LogicalType, PhysicalType,
    SchemaElement, TimeUnit,
};
use crate::limits::Limits;
use crate::schema::{Node, NodeKind, Schema};

// ---------------------------------------------------------------------------------------------
// Printing

const DELIMITERS: &[char] = &[';', '{', '}', '(', ')', ',', '=', '"', '\\'];

/// Whether `s` prints as a bare token that the parser reads back unchanged.
fn is_bare(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !DELIMITERS.contains(&c))
}

/// Writes `s` bare when it can be, quoted and escaped otherwise.
fn write_token(f: &mut impl fmt::Write, s: &str) -> fmt::Result {
    if is_bare(s) {
        return f.write_str(s);
    }
    f.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c.is_control() => write!(f, "\\u{{{:x}}}", c as u32)?,
            c => f.write_char(c)?,
        }
    }
    f.write_char('"')
}

fn write_logical(f: &mut impl fmt::Write, lt: &LogicalType) -> fmt::Result {
    match lt {
        LogicalType::String => f.write_str("STRING"),
        LogicalType::Map => f.write_str("MAP"),
        LogicalType::List => f.write_str("LIST"),
        LogicalType::Enum => f.write_str("ENUM"),
        LogicalType::Decimal { scale, precision } => write!(f, "DECIMAL({precision},{scale})"),
        LogicalType::Date => f.write_str("DATE"),
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        } => write!(f, "TIME({},{is_adjusted_to_utc})", unit.name()),
        LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        } => write!(f, "TIMESTAMP({},{is_adjusted_to_utc})", unit.name()),
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => write!(f, "INTEGER({bit_width},{is_signed})"),
        LogicalType::Unknown => f.write_str("UNKNOWN"),
        LogicalType::Json => f.write_str("JSON"),
        LogicalType::Bson => f.write_str("BSON"),
        LogicalType::Uuid => f.write_str("UUID"),
        LogicalType::Float16 => f.write_str("FLOAT16"),
        LogicalType::File => f.write_str("FILE"),
        // Never in a built Schema (an unrecognized annotation is dropped when the tree is
        // built), but printable for diagnostics.
        LogicalType::Unrecognized { field_id } => write!(f, "UNRECOGNIZED({field_id})"),
        LogicalType::Variant {
            specification_version,
        } => match specification_version {
            Some(v) => write!(f, "VARIANT({v})"),
            None => f.write_str("VARIANT"),
        },
        LogicalType::Geometry { crs } => {
            f.write_str("GEOMETRY")?;
            if let Some(crs) = crs {
                f.write_char('(')?;
                write_token(f, crs)?;
                f.write_char(')')?;
            }
            Ok(())
        }
        LogicalType::Geography { crs, algorithm } => {
            f.write_str("GEOGRAPHY")?;
            if crs.is_none() && algorithm.is_none() {
                return Ok(());
            }
            f.write_char('(')?;
            if let Some(crs) = crs {
                write_token(f, crs)?;
            }
            if let Some(a) = algorithm {
                write!(f, ",{}", a.name())?;
            }
            f.write_char(')')
        }
    }
}

fn write_node_head(f: &mut impl fmt::Write, node: &Node, indent: usize) -> fmt::Result {
    for _ in 0..indent {
        f.write_str("  ")?;
    }
    f.write_str(&node.repetition.name().to_ascii_lowercase())?;
    match &node.kind {
        NodeKind::Group { .. } => f.write_str(" group ")?,
        NodeKind::Primitive {
            physical_type,
            type_length,
            ..
        } => {
            f.write_char(' ')?;
            f.write_str(physical_name(*physical_type))?;
            if let Some(n) = type_length {
                write!(f, "({n})")?;
            }
            f.write_char(' ')?;
        }
    }
    write_token(f, &node.name)?;
    if let Some(lt) = &node.logical_type {
        f.write_str(" (")?;
        write_logical(f, lt)?;
        f.write_char(')')?;
    } else if let Some(ct) = node.converted_type {
        write!(f, " ({})", ct.name())?;
    }
    if let Some(id) = node.field_id {
        write!(f, " = {id}")?;
    }
    Ok(())
}

impl Schema {
    /// Node `i` as its line of message text (`optional binary name (STRING)`), without a
    /// group's children: how error messages name a column's type.
    pub fn node_text(&self, i: usize) -> Option<String> {
        let mut s = String::new();
        write_node_head(&mut s, self.node(i)?, 0).ok()?;
        Some(s)
    }
}

fn physical_name(t: PhysicalType) -> &'static str {
    match t {
        PhysicalType::Boolean => "boolean",
        PhysicalType::Int32 => "int32",
        PhysicalType::Int64 => "int64",
        PhysicalType::Int96 => "int96",
        PhysicalType::Float => "float",
        PhysicalType::Double => "double",
        PhysicalType::ByteArray => "binary",
        PhysicalType::FixedLenByteArray => "fixed_len_byte_array",
    }
}

impl fmt::Display for Schema {
    /// The message text: `message m {`, one field per line indented by two spaces, `}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("message ")?;
        write_token(f, self.name())?;
        f.write_str(" {\n")?;
        // Groups still open (node indices); the root is open throughout.
        let mut open: Vec<usize> = alloc::vec![0];
        for (i, node) in self.nodes().iter().enumerate().skip(1) {
            while open.len() > 1 && open.last().copied() != node.parent {
                open.pop();
                close(f, open.len())?;
            }
            write_node_head(f, node, open.len())?;
            if node.is_group() {
                f.write_str(" {\n")?;
                open.push(i);
            } else {
                f.write_str(";\n")?;
            }
        }
        while open.len() > 1 {
            open.pop();
            close(f, open.len())?;
        }
        f.write_char('}')
    }
}

fn close(f: &mut impl fmt::Write, indent: usize) -> fmt::Result {
    for _ in 0..indent {
        f.write_str("  ")?;
    }
    f.write_str("}\n")
}

// ---------------------------------------------------------------------------------------------
// Parsing

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// One of `;{}(),=`.
    Punct(char),
    /// A run of characters that are not whitespace, control, delimiters.
    Word(String),
    /// A double-quoted string, unescaped.
    Quoted(String),
    End,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Punct(c) => write!(f, "'{c}'"),
            Tok::Word(w) => write!(f, "'{w}'"),
            Tok::Quoted(q) => write!(f, "{q:?}"),
            Tok::End => f.write_str("end of text"),
        }
    }
}

struct Lexer<'a> {
    chars: core::iter::Peekable<core::str::Chars<'a>>,
    line: usize,
    column: usize,
    /// Position of the token last returned.
    at: (usize, usize),
    peeked: Option<(Tok, (usize, usize))>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
            at: (1, 1),
            peeked: None,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, expected: &str, found: &Tok) -> Error {
        Error::invalid_argument(format!(
            "schema text, line {}, column {}: expected {expected}, found {found}",
            self.at.0, self.at.1
        ))
    }

    fn lex(&mut self) -> Result<(Tok, (usize, usize))> {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
        let pos = (self.line, self.column);
        let Some(&c) = self.chars.peek() else {
            return Ok((Tok::End, pos));
        };
        if ";{}(),=".contains(c) {
            self.bump();
            return Ok((Tok::Punct(c), pos));
        }
        if c == '"' {
            self.bump();
            let mut s = String::new();
            loop {
                let bad = |what: &str, l: &Self| {
                    Error::invalid_argument(format!(
                        "schema text, line {}, column {}: {what}",
                        l.line, l.column
                    ))
                };
                match self.bump() {
                    None => return Err(bad("unterminated quoted name", self)),
                    Some('"') => break,
                    Some('\\') => match self.bump() {
                        Some('"') => s.push('"'),
                        Some('\\') => s.push('\\'),
                        Some('n') => s.push('\n'),
                        Some('r') => s.push('\r'),
                        Some('t') => s.push('\t'),
                        Some('u') => {
                            if self.bump() != Some('{') {
                                return Err(bad("expected '{' after \\u", self));
                            }
                            let mut v: u32 = 0;
                            let mut digits = 0;
                            loop {
                                match self.bump() {
                                    Some('}') if digits > 0 => break,
                                    Some(h) if h.is_ascii_hexdigit() && digits < 6 => {
                                        v = v * 16 + h.to_digit(16).unwrap_or(0);
                                        digits += 1;
                                    }
                                    _ => return Err(bad("bad \\u{...} escape", self)),
                                }
                            }
                            match char::from_u32(v) {
                                Some(ch) => s.push(ch),
                                None => return Err(bad("\\u{...} is not a character", self)),
                            }
                        }
                        _ => return Err(bad("unknown escape in quoted name", self)),
                    },
                    Some(ch) => s.push(ch),
                }
            }
            return Ok((Tok::Quoted(s), pos));
        }
        if c.is_control() || c == '\\' {
            self.bump();
            return Err(Error::invalid_argument(format!(
                "schema text, line {}, column {}: unexpected character {c:?}",
                pos.0, pos.1
            )));
        }
        let mut s = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || c.is_control() || DELIMITERS.contains(&c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        Ok((Tok::Word(s), pos))
    }

    fn next(&mut self) -> Result<Tok> {
        let (tok, pos) = match self.peeked.take() {
            Some(p) => p,
            None => self.lex()?,
        };
        self.at = pos;
        Ok(tok)
    }

    fn peek(&mut self) -> Result<&Tok> {
        if self.peeked.is_none() {
            let p = self.lex()?;
            self.peeked = Some(p);
        }
        static END: Tok = Tok::End;
        Ok(self.peeked.as_ref().map_or(&END, |p| &p.0))
    }

    fn expect_punct(&mut self, c: char) -> Result<()> {
        let t = self.next()?;
        if t == Tok::Punct(c) {
            Ok(())
        } else {
            Err(self.error(&format!("'{c}'"), &t))
        }
    }

    /// A name: a bare word or a quoted string.
    fn name(&mut self, what: &str) -> Result<String> {
        match self.next()? {
            Tok::Word(w) => Ok(w),
            Tok::Quoted(q) => Ok(q),
            t => Err(self.error(what, &t)),
        }
    }

    fn word(&mut self, what: &str) -> Result<String> {
        match self.next()? {
            Tok::Word(w) => Ok(w),
            t => Err(self.error(what, &t)),
        }
    }

    fn int<T: core::str::FromStr>(&mut self, what: &str) -> Result<T> {
        match self.next()? {
            Tok::Word(w) => match w.parse() {
                Ok(v) => Ok(v),
                Err(_) => Err(self.error(what, &Tok::Word(w))),
            },
            t => Err(self.error(what, &t)),
        }
    }
}

/// An annotation as parsed: what goes into the element.
struct Annotation {
    logical: Option<LogicalType>,
    converted: Option<ConvertedType>,
}

fn parse_bool((p, pos): &(Param, Pos)) -> Result<bool> {
    match p {
        Param::Word(w) if w.eq_ignore_ascii_case("true") => Ok(true),
        Param::Word(w) if w.eq_ignore_ascii_case("false") => Ok(false),
        p => Err(error_at(*pos, "true or false", &p.tok())),
    }
}

fn parse_unit((p, pos): &(Param, Pos)) -> Result<TimeUnit> {
    match p {
        Param::Word(w) if w.eq_ignore_ascii_case("MILLIS") => Ok(TimeUnit::Millis),
        Param::Word(w) if w.eq_ignore_ascii_case("MICROS") => Ok(TimeUnit::Micros),
        Param::Word(w) if w.eq_ignore_ascii_case("NANOS") => Ok(TimeUnit::Nanos),
        p => Err(error_at(*pos, "MILLIS, MICROS or NANOS", &p.tok())),
    }
}

fn parse_num<T: core::str::FromStr>((p, pos): &(Param, Pos), what: &str) -> Result<T> {
    match p {
        Param::Word(w) => w.parse().map_err(|_| error_at(*pos, what, &p.tok())),
        p => Err(error_at(*pos, what, &p.tok())),
    }
}

type Pos = (usize, usize);

fn error_at(pos: Pos, expected: &str, found: &Tok) -> Error {
    Error::invalid_argument(format!(
        "schema text, line {}, column {}: expected {expected}, found {found}",
        pos.0, pos.1
    ))
}

/// One annotation parameter; `Empty` where a comma follows `(` or another comma.
enum Param {
    Word(String),
    Quoted(String),
    Empty,
}

impl Param {
    fn tok(&self) -> Tok {
        match self {
            Param::Word(w) => Tok::Word(w.clone()),
            Param::Quoted(q) => Tok::Quoted(q.clone()),
            Param::Empty => Tok::Punct(','),
        }
    }
    fn string(&self) -> Option<String> {
        match self {
            Param::Word(w) | Param::Quoted(w) => Some(w.clone()),
            Param::Empty => None,
        }
    }
}

/// Parses `NAME` or `NAME(params)` after the opening `(` of an annotation.
fn parse_annotation(lx: &mut Lexer<'_>) -> Result<Annotation> {
    let name = lx.word("an annotation name")?;
    let name_pos = lx.at;
    let mut params: Vec<(Param, Pos)> = Vec::new();
    if lx.peek()? == &Tok::Punct('(') {
        lx.next()?;
        let mut expect_param = true;
        loop {
            match lx.next()? {
                Tok::Punct(')') => {
                    if expect_param && !params.is_empty() {
                        params.push((Param::Empty, lx.at));
                    }
                    break;
                }
                Tok::Punct(',') => {
                    if expect_param {
                        params.push((Param::Empty, lx.at));
                    }
                    expect_param = true;
                }
                Tok::Word(w) if expect_param => {
                    params.push((Param::Word(w), lx.at));
                    expect_param = false;
                }
                Tok::Quoted(q) if expect_param => {
                    params.push((Param::Quoted(q), lx.at));
                    expect_param = false;
                }
                t => return Err(lx.error("an annotation parameter, ',' or ')'", &t)),
            }
        }
    }
    let up = name.to_ascii_uppercase();
    let arity = |ok: &[usize]| -> Result<()> {
        if ok.contains(&params.len()) {
            return Ok(());
        }
        let counts: Vec<String> = ok.iter().map(|n| format!("{n}")).collect();
        Err(Error::invalid_argument(format!(
            "schema text, line {}, column {}: {up} takes {} parameters, found {}",
            name_pos.0,
            name_pos.1,
            counts.join(" or "),
            params.len()
        )))
    };
    let logical = |lt: LogicalType| Annotation {
        logical: Some(lt),
        converted: None,
    };
    let converted = |ct: ConvertedType| Annotation {
        logical: None,
        converted: Some(ct),
    };
    let without_parameters = match up.as_str() {
        "STRING" => Some(logical(LogicalType::String)),
        "MAP" => Some(logical(LogicalType::Map)),
        "LIST" => Some(logical(LogicalType::List)),
        "ENUM" => Some(logical(LogicalType::Enum)),
        "DATE" => Some(logical(LogicalType::Date)),
        "UNKNOWN" => Some(logical(LogicalType::Unknown)),
        "JSON" => Some(logical(LogicalType::Json)),
        "BSON" => Some(logical(LogicalType::Bson)),
        "UUID" => Some(logical(LogicalType::Uuid)),
        "FLOAT16" => Some(logical(LogicalType::Float16)),
        "FILE" => Some(logical(LogicalType::File)),
        // The old names: UTF8, INT_8, TIMESTAMP_MILLIS, INTERVAL, MAP_KEY_VALUE, ...
        // (DECIMAL takes parameters and is matched below, as a logical type.)
        "DECIMAL" => None,
        _ => up.parse::<ConvertedType>().ok().map(converted),
    };
    if let Some(a) = without_parameters {
        arity(&[0])?;
        return Ok(a);
    }
    let missing = (Param::Empty, name_pos);
    let p = |i: usize| params.get(i).unwrap_or(&missing);
    Ok(match up.as_str() {
        "DECIMAL" => {
            arity(&[1, 2])?;
            let precision = parse_num(p(0), "a DECIMAL precision")?;
            let scale = if params.len() == 2 {
                parse_num(p(1), "a DECIMAL scale")?
            } else {
                0
            };
            logical(LogicalType::Decimal { scale, precision })
        }
        "TIME" | "TIMESTAMP" => {
            arity(&[2])?;
            let unit = parse_unit(p(0))?;
            let is_adjusted_to_utc = parse_bool(p(1))?;
            logical(if up == "TIME" {
                LogicalType::Time {
                    is_adjusted_to_utc,
                    unit,
                }
            } else {
                LogicalType::Timestamp {
                    is_adjusted_to_utc,
                    unit,
                }
            })
        }
        "INTEGER" | "INT" => {
            arity(&[2])?;
            logical(LogicalType::Integer {
                bit_width: parse_num(p(0), "a bit width")?,
                is_signed: parse_bool(p(1))?,
            })
        }
        "VARIANT" => {
            arity(&[0, 1])?;
            let specification_version = match params.first() {
                Some(v) => Some(parse_num(v, "a VARIANT specification version")?),
                None => None,
            };
            logical(LogicalType::Variant {
                specification_version,
            })
        }
        "GEOMETRY" => {
            arity(&[0, 1])?;
            logical(LogicalType::Geometry {
                crs: params.first().and_then(|p| p.0.string()),
            })
        }
        "GEOGRAPHY" => {
            arity(&[0, 1, 2])?;
            const ALGORITHM: &str = "an edge interpolation algorithm";
            let algorithm = match params.get(1) {
                Some((Param::Word(w), pos)) => Some(
                    w.to_ascii_uppercase()
                        .parse::<EdgeInterpolationAlgorithm>()
                        .map_err(|_| error_at(*pos, ALGORITHM, &p(1).0.tok()))?,
                ),
                Some((Param::Empty, _)) | None => None,
                Some((q, pos)) => return Err(error_at(*pos, ALGORITHM, &q.tok())),
            };
            logical(LogicalType::Geography {
                crs: params.first().and_then(|p| p.0.string()),
                algorithm,
            })
        }
        _ => {
            return Err(Error::invalid_argument(format!(
                "schema text, line {}, column {}: unknown annotation {name:?}",
                name_pos.0, name_pos.1
            )))
        }
    })
}

fn parse_physical(word: &str) -> Option<PhysicalType> {
    Some(match word.to_ascii_lowercase().as_str() {
        "boolean" => PhysicalType::Boolean,
        "int32" => PhysicalType::Int32,
        "int64" => PhysicalType::Int64,
        "int96" => PhysicalType::Int96,
        "float" => PhysicalType::Float,
        "double" => PhysicalType::Double,
        "binary" | "byte_array" => PhysicalType::ByteArray,
        "fixed_len_byte_array" => PhysicalType::FixedLenByteArray,
        _ => return None,
    })
}

fn parse_repetition(word: &str) -> Option<FieldRepetitionType> {
    Some(match word.to_ascii_lowercase().as_str() {
        "required" => FieldRepetitionType::Required,
        "optional" => FieldRepetitionType::Optional,
        "repeated" => FieldRepetitionType::Repeated,
        _ => return None,
    })
}

impl Schema {
    /// Parses the message text format (see `text.rs` for the grammar):
    ///
    /// ```
    /// use parket::schema::Schema;
    /// let s = Schema::parse("message m {\n  required int32 a (INTEGER(8,false)) = 3;\n}")?;
    /// assert_eq!(s.columns()[0].path_string(), "a");
    /// assert_eq!(s.to_string(), "message m {\n  required int32 a (INTEGER(8,false)) = 3;\n}");
    /// let e = Schema::parse("message m {\n  required int33 a;\n}").unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "schema text, line 2, column 12: expected a primitive type or 'group', found 'int33'"
    /// );
    /// # Ok::<(), parket::Error>(())
    /// ```
    ///
    /// Errors ([`Error::invalid_argument`]) give the line and column (1-based) and what was
    /// expected, or name the field whose annotation does not fit (the same rules as the
    /// builder). Never panics; nesting is bounded by [`Limits::nesting_depth`]'s default.
    pub fn parse(text: &str) -> Result<Schema> {
        let mut lx = Lexer::new(text);
        let t = lx.next()?;
        if !matches!(&t, Tok::Word(w) if w.eq_ignore_ascii_case("message")) {
            return Err(lx.error("'message'", &t));
        }
        let name = lx.name("the message name")?;
        lx.expect_punct('{')?;
        let mut elements = alloc::vec![SchemaElement {
            name,
            num_children: Some(0),
            ..SchemaElement::default()
        }];
        // Open groups, as indices into `elements`.
        let mut open: Vec<usize> = alloc::vec![0];
        let max_depth = Limits::default().nesting_depth as usize;
        while let Some(&parent) = open.last() {
            let t = lx.next()?;
            let rep_word = match t {
                Tok::Punct('}') => {
                    open.pop();
                    continue;
                }
                Tok::Word(w) => w,
                t => return Err(lx.error("a repetition or '}'", &t)),
            };
            let Some(repetition) = parse_repetition(&rep_word) else {
                return Err(lx.error(
                    "'required', 'optional', 'repeated' or '}'",
                    &Tok::Word(rep_word),
                ));
            };
            let type_word = lx.word("a primitive type or 'group'")?;
            let is_group = type_word.eq_ignore_ascii_case("group");
            let mut e = SchemaElement {
                repetition_type: Some(repetition),
                ..SchemaElement::default()
            };
            if !is_group {
                let Some(physical) = parse_physical(&type_word) else {
                    return Err(lx.error("a primitive type or 'group'", &Tok::Word(type_word)));
                };
                e.type_ = Some(physical);
                if physical == PhysicalType::FixedLenByteArray {
                    lx.expect_punct('(')?;
                    e.type_length = Some(lx.int("a byte length")?);
                    lx.expect_punct(')')?;
                }
            }
            e.name = lx.name("a field name")?;
            if lx.peek()? == &Tok::Punct('(') {
                lx.next()?;
                let a = parse_annotation(&mut lx)?;
                lx.expect_punct(')')?;
                e.converted_type = a.converted;
                if let Some(lt) = a.logical {
                    // Written as parquet-java writes it: the logical type with its converted
                    // type (and DECIMAL's scale and precision).
                    e.converted_type = super::converted_type_of(&lt);
                    if let LogicalType::Decimal { scale, precision } = lt {
                        e.scale = Some(scale);
                        e.precision = Some(precision);
                    }
                    e.logical_type = Some(lt);
                }
            }
            if lx.peek()? == &Tok::Punct('=') {
                lx.next()?;
                e.field_id = Some(lx.int("a field id")?);
            }
            let index = elements.len();
            if is_group {
                lx.expect_punct('{')?;
                if open.len() > max_depth {
                    return Err(Error::invalid_argument(format!(
                        "schema text, line {}, column {}: groups nested deeper than {max_depth}",
                        lx.at.0, lx.at.1
                    )));
                }
                e.num_children = Some(0);
                open.push(index);
            } else {
                lx.expect_punct(';')?;
            }
            if let Some(p) = elements.get_mut(parent) {
                p.num_children = Some(p.num_children.unwrap_or(0).saturating_add(1));
            }
            elements.push(e);
        }
        let t = lx.next()?;
        if t != Tok::End {
            return Err(lx.error("end of text after the message", &t));
        }
        Schema::from_elements_strict(&elements)
    }
}

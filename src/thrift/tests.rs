//! Protocol tests: hand-worked bytes, skipping every type, depth limit, arbitrary bytes.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;

use super::*;
use crate::error::ErrorKind;

thrift_struct! {
    /// A small struct for hand-worked bytes.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Small {
        /// 1
        1: required a: i32,
        /// 2
        2: optional flag: bool,
        /// 3
        3: optional name: String,
        /// 17 (long-form header when it follows field 1 or 2 directly)
        17: optional big: i64,
        /// 18
        18: optional flags: Vec<bool>,
    }
}

/// `Small { a: -1, flag: false, name: "hi", big: 300, flags: [true, false] }`, by hand:
const SMALL: &[u8] = &[
    0x15, 0x01, // field 1 (delta 1), I32; zigzag(-1) = 1
    0x12, // field 2 (delta 1), BOOL_FALSE: the value is in the header
    0x18, 0x02, b'h', b'i', // field 3 (delta 1), BINARY; length 2; "hi"
    0x06, 0x22, // field 17: delta 14 would fit, but see below; here: long form
    0xd8, 0x04, // zigzag(300) = 600 = 0x258 -> varint d8 04
    0x19, 0x21, 0x01,
    0x02, // field 18 (delta 1), LIST; size 2, elem BOOL; 1 = true, 2 = false
    0x00, // stop
];

#[test]
fn hand_worked_struct() {
    let s = Small {
        a: -1,
        flag: Some(false),
        name: Some("hi".into()),
        big: Some(300),
        flags: Some(vec![true, false]),
    };
    // Field 17 after field 3 is a delta of 14: the writer uses the short form 0xe6.
    let mut out = Vec::new();
    s.encode(&mut out);
    let mut expected = SMALL.to_vec();
    expected.splice(7..9, [0xe6]);
    assert_eq!(out, expected);
    // The long form decodes to the same value.
    let (v, n) = decode_prefix::<Small>(SMALL, 64).unwrap();
    assert_eq!((v, n), (s, SMALL.len()));
    // Bool list elements written as 0 for false are accepted too.
    let mut zero_false = SMALL.to_vec();
    zero_false[14] = 0;
    assert_eq!(
        decode_prefix::<Small>(&zero_false, 64).unwrap().0.flags,
        Some(vec![true, false])
    );
}

#[test]
fn missing_required_and_bad_utf8_name_the_field() {
    let e = decode_prefix::<Small>(&[0x00], 64).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid file: missing required field Small.a (byte offset 0)"
    );
    let e = decode_prefix::<Small>(&[0x15, 0x00, 0x28, 0x01, 0xff, 0x00], 64).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid file: string field Small.name is not valid UTF-8 (byte offset 3)"
    );
}

#[test]
fn varints_and_ranges() {
    // i32 beyond range: zigzag(2^31) = 2^32 -> 80 80 80 80 10
    let e = Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x10], 8)
        .i32()
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::OutOfRange { .. }));
    assert_eq!(
        Reader::new(&[0xfe, 0xff, 0xff, 0xff, 0x0f], 8)
            .i32()
            .unwrap(),
        i32::MAX
    );
    assert_eq!(Reader::new(&[0xff, 0xff, 0x03], 8).i16().unwrap(), i16::MIN);
    assert!(Reader::new(&[0x80, 0x80, 0x04], 8).i16().is_err());
    // double 1.0 = 3ff0000000000000, little-endian
    assert_eq!(
        Reader::new(&[0, 0, 0, 0, 0, 0, 0xf0, 0x3f], 8)
            .double()
            .unwrap(),
        1.0
    );
    // binary longer than the input: error before allocating
    let e = Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2], 8)
        .binary()
        .unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::Truncated {
            needed: 0xffff_ffff,
            available: 2,
            ..
        }
    ));
    // map: size 3 needs 6 bytes at least
    let e = Reader::new(&[0x03, 0x55, 0, 0, 0, 0], 8)
        .map_header()
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }));
    assert_eq!(Reader::new(&[0x00], 8).map_header().unwrap(), (0, 0, 0));
    // list long form: 0xf5 then varint 15
    let mut r = Reader::new(
        &[0xf5, 0x0f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        8,
    );
    assert_eq!(r.list_header().unwrap(), (I32, 15));
}

/// A struct with field 1 = i32 7, then one unknown field of `unknown` bytes (a field header
/// with id 2 included), then field 3 = string "x".
fn with_unknown(unknown: &[u8]) -> Vec<u8> {
    let mut v = vec![0x15, 0x0e];
    v.extend_from_slice(unknown);
    // field 3 follows field 2: delta 1
    v.extend_from_slice(&[0x18, 0x01, b'x', 0x00]);
    v
}

thrift_struct! {
    /// Fields 1 and 3 only.
    #[derive(Debug, Clone, PartialEq)]
    pub struct OneThree {
        /// 1
        1: required a: i32,
        /// 3
        3: required c: String,
    }
}

#[test]
fn skips_unknown_fields_of_every_type() {
    let cases: &[(&str, &[u8])] = &[
        ("bool true", &[0x11]),
        ("bool false", &[0x12]),
        ("byte", &[0x13, 0x7f]),
        ("i16", &[0x14, 0xff, 0x03]),
        ("i32", &[0x15, 0x80, 0x01]),
        ("i64", &[0x16, 0xff, 0xff, 0xff, 0xff, 0x0f]),
        ("double", &[0x17, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]),
        ("binary", &[0x18, 0x03, b'a', b'b', b'c']),
        ("list<i32>", &[0x19, 0x25, 0x02, 0x04]),
        ("list<bool>", &[0x19, 0x31, 0x01, 0x02, 0x00]),
        ("set<binary>", &[0x1a, 0x18, 0x01, b'z']),
        (
            "list long form",
            &[
                0x19, 0xf3, 0x0f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
        ),
        ("empty list", &[0x19, 0x0c]),
        (
            "map<i32, binary>",
            &[0x1b, 0x02, 0x58, 0x02, 0x01, b'a', 0x04, 0x00],
        ),
        ("map<bool, bool>", &[0x1b, 0x01, 0x11, 0x01, 0x02]),
        ("empty map", &[0x1b, 0x00]),
        // struct { 1: struct { 1: i32 5, 2: bool true }, 5: list<i32>[1] }
        (
            "nested struct",
            &[0x1c, 0x1c, 0x15, 0x0a, 0x11, 0x00, 0x49, 0x15, 0x02, 0x00],
        ),
        // list<struct> of two structs: { 1: i32 1 }, { 1: map<i32, i32> {1: 2} }
        (
            "list of structs",
            &[
                0x19, 0x2c, 0x15, 0x02, 0x00, 0x1b, 0x01, 0x55, 0x02, 0x04, 0x00,
            ],
        ),
        // long-form header: type then zigzag id 2 = 4
        ("long-form header", &[0x08, 0x04, 0x01, b'q']),
    ];
    for (what, unknown) in cases {
        let bytes = with_unknown(unknown);
        let (v, n) =
            decode_prefix::<OneThree>(&bytes, 64).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!((v.a, v.c.as_str(), n), (7, "x", bytes.len()), "{what}");
        // Reader::skip on the field's value alone consumes exactly it.
        let mut r = Reader::new(unknown, 64);
        let mut last = 1;
        let (_, t) = r.field_header(&mut last).unwrap().unwrap();
        r.skip(t).unwrap();
        assert_eq!(r.remaining(), 0, "{what}");
    }
    // A field of a known id with a wire type that does not match the IDL is skipped too.
    // Field 3 as list<i32> [1] (skipped), then field 3 as the string (long form: id 3 again).
    let bytes = [0x15, 0x0e, 0x29, 0x15, 0x02, 0x08, 0x06, 0x01, b'x', 0x00];
    let (v, _) = decode_prefix::<OneThree>(&bytes, 64).unwrap();
    assert_eq!((v.a, v.c.as_str()), (7, "x"));
}

#[test]
fn deep_nesting_hits_the_depth_limit() {
    // 100 000 nested structs as an unknown field: field 2 (delta 1) of type STRUCT, again and
    // again.
    let mut bytes = vec![0x15, 0x0e];
    bytes.extend(core::iter::repeat_n(0x1c, 100_000));
    let e = decode_prefix::<OneThree>(&bytes, 64).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::LimitExceeded {
                what: "Thrift nesting depth",
                limit: 64,
                ..
            }
        ),
        "{e}"
    );
    // Nested lists count too: list<list<list<...>>>.
    let mut bytes = vec![0x15, 0x0e, 0x19];
    bytes.extend(core::iter::repeat_n(0x19, 100_000));
    let e = decode_prefix::<OneThree>(&bytes, 64).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { .. }), "{e}");
    // Within the limit, it works: 10 nested empty structs.
    let mut bytes = vec![0x15, 0x0e];
    bytes.extend(core::iter::repeat_n(0x1c, 10));
    bytes.extend(core::iter::repeat_n(0x00, 10));
    bytes.extend_from_slice(&[0x18, 0x01, b'x', 0x00]);
    assert!(decode_prefix::<OneThree>(&bytes, 64).is_ok());
    assert!(decode_prefix::<OneThree>(&bytes, 5).is_err());
}

proptest! {
    /// The recursive skip of builds for size reads exactly what the iterative one reads: the
    /// same result (error and its location included) and the same bytes consumed, for every
    /// type id, on arbitrary bytes and on valid structs followed by junk.
    #[test]
    fn recursive_skip_matches_iterative(
        bytes in proptest::collection::vec(any::<u8>(), 0..300),
        small: bool,
        t in 0u8..16,
        depth in 0u32..8,
    ) {
        let mut input = if small { SMALL.to_vec() } else { Vec::new() };
        input.extend_from_slice(&bytes);
        let mut a = Reader::new(&input, depth);
        let ra = a.skip(t);
        let mut b = Reader::new(&input, depth);
        let rb = b.skip_nested(t, false);
        prop_assert_eq!(alloc::format!("{ra:?}"), alloc::format!("{rb:?}"));
        prop_assert_eq!(a.position(), b.position());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = decode_prefix::<Small>(&bytes, 16);
        let mut r = Reader::new(&bytes, 16);
        if let Ok(t) = r.i8() {
            let _ = r.skip(t as u8 & 0x0f);
        }
    }

    #[test]
    fn small_round_trip(
        a: i32,
        flag: Option<bool>,
        name: Option<String>,
        big: Option<i64>,
        flags: Option<Vec<bool>>,
    ) {
        let s = Small { a, flag, name, big, flags };
        let mut out = Vec::new();
        s.encode(&mut out);
        prop_assert_eq!(decode_prefix::<Small>(&out, 64).unwrap(), (s, out.len()));
    }

    #[test]
    fn writer_reader_scalars(v16: i16, v32: i32, v64: i64, d: f64, b: Vec<u8>, id in 1i16..) {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out);
        w.i16(v16);
        w.i32(v32);
        w.i64(v64);
        w.double(d);
        w.binary(&b);
        w.field_header(id, I64);
        let mut r = Reader::new(&out, 8);
        prop_assert_eq!(r.i16().unwrap(), v16);
        prop_assert_eq!(r.i32().unwrap(), v32);
        prop_assert_eq!(r.i64().unwrap(), v64);
        prop_assert_eq!(r.double().unwrap().to_bits(), d.to_bits());
        prop_assert_eq!(r.binary().unwrap(), &b[..]);
        let mut last = 0;
        prop_assert_eq!(r.field_header(&mut last).unwrap(), Some((id, I64)));
    }
}

thrift_struct! {
    /// A struct with `#[extra]` fields, one of them required.
    #[derive(Debug, Clone, PartialEq)]
    pub struct WithExtra {
        /// 1
        1: required a: i32,
        /// 2
        #[extra]
        2: required names: Vec<String>,
        /// 3
        #[extra]
        3: optional b: i64,
    }
}

/// Decodes `bytes` as a `WithExtra` with the default decoder and with the compact one.
fn with_extra_both(bytes: &[u8]) -> [crate::error::Result<(WithExtra, usize)>; 2] {
    [false, true].map(|compact| {
        let mut r = Reader::new(bytes, 8);
        r.compact = compact;
        WithExtra::read(&mut r, Ctx::NONE).map(|v| (v, r.position()))
    })
}

#[test]
fn required_extra_fields_are_skipped_but_still_required() {
    // { 1: a = 1, 2: names = ["x"], 3: b = 2 }, by hand:
    let bytes = [
        0x15, 0x02, // field 1, I32: zigzag(1)
        0x19, 0x18, 0x01, b'x', // field 2, LIST: size 1, BINARY; "x"
        0x16, 0x04, // field 3, I64: zigzag(2)
        0x00, // stop
    ];
    let expected = if cfg!(feature = "metadata-extras") {
        WithExtra {
            a: 1,
            names: vec!["x".into()],
            b: Some(2),
        }
    } else {
        // Skipped: the required field empty, the optional one None.
        WithExtra {
            a: 1,
            names: vec![],
            b: None,
        }
    };
    for got in with_extra_both(&bytes) {
        assert_eq!(got.unwrap(), (expected.clone(), bytes.len()));
    }
    // Without field 2 the struct fails, whether the field is decoded or skipped.
    for got in with_extra_both(&[0x15, 0x02, 0x26, 0x04, 0x00]) {
        assert_eq!(
            got.unwrap_err().to_string(),
            "invalid file: missing required field WithExtra.names (byte offset 0)"
        );
    }
    // A skipped field's bytes are still checked: a list longer than the input fails.
    for got in with_extra_both(&[0x15, 0x02, 0x19, 0xf8, 0x20, 0x00]) {
        assert!(matches!(
            got.unwrap_err().kind(),
            ErrorKind::Truncated { .. }
        ));
    }
}

#[test]
fn a_required_extra_field_of_another_wire_type_is_missing() {
    // { 1: a = 1, 2: an I32 where the IDL has a list }: skipped, so the struct misses field 2,
    // in both decoders and whether or not the field is decoded.
    for got in with_extra_both(&[0x15, 0x02, 0x15, 0x02, 0x00]) {
        assert_eq!(
            got.unwrap_err().to_string(),
            "invalid file: missing required field WithExtra.names (byte offset 0)"
        );
    }
}

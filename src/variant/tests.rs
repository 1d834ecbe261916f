//! Hand-worked bytes from VariantEncoding.md.

use alloc::borrow::Cow;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use super::*;

const EMPTY: &[u8] = &[0x01, 0x00, 0x00];

fn prim(value: &[u8]) -> Primitive<'_> {
    let m = Metadata::decode(EMPTY).unwrap();
    match Variant::decode(m, value).unwrap() {
        Variant::Primitive(p) => p,
        other => panic!("{value:x?}: not a primitive: {other:?}"),
    }
}

#[test]
fn the_module_example_decodes() {
    let m = Metadata::decode(&[0x11, 0x01, 0x00, 0x01, 0x61]).unwrap();
    let v = Variant::decode(m, &[0x02, 0x01, 0x00, 0x00, 0x02, 0x0c, 0x01]).unwrap();
    let o = VariantValue::from_variant(&v, MAX_DEPTH).unwrap();
    assert_eq!(
        o,
        VariantValue::Object(vec![("a".to_string(), Primitive::Int8(1).into())])
    );
}

#[test]
fn every_primitive_type() {
    // value_metadata = type_id << 2 (basic type 0), then the little-endian data.
    assert_eq!(prim(&[0x00]), Primitive::Null);
    assert_eq!(prim(&[0x04]), Primitive::Boolean(true));
    assert_eq!(prim(&[0x08]), Primitive::Boolean(false));
    assert_eq!(prim(&[0x0c, 0xfe]), Primitive::Int8(-2));
    assert_eq!(prim(&[0x10, 0xd2, 0x04]), Primitive::Int16(1234));
    assert_eq!(
        prim(&[0x14, 0x40, 0xe2, 0x01, 0x00]),
        Primitive::Int32(123_456)
    );
    assert_eq!(
        prim(&[0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
        Primitive::Int64(i64::MAX)
    );
    // 1.5 = 0x3FF8000000000000
    assert_eq!(
        prim(&[0x1c, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f]),
        Primitive::Double(1.5)
    );
    // decimal4: scale 2, unscaled 1234 (0x04d2) = 12.34
    assert_eq!(
        prim(&[0x20, 0x02, 0xd2, 0x04, 0x00, 0x00]),
        Primitive::Decimal4 {
            unscaled: 1234,
            scale: 2
        }
    );
    assert_eq!(
        prim(&[0x24, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        Primitive::Decimal8 {
            unscaled: -1,
            scale: 1
        }
    );
    let mut d16 = vec![0x28, 38];
    d16.extend_from_slice(&i128::MIN.to_le_bytes());
    assert_eq!(
        prim(&d16),
        Primitive::Decimal16 {
            unscaled: i128::MIN,
            scale: 38
        }
    );
    // date 2025-04-16 = 20194 days = 0x4EE2
    assert_eq!(prim(&[0x2c, 0xe2, 0x4e, 0, 0]), Primitive::Date(20194));
    let eight = |id: u8| {
        let mut v = vec![id << 2];
        v.extend_from_slice(&(-5i64).to_le_bytes());
        v
    };
    assert_eq!(prim(&eight(12)), Primitive::Timestamp(-5));
    assert_eq!(prim(&eight(13)), Primitive::TimestampNtz(-5));
    assert_eq!(prim(&eight(17)), Primitive::TimeNtz(-5));
    assert_eq!(prim(&eight(18)), Primitive::TimestampNanos(-5));
    assert_eq!(prim(&eight(19)), Primitive::TimestampNtzNanos(-5));
    // float -0.0 = 0x80000000
    let f = prim(&[0x38, 0, 0, 0, 0x80]);
    assert!(f.bit_eq(&Primitive::Float(-0.0)) && !f.bit_eq(&Primitive::Float(0.0)));
    // binary: 4-byte length 2, then the bytes
    assert_eq!(
        prim(&[0x3c, 2, 0, 0, 0, 0xde, 0xad]),
        Primitive::Binary(Cow::Borrowed(&[0xde, 0xad]))
    );
    // string (type id 16): length 3, "abc"; short string: (3 << 2) | 1
    assert_eq!(
        prim(&[0x40, 3, 0, 0, 0, b'a', b'b', b'c']),
        Primitive::String("abc".into())
    );
    assert_eq!(
        prim(&[0x0d, b'a', b'b', b'c']),
        Primitive::String("abc".into())
    );
    assert_eq!(prim(&[0x01]), Primitive::String("".into()));
    let mut uuid = vec![0x50];
    uuid.extend(0u8..16);
    let want: [u8; 16] = core::array::from_fn(|i| i as u8);
    assert_eq!(prim(&uuid), Primitive::Uuid(want));
}

#[test]
fn object_values_in_any_order_and_every_size() {
    // {"a": 1, "b": "x"} with metadata ["b", "a"] (unsorted): ids in name order are [1, 0];
    // values stored "b" first: "x" (short string 05 78) at 0, int8 1 (0c 01) at 2.
    let m = Metadata::decode(&[0x01, 2, 0, 1, 2, b'b', b'a']).unwrap();
    for (id_size, off_size, large) in [
        (1usize, 1usize, false),
        (2, 3, true),
        (4, 4, false),
        (3, 2, true),
    ] {
        let header =
            0x02 | ((u8::from(large) << 4 | (id_size as u8 - 1) << 2 | (off_size as u8 - 1)) << 2);
        let mut v = vec![header];
        let n: u32 = 2;
        v.extend_from_slice(&n.to_le_bytes()[..if large { 4 } else { 1 }]);
        for id in [1u32, 0] {
            v.extend_from_slice(&id.to_le_bytes()[..id_size]);
        }
        for off in [2u32, 0, 4] {
            v.extend_from_slice(&off.to_le_bytes()[..off_size]);
        }
        v.extend_from_slice(&[0x05, b'x', 0x0c, 0x01]);
        let Variant::Object(o) = Variant::decode(m, &v).unwrap() else {
            panic!("not an object")
        };
        assert_eq!(o.len(), 2);
        assert_eq!(
            o.get("a").unwrap(),
            Some(Variant::Primitive(Primitive::Int8(1)))
        );
        assert_eq!(
            o.get("b").unwrap(),
            Some(Variant::Primitive(Primitive::String("x".into())))
        );
        assert_eq!(o.get("c").unwrap(), None);
        let owned = VariantValue::from_variant(&Variant::Object(o), MAX_DEPTH).unwrap();
        assert_eq!(
            owned,
            VariantValue::Object(vec![
                ("a".to_string(), Primitive::Int8(1).into()),
                ("b".to_string(), Primitive::String("x".into()).into()),
            ])
        );
    }
}

#[test]
fn arrays_nested_and_empty() {
    // The value module's example: {"a": 1, "b": [true]}.
    let m = Metadata::decode(&[0x11, 2, 0, 1, 2, b'a', b'b']).unwrap();
    let v = [
        0x02, 0x02, 0x00, 0x01, 0x00, 0x02, 0x07, 0x0c, 0x01, 0x03, 0x01, 0x00, 0x01, 0x04,
    ];
    let owned = VariantValue::from_variant(&Variant::decode(m, &v).unwrap(), MAX_DEPTH).unwrap();
    assert_eq!(
        owned,
        VariantValue::Object(vec![
            ("a".to_string(), Primitive::Int8(1).into()),
            (
                "b".to_string(),
                VariantValue::Array(vec![Primitive::Boolean(true).into()])
            ),
        ])
    );
    // [] : array header 0x03, num_elements 0, one offset 0.
    let e = Variant::decode(m, &[0x03, 0x00, 0x00]).unwrap();
    assert_eq!(
        VariantValue::from_variant(&e, MAX_DEPTH).unwrap(),
        VariantValue::Array(vec![])
    );
    // {} : object header 0x02, num_elements 0, one offset 0.
    let e = Variant::decode(m, &[0x02, 0x00, 0x00]).unwrap();
    assert_eq!(
        VariantValue::from_variant(&e, MAX_DEPTH).unwrap(),
        VariantValue::Object(vec![])
    );
}

/// `[[[...[null]...]]]`, `depth` arrays deep.
fn nested_arrays(depth: usize) -> Vec<u8> {
    let mut v = vec![0x00];
    for _ in 0..depth {
        let len = v.len() as u8;
        let mut outer = vec![0x03, 0x01, 0x00, len];
        outer.extend_from_slice(&v);
        v = outer;
    }
    v
}

#[test]
fn nesting_deeper_than_the_limit_is_an_error() {
    let m = Metadata::decode(EMPTY).unwrap();
    let v = nested_arrays(10);
    let d = Variant::decode(m, &v).unwrap();
    assert!(d.validate(10).is_ok());
    assert!(VariantValue::from_variant(&d, 10).is_ok());
    let e = d.validate(9).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Variant nesting depth of 10 exceeds the limit of 9"
    );
    assert!(VariantValue::from_variant(&d, 9).is_err());
}

#[test]
fn bad_values_are_located_errors() {
    let m = Metadata::decode(&[0x11, 2, 0, 1, 2, b'a', b'b']).unwrap();
    let cases: &[(&[u8], &str)] = &[
        (&[], "truncated Variant value header: needed 1 bytes, 0 available (byte offset 0)"),
        (&[0x14, 1, 2], "truncated Variant int32: needed 4 bytes, 2 available (byte offset 1)"),
        (&[0x40, 9, 0, 0, 0, b'a'], "truncated Variant string: needed 9 bytes, 1 available (byte offset 5)"),
        (&[0x09, b'a'], "truncated Variant short string: needed 2 bytes, 1 available (byte offset 1)"),
        (&[0x05, 0xff], "Variant string is not valid UTF-8 (byte offset 1)"),
        (&[0x54], "Variant primitive type id (0 to 20 are defined) out of range: 21 (byte offset 0)"),
        (&[0x20, 39, 0, 0, 0, 0], "Variant decimal scale (0 to 38) out of range: 39 (byte offset 1)"),
        (&[0x03, 200, 0], "truncated Variant field ids and offsets: needed 201 bytes, 1 available (byte offset 2)"),
        (&[0x03, 1, 0, 5, 0x00], "truncated Variant container values: needed 5 bytes, 1 available (byte offset 4)"),
        (&[0x13, 0xff, 0xff, 0xff, 0xff], "truncated Variant field ids and offsets"),
    ];
    for (bytes, want) in cases {
        let e = Variant::decode(m, bytes)
            .and_then(|v| v.validate(MAX_DEPTH))
            .unwrap_err();
        assert!(
            e.to_string().contains(want),
            "{bytes:x?}: {e}\n  want: {want}"
        );
    }
    // Errors found on access: an offset past the values, an id past the dictionary, names
    // out of order or repeated.
    let deep: &[(&[u8], &str)] = &[
        (
            &[0x03, 0x01, 0x02, 0x01, 0x00],
            "Variant field offset (past the container's values) out of range: 2 (byte offset 2)",
        ),
        (
            &[0x02, 0x01, 0x07, 0x00, 0x01, 0x00],
            "Variant field id (not in the metadata dictionary) out of range: 7 (byte offset 2)",
        ),
        (
            &[0x02, 0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00],
            "field names are not unique and in byte order (byte offset 3)",
        ),
        (
            &[0x02, 0x02, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00],
            "field names are not unique and in byte order (byte offset 3)",
        ),
    ];
    for (bytes, want) in deep {
        let v = Variant::decode(m, bytes).unwrap();
        let e = v.validate(MAX_DEPTH).unwrap_err();
        assert!(
            e.to_string().contains(want),
            "{bytes:x?}: {e}\n  want: {want}"
        );
        assert_eq!(VariantValue::from_variant(&v, MAX_DEPTH).unwrap_err(), e);
    }
}

#[test]
fn decoding_never_panics_on_any_prefix_or_byte_flip() {
    let m = Metadata::decode(&[0x11, 2, 0, 1, 2, b'a', b'b']).unwrap();
    let v = [
        0x02u8, 0x02, 0x00, 0x01, 0x00, 0x02, 0x07, 0x0c, 0x01, 0x03, 0x01, 0x00, 0x01, 0x04,
    ];
    for cut in 0..v.len() {
        let _ = Variant::decode(m, &v[..cut]).and_then(|d| d.validate(MAX_DEPTH));
    }
    for i in 0..v.len() {
        for b in 0..=255u8 {
            let mut w = v;
            w[i] = b;
            if let Ok(d) = Variant::decode(m, &w) {
                let _ = VariantValue::from_variant(&d, MAX_DEPTH);
            }
        }
    }
}

mod round_trip {
    use super::*;
    use alloc::string::String;
    use proptest::prelude::*;

    fn primitive() -> impl Strategy<Value = Primitive<'static>> {
        prop_oneof![
            Just(Primitive::Null),
            any::<bool>().prop_map(Primitive::Boolean),
            any::<i8>().prop_map(Primitive::Int8),
            any::<i16>().prop_map(Primitive::Int16),
            any::<i32>().prop_map(Primitive::Int32),
            any::<i64>().prop_map(Primitive::Int64),
            any::<u64>().prop_map(|b| Primitive::Double(f64::from_bits(b))),
            any::<u32>().prop_map(|b| Primitive::Float(f32::from_bits(b))),
            (any::<i32>(), 0u8..=38)
                .prop_map(|(unscaled, scale)| Primitive::Decimal4 { unscaled, scale }),
            (any::<i64>(), 0u8..=38)
                .prop_map(|(unscaled, scale)| Primitive::Decimal8 { unscaled, scale }),
            (any::<i128>(), 0u8..=38)
                .prop_map(|(unscaled, scale)| Primitive::Decimal16 { unscaled, scale }),
            any::<i32>().prop_map(Primitive::Date),
            any::<i64>().prop_map(Primitive::Timestamp),
            any::<i64>().prop_map(Primitive::TimestampNtz),
            any::<i64>().prop_map(Primitive::TimeNtz),
            any::<i64>().prop_map(Primitive::TimestampNanos),
            any::<i64>().prop_map(Primitive::TimestampNtzNanos),
            any::<[u8; 16]>().prop_map(Primitive::Uuid),
            proptest::collection::vec(any::<u8>(), 0..80).prop_map(|b| Primitive::Binary(b.into())),
            // Around the short-string boundary of 63 bytes, and beyond.
            "\\PC{0,70}".prop_map(|s: String| Primitive::String(s.into())),
        ]
    }

    fn variant() -> impl Strategy<Value = VariantValue> {
        primitive()
            .prop_map(VariantValue::Primitive)
            .prop_recursive(5, 300, 20, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 0..20).prop_map(VariantValue::Array),
                    proptest::collection::btree_map("[a-c]{0,3}|\\PC{0,4}", inner, 0..12)
                        .prop_map(|m| VariantValue::Object(m.into_iter().collect())),
                ]
            })
    }

    proptest! {
        #[test]
        fn encode_then_decode_gives_the_same_value(v in variant()) {
            let (metadata, value) = encode(&v).unwrap();
            let m = Metadata::decode(&metadata).unwrap();
            prop_assert!(m.is_sorted());
            prop_assert_eq!(m.encoded_len(), metadata.len());
            let d = Variant::decode(m, &value).unwrap();
            d.validate(MAX_DEPTH).unwrap();
            let back = VariantValue::from_variant(&d, MAX_DEPTH).unwrap();
            prop_assert!(back.bit_eq(&v), "{:?}\n!= {:?}", back, v);
        }
    }

    #[test]
    fn large_containers_use_wide_sizes() {
        // 300 elements: is_large; 300 distinct names: 2-byte field ids; > 64 KiB of values:
        // 3-byte offsets.
        let big = "x".repeat(300);
        let fields: Vec<(String, VariantValue)> = (0..300)
            .map(|i| {
                (
                    alloc::format!("k{i:03}"),
                    Primitive::String(big.clone().into()).into(),
                )
            })
            .collect();
        let v = VariantValue::Array(vec![VariantValue::Object(fields); 1]);
        let (metadata, value) = encode(&v).unwrap();
        // object header inside the array: is_large 1, id size 2, offset size 3.
        let m = Metadata::decode(&metadata).unwrap();
        assert_eq!(m.len(), 300);
        let Variant::Array(a) = Variant::decode(m, &value).unwrap() else {
            panic!()
        };
        let Variant::Object(o) = a.get(0).unwrap() else {
            panic!()
        };
        assert_eq!(o.len(), 300);
        assert_eq!(
            VariantValue::from_variant(&Variant::decode(m, &value).unwrap(), MAX_DEPTH).unwrap(),
            v
        );
        let header = value[value.len() - o.len() * 305 - 301 * 3 - 300 * 2 - 4 - 1];
        assert_eq!(
            header,
            0x02 | ((1 << 4 | 1 << 2 | 2) << 2),
            "is_large, 2-byte ids, 3-byte offsets"
        );
    }
}

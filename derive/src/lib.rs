//! `#[derive(Record)]` for parket: see `parket::typed` for what the generated code does and
//! `parket::Record` for the attributes. This crate only turns a struct or unit-only enum into
//! calls of `parket::typed`'s helpers; every Parquet rule lives in parket.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput, Error, Fields, LitBool, LitInt, LitStr};

/// Derives `parket::Record` (structs) or parket's field codec for a unit-only enum (written as
/// an ENUM-annotated string of the variant name).
#[proc_macro_derive(Record, attributes(parket))]
pub fn derive_record(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// What `#[parket(...)]` on a field says.
#[derive(Default)]
struct FieldAttrs {
    name: Option<String>,
    skip: bool,
    annotation: Option<Tokens>,
    encoding: Option<Tokens>,
}

const ENCODINGS: &[(&str, &str)] = &[
    ("PLAIN", "Plain"),
    ("PLAIN_DICTIONARY", "PlainDictionary"),
    ("RLE", "Rle"),
    ("BIT_PACKED", "BitPacked"),
    ("DELTA_BINARY_PACKED", "DeltaBinaryPacked"),
    ("DELTA_LENGTH_BYTE_ARRAY", "DeltaLengthByteArray"),
    ("DELTA_BYTE_ARRAY", "DeltaByteArray"),
    ("RLE_DICTIONARY", "RleDictionary"),
    ("BYTE_STREAM_SPLIT", "ByteStreamSplit"),
    ("ALP", "Alp"),
];

fn unit(s: &LitStr) -> syn::Result<Tokens> {
    Ok(match s.value().as_str() {
        "millis" => quote!(::parket::format::TimeUnit::Millis),
        "micros" => quote!(::parket::format::TimeUnit::Micros),
        "nanos" => quote!(::parket::format::TimeUnit::Nanos),
        _ => {
            return Err(Error::new(
                s.span(),
                "unit must be \"millis\", \"micros\" or \"nanos\"",
            ))
        }
    })
}

fn field_attrs(attrs: &[syn::Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("parket")) {
        attr.parse_nested_meta(|meta| {
            let set = |out: &mut Option<Tokens>, t: Tokens| {
                if out.is_some() {
                    return Err(meta.error("a field takes one type annotation"));
                }
                *out = Some(t);
                Ok(())
            };
            if meta.path.is_ident("name") {
                out.name = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("skip") {
                out.skip = true;
            } else if meta.path.is_ident("date") {
                set(&mut out.annotation, quote!(::parket::typed::Annotation::Date))?;
            } else if meta.path.is_ident("uuid") {
                set(&mut out.annotation, quote!(::parket::typed::Annotation::Uuid))?;
            } else if meta.path.is_ident("json") {
                set(&mut out.annotation, quote!(::parket::typed::Annotation::Json))?;
            } else if meta.path.is_ident("time") || meta.path.is_ident("timestamp") {
                let is_time = meta.path.is_ident("time");
                let mut u = None;
                let mut utc = !is_time;
                meta.parse_nested_meta(|m| {
                    if m.path.is_ident("unit") {
                        u = Some(unit(&m.value()?.parse::<LitStr>()?)?);
                    } else if m.path.is_ident("utc") {
                        utc = m.value()?.parse::<LitBool>()?.value;
                    } else {
                        return Err(m.error("expected `unit = \"..\"` or `utc = true|false`"));
                    }
                    Ok(())
                })?;
                let u = u.ok_or_else(|| meta.error("`unit = \"millis\" | \"micros\" | \"nanos\"` is required"))?;
                let t = if is_time {
                    quote!(::parket::typed::Annotation::Time { unit: #u, utc: #utc })
                } else {
                    quote!(::parket::typed::Annotation::Timestamp { unit: #u, utc: #utc })
                };
                set(&mut out.annotation, t)?;
            } else if meta.path.is_ident("decimal") {
                let (mut p, mut s) = (None, None);
                meta.parse_nested_meta(|m| {
                    let v: LitInt = m.value()?.parse()?;
                    if m.path.is_ident("precision") {
                        p = Some(v.base10_parse::<i32>()?);
                    } else if m.path.is_ident("scale") {
                        s = Some(v.base10_parse::<i32>()?);
                    } else {
                        return Err(m.error("expected `precision = P` or `scale = S`"));
                    }
                    Ok(())
                })?;
                let (Some(p), Some(s)) = (p, s) else {
                    return Err(meta.error("decimal needs `precision = P, scale = S`"));
                };
                if !(1..=38).contains(&p) || s < 0 || s > p {
                    return Err(meta.error("decimal needs 1 <= precision <= 38 and 0 <= scale <= precision"));
                }
                set(
                    &mut out.annotation,
                    quote!(::parket::typed::Annotation::Decimal { precision: #p, scale: #s }),
                )?;
            } else if meta.path.is_ident("encoding") {
                let lit: LitStr = meta.value()?.parse()?;
                let v = lit.value();
                let Some((_, variant)) = ENCODINGS.iter().find(|(n, _)| *n == v) else {
                    let names: Vec<&str> = ENCODINGS.iter().map(|(n, _)| *n).collect();
                    return Err(Error::new(
                        lit.span(),
                        format!("unknown encoding; the spec's names are {}", names.join(", ")),
                    ));
                };
                let variant = syn::Ident::new(variant, Span::call_site());
                out.encoding = Some(quote!(::parket::format::Encoding::#variant));
            } else {
                return Err(meta.error(
                    "unknown parket attribute (name, skip, date, time, timestamp, decimal, uuid, json, encoding)",
                ));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    if !input.generics.params.is_empty() {
        return Err(Error::new_spanned(
            &input.generics,
            "#[derive(Record)] does not take generic types",
        ));
    }
    match &input.data {
        Data::Struct(s) => expand_struct(input, &s.fields),
        Data::Enum(e) => expand_enum(input, e),
        Data::Union(_) => Err(Error::new_spanned(
            &input.ident,
            "#[derive(Record)] is for structs and unit-only enums",
        )),
    }
}

fn expand_enum(input: &DeriveInput, e: &syn::DataEnum) -> syn::Result<Tokens> {
    let ident = &input.ident;
    let mut names = Vec::new();
    let mut idents = Vec::new();
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            return Err(Error::new_spanned(
                v,
                "#[derive(Record)] enums are unit-only",
            ));
        }
        let a = field_attrs(&v.attrs)?;
        names.push(a.name.unwrap_or_else(|| v.ident.to_string()));
        idents.push(&v.ident);
    }
    let first = match idents.first() {
        Some(v) => quote!(::core::option::Option::Some(#ident::#v)),
        None => quote!(::core::option::Option::None),
    };
    Ok(quote! {
        impl ::parket::typed::EnumField for #ident {
            const VARIANTS: &'static [&'static str] = &[#(#names),*];
            fn name(&self) -> &'static str {
                match self { #(#ident::#idents => #names,)* }
            }
            fn from_name(name: &[u8]) -> ::core::option::Option<Self> {
                #(if name == #names.as_bytes() { return ::core::option::Option::Some(#ident::#idents); })*
                ::core::option::Option::None
            }
            const FIRST: ::core::option::Option<Self> = #first;
        }
        ::parket::typed::enum_field!(#ident);
    })
}

fn expand_struct(input: &DeriveInput, fields: &Fields) -> syn::Result<Tokens> {
    let ident = &input.ident;
    let Fields::Named(named) = fields else {
        return Err(Error::new_spanned(
            ident,
            "#[derive(Record)] needs a struct with named fields",
        ));
    };
    let mut leaves = Vec::new();
    let mut types = Vec::new();
    let mut writes = Vec::new();
    let mut writes_many = Vec::new();
    let mut binds = Vec::new();
    let mut reads = Vec::new();
    let mut plans = Vec::new();
    let mut columns = Vec::new();
    let mut placeholders = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut k = 0usize;
    for f in &named.named {
        let a = field_attrs(&f.attrs)?;
        let fid = f
            .ident
            .as_ref()
            .ok_or_else(|| Error::new_spanned(f, "unnamed field"))?;
        if a.skip {
            reads.push(quote!(#fid: ::core::default::Default::default()));
            placeholders.push(quote!(#fid: ::core::default::Default::default()));
            continue;
        }
        let ty = &f.ty;
        let name = a
            .name
            .unwrap_or_else(|| fid.to_string().trim_start_matches("r#").to_string());
        if seen.contains(&name) {
            return Err(Error::new_spanned(
                f,
                format!("two fields are named {name:?}"),
            ));
        }
        seen.push(name.clone());
        let ann = a
            .annotation
            .unwrap_or(quote!(::parket::typed::Annotation::None));
        let enc = match a.encoding {
            Some(e) => quote!(::core::option::Option::Some(#e)),
            None => quote!(::core::option::Option::None),
        };
        let attrs = quote!(&::parket::typed::Attrs { annotation: #ann, encoding: #enc });
        leaves.push(quote!(<#ty as ::parket::typed::Field>::LEAVES));
        types.push(quote!(
            <#ty as ::parket::typed::Field>::field_type(ctx, #name, ::parket::format::FieldRepetitionType::Required, #attrs)?
        ));
        writes.push(quote! {
            ::parket::typed::Field::write(&self.#fid, s, col, lv)?;
            col += <#ty as ::parket::typed::Field>::LEAVES;
        });
        writes_many.push(quote! {
            <#ty as ::parket::typed::Field>::write_many(
                ::core::iter::Iterator::map(
                    ::core::clone::Clone::clone(&items),
                    |(v, lv): (::core::option::Option<&'a Self>, ::parket::typed::Lv)| (v.map(|v| &v.#fid), lv),
                ),
                s,
                col,
            )?;
            col += <#ty as ::parket::typed::Field>::LEAVES;
        });
        binds.push(quote!(
            b.bind_member::<#ty>(node, #name, stringify!(#fid), #attrs)?
        ));
        let plan = quote::format_ident!("plan_{}", k);
        reads.push(quote!(#fid: ::parket::typed::read_member::<#ty>(#plan, c)?));
        columns.push(quote! {
            ::parket::typed::read_member_at::<#ty, Self>(#plan, c, slots, &mut rows, |r| &mut r.#fid)?;
        });
        placeholders.push(quote!(#fid: <#ty as ::parket::typed::Field>::placeholder()?));
        plans.push(plan);
        k += 1;
    }
    let name = ident.to_string();
    Ok(quote! {
        impl ::parket::typed::Field for #ident {
            const LEAVES: usize = 0 #(+ #leaves)*;
            fn field_type(
                ctx: &mut ::parket::typed::SchemaCtx,
                name: &str,
                repetition: ::parket::format::FieldRepetitionType,
                attrs: &::parket::typed::Attrs,
            ) -> ::parket::Result<::parket::schema::Type> {
                ctx.enter(name, attrs, stringify!(#ident))?;
                let fields = ::std::vec![#(#types),*];
                ctx.leave();
                ::core::result::Result::Ok(::parket::schema::Type::group(name, repetition, fields))
            }
            #[allow(unused_mut, unused_variables)]
            fn write(
                &self,
                s: &mut ::parket::typed::Shredder,
                mut col: usize,
                lv: ::parket::typed::Lv,
            ) -> ::parket::Result<()> {
                #(#writes)*
                ::core::result::Result::Ok(())
            }
            #[allow(unused_mut, unused_variables)]
            #[inline]
            fn write_many<'a, I>(
                items: I,
                s: &mut ::parket::typed::Shredder,
                mut col: usize,
            ) -> ::parket::Result<()>
            where
                Self: 'a,
                I: ::core::iter::Iterator<Item = (::core::option::Option<&'a Self>, ::parket::typed::Lv)>
                    + ::core::clone::Clone,
            {
                #(#writes_many)*
                ::core::result::Result::Ok(())
            }
            fn bind(
                b: &mut ::parket::typed::Binder<'_>,
                node: usize,
                attrs: &::parket::typed::Attrs,
            ) -> ::parket::Result<::parket::typed::Plan> {
                b.check_group(node, attrs, stringify!(#ident))?;
                ::core::result::Result::Ok(::parket::typed::Plan::Group(::std::vec![#(#binds),*]))
            }
            #[allow(unused_variables)]
            fn read(
                plan: &::parket::typed::Plan,
                c: &mut ::parket::typed::ColumnCursors<'_>,
            ) -> ::parket::Result<Self> {
                // One look at the plan's fields for the whole struct, not one per field.
                let [#(#plans),*] = plan.group_fields()? else {
                    return ::core::result::Result::Err(::parket::typed::group_mismatch());
                };
                ::core::result::Result::Ok(#ident { #(#reads),* })
            }
            // A column at a time: each field's values for all the slots, then the structs.
            #[inline]
            fn read_many(
                plan: &::parket::typed::Plan,
                c: &mut ::parket::typed::ColumnCursors<'_>,
                slots: &[bool],
                out: &mut ::std::vec::Vec<Self>,
            ) -> ::parket::Result<()> {
                <Self as ::parket::typed::Field>::read_many_into(plan, c, slots, out)
            }
            #[allow(unused_variables, unused_mut)]
            fn read_many_into<O: ::parket::typed::Rows<Self>>(
                plan: &::parket::typed::Plan,
                c: &mut ::parket::typed::ColumnCursors<'_>,
                slots: &[bool],
                out: &mut O,
            ) -> ::parket::Result<()> {
                let [#(#plans),*] = plan.group_fields()? else {
                    return ::core::result::Result::Err(::parket::typed::group_mismatch());
                };
                // The structs built first (placeholder fields), then each field read into
                // them in place, a column at a time, then handed to `out` whole (a Vec, or
                // the lists of a Vec<Self> field).
                let n = slots.iter().filter(|s| **s).count();
                let mut rows: ::std::vec::Vec<Self> = ::std::vec::Vec::with_capacity(n);
                for _ in 0..n {
                    match <Self as ::parket::typed::Field>::placeholder() {
                        ::core::option::Option::Some(r) => rows.push(r),
                        ::core::option::Option::None => {
                            return ::core::result::Result::Err(::parket::typed::group_mismatch())
                        }
                    }
                }
                #(#columns)*
                ::parket::typed::Rows::put_all(out, rows)
            }
            #[inline(always)]
            fn placeholder() -> ::core::option::Option<Self> {
                ::core::option::Option::Some(#ident { #(#placeholders),* })
            }
        }
        impl ::parket::typed::Elem for #ident {}
        impl ::parket::typed::Record for #ident {
            fn schema() -> ::parket::Result<::parket::schema::Schema> {
                ::parket::typed::schema_of::<Self>(#name)
            }
        }
    })
}

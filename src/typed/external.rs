//! Typed fields of other crates' types, each behind the feature named after its crate, as
//! LogicalTypes.md annotates them (no attribute needed):
//!
//! | Rust | Parquet |
//! |---|---|
//! | `chrono::NaiveDate` | INT32 (DATE): days since 1970-01-01 |
//! | `chrono::NaiveDateTime` | INT64 (TIMESTAMP(MICROS, isAdjustedToUTC = false)) |
//! | `chrono::DateTime<Utc>` | INT64 (TIMESTAMP(MICROS, isAdjustedToUTC = true)) |
//! | `uuid::Uuid` | FIXED_LEN_BYTE_ARRAY(16) (UUID), the 16 bytes in RFC 4122 order |
//!
//! `#[parket(timestamp(unit = "millis" | "micros" | "nanos", utc = ..))]` picks another unit
//! (`utc` must be the type's own: `true` for `DateTime<Utc>`). Writing loses nothing: a value
//! with more precision than the column's unit (chrono keeps nanoseconds), outside the INT64
//! range of the unit, or on a leap second is an error naming the column. Reading takes a
//! TIMESTAMP column of any unit whose isAdjustedToUTC is the type's, and INT96 (the legacy
//! nanosecond timestamps of Impala and Spark, which record no time zone) into either.
//!
//! Worked example: `2024-01-02T03:04:05.000006` is 1,704,164,645,000,006 microseconds since
//! the epoch, the INT64 `0x0006_0DED_C04D_D346` (the test `worked_example` checks it), and
//! `NaiveDate` 2024-01-02 is the INT32 19,724.

#[cfg(feature = "chrono")]
mod chrono_fields {
    use alloc::format;

    use ::chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Utc};

    use super::super::leaves::{bad_value, leaf, leaf_cur, leaf_plan};
    use super::super::{
        Annotation, Attrs, Binder, ColumnCursors, Elem, Field, Lv, Plan, SchemaCtx, Shredder, Val,
    };
    use crate::error::{Error, Result};
    use crate::format::{FieldRepetitionType as Rep, LogicalType, PhysicalType, TimeUnit};
    use crate::record::logical::JULIAN_DAY_OF_EPOCH;
    use crate::schema::Type;

    /// `NaiveDate::num_days_from_ce` of 1970-01-01.
    const EPOCH_DAYS_FROM_CE: i32 = 719_163;
    const NANOS_PER_DAY: i64 = 86_400_000_000_000;

    impl Field for NaiveDate {
        const LEAVES: usize = 1;
        #[inline(always)]
        fn placeholder() -> Option<Self> {
            Some(Self::default())
        }
        fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
            if !matches!(attrs.annotation, Annotation::None | Annotation::Date) {
                return Err(ctx.bad_attr(name, "chrono::NaiveDate"));
            }
            let t = leaf(PhysicalType::Int32, name, rep).logical_type(LogicalType::Date);
            Ok(ctx.leaf(name, attrs, t))
        }
        fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
            // chrono's dates span about +-262,000 years: the day count fits an i32.
            let days = self.num_days_from_ce() - EPOCH_DAYS_FROM_CE;
            s.value(col, lv, Val::I32(days))
        }
        fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
            let ok = matches!(attrs.annotation, Annotation::None | Annotation::Date);
            leaf_plan(
                b,
                node,
                |p, _, l| ok && p == PhysicalType::Int32 && matches!(l, Some(LogicalType::Date)),
                "chrono::NaiveDate",
            )
        }
        fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
            let cur = leaf_cur(plan)?;
            match c.take(cur)? {
                Val::I32(d) => d
                    .checked_add(EPOCH_DAYS_FROM_CE)
                    .and_then(NaiveDate::from_num_days_from_ce_opt)
                    .ok_or_else(|| {
                        Error::invalid_argument(format!(
                            "DATE {d} of column {} is outside chrono::NaiveDate's range",
                            c.column_path(cur)
                        ))
                    }),
                _ => Err(bad_value(c, cur, "chrono::NaiveDate")),
            }
        }
    }
    impl Elem for NaiveDate {}

    fn per_second(unit: TimeUnit) -> i64 {
        match unit {
            TimeUnit::Millis => 1_000,
            TimeUnit::Micros => 1_000_000,
            TimeUnit::Nanos => 1_000_000_000,
        }
    }

    fn unit_name(unit: TimeUnit) -> &'static str {
        match unit {
            TimeUnit::Millis => "millis",
            TimeUnit::Micros => "micros",
            TimeUnit::Nanos => "nanos",
        }
    }

    /// The schema node of a date-time field whose isAdjustedToUTC is `utc`.
    fn timestamp_type(
        ctx: &mut SchemaCtx,
        name: &str,
        rep: Rep,
        attrs: &Attrs,
        utc: bool,
        rust: &str,
    ) -> Result<Type> {
        let unit = match attrs.annotation {
            Annotation::None => TimeUnit::Micros,
            Annotation::Timestamp { unit, utc: u } if u == utc => unit,
            _ => return Err(ctx.bad_attr(name, rust)),
        };
        let t = leaf(PhysicalType::Int64, name, rep).logical_type(LogicalType::Timestamp {
            is_adjusted_to_utc: utc,
            unit,
        });
        Ok(ctx.leaf(name, attrs, t))
    }

    /// Writes the instant `secs` + `nanos` (chrono's UTC view) in the column's unit.
    fn write_timestamp(s: &mut Shredder, col: usize, lv: Lv, secs: i64, nanos: u32) -> Result<()> {
        let unit = s.time_unit(col).ok_or_else(|| {
            Error::invalid_argument("a date-time field over a column that is not a TIMESTAMP")
                .in_column(s.path(col))
        })?;
        if nanos >= 1_000_000_000 {
            return Err(Error::invalid_argument(format!(
                "{secs} s after the epoch is a leap second, which a TIMESTAMP cannot hold"
            ))
            .in_column(s.path(col)));
        }
        let sub = 1_000_000_000 / per_second(unit);
        if i64::from(nanos) % sub != 0 {
            return Err(Error::invalid_argument(format!(
                "{nanos} ns past second {secs} is finer than the column's unit ({}): \
                 truncate the value or write it with #[parket(timestamp(unit = \"nanos\", ..))]",
                unit_name(unit)
            ))
            .in_column(s.path(col)));
        }
        let v =
            i128::from(secs) * i128::from(per_second(unit)) + i128::from(i64::from(nanos) / sub);
        let v = i64::try_from(v).map_err(|_| {
            Error::invalid_argument(format!(
                "{secs} s after the epoch is outside the INT64 range of a TIMESTAMP({})",
                unit_name(unit)
            ))
            .in_column(s.path(col))
        })?;
        s.value(col, lv, Val::I64(v))
    }

    /// Binds a date-time field to a TIMESTAMP column whose isAdjustedToUTC is `utc`, or INT96.
    fn bind_timestamp(
        b: &mut Binder<'_>,
        node: usize,
        attrs: &Attrs,
        utc: bool,
        rust: &str,
    ) -> Result<Plan> {
        let ok = match attrs.annotation {
            Annotation::None => true,
            Annotation::Timestamp { utc: u, .. } => u == utc,
            _ => false,
        };
        let plan = leaf_plan(
            b,
            node,
            |p, _, l| match (p, l) {
                (
                    PhysicalType::Int64,
                    Some(LogicalType::Timestamp {
                        is_adjusted_to_utc, ..
                    }),
                ) => ok && *is_adjusted_to_utc == utc,
                (PhysicalType::Int96, None) => ok,
                _ => false,
            },
            rust,
        )?;
        let unit = match b.schema.node(node).map(|n| &n.logical_type) {
            Some(Some(LogicalType::Timestamp { unit, .. })) => Some(*unit),
            _ => None,
        };
        match plan {
            Plan::Leaf { cur, mut conv } => {
                conv.unit = unit;
                Ok(Plan::Leaf { cur, conv })
            }
            p => Ok(p),
        }
    }

    /// Reads a TIMESTAMP or INT96 value as seconds and nanoseconds since the epoch.
    fn read_timestamp(plan: &Plan, c: &mut ColumnCursors<'_>, rust: &str) -> Result<DateTime<Utc>> {
        let Plan::Leaf { cur, conv } = plan else {
            return Err(Error::invalid_argument("a leaf bound to a non-leaf plan"));
        };
        let cur = *cur;
        let (secs, nanos) = match (c.take(cur)?, conv.unit) {
            (Val::I64(v), Some(unit)) => {
                let ps = per_second(unit);
                (
                    v.div_euclid(ps),
                    (v.rem_euclid(ps) * (1_000_000_000 / ps)) as u32,
                )
            }
            (Val::Int96(b), None) => {
                let [n0, n1, n2, n3, n4, n5, n6, n7, d0, d1, d2, d3] = b;
                let nanos = i64::from_le_bytes([n0, n1, n2, n3, n4, n5, n6, n7]);
                let julian = i32::from_le_bytes([d0, d1, d2, d3]);
                if !(0..NANOS_PER_DAY).contains(&nanos) {
                    return Err(Error::out_of_range("INT96 nanoseconds of the day", nanos)
                        .in_column(c.column_path(cur)));
                }
                let days = i64::from(julian) - JULIAN_DAY_OF_EPOCH;
                (
                    days * 86_400 + nanos / 1_000_000_000,
                    (nanos % 1_000_000_000) as u32,
                )
            }
            _ => return Err(bad_value(c, cur, rust)),
        };
        DateTime::from_timestamp(secs, nanos).ok_or_else(|| {
            Error::invalid_argument(format!(
                "{secs} s after the epoch, in column {}, is outside {rust}'s range",
                c.column_path(cur)
            ))
        })
    }

    impl Field for NaiveDateTime {
        const LEAVES: usize = 1;
        #[inline(always)]
        fn placeholder() -> Option<Self> {
            Some(Self::default())
        }
        fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
            timestamp_type(ctx, name, rep, attrs, false, "chrono::NaiveDateTime")
        }
        fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
            let t = self.and_utc();
            write_timestamp(s, col, lv, t.timestamp(), t.timestamp_subsec_nanos())
        }
        fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
            bind_timestamp(b, node, attrs, false, "chrono::NaiveDateTime")
        }
        fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
            read_timestamp(plan, c, "chrono::NaiveDateTime").map(|t| t.naive_utc())
        }
    }
    impl Elem for NaiveDateTime {}

    impl Field for DateTime<Utc> {
        const LEAVES: usize = 1;
        #[inline(always)]
        fn placeholder() -> Option<Self> {
            Some(Self::default())
        }
        fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
            timestamp_type(ctx, name, rep, attrs, true, "chrono::DateTime<Utc>")
        }
        fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
            write_timestamp(s, col, lv, self.timestamp(), self.timestamp_subsec_nanos())
        }
        fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
            bind_timestamp(b, node, attrs, true, "chrono::DateTime<Utc>")
        }
        fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
            read_timestamp(plan, c, "chrono::DateTime<Utc>")
        }
    }
    impl Elem for DateTime<Utc> {}
}

#[cfg(feature = "uuid")]
mod uuid_field {
    use ::uuid::Uuid;

    use super::super::leaves::{bad_value, leaf_cur, leaf_plan};
    use super::super::{
        Annotation, Attrs, Binder, ColumnCursors, Elem, Field, Lv, Plan, SchemaCtx,
    };
    use super::super::{Shredder, Val};
    use crate::error::Result;
    use crate::format::{FieldRepetitionType as Rep, LogicalType, PhysicalType};
    use crate::schema::Type;

    impl Field for Uuid {
        const LEAVES: usize = 1;
        #[inline(always)]
        fn placeholder() -> Option<Self> {
            Some(Self::default())
        }
        fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
            if !matches!(attrs.annotation, Annotation::None | Annotation::Uuid) {
                return Err(ctx.bad_attr(name, "uuid::Uuid"));
            }
            let t = Type::fixed_len_byte_array(name, rep, 16).logical_type(LogicalType::Uuid);
            Ok(ctx.leaf(name, attrs, t))
        }
        fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
            s.value(col, lv, Val::Bytes(self.as_bytes()))
        }
        fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
            let ok = matches!(attrs.annotation, Annotation::None | Annotation::Uuid);
            // A bare FIXED_LEN_BYTE_ARRAY(16) reads too (writers from before the annotation).
            leaf_plan(
                b,
                node,
                |p, w, l| {
                    ok && p == PhysicalType::FixedLenByteArray
                        && w == Some(16)
                        && matches!(l, Some(LogicalType::Uuid) | None)
                },
                "uuid::Uuid",
            )
        }
        fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
            let cur = leaf_cur(plan)?;
            match c.take(cur)? {
                Val::Bytes(b) => match <[u8; 16]>::try_from(b) {
                    Ok(a) => Ok(Uuid::from_bytes(a)),
                    Err(_) => Err(bad_value(c, cur, "uuid::Uuid")),
                },
                _ => Err(bad_value(c, cur, "uuid::Uuid")),
            }
        }
    }
    impl Elem for Uuid {}
}

#[cfg(all(test, feature = "chrono"))]
mod tests {
    use super::super::{Attrs, Field, Lv, SchemaCtx, Shredder};
    use crate::format::FieldRepetitionType as Rep;
    use crate::schema::Schema;
    use crate::values::Values;
    use ::chrono::{NaiveDate, NaiveDateTime};

    /// The one column of `T`'s field `f` after writing `v`.
    fn shred<T: Field>(v: &T, want_schema: &str) -> Values {
        let f = T::field_type(&mut SchemaCtx::default(), "f", Rep::Required, &Attrs::NONE).unwrap();
        let schema = Schema::new("m", alloc::vec![f]).unwrap();
        assert_eq!(
            schema.to_string(),
            Schema::parse(want_schema).unwrap().to_string()
        );
        let mut s = Shredder::new(&schema);
        let lv = Lv {
            def: 0,
            rep: 0,
            depth: 0,
        };
        v.write(&mut s, 0, lv).unwrap();
        s.leaves.remove(0).values
    }

    #[test]
    fn worked_example() {
        let day = NaiveDate::from_ymd_opt(2024, 1, 2).unwrap();
        let t: NaiveDateTime = day.and_hms_micro_opt(3, 4, 5, 6).unwrap();
        // 2024-01-02 is day 19,724: (19,724 x 86,400 + 3 x 3,600 + 4 x 60 + 5) s + 6 us.
        assert_eq!(0x0006_0DED_C04D_D346_i64, 1_704_164_645_000_006);
        assert_eq!(
            shred(
                &t,
                "message m { required int64 f (TIMESTAMP(MICROS,false)); }"
            ),
            Values::Int64(alloc::vec![0x0006_0DED_C04D_D346])
        );
        assert_eq!(
            shred(&day, "message m { required int32 f (DATE); }"),
            Values::Int32(alloc::vec![19_724])
        );
    }
}

use super::*;
use alloc::vec;

/// `struct R { a: Option<i32>, b: Vec<i64> }`, by hand (what the derive generates).
#[derive(Debug, PartialEq)]
struct R {
    a: Option<i32>,
    b: Vec<i64>,
}

impl Field for R {
    const LEAVES: usize = 2;
    fn field_type(ctx: &mut SchemaCtx, name: &str, rep: Rep, attrs: &Attrs) -> Result<Type> {
        ctx.enter(name, attrs, "R")?;
        let f = vec![
            <Option<i32>>::field_type(ctx, "a", Rep::Required, &Attrs::NONE)?,
            <Vec<i64>>::field_type(ctx, "b", Rep::Required, &Attrs::NONE)?,
        ];
        ctx.leave();
        Ok(Type::group(name, rep, f))
    }
    fn write(&self, s: &mut Shredder, col: usize, lv: Lv) -> Result<()> {
        self.a.write(s, col, lv)?;
        self.b.write(s, col + 1, lv)
    }
    fn bind(b: &mut Binder<'_>, node: usize, attrs: &Attrs) -> Result<Plan> {
        b.check_group(node, attrs, "R")?;
        Ok(Plan::Group(vec![
            b.bind_member::<Option<i32>>(node, "a", "a", &Attrs::NONE)?,
            b.bind_member::<Vec<i64>>(node, "b", "b", &Attrs::NONE)?,
        ]))
    }
    fn read(plan: &Plan, c: &mut ColumnCursors<'_>) -> Result<Self> {
        let f = plan.group_fields()?;
        Ok(R {
            a: read_field(f.first(), c)?,
            b: read_field(f.get(1), c)?,
        })
    }
}

#[test]
fn worked_example() {
    let schema = schema_of::<R>("R").unwrap();
    assert_eq!(
        schema.to_string(),
        Schema::parse(
            "message R { optional int32 a; required group b (LIST) {
               repeated group list { required int64 element; } } }"
        )
        .unwrap()
        .to_string()
    );
    let rows = [
        R {
            a: Some(7),
            b: vec![1, 2],
        },
        R { a: None, b: vec![] },
    ];
    let mut s = Shredder::new(&schema);
    for r in &rows {
        s.write_row(r).unwrap();
    }
    assert_eq!(s.leaves[0].def_levels, [1, 0]);
    assert_eq!(s.leaves[0].values, Values::Int32(vec![7]));
    assert_eq!(s.leaves[1].def_levels, [1, 1, 0]);
    assert_eq!(s.leaves[1].rep_levels, [0, 1, 0]);
    assert_eq!(s.leaves[1].values, Values::Int64(vec![1, 2]));
    // And back.
    let mut b = Binder::new(&schema);
    let plan = R::bind(&mut b, 0, &Attrs::NONE).unwrap();
    let defs: Vec<u16> = b
        .columns
        .iter()
        .map(|&c| schema.columns()[c].max_def_level)
        .collect();
    let paths: Vec<String> = b
        .columns
        .iter()
        .map(|&c| schema.columns()[c].path_string())
        .collect();
    let mut state = CursorState::new(core::mem::take(&mut s.leaves), &defs, &paths);
    let mut c = state.cursors(None, Row(0));
    let back: Vec<R> = (0..2).map(|_| R::read(&plan, &mut c).unwrap()).collect();
    assert_eq!(back, rows);
}

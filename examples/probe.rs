use parket::read::FileReader;
fn main() {
    for p in std::env::args().skip(1) {
        let bytes = std::fs::read(&p).unwrap();
        let r = (|| -> parket::Result<String> {
            let f = FileReader::from_bytes(&bytes)?.with_limits(parket::Limits::default().max_page_bytes(64<<20));
            let mut rows = 0i64;
            for rg in 0..f.num_row_groups() {
                let cols: Vec<usize> = (0..f.schema().columns().len()).collect();
                let d = f.read_row_group(rg, &cols)?;
                let _ = d;
                rows += f.metadata().row_groups[rg].num_rows;
            }
            Ok(format!("{} rows {} cols", rows, f.schema().columns().len()))
        })();
        match r { Ok(s) => println!("OK   {p}: {s}"), Err(e) => println!("ERR  {p}: {e} [{:?}]", e.kind()) }
    }
}

//! INT96 statistics in `INT96_TIMESTAMP_ORDER` (parquet.thrift `ColumnOrder`, July 2026):
//! parket writes the order for every INT96 column with chronological min/max in the chunk
//! statistics and the column index; a reader ignores INT96 min/max under `TYPE_ORDER`.
//! Golden bytes are worked by hand (nanoseconds of the day, i64 LE, then the Julian day, i32
//! LE; 1970-01-01 is Julian day 2440588), and pyarrow 26 and Spark 4.3 read the file (checked
//! by hand; pyarrow again below).

use std::process::Command;

use parket::format::ColumnOrder;
use parket::read::FileReader;
use parket::schema::Schema;
use parket::statistics::{decode, Scalar, StatKind};
use parket::values::ValuesRef;
use parket::write::{FileWriter, WriteOptions};

/// 2024-01-02T00:00:00: Julian day 2460312, 0 ns.
const NEW_YEAR_2024: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0x98, 0x8a, 0x25, 0x00];
/// 1969-12-31T23:59:00: Julian day 2440587, 86,340 s.
const BEFORE_EPOCH: [u8; 12] = [
    0x00, 0xa8, 0x07, 0x99, 0x86, 0x4e, 0x00, 0x00, 0x8b, 0x3d, 0x25, 0x00,
];
/// 1970-01-01T00:00:00.000000001: Julian day 2440588, 1 ns.
const EPOCH_PLUS_1: [u8; 12] = [1, 0, 0, 0, 0, 0, 0, 0, 0x8c, 0x3d, 0x25, 0x00];

fn write() -> Vec<u8> {
    let schema = Schema::parse("message m { optional int96 t; }").unwrap();
    let options = WriteOptions::default().max_rows_per_page(2);
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut rg = w.next_row_group().unwrap();
    // Rows: 2024, 1969 | null, 1970 (+1 ns).
    rg.column("t")
        .unwrap()
        .write(
            ValuesRef::Int96(&[NEW_YEAR_2024, BEFORE_EPOCH, EPOCH_PLUS_1]),
            &[1, 1, 0, 1],
            &[],
        )
        .unwrap();
    rg.finish().unwrap();
    w.finish().unwrap();
    w.into_inner()
}

#[test]
fn int96_min_max_are_chronological_under_int96_timestamp_order() {
    let bytes = write();
    let file = FileReader::from_bytes(&bytes).unwrap();
    let meta = file.metadata();
    assert_eq!(
        meta.column_orders.as_deref(),
        Some(&[ColumnOrder::Int96TimestampOrder][..])
    );
    let st = meta.row_groups[0].columns[0]
        .meta_data
        .as_ref()
        .unwrap()
        .statistics
        .clone()
        .unwrap();
    // Byte-wise, 2024's bytes (all zero nanoseconds) would be the minimum.
    assert_eq!(st.min_value.as_deref(), Some(&BEFORE_EPOCH[..]));
    assert_eq!(st.max_value.as_deref(), Some(&NEW_YEAR_2024[..]));
    assert_eq!((st.min.as_deref(), st.max.as_deref()), (None, None));
    assert_eq!(st.null_count, Some(1));

    let ci = file.column_index(0, 0).unwrap().expect("a column index");
    assert_eq!(
        ci.min_values,
        [BEFORE_EPOCH.to_vec(), EPOCH_PLUS_1.to_vec()]
    );
    assert_eq!(
        ci.max_values,
        [NEW_YEAR_2024.to_vec(), EPOCH_PLUS_1.to_vec()]
    );

    // Read back: the order gives the bounds meaning; TYPE_ORDER (or none) leaves them out.
    let d = decode(
        &st,
        StatKind::Int96,
        Some(&ColumnOrder::Int96TimestampOrder),
    );
    assert_eq!(d.min, Some(Scalar::Bytes(BEFORE_EPOCH.to_vec())));
    assert_eq!(d.max, Some(Scalar::Bytes(NEW_YEAR_2024.to_vec())));
    for order in [None, Some(&ColumnOrder::TypeOrder)] {
        let d = decode(&st, StatKind::Int96, order);
        assert_eq!((d.min, d.max, d.null_count), (None, None, Some(1)));
    }
}

#[test]
fn pyarrow_reads_the_int96_file() {
    let path = std::env::temp_dir().join(format!("parket-int96-{}.parquet", std::process::id()));
    std::fs::write(&path, write()).unwrap();
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, pyarrow.parquet as pq; \
             print(pq.read_table(sys.argv[1]).column(0).cast('int64').to_pylist())",
            path.to_str().unwrap(),
        ])
        .output()
        .expect("python3 with pyarrow (tests/interop/requirements.txt)");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "[1704153600000000000, -60000000000, None, 1]"
    );
}

//! `parket write --schema SCHEMA --input rows.jsonl --output out.parquet [options]`: JSON Lines
//! (../shared/json-mapping.md) into a Parquet file.
//!
//! The file is written to a temporary file beside the output and renamed over it only when
//! everything succeeded: on any error the output path is left as it was.

use std::io::{BufRead, BufWriter, Write as _};
use std::path::{Path, PathBuf};

use parket::compression::Codec;
use parket::format::Encoding;
use parket::schema::Schema;
use parket::write::{BloomFilterOptions, FileWriter, PageVersion, WriteOptions};

use crate::args::Args;
use crate::rows::json_to_record;

/// Records handed to the writer at a time.
const BATCH: usize = 4096;

/// `parket write`.
pub fn write(mut args: Args) -> Result<(), String> {
    let schema_arg = args.value("--schema")?.ok_or("--schema is required")?;
    let input = args.value("--input")?.ok_or("--input is required")?;
    let output = args.value("--output")?.ok_or("--output is required")?;
    let options = options(&mut args)?;
    args.positional(&[])?;

    let schema_text = match schema_arg.strip_prefix('@') {
        Some(file) => std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?,
        None => schema_arg,
    };
    let schema = Schema::parse(&schema_text).map_err(|e| format!("--schema: {e}"))?;

    let out_path = PathBuf::from(&output);
    let tmp = temp_path(&out_path);
    let result = write_to(&schema, options, &input, &tmp);
    match result {
        Ok(()) => std::fs::rename(&tmp, &out_path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("{output}: {e}")
        }),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// `dir/.name.parket-tmp-PID`: beside the output, so the rename stays on one file system.
pub fn temp_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out.parquet".into());
    out.with_file_name(format!(".{name}.parket-tmp-{}", std::process::id()))
}

fn write_to(schema: &Schema, options: WriteOptions, input: &str, tmp: &Path) -> Result<(), String> {
    let mut size = 0; // of the input, for the progress line (unknown from stdin)
    let reader: Box<dyn BufRead> = if input == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
        size = f.metadata().map_or(0, |m| m.len());
        Box::new(std::io::BufReader::new(f))
    };
    let mut progress = crate::progress::Progress::new("write", size, "bytes");
    let file = std::fs::File::create(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut writer = FileWriter::new(BufWriter::new(file), schema.clone(), options)
        .map_err(|e| e.to_string())?;
    let mut batch = Vec::with_capacity(BATCH);
    for (i, line) in reader.split(b'\n').enumerate() {
        let line_no = i + 1;
        let line = line.map_err(|e| format!("{input}: {e}"))?;
        progress.advance(line.len() as u64 + 1);
        let line =
            std::str::from_utf8(&line).map_err(|_| format!("line {line_no}: not valid UTF-8"))?;
        let line = line.strip_suffix('\r').unwrap_or(line);
        batch.push(json_to_record(schema, line, line_no)?);
        if batch.len() == BATCH {
            writer.write_records(&batch).map_err(|e| e.to_string())?;
            batch.clear();
        }
    }
    writer.write_records(&batch).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    progress.finish();
    let mut sink = writer.into_inner();
    sink.flush()
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    sink.into_inner()
        .map_err(|e| format!("{}: {e}", tmp.display()))?
        .sync_all()
        .map_err(|e| format!("{}: {e}", tmp.display()))
}

/// The writer options from the flags.
pub fn options(args: &mut Args) -> Result<WriteOptions, String> {
    let mut o = WriteOptions::default();
    if let Some(c) = args.value("--codec")? {
        let codec: Codec = c.parse().map_err(|e| format!("--codec {c}: {e}"))?;
        o = o.codec(codec);
    }
    if let Some(v) = args.value("--page-version")? {
        o = o.page_version(match v.as_str() {
            "1" => PageVersion::V1,
            "2" => PageVersion::V2,
            _ => return Err(format!("--page-version {v}: expected 1 or 2")),
        });
    }
    if let Some(v) = args.value("--dictionary")? {
        o = o.dictionary(on_off("--dictionary", &v)?);
    }
    for spec in args.values("--encoding")? {
        let (path, enc) = spec
            .split_once('=')
            .ok_or_else(|| format!("--encoding {spec}: expected PATH=ENCODING"))?;
        let enc: Encoding = enc.parse().map_err(|e| format!("--encoding {spec}: {e}"))?;
        o = o.column(path, |c| c.encoding(enc));
    }
    for path in args.values("--bloom-filter")? {
        o = o.column(&path, |c| {
            c.bloom_filter(Some(BloomFilterOptions::default()))
        });
    }
    if let Some(n) = args.parsed::<usize>("--row-group-rows")? {
        o = o.row_group_rows(n);
    }
    if let Some(n) = args.parsed::<usize>("--page-rows")? {
        o = o.max_rows_per_page(n);
    }
    if let Some(n) = args.parsed::<usize>("--page-size")? {
        o = o.data_page_size(n);
    }
    if let Some(v) = args.value("--statistics")? {
        o = o.statistics(on_off("--statistics", &v)?);
    }
    if let Some(v) = args.value("--page-index")? {
        o = o.page_index(on_off("--page-index", &v)?);
    }
    if let Some(v) = args.value("--ieee-754-total-order")? {
        o = o.ieee_754_total_order(on_off("--ieee-754-total-order", &v)?);
    }
    if let Some(n) = args.parsed::<usize>("--threads")? {
        o = o.threads(crate::threads_value(n)?);
    }
    if let Some(v) = args.value("--crc")? {
        o = o.page_crc(on_off("--crc", &v)?);
    }
    crate::encrypt::options(args, o)
}

pub(crate) fn on_off(flag: &str, v: &str) -> Result<bool, String> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{flag} {v}: expected on or off")),
    }
}

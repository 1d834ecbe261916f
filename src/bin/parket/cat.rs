//! `parket cat FILE [--columns a,b.c] [--limit N] [--json]`: the rows of a file.
//!
//! With `--json`, one line per record exactly as ../shared/json-mapping.md says (the canonical
//! form the interop tests compare with pyarrow's). Without it, the same values laid out for a
//! person: one record per block, one field per line.

use std::io::Write as _;

use parket::read::FileReader;

use crate::args::Args;
use crate::file_error;
use crate::rows::record_to_json;

/// Opens `path` for reading (streaming: one page in memory at a time).
pub fn open(path: &str) -> Result<FileReader<'static>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    FileReader::new(std::io::BufReader::new(f)).map_err(|e| file_error(path, e))
}

/// `parket cat`.
pub fn cat(mut args: Args) -> Result<(), String> {
    let as_json = args.flag("--json");
    let columns = args.value("--columns")?;
    let limit = args.parsed::<usize>("--limit")?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let file = open(&path)?;
    let selected: Option<Vec<&str>> = columns.as_deref().map(|c| c.split(',').collect());
    let records = file
        .records(selected.as_deref())
        .map_err(|e| file_error(&path, e))?;
    let schema = records.schema().clone();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    for (i, record) in records.enumerate() {
        if limit.is_some_and(|n| i >= n) {
            break;
        }
        let record = record.map_err(|e| file_error(&path, e))?;
        line.clear();
        record_to_json(&schema, &record, &mut line).map_err(|e| format!("{path}: row {i}: {e}"))?;
        let text = if as_json {
            std::mem::take(&mut line)
        } else {
            let v: serde_json::Value =
                serde_json::from_str(&line).map_err(|e| format!("row {i}: {e}"))?;
            let mut s = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        };
        if out.write_all(text.as_bytes()).is_err() {
            return Ok(()); // stdout closed (e.g. piped into `head`): stop quietly
        }
        line = text;
    }
    let _ = out.flush();
    Ok(())
}

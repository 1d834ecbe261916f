//! `parket cat FILE [--columns a,b.c] [--where EXPR] [--offset N] [--limit N] [--json]
//! [--explain]`: the rows of a file.
//!
//! With `--json`, one line per record exactly as ../shared/json-mapping.md says (the canonical
//! form the interop tests compare with pyarrow's). Without it, the same values laid out for a
//! person: one record per block, one field per line. `--where` keeps the rows for which EXPR is
//! true, and `--offset` and `--limit` count those rows ("Row selection" in json-mapping.md);
//! with them the rows are read by a scan, which prunes row groups by statistics and skips the
//! pages that hold none of them when the file has a page index. `--explain` prints what
//! such a scan would read instead of the rows.

use std::io::Write as _;

use parket::read::FileReader;

use crate::args::Args;
use crate::file_error;
use crate::rows::record_to_json;

/// Opens `path` for reading (streaming: one page in memory at a time).
pub fn open(path: &str) -> Result<FileReader<'static>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    crate::keys::open_reader(path, std::io::BufReader::new(f))
}

/// `parket cat`.
pub fn cat(mut args: Args) -> Result<(), String> {
    let as_json = args.flag("--json");
    let columns = args.value("--columns")?;
    let limit = args.parsed::<u64>("--limit")?;
    let offset = args.parsed::<u64>("--offset")?;
    let explain = args.flag("--explain");
    let filter = args.value("--where")?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let file = open(&path)?;
    let selected: Option<Vec<&str>> = columns.as_deref().map(|c| c.split(',').collect());
    let mut scan = file.scan().offset(offset.unwrap_or(0));
    if let Some(text) = &filter {
        let p = parket::predicate::Predicate::parse(text, file.schema())
            .map_err(|e| format!("--where: {e}"))?;
        scan = scan.predicate(p);
    }
    if let Some(c) = &selected {
        scan = scan.columns(c);
    }
    if let Some(n) = limit {
        scan = scan.limit(n);
    }
    if explain {
        return print_explain(&scan.explain().map_err(|e| file_error(&path, e))?);
    }
    // Every row: the streaming record reader (a few pages per column at a time).
    let records: Box<dyn Iterator<Item = parket::Result<parket::record::Value>>> =
        if offset.is_none() && limit.is_none() && filter.is_none() {
            Box::new(
                file.records(selected.as_deref())
                    .map_err(|e| file_error(&path, e))?,
            )
        } else {
            Box::new(
                scan.batch_size(1024)
                    .build()
                    .map_err(|e| file_error(&path, e))?
                    .records(),
            )
        };
    let schema = match &selected {
        Some(c) => {
            file.schema()
                .project(c)
                .map_err(|e| file_error(&path, e))?
                .0
        }
        None => file.schema().clone(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    for (i, record) in records.enumerate() {
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

/// `cat --explain`: what each stage of the scan keeps (the scan's own plan: see
/// `parket::read::Explain`).
fn print_explain(e: &parket::read::Explain) -> Result<(), String> {
    println!(
        "row groups: {} of {} ({} selected; pruned: {} by statistics, {} by dictionary, {} by page index, {} by Bloom filter)",
        e.row_groups,
        e.row_groups_total,
        e.row_groups_selected,
        e.pruned_by_statistics,
        e.pruned_by_dictionary,
        e.pruned_by_page_index,
        e.pruned_by_bloom_filter
    );
    println!(
        "Bloom filters: {} read ({} bytes), {} row groups not worth reading",
        e.bloom_filters_read, e.bloom_filter_bytes, e.bloom_filters_skipped
    );
    println!(
        "rows: {} of {} ({} left by the pruning)",
        e.rows, e.rows_total, e.rows_after_pruning
    );
    println!(
        "column chunks: {} ({} through the offset index)",
        e.chunks, e.indexed_chunks
    );
    println!("pages of indexed chunks: {} of {}", e.pages, e.index_pages);
    println!("bytes to read: {} of {}", e.bytes, e.file_bytes);
    Ok(())
}

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

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::{mpsc, Mutex};

use parket::read::{FileReader, ScanBatch};

use crate::args::Args;
use crate::file_error;
use crate::progress::Progress;
use crate::rows::record_to_json;

/// Opens `path` for reading (streaming: one page in memory at a time).
pub fn open(path: &str) -> Result<FileReader<'static>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    crate::keys::open_reader(path, std::io::BufReader::new(f))
}

/// `parket cat`.
pub fn cat(mut args: Args) -> Result<(), String> {
    let threads = crate::threads_arg(&mut args)?;
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
    let schema = match &selected {
        Some(c) => {
            file.schema()
                .project(c)
                .map_err(|e| file_error(&path, e))?
                .0
        }
        None => file.schema().clone(),
    };
    // Rows to print, for the progress line (unknown with --where).
    let total = match filter {
        Some(_) => 0,
        None => u64::try_from(file.metadata().num_rows)
            .unwrap_or(0)
            .saturating_sub(offset.unwrap_or(0))
            .min(limit.unwrap_or(u64::MAX)),
    };
    let stdout = std::io::stdout();
    // To a file (not the terminal the progress would be drawn on): a progress line.
    let mut progress = if stdout.is_terminal() {
        None
    } else {
        Some(Progress::new("cat", total, "rows"))
    };
    let mut out = std::io::BufWriter::new(stdout.lock());
    if threads > 1 {
        // Batches decoded by the scan (its columns on `threads` threads), assembled and
        // formatted on `threads` threads, written in file order.
        let batch_rows = if filter.is_some() { 1024 } else { 8192 };
        let scan = scan
            .batch_size(batch_rows)
            .threads(threads)
            .build()
            .map_err(|e| file_error(&path, e))?;
        return cat_parallel(
            scan,
            &schema,
            threads,
            as_json,
            &path,
            &mut out,
            &mut progress,
        );
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
                    .threads(1)
                    .build()
                    .map_err(|e| file_error(&path, e))?
                    .records(),
            )
        };
    let mut line = String::new();
    for (i, record) in records.enumerate() {
        let record = record.map_err(|e| file_error(&path, e))?;
        format_record(&schema, &record, as_json, i as u64, &path, &mut line)?;
        if out.write_all(line.as_bytes()).is_err() {
            return Ok(()); // stdout closed (e.g. piped into `head`): stop quietly
        }
        if let Some(p) = progress.as_mut() {
            p.advance(1);
        }
    }
    let _ = out.flush();
    Ok(())
}

/// Record `i` as its output text (a JSON line, or the pretty form), into `text`.
fn format_record(
    schema: &parket::schema::Schema,
    record: &parket::record::Value,
    as_json: bool,
    i: u64,
    path: &str,
    text: &mut String,
) -> Result<(), String> {
    text.clear();
    record_to_json(schema, record, text).map_err(|e| format!("{path}: row {i}: {e}"))?;
    if !as_json {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("row {i}: {e}"))?;
        *text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
        text.push('\n');
    }
    Ok(())
}

/// Text of a batch: its records formatted (up to the one that failed, and the error), or the
/// error that left none.
type BatchText = Result<(u64, String, Option<String>), String>;

/// `cat` on several threads: this thread writes, one reads the scan's batches (at most
/// `2 * threads` batches ahead of the writing), `threads` assemble and format them. The output
/// is the single-threaded one, byte for byte.
fn cat_parallel(
    mut scan: parket::read::Scan<'_, '_>,
    schema: &parket::schema::Schema,
    threads: usize,
    as_json: bool,
    path: &str,
    out: &mut impl Write,
    progress: &mut Option<Progress>,
) -> Result<(), String> {
    let ahead = 2 * threads;
    // Never full: the tokens keep at most `ahead` batches in flight.
    let (batch_send, batch_recv) = mpsc::sync_channel::<(usize, u64, ScanBatch)>(ahead);
    let batch_recv = &Mutex::new(batch_recv);
    let (text_send, text_recv) = mpsc::channel::<(usize, BatchText)>();
    // A token per batch in flight: the reader takes one per batch, the writer gives it back.
    let (token_send, token_recv) = mpsc::sync_channel::<()>(ahead);
    for _ in 0..ahead {
        let _ = token_send.send(());
    }
    // `move`: returning early drops the writer's ends, which stops the other threads.
    std::thread::scope(move |s| {
        let text_send2 = text_send.clone();
        s.spawn(move || {
            // Rows before the batch, for the messages that name a row.
            let mut row = 0u64;
            for seq in 0.. {
                if token_recv.recv().is_err() {
                    return;
                }
                match scan.next() {
                    None => return,
                    Some(Ok(b)) => {
                        let n = b.num_rows();
                        if batch_send.send((seq, row, b)).is_err() {
                            return;
                        }
                        row += n;
                    }
                    Some(Err(e)) => {
                        let _ = text_send2.send((seq, Err(file_error(path, e))));
                        return;
                    }
                }
            }
        });
        for _ in 0..threads {
            let text_send = text_send.clone();
            s.spawn(move || loop {
                let next = match batch_recv.lock() {
                    Ok(r) => r.recv(),
                    Err(_) => return,
                };
                let Ok((seq, row, batch)) = next else { return };
                let text = batch_text(schema, &batch, row, as_json, path);
                if text_send.send((seq, text)).is_err() {
                    return;
                }
            });
        }
        drop(text_send);
        let mut held = BTreeMap::new();
        let mut at = 0usize;
        // Ends when the reader and the workers are done (their senders dropped).
        while let Ok((seq, text)) = text_recv.recv() {
            held.insert(seq, text);
            while let Some(text) = held.remove(&at) {
                at += 1;
                let (rows, text, failed) = text?;
                if out.write_all(text.as_bytes()).is_err() {
                    return Ok(()); // stdout closed: stop quietly (dropping the channels)
                }
                if let Some(e) = failed {
                    let _ = out.flush();
                    return Err(e);
                }
                if let Some(p) = progress.as_mut() {
                    p.advance(rows);
                }
                let _ = token_send.send(());
            }
        }
        let _ = out.flush();
        Ok(())
    })
}

/// The records of `batch` (whose first row is row `row` of the output), formatted.
fn batch_text(
    schema: &parket::schema::Schema,
    batch: &ScanBatch,
    row: u64,
    as_json: bool,
    path: &str,
) -> BatchText {
    let records = parket::levels::assemble(schema, &batch.columns)
        .map_err(|e| file_error(path, e.in_row_group(batch.row_group)))?;
    let mut text = String::new();
    let mut line = String::new();
    for (i, record) in records.iter().enumerate() {
        if let Err(e) = format_record(schema, record, as_json, row + i as u64, path, &mut line) {
            return Ok((i as u64, text, Some(e)));
        }
        text.push_str(&line);
    }
    Ok((records.len() as u64, text, None))
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

//! `parket rewrite IN OUT [write options]`: the same rows, re-encoded with other options; and
//! `parket compare FILE [write options] [--codecs LIST]`: the file rewritten with every codec
//! (at several levels) and both data page versions, with the size, write time and read time
//! of each, to choose a codec and page version for one's own data.
//!
//! A rewrite keeps the input's schema, row groups and key/value metadata (pyarrow's
//! `ARROW:schema` included) and moves the data column chunk by column chunk: each leaf of a
//! row group is decoded batch by batch (levels and values) and handed to the writer, so memory
//! holds one batch, not the file. With `--threads` above 1 (the default on a machine with
//! several cores) a row group's columns are decoded together, batch by batch, and each
//! batch's columns encoded on the threads: the same bytes, and memory holds the row group's
//! encoded pages instead of one batch. `compare` writes into memory with exactly the code of
//! `rewrite`, so each size it prints is the size `rewrite` with the same options produces.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use parket::compression::Codec;
use parket::read::FileReader;
use parket::write::{FileWriter, PageVersion, Sink, WriteOptions};

use crate::args::Args;
use crate::file_error;
use crate::write::{options, temp_path};

/// The configurations `compare` tries by default: every codec, and for those with levels
/// the fastest, the default and the best (brotli and zstd also one in between).
const DEFAULT_CODECS: &str = "uncompressed,snappy,gzip:1,gzip:6,gzip:9,brotli:1,brotli:5,\
brotli:8,brotli:11,lz4_raw,lz4,zstd:1,zstd:3,zstd:9,zstd:19,lzo";

/// `parket rewrite IN OUT [write options]`.
pub fn rewrite(mut args: Args) -> Result<(), String> {
    let options = options(&mut args)?;
    let [input, output] =
        <[String; 2]>::try_from(args.positional(&["IN", "OUT"])?).unwrap_or_default();
    let file = crate::cat::open(&input)?;
    let out_path = PathBuf::from(&output);
    let tmp = temp_path(&out_path);
    let result = (|| {
        let f = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let sink = rewrite_into(&file, options, std::io::BufWriter::new(f))
            .map_err(|e| file_error(&input, e))?;
        let f = sink
            .into_inner()
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        f.sync_all().map_err(|e| format!("{}: {e}", tmp.display()))
    })();
    match result
        .and_then(|()| std::fs::rename(&tmp, &out_path).map_err(|e| format!("{output}: {e}")))
    {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes the rows of `file` into `sink` with `options`, row group by row group and column
/// chunk by column chunk, and returns the sink.
pub fn rewrite_into<W: Sink>(
    file: &FileReader<'_>,
    mut options: WriteOptions,
    sink: W,
) -> parket::Result<W> {
    let metadata = file.metadata();
    for kv in metadata.key_value_metadata.iter().flatten() {
        options = options.key_value_metadata(&kv.key, kv.value.as_deref());
    }
    let schema = file.schema().clone();
    let leaves: Vec<String> = schema.columns().iter().map(|c| c.path_string()).collect();
    let options_threads = options.thread_count();
    let mut w = FileWriter::new(sink, schema, options)?;
    let threaded = options_threads > 1;
    for rg in 0..metadata.row_groups.len() {
        let mut out = w.next_row_group()?;
        if threaded {
            // Every column's batch in one call, encoded on the threads: each column sees the
            // batches the column-by-column path gives it (the same rows), so the bytes are
            // the same; the row group's pages are held until it ends.
            let scan = file.scan().row_groups([rg]).use_page_index(false).build()?;
            for batch in scan {
                out.write_columns(&batch?.columns)?;
            }
            out.finish()?;
            continue;
        }
        for (j, path) in leaves.iter().enumerate() {
            let scan = file
                .scan()
                .row_groups([rg])
                .columns(&[path.as_str()])
                .use_page_index(false)
                .build()?;
            // A projection may keep more leaves than asked (a MAP keeps its keys).
            let k = scan.schema().column_index(path).ok_or_else(|| {
                parket::Error::invalid_argument(format!("column {path} lost in its projection"))
            })?;
            for batch in scan {
                let batch = batch?;
                if let Some(leaf) = batch.columns.get(k) {
                    out.write(j, leaf.values.as_ref(), &leaf.def_levels, &leaf.rep_levels)?;
                }
            }
            out.close_column(j)?;
        }
        out.finish()?;
    }
    w.finish()?;
    Ok(w.into_inner())
}

/// Decodes every page of every column of `bytes` (levels and values, no records): the
/// full-read time of `compare`. Returns the number of values decoded.
fn read_all(bytes: &[u8]) -> parket::Result<u64> {
    let file = FileReader::from_bytes(bytes)?;
    let mut values = 0u64;
    for batch in file.scan().use_page_index(false).build()? {
        for leaf in &batch?.columns {
            values += leaf.def_levels.len().max(leaf.values.len()) as u64;
        }
    }
    Ok(values)
}

/// `parket compare FILE [write options] [--codecs LIST]`.
pub fn compare(mut args: Args) -> Result<(), String> {
    let codecs = args
        .value("--codecs")?
        .unwrap_or_else(|| DEFAULT_CODECS.to_string());
    let base = options(&mut args)?;
    let [path] = <[String; 1]>::try_from(args.positional(&["FILE"])?).unwrap_or_default();
    let input = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let file = FileReader::from_bytes(&input).map_err(|e| file_error(&path, e))?;
    let codecs: Vec<(String, Codec)> = codecs
        .split(',')
        .map(|c| {
            let codec: Codec = c.parse().map_err(|e| format!("--codecs {c}: {e}"))?;
            Ok((c.trim().to_ascii_lowercase(), codec))
        })
        .collect::<Result<_, String>>()?;

    let rows = file.metadata().num_rows;
    let start = Instant::now();
    read_all(&input).map_err(|e| file_error(&path, e))?;
    let input_read = start.elapsed();
    let mut stdout = std::io::stdout().lock();
    let mut line = |s: String| writeln!(stdout, "{s}").map_err(|e| e.to_string());
    line(format!(
        "{path}: {} bytes, {rows} rows in {} row group(s), {} leaf column(s); read {}",
        input.len(),
        file.metadata().row_groups.len(),
        file.schema().columns().len(),
        ms(input_read)
    ))?;
    line(format!(
        "{:<14} {:>5} {:>14} {:>8} {:>10} {:>10}",
        "codec", "page", "bytes", "vs input", "write ms", "read ms"
    ))?;
    let mut progress =
        crate::progress::Progress::new("compare", 2 * codecs.len() as u64, "configurations");
    for (name, codec) in &codecs {
        for version in [PageVersion::V1, PageVersion::V2] {
            progress.advance(0);
            let options = base.clone().codec(*codec).page_version(version);
            let start = Instant::now();
            let out = match rewrite_into(&file, options, Vec::new()) {
                Ok(out) => out,
                // A codec left out of this build: say so and go on with the others.
                Err(e) if matches!(e.kind(), parket::ErrorKind::FeatureDisabled { .. }) => {
                    progress.advance(1);
                    progress.clear();
                    line(format!("{name:<14} {:>5} ({e})", page_name(version)))?;
                    continue;
                }
                Err(e) => return Err(file_error(&path, e)),
            };
            let write = start.elapsed();
            let start = Instant::now();
            read_all(&out).map_err(|e| format!("{path} rewritten with {name}: {e}"))?;
            let read = start.elapsed();
            progress.advance(1);
            progress.clear();
            line(format!(
                "{name:<14} {:>5} {:>14} {:>7.3}x {:>10} {:>10}",
                page_name(version),
                out.len(),
                out.len() as f64 / input.len().max(1) as f64,
                ms(write),
                ms(read)
            ))?;
        }
    }
    Ok(())
}

fn page_name(v: PageVersion) -> &'static str {
    match v {
        PageVersion::V1 => "V1",
        PageVersion::V2 => "V2",
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

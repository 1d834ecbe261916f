//! The `parket` command-line tool: inspect, print and write Parquet files.
//!
//! Errors go to stderr with exit code 1; a panic is never an answer.

mod args;
mod cat;
mod check;
mod dump;
mod dump_encodings;
mod dump_structs;
mod encrypt;
mod json;
mod json_keys;
mod keys;
mod layout;
mod levels;
mod meta;
mod pages;
mod progress;
mod rewrite;
mod rows;
mod write;

use args::Args;

const USAGE: &str = "\
usage: parket <command> [options]

commands:
  Every command that reads a file takes its keys, when it is encrypted: --footer-key KEY,
  --column-key PATH=KEY (repeatable), --key ID=KEY (repeatable: the key whose key_metadata
  is the text ID), --aad-prefix TEXT. KEY is 32, 48 or 64 hexadecimal digits.

  schema FILE                 print the schema as message text
  meta [--json] FILE          print the footer metadata
  cat [--json] [--columns a,b.c] [--where EXPR] [--offset N] [--limit N] [--explain]
      [--threads N] FILE      print the rows (--json: one JSON object per line)
  check [--threads N] FILE    decode every page and check the data against the metadata
                              (counts, statistics, page index, CRCs); exit 1 on a mismatch
  (--threads N: decode on N threads; default every core. Long work shows a progress line
  on stderr when it is a terminal.)
  write --schema SCHEMA|@FILE --input ROWS.jsonl|- --output OUT.parquet
        [--codec NAME[:LEVEL]] [--page-version 1|2] [--dictionary on|off]
        [--encoding PATH=ENCODING]... [--bloom-filter PATH]... [--row-group-rows N]
        [--page-rows N] [--page-size BYTES] [--statistics on|off] [--page-index on|off]
        [--crc on|off] [--ieee-754-total-order on|off] [--threads N]
        [--encrypt-footer-key KEY [--encrypt-column PATH=KEY]... [--footer-key-id ID]
         [--column-key-id PATH=ID]... [--encryption-algorithm aes_gcm_v1|aes_gcm_ctr_v1]
         [--plaintext-footer] [--aad-prefix TEXT] [--store-aad-prefix on|off]]
                              write JSON Lines (one record per line) as Parquet
                              (--threads: threads encoding the columns, default every
                              core; the file's bytes do not depend on it)
  pages [--column PATH] [--json] FILE
                              one line per page: offset, type, encodings, sizes, values,
                              nulls, rows, level bytes, CRC, first and last value
  dump (--at OFFSET | --page RG:COL:N) [--values N] [--decompressed] FILE
                              an annotated hex dump of one page: the header's Thrift fields,
                              the level runs, the values
  dump (--footer | --column-index RG:COL | --offset-index RG:COL
        | --bloom-filter RG:COL [--probe VALUE]) FILE
                              the footer, a page index or a Bloom filter annotated field by
                              field, then what it says (pages' ranges and rows; with --probe,
                              the block and the 8 bits a value hits)
  layout (--svg OUT.svg | --html OUT.html) [--where EXPR] FILE
                              a picture of the file drawn to scale by byte size (chunks, row
                              groups and the footer's fields labelled), then each row
                              group's pages by row, column by column (with --where: the
                              pages a scan reads and those it skips)
  levels [--column PATH] [--rows A..B] [--json] FILE
                              the Dremel levels: one line per level entry (repetition and
                              definition level, what they mean, the value) under the record
                              they assemble into; a group's leaves side by side
  rewrite IN OUT [write options]
                              the same rows re-encoded with write's options (--codec,
                              --page-version, ...): schema, row groups and key/value
                              metadata kept
  compare [write options] [--codecs NAME[:LEVEL],...] FILE
                              FILE rewritten with each codec (default: all, at several
                              levels) and both page versions: bytes, write and read time
";

fn main() {
    let mut argv = std::env::args().skip(1);
    let command = argv.next().unwrap_or_default();
    let argv: Vec<String> = argv.collect();
    // `rewrite` and `compare` read with the reading key options and write with write's: an AAD
    // prefix next to an output key could mean either file's, so it is refused, not guessed.
    let has = |flag: &str| {
        argv.iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    if matches!(command.as_str(), "rewrite" | "compare")
        && has("--aad-prefix")
        && has("--encrypt-footer-key")
    {
        eprintln!(
            "parket: {command}: --aad-prefix with --encrypt-footer-key is ambiguous (the input's \
             AAD prefix or the output's?), so it is refused rather than guessed"
        );
        std::process::exit(1);
    }
    let mut args = Args::new(argv);
    let reading = !matches!(command.as_str(), "write" | "help" | "--help" | "-h" | "");
    if reading {
        if let Err(message) = keys::take(&mut args) {
            eprintln!("parket: {message}");
            std::process::exit(1);
        }
    }
    let result = match command.as_str() {
        "schema" => meta::schema(args),
        "meta" => meta::meta(args),
        "cat" => cat::cat(args),
        "check" => check::check(args),
        "write" => write::write(args),
        "pages" => pages::pages(args),
        "dump" => dump::dump(args),
        "layout" => layout::layout(args),
        "levels" => levels::levels(args),
        "rewrite" => rewrite::rewrite(args),
        "compare" => rewrite::compare(args),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        "" => Err(format!("no command given\n{USAGE}")),
        other => Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    if let Err(message) = result {
        eprintln!("parket: {message}");
        std::process::exit(1);
    }
}

/// The most `--threads` takes: a thread per core of the largest machines and then some, far
/// below what a system will start (`cat` starts as many as it is told).
pub const MAX_THREADS: usize = 1024;

/// `--threads N` (1 to [`MAX_THREADS`]), or every core.
pub fn threads_arg(args: &mut Args) -> Result<usize, String> {
    match args.parsed::<usize>("--threads")? {
        Some(n) => threads_value(n),
        None => Ok(parket::read::parallel::threads_default()),
    }
}

/// `n` as a thread count: 1 to [`MAX_THREADS`], else an error saying so.
pub fn threads_value(n: usize) -> Result<usize, String> {
    match n {
        1..=MAX_THREADS => Ok(n),
        _ => Err(format!("--threads {n}: give 1 to {MAX_THREADS}")),
    }
}

/// Formats a library error with the file it came from.
pub fn file_error(path: &str, e: parket::Error) -> String {
    format!("{path}: {e}")
}

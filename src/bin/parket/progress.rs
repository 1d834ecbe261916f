//! A progress line on stderr for long work (`write`, `check`, `cat` to a file, `compare`):
//! what is done of the total, the rate and the time left, redrawn in place a few times a
//! second once the work has taken more than a second.
//!
//! Only when stderr is a terminal ([`std::io::IsTerminal`]): piped or redirected, nothing is
//! ever written, so scripts and tests see the output they always saw. The line is erased when
//! the work ends and before a line of the command's own output goes out
//! ([`Progress::println`]), so that the two do not mix on a terminal.
//!
//! The text is [`line`], a pure function:
//!
//! ```text
//! check: 120 / 480 chunks (25%), 40.0 chunks/s, 9 s left
//! write: 12.5 MB / 50.0 MB (25%), 4.2 MB/s, 9 s left
//! ```

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Work quieter than this shows no line.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// Redraws at most this often.
const REDRAW_EVERY: Duration = Duration::from_millis(200);

/// The progress of one piece of work: see the [module documentation](self).
pub struct Progress {
    what: &'static str,
    unit: &'static str,
    total: u64,
    done: u64,
    start: Instant,
    last: Option<Instant>,
    /// Where the line goes; `None` when stderr is not a terminal (nothing is ever drawn).
    out: Option<Box<dyn Write>>,
}

impl Progress {
    /// Progress of `what` (the command's name) over `total` `unit`s (`"bytes"` are shown as
    /// kB / MB / GB), drawn on stderr when it is a terminal.
    pub fn new(what: &'static str, total: u64, unit: &'static str) -> Self {
        let err = std::io::stderr();
        let out: Option<Box<dyn Write>> = if err.is_terminal() {
            Some(Box::new(err))
        } else {
            None
        };
        Progress::to(out, what, total, unit, Instant::now())
    }

    /// Progress drawn into `out` (none: never drawn), the work started at `start`.
    fn to(
        out: Option<Box<dyn Write>>,
        what: &'static str,
        total: u64,
        unit: &'static str,
        start: Instant,
    ) -> Self {
        Progress {
            what,
            unit,
            total,
            done: 0,
            start,
            last: None,
            out,
        }
    }

    /// Counts `n` more units done, and redraws the line when it is time to.
    pub fn advance(&mut self, n: u64) {
        self.done = self.done.saturating_add(n);
        let Some(out) = self.out.as_mut() else {
            return;
        };
        let now = Instant::now();
        let elapsed = now.duration_since(self.start);
        if elapsed < QUIET_FOR
            || self
                .last
                .is_some_and(|t| now.duration_since(t) < REDRAW_EVERY)
        {
            return;
        }
        self.last = Some(now);
        let text = line(self.what, self.done, self.total, self.unit, elapsed);
        let _ = write!(out, "\r{text}\x1b[K");
        let _ = out.flush();
    }

    /// Erases the line, when one is drawn (before the caller prints on stdout itself).
    pub fn clear(&mut self) {
        if let (Some(out), Some(_)) = (self.out.as_mut(), self.last) {
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
        }
    }

    /// Prints `text` and a newline on stdout, the progress line erased first (it is drawn
    /// again at the next [`Progress::advance`]).
    pub fn println(&mut self, text: &str) {
        self.clear();
        println!("{text}");
    }

    /// The work is done: erases the line.
    pub fn finish(&mut self) {
        self.clear();
        self.last = None;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The progress line: `what: done / total unit (percent), rate unit/s, time left`. A total
/// of 0 means unknown (no percent, no time left); bytes are shown in kB, MB or GB.
pub fn line(what: &str, done: u64, total: u64, unit: &str, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let amount = |n: f64| -> String {
        if unit != "bytes" {
            return format!("{}", n as u64);
        }
        match n {
            n if n >= 1e9 => format!("{:.1} GB", n / 1e9),
            n if n >= 1e6 => format!("{:.1} MB", n / 1e6),
            n if n >= 1e3 => format!("{:.1} kB", n / 1e3),
            n => format!("{} B", n as u64),
        }
    };
    let (done_s, unit_s) = if unit == "bytes" {
        (amount(done as f64), "")
    } else {
        (amount(done as f64), unit)
    };
    let rate_s = if unit == "bytes" {
        format!("{}/s", amount(rate))
    } else {
        format!("{rate:.1} {unit}/s")
    };
    let sep = if unit_s.is_empty() { "" } else { " " };
    if total == 0 {
        return format!("{what}: {done_s}{sep}{unit_s}, {rate_s}");
    }
    let pct = (done.min(total) as f64 * 100.0 / total as f64).floor() as u64;
    let left = if rate > 0.0 {
        let s = (total.saturating_sub(done) as f64 / rate).ceil() as u64;
        if s >= 3600 {
            format!("{}h{:02}m left", s / 3600, s % 3600 / 60)
        } else if s >= 60 {
            format!("{}m{:02}s left", s / 60, s % 60)
        } else {
            format!("{s} s left")
        }
    } else {
        String::from("time left unknown")
    };
    format!(
        "{what}: {done_s} / {}{sep}{unit_s} ({pct}%), {rate_s}, {left}",
        amount(total as f64)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn the_line_says_done_total_rate_and_time_left() {
        let s = Duration::from_secs;
        assert_eq!(
            line("check", 120, 480, "chunks", s(3)),
            "check: 120 / 480 chunks (25%), 40.0 chunks/s, 9 s left"
        );
        assert_eq!(
            line("write", 12_500_000, 50_000_000, "bytes", s(3)),
            "write: 12.5 MB / 50.0 MB (25%), 4.2 MB/s, 9 s left"
        );
        // 1,000 rows/s, 150,000 rows left: 2m30s.
        assert_eq!(
            line("cat", 50_000, 200_000, "rows", s(50)),
            "cat: 50000 / 200000 rows (25%), 1000.0 rows/s, 2m30s left"
        );
        assert_eq!(
            line("cat", 0, 10, "rows", s(2)),
            "cat: 0 / 10 rows (0%), 0.0 rows/s, time left unknown"
        );
        assert_eq!(
            line("write", 2_000, 0, "bytes", s(2)),
            "write: 2.0 kB, 1.0 kB/s"
        );
        assert_eq!(
            line("x", 7_200, 14_400, "rows", s(7_200)),
            "x: 7200 / 14400 rows (50%), 1.0 rows/s, 2h00m left"
        );
    }

    /// A sink the test can read after the progress has written into it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn long_ago() -> Instant {
        Instant::now() - Duration::from_secs(5)
    }

    #[test]
    fn nothing_is_drawn_when_stderr_is_not_a_terminal() {
        let mut p = Progress::to(None, "check", 10, "chunks", long_ago());
        p.advance(5);
        p.finish();
        // Under `cargo test` stderr is captured, not a terminal: `new` draws nothing either.
        if !std::io::stderr().is_terminal() {
            assert!(Progress::new("check", 10, "chunks").out.is_none());
        }
    }

    #[test]
    fn a_terminal_sees_the_line_after_a_second_and_then_it_is_erased() {
        let sink = Shared::default();
        let mut quick = Progress::to(
            Some(Box::new(sink.clone())),
            "cat",
            10,
            "rows",
            Instant::now(),
        );
        quick.advance(5);
        quick.finish();
        assert!(sink.0.lock().unwrap().is_empty(), "drawn before a second");

        let mut slow = Progress::to(Some(Box::new(sink.clone())), "cat", 10, "rows", long_ago());
        slow.advance(5);
        let drawn = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert!(drawn.starts_with("\rcat: 5 / 10 rows (50%), "), "{drawn:?}");
        assert!(drawn.ends_with(" left\x1b[K"), "{drawn:?}");
        slow.advance(1); // within REDRAW_EVERY: not drawn again
        assert_eq!(sink.0.lock().unwrap().len(), drawn.len());
        slow.finish();
        let all = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert!(all.ends_with("\r\x1b[K"), "{all:?}");
    }
}

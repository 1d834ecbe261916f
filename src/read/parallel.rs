//! Reading on several cores (`std` only): [`ordered`] runs independent pieces of work (column
//! chunks, batches) on scoped threads and hands their results back in order, holding at most a
//! window of results at once; [`threads_default`] is the thread count a scan uses unless told.
//!
//! No pool and no dependency: each call opens a [`std::thread::scope`], so the work may borrow
//! the file reader and the caller's state, and every thread has ended when it returns. With one
//! thread (or one item) nothing is spawned: the work runs in the caller's thread, in order,
//! exactly as a single-threaded loop would.
//!
//! ```
//! use parket::read::parallel::ordered;
//! let mut out = Vec::new();
//! ordered(2, 5, 4, || 0u32, |calls, i| { *calls += 1; i * i }, |i, sq| {
//!     out.push((i, sq));
//!     Ok::<(), ()>(())
//! })
//! .unwrap();
//! assert_eq!(out, [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16)]); // in item order
//! ```

use alloc::collections::BTreeMap;
use std::sync::{mpsc, Condvar, Mutex};

/// The thread count scans and the CLI use unless told: every core the process may use
/// ([`std::thread::available_parallelism`]), or 1 when that cannot be known.
pub fn threads_default() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Where the workers stand: the next item to claim, the items the caller has consumed, and
/// whether to stop (the caller failed).
struct Claims {
    next: usize,
    consumed: usize,
    stop: bool,
}

/// Runs `work(state, i)` for every item `i` in `0..n` on up to `threads` threads (each with its
/// own `state` from `init`, e.g. decode buffers) and calls `consume(i, result)` on the calling
/// thread in item order. A worker claims item `i` only while `i < consumed + window`, so at
/// most `window` results (finished or being computed) exist at once: memory is bounded by the
/// window, not by `n`. The first error of `consume` stops the workers (items already claimed
/// finish) and is returned.
///
/// With `threads <= 1` or `n <= 1`, runs in the calling thread: `work` then `consume`, item by
/// item. A panic in `work` is propagated once the other threads have stopped.
pub fn ordered<S, R, E>(
    threads: usize,
    n: usize,
    window: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut consume: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    let threads = threads.min(n);
    if threads <= 1 {
        let mut state = init();
        for i in 0..n {
            consume(i, work(&mut state, i))?;
        }
        return Ok(());
    }
    let window = window.max(threads);
    let claims = Mutex::new(Claims {
        next: 0,
        consumed: 0,
        stop: false,
    });
    let turn = Condvar::new();
    let (send, recv) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        let mut started = 0;
        for _ in 0..threads {
            let send = send.clone();
            let (claims, turn, init, work) = (&claims, &turn, &init, &work);
            // A thread the system will not start is one fewer worker, not a panic.
            let worker = std::thread::Builder::new().spawn_scoped(s, move || {
                let mut state = init();
                loop {
                    let i = {
                        let Ok(mut c) = claims.lock() else { return };
                        loop {
                            if c.stop || c.next >= n {
                                return;
                            }
                            if c.next < c.consumed.saturating_add(window) {
                                break;
                            }
                            c = match turn.wait(c) {
                                Ok(c) => c,
                                Err(_) => return,
                            };
                        }
                        c.next += 1;
                        c.next - 1
                    };
                    if send.send((i, work(&mut state, i))).is_err() {
                        return;
                    }
                }
            });
            match worker {
                Ok(_) => started += 1,
                Err(_) => break,
            }
        }
        drop(send);
        if started == 0 {
            let mut state = init();
            for i in 0..n {
                consume(i, work(&mut state, i))?;
            }
            return Ok(());
        }
        let mut held: BTreeMap<usize, R> = BTreeMap::new();
        let mut at = 0usize;
        let mut result = Ok(());
        // Ends when every item is consumed, or every worker has ended (a panic, or a stop).
        while at < n {
            let Ok((i, r)) = recv.recv() else { break };
            held.insert(i, r);
            while let Some(r) = held.remove(&at) {
                if let Err(e) = consume(at, r) {
                    result = Err(e);
                    break;
                }
                at += 1;
            }
            let stop = result.is_err();
            if let Ok(mut c) = claims.lock() {
                c.consumed = at;
                c.stop |= stop;
            }
            turn.notify_all();
            if stop {
                break;
            }
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for threads in [1, 2, 3, 8] {
            let mut out = Vec::new();
            ordered(
                threads,
                100,
                4,
                || (),
                |_, i| {
                    // Early items slow, so later ones finish first.
                    std::thread::sleep(std::time::Duration::from_micros((100 - i as u64) * 10));
                    i * 2
                },
                |i, r| {
                    out.push((i, r));
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            let want: Vec<_> = (0..100).map(|i| (i, i * 2)).collect();
            assert_eq!(out, want, "{threads} threads");
        }
    }

    #[test]
    fn no_more_than_the_window_is_claimed_ahead_of_the_consumer() {
        let started = AtomicUsize::new(0);
        let mut worst = 0;
        ordered(
            4,
            200,
            6,
            || (),
            |_, i| {
                started.fetch_max(i + 1, Ordering::SeqCst);
                i
            },
            |i, _| {
                worst = worst.max(started.load(Ordering::SeqCst) - i);
                std::thread::sleep(std::time::Duration::from_micros(50));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        // Item i is being consumed: items up to i + window - 1 may have been claimed.
        assert!(worst <= 6, "{worst} items claimed ahead");
        assert!(
            worst >= 2,
            "the workers never ran ahead ({worst}): not parallel"
        );
    }

    #[test]
    fn a_window_near_usize_max_does_not_overflow() {
        // `consumed + window` once overflowed here (a panic in the workers, or in release
        // builds a window that wrapped to nothing and workers waiting forever).
        let mut out = Vec::new();
        ordered(
            2,
            50,
            usize::MAX,
            || (),
            |_, i| {
                // Slow enough that items are still to claim once the consumer has moved on.
                std::thread::sleep(std::time::Duration::from_micros(200));
                i
            },
            |i, r| {
                out.push((i, r));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..50).map(|i| (i, i)).collect::<Vec<_>>());
    }

    #[test]
    fn an_error_of_the_consumer_stops_the_workers() {
        let done = AtomicUsize::new(0);
        let r = ordered(
            2,
            10_000,
            4,
            || (),
            |_, i| {
                done.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| if i == 10 { Err(i) } else { Ok(()) },
        );
        assert_eq!(r, Err(10));
        assert!(done.load(Ordering::SeqCst) < 100);
    }
}

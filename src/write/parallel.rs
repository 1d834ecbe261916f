//! The columns of a row group encoded and compressed on several threads
//! ([`WriteOptions::threads`](super::WriteOptions::threads)); the file's bytes do not depend on
//! the thread count.
//!
//! Where the threads work. Each column chunk has its own [`ChunkEncoder`](super::chunk) (its
//! dictionary, open page, statistics, page index entries, Bloom filter hashes), and nothing in
//! one column's encoding depends on another's. So the unit of work is *one column's part of
//! one call*:
//!
//! - a call that carries every column ([`FileWriter::write_columns`](super::FileWriter),
//!   hence `write_records`, and [`RowGroupWriter::write_columns`](super::RowGroupWriter)):
//!   each column's batch is cut into pages, encoded and compressed on whichever thread takes
//!   that column next (threads take columns from a shared queue, so one large column does not
//!   leave the others waiting behind it on the same thread);
//! - the row-group cut: every chunk not yet written out is closed (its last page, its
//!   dictionary page, its Bloom filter) on the threads, the same way, and written out by the
//!   calling thread as soon as it and the chunks before it are closed
//!   ([`for_each_in_order`]);
//! - [`RowGroupWriter::finish_with`](super::RowGroupWriter::finish_with): each column's last
//!   batch written and its chunk closed as one item, the chunks written out in the same way,
//!   so the sink's work overlaps the encoding of the later columns.
//!
//! Each column sees exactly the batches, in exactly the order, that the single-thread path
//! gives it, so its pages, statistics and indexes are the same bytes. The pages then go to the
//! sink from the calling thread, chunk after chunk in schema order: the sink is never shared,
//! and needs no `Send`.
//!
//! Memory: see the [module doc](super)'s "Threads"; in short, the threads hold nothing of
//! their own, and the front chunk holds its pages of one call.
//!
//! Work too small to pay for a thread start (about 20 µs) stays on the calling thread:
//! [`MIN_PARALLEL_LEVELS`] levels per call at least. Without the `std` feature there are no
//! threads, and every call takes the single-thread path.
//!
//! ```text
//! call: write_columns([a, b, c, d])            threads = 2
//!   thread 1: a ─────────── c ────
//!   thread 2: b ── d ─────────
//!   then, on the caller: pages of a (if a is the front column) to the sink
//! row-group cut: close a, b, c, d on the threads; write a, b, c, d to the sink in order,
//!   each as soon as it and those before it are closed
//! finish_with([a, b, c, d])                    threads = 2
//!   thread 1: a+close ── (write a) ── c+close ── (write b, c)
//!   thread 2: b+close ─────────────── d+close ──
//!   then, on the caller: write d
//! ```

use crate::error::Result;

/// Levels (over all columns) a call needs before it is spread over threads: below this, the
/// cost of starting a thread is a visible part of the call.
pub const MIN_PARALLEL_LEVELS: usize = 16 * 1024;

/// Runs `f(i, item)` on every item of `items`, on up to `threads` threads (the caller's
/// included), each thread taking the next item not yet taken, in order of `work(i, item)` (an
/// estimate of what `f` costs), the largest first, ties in index order: one large column
/// taken last would leave the other threads waiting for it at the end (taxi-v2-plain-delta:
/// its three DELTA_BYTE_ARRAY string columns, each about three times the work of another, are
/// columns 7, 21 and 22 of 24). The order the items run in changes nothing they produce. On
/// errors, returns the one of the item with the lowest index, the one the calling thread
/// alone would stop at: after a failure the items with a higher index are skipped, those with
/// a lower one still run. With `threads <= 1`, or without the `std` feature, runs in order on
/// the calling thread and stops at the first error.
pub(crate) fn for_each_heaviest_first<T: Send>(
    threads: usize,
    items: &mut [T],
    work: impl Fn(usize, &T) -> u64,
    f: impl Fn(usize, &mut T) -> Result<()> + Sync,
) -> Result<()> {
    #[cfg(feature = "std")]
    if threads > 1 && items.len() > 1 {
        return for_each_threaded(threads.min(items.len()), items, work, f);
    }
    let _ = (threads, work);
    items.iter_mut().enumerate().try_for_each(|(i, t)| f(i, t))
}

#[cfg(feature = "std")]
fn for_each_threaded<T: Send>(
    threads: usize,
    items: &mut [T],
    work: impl Fn(usize, &T) -> u64,
    f: impl Fn(usize, &mut T) -> Result<()> + Sync,
) -> Result<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};

    let queue = Mutex::new(heaviest_first(items, work));
    let errors: Mutex<alloc::vec::Vec<(usize, crate::error::Error)>> =
        Mutex::new(alloc::vec::Vec::new());
    // The lowest index that failed (`usize::MAX`: none yet).
    let failed = AtomicUsize::new(usize::MAX);
    let run = || loop {
        // The lock is held only to take the next item (never while running `f`), so it is
        // never poisoned; a panic in `f` reaches the caller through the scope.
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some((_, i, item)) = next else { return };
        if i > failed.load(Ordering::Relaxed) {
            continue;
        }
        if let Err(e) = f(i, item) {
            failed.fetch_min(i, Ordering::Relaxed);
            errors
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((i, e));
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            // A thread the system will not start is one fewer worker (the caller's thread
            // takes what the others leave), not a panic.
            if std::thread::Builder::new().spawn_scoped(s, run).is_err() {
                break;
            }
        }
        run();
    });
    let errors = errors.into_inner().unwrap_or_else(PoisonError::into_inner);
    match errors.into_iter().min_by_key(|(i, _)| *i) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// Runs `f(i, item)` on every item as [`for_each_heaviest_first`] does, and hands each
/// result to `ready(i, result)` on the calling thread, in index order, as soon as that item
/// and every item before it are done: the caller writes out column chunk `k` while the other
/// threads still work on later ones, instead of after all of them. The calling thread
/// delivers what is ready before it takes the next item, and waits only when every item is
/// taken. The results of items done ahead of their turn wait in memory (at most all of
/// them). `ready` may give back something to reuse (a finished column's buffers), which the
/// next item to start is given; the last one left is returned. On errors (of `f` or of
/// `ready`), returns the one of the lowest index; `ready` is called for no item at or after
/// it. With `threads <= 1`, or without the `std` feature, runs `f` then `ready` item after
/// item on the calling thread.
pub(crate) fn for_each_in_order<T: Send, R: Send, S: Send>(
    threads: usize,
    items: &mut [T],
    work: impl Fn(usize, &T) -> u64,
    f: impl Fn(usize, &mut T, Option<S>) -> Result<R> + Sync,
    mut ready: impl FnMut(usize, R) -> Result<Option<S>>,
) -> Result<Option<S>> {
    #[cfg(feature = "std")]
    if threads > 1 && items.len() > 1 {
        return in_order_threaded(threads.min(items.len()), items, work, f, ready);
    }
    let _ = (threads, work);
    let mut spare = None;
    for (i, t) in items.iter_mut().enumerate() {
        let r = f(i, t, spare.take())?;
        spare = ready(i, r)?;
    }
    Ok(spare)
}

#[cfg(feature = "std")]
fn in_order_threaded<T: Send, R: Send, S: Send>(
    threads: usize,
    items: &mut [T],
    work: impl Fn(usize, &T) -> u64,
    f: impl Fn(usize, &mut T, Option<S>) -> Result<R> + Sync,
    mut ready: impl FnMut(usize, R) -> Result<Option<S>>,
) -> Result<Option<S>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Condvar, Mutex, PoisonError};

    /// The results done and not yet delivered, and how many helper threads have ended.
    struct Done<R> {
        results: alloc::vec::Vec<Option<Result<R>>>,
        ended: usize,
    }
    /// Counts a helper thread out when it ends, by a panic too, so that the caller never
    /// waits for a result no thread will make.
    struct Exit<'a, R> {
        done: &'a Mutex<Done<R>>,
        changed: &'a Condvar,
    }
    impl<R> Drop for Exit<'_, R> {
        fn drop(&mut self) {
            self.done
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .ended += 1;
            self.changed.notify_all();
        }
    }

    let n = items.len();
    // The helper threads take the heaviest item left (one taken last would leave the others
    // waiting for it); the calling thread takes the one of the lowest index left, the next to
    // write out: taken by weight alone, the light items (often the first columns) would be
    // done last and hold back the writing of every chunk after them.
    let queue = Mutex::new(
        heaviest_first(items, work)
            .map(Some)
            .collect::<alloc::vec::Vec<_>>(),
    );
    let done = Mutex::new(Done {
        results: (0..n).map(|_| None).collect(),
        ended: 0,
    });
    let changed = Condvar::new();
    let spare: Mutex<alloc::vec::Vec<S>> = Mutex::new(alloc::vec::Vec::new());
    // The lowest index that failed (`usize::MAX`: none yet): items after it are skipped.
    let failed = AtomicUsize::new(usize::MAX);
    let take = |front: bool| loop {
        let mut q = queue.lock().unwrap_or_else(PoisonError::into_inner);
        let at = if front {
            q.iter()
                .enumerate()
                .filter_map(|(k, e)| e.as_ref().map(|&(_, i, _)| (i, k)))
                .min()
                .map(|(_, k)| k)
        } else {
            q.iter().position(Option::is_some)
        };
        let next = at.and_then(|k| q[k].take());
        drop(q);
        match next {
            Some((_, i, _)) if i > failed.load(Ordering::Relaxed) => continue,
            other => return other,
        }
    };
    let run = |i: usize, item: &mut T| {
        let reuse = spare.lock().unwrap_or_else(PoisonError::into_inner).pop();
        let result = f(i, item, reuse);
        if result.is_err() {
            failed.fetch_min(i, Ordering::Relaxed);
        }
        done.lock().unwrap_or_else(PoisonError::into_inner).results[i] = Some(result);
        changed.notify_all();
    };
    let helper = || {
        let _exit = Exit {
            done: &done,
            changed: &changed,
        };
        while let Some((_, i, item)) = take(false) {
            run(i, item);
        }
    };
    std::thread::scope(|s| {
        let mut helpers = 0;
        for _ in 1..threads {
            if std::thread::Builder::new().spawn_scoped(s, helper).is_err() {
                break;
            }
            helpers += 1;
        }
        // The calling thread: deliver in order, take items while any are left, wait for the
        // next result when none are.
        let mut next = 0;
        let mut taken_all = false;
        while next < n {
            let result = {
                let mut d = done.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if let Some(r) = d.results[next].take() {
                        break Some(r);
                    }
                    if !taken_all || d.ended == helpers {
                        break None;
                    }
                    d = changed.wait(d).unwrap_or_else(PoisonError::into_inner);
                }
            };
            match result {
                Some(Ok(r)) => {
                    match ready(next, r) {
                        Ok(Some(s)) => spare.lock().unwrap_or_else(PoisonError::into_inner).push(s),
                        Ok(None) => {}
                        Err(e) => {
                            failed.fetch_min(next, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                    next += 1;
                }
                Some(Err(e)) => return Err(e),
                None if !taken_all => match take(true) {
                    Some((_, i, item)) => run(i, item),
                    None => taken_all = true,
                },
                // Every item is taken and every helper ended without item `next`'s result:
                // a helper panicked, and the scope passes the panic on.
                None => return Ok(None),
            }
        }
        Ok(spare.lock().unwrap_or_else(PoisonError::into_inner).pop())
    })
}

/// The items with their indexes, the largest `work` estimate first, ties in index order.
#[cfg(feature = "std")]
fn heaviest_first<T>(
    items: &mut [T],
    work: impl Fn(usize, &T) -> u64,
) -> alloc::vec::IntoIter<(u64, usize, &mut T)> {
    let mut order: alloc::vec::Vec<(u64, usize, &mut T)> = items
        .iter_mut()
        .enumerate()
        .map(|(i, t)| (work(i, t), i, t))
        .collect();
    // Stable: equal estimates keep the index order.
    order.sort_by_key(|&(w, _, _)| core::cmp::Reverse(w));
    order.into_iter()
}

/// The thread count of [`WriteOptions::threads`](super::WriteOptions::threads)' default:
/// every core the process may use (1 without the `std` feature or when unknown).
pub(crate) fn available() -> usize {
    #[cfg(feature = "std")]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
    #[cfg(not(feature = "std"))]
    {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use alloc::vec::Vec;

    #[test]
    fn every_item_once_and_the_first_error() {
        for threads in [1, 2, 3, 8] {
            let mut items: Vec<u32> = (0..50).collect();
            for_each_heaviest_first(
                threads,
                &mut items,
                |_, _| 0,
                |i, x| {
                    *x += i as u32;
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(items, (0..50).map(|x| 2 * x).collect::<Vec<_>>());
            let mut items: Vec<u32> = (0..50).collect();
            let err = for_each_heaviest_first(
                threads,
                &mut items,
                |_, _| 0,
                |i, _| {
                    if i == 7 || i == 30 {
                        Err(Error::invalid_argument(alloc::format!("item {i}")))
                    } else {
                        Ok(())
                    }
                },
            )
            .unwrap_err();
            // Item 7 always runs before item 30 is taken by a thread that sees no failure,
            // or both fail: the lowest index wins either way.
            assert!(err.to_string().contains("item 7"), "{err}");
        }
    }

    #[test]
    fn in_order_delivers_every_result_in_index_order_and_stops_at_the_first_error() {
        for threads in [1, 2, 3, 8] {
            let mut items: Vec<u32> = (0..40).collect();
            let mut seen = Vec::new();
            // Item 0 the lightest: it is taken last, and nothing is delivered before it.
            let spare = for_each_in_order(
                threads,
                &mut items,
                |i, _| i as u64 % 5 + u64::from(i > 0),
                |i, x, reuse: Option<usize>| {
                    *x += i as u32;
                    Ok((*x, reuse))
                },
                |i, (x, reuse)| {
                    seen.push((i, x));
                    // With one thread, item i is given what item i - 1's delivery gave back.
                    if threads == 1 && i > 0 {
                        assert_eq!(reuse, Some(i - 1));
                    }
                    Ok(Some(i))
                },
            )
            .unwrap();
            assert!(spare.is_some());
            let want: Vec<(usize, u32)> = (0..40).map(|i| (i, 2 * i as u32)).collect();
            assert_eq!(seen, want, "{threads} threads");

            let mut seen = Vec::new();
            let err = for_each_in_order(
                threads,
                &mut items,
                |i, _| if i == 30 { 100 } else { 0 },
                |i, _, _: Option<()>| {
                    if i == 7 || i == 30 {
                        Err(Error::invalid_argument(alloc::format!("item {i}")))
                    } else {
                        Ok(i)
                    }
                },
                |i, _| {
                    seen.push(i);
                    Ok(None)
                },
            )
            .unwrap_err();
            assert!(err.to_string().contains("item 7"), "{err}");
            assert_eq!(seen, (0..7).collect::<Vec<_>>(), "{threads} threads");

            // A failing delivery: nothing after it is delivered, its error is returned.
            let mut seen = Vec::new();
            let err = for_each_in_order(
                threads,
                &mut items,
                |_, _| 0,
                |i, _, _: Option<()>| Ok(i),
                |i, _| {
                    if i == 3 {
                        return Err(Error::invalid_argument("sink"));
                    }
                    seen.push(i);
                    Ok(None)
                },
            )
            .unwrap_err();
            assert!(err.to_string().contains("sink"), "{err}");
            assert_eq!(seen, [0, 1, 2], "{threads} threads");
        }
    }

    #[test]
    fn in_order_the_caller_takes_the_front_item_the_helpers_the_heaviest() {
        let caller = std::thread::current().id();
        let mut items: Vec<u32> = (0..10).collect();
        let ran = std::sync::Mutex::new(Vec::new());
        // Item 0 the lightest: the helper takes 9, 8, ...; the caller takes 0 first.
        for_each_in_order(
            2,
            &mut items,
            |i, _| i as u64,
            |i, _, _: Option<()>| {
                let here = std::thread::current().id() == caller;
                ran.lock().unwrap().push((i, here));
                std::thread::sleep(std::time::Duration::from_millis(2));
                Ok(())
            },
            |_, ()| Ok(None),
        )
        .unwrap();
        let ran = ran.into_inner().unwrap();
        assert!(ran.contains(&(0, true)), "{ran:?}");
        assert!(ran.contains(&(9, false)), "{ran:?}");
        assert_eq!(ran.len(), 10);
    }

    #[test]
    fn heaviest_first_runs_every_item_once_and_returns_the_first_error_in_index_order() {
        for threads in [1, 2, 3, 8] {
            let mut items: Vec<u32> = (0..50).collect();
            // The largest estimates last in index order: the threads take them first.
            for_each_heaviest_first(
                threads,
                &mut items,
                |i, _| i as u64 % 7,
                |i, x| {
                    *x += i as u32;
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(items, (0..50).map(|x| 2 * x).collect::<Vec<_>>());
            // Item 30 is taken long before item 7 (heavier), yet item 7's error is the one
            // returned: the items below a failure still run.
            let ran = std::sync::Mutex::new(Vec::new());
            let err = for_each_heaviest_first(
                threads,
                &mut items,
                |i, _| if i == 30 { 100 } else { 0 },
                |i, _| {
                    ran.lock().unwrap().push(i);
                    if i == 7 || i == 30 {
                        Err(Error::invalid_argument(alloc::format!("item {i}")))
                    } else {
                        Ok(())
                    }
                },
            )
            .unwrap_err();
            assert!(err.to_string().contains("item 7"), "{err}");
            let ran = ran.into_inner().unwrap();
            assert!((0..=7).all(|i| ran.contains(&i)), "{ran:?}");
            if threads > 1 {
                // Heaviest first: item 30 ran, though it comes after the failing item 7.
                assert_eq!(ran.first(), Some(&30), "{ran:?}");
            }
        }
    }
}

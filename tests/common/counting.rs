//! A counting global allocator for the test binaries that measure heap (`memory.rs`,
//! `mutation.rs`), each of which installs it:
//!
//! ```text
//! #[path = "common/counting.rs"]
//! mod counting;
//! #[global_allocator]
//! static ALLOCATOR: counting::Counting = counting::Counting;
//! ```
//!
//! It counts the bytes in use and their peak, and refuses (returns null, so the process
//! aborts) any allocation that would take the bytes in use past [`CAP`], after writing a line
//! naming the allocation and what [`FILE`] and [`SEED`] say was being read.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

pub struct Counting;

pub static CURRENT: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Allocations that would take the bytes in use past this are refused.
pub static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);
/// What is being read (file ordinal, seed), for the message when the cap is hit.
pub static FILE: AtomicU64 = AtomicU64::new(u64::MAX);
pub static SEED: AtomicU64 = AtomicU64::new(u64::MAX);

/// Runs `f`; returns its result and the peak heap above the start, in bytes.
pub fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = CURRENT.load(Relaxed);
    PEAK.store(before, Relaxed);
    let r = f();
    (r, PEAK.load(Relaxed).saturating_sub(before))
}

fn over_cap(size: usize) -> bool {
    let now = CURRENT.load(Relaxed);
    if now.saturating_add(size) <= CAP.load(Relaxed) {
        return false;
    }
    // No allocation here: digits into a stack buffer, then one write to stderr.
    let mut buf = [0u8; 160];
    let mut n = 0;
    for part in [
        &b"counting allocator: allocation over the cap: file #"[..],
        b"",
        b" seed ",
        b"",
        b" size ",
        b"",
        b"\n",
    ]
    .iter()
    .enumerate()
    {
        let (i, text) = part;
        let num = match i {
            1 => Some(FILE.load(Relaxed)),
            3 => Some(SEED.load(Relaxed)),
            5 => Some(size as u64),
            _ => None,
        };
        for &b in text.iter() {
            buf[n] = b;
            n += 1;
        }
        if let Some(mut v) = num {
            let mut digits = [0u8; 20];
            let mut k = 0;
            loop {
                digits[k] = b'0' + (v % 10) as u8;
                k += 1;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            while k > 0 {
                k -= 1;
                buf[n] = digits[k];
                n += 1;
            }
        }
    }
    let _ = std::io::Write::write_all(&mut std::io::stderr(), &buf[..n]);
    true
}

fn added(size: usize) {
    let now = CURRENT.fetch_add(size, Relaxed) + size;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call forwards to `System` with the caller's layout; the counters are atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if over_cap(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            added(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if over_cap(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            added(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && over_cap(new_size - old) {
            return std::ptr::null_mut();
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size > old {
                added(new_size - old);
            } else {
                CURRENT.fetch_sub(old - new_size, Relaxed);
            }
        }
        p
    }
}

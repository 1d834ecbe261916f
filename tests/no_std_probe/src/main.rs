//! The no_std probe: a bare-metal binary that links parket's whole reader (built with
//! `default-features = false`), with nothing from `std`.
//!
//! Built by `.ci/features` for `thumbv7em-none-eabihf`, a target that ships no `std` at all: if
//! parket (or anything it depends on) used `std`, the build would fail with "can't find crate
//! for `std`". The binary is never run; `_start` reads a file image whose address the linker
//! cannot see through, so the whole reader is kept.

#![no_std]
#![no_main]

extern crate alloc;

#[path = "checksum.rs"]
mod checksum;

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};

/// A bump allocator over a static arena (never frees): enough to link.
struct Bump;

const ARENA: usize = 1 << 16;
static NEXT: AtomicUsize = AtomicUsize::new(0);
static mut MEMORY: [u8; ARENA] = [0; ARENA];

unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let mut start = 0;
        let claimed = NEXT.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |next| {
            start = next.checked_add(layout.align() - 1)? & !(layout.align() - 1);
            let end = start.checked_add(layout.size())?;
            (end <= ARENA).then_some(end)
        });
        match claimed {
            Ok(_) => unsafe { (&raw mut MEMORY).cast::<u8>().add(start) },
            Err(_) => core::ptr::null_mut(),
        }
    }

    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static ALLOCATOR: Bump = Bump;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// The entry point: checksums a file image the optimizer cannot see through.
#[no_mangle]
pub extern "C" fn _start() -> ! {
    let image: &[u8] = core::hint::black_box(&[]);
    let sum = checksum::checksum(image).unwrap_or(0);
    core::hint::black_box(sum);
    loop {
        core::hint::spin_loop();
    }
}

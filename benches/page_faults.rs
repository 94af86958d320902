//! Page faults per forward pass of the transformer block (`benches/common/block.rs`), typed
//! shapecast against ndarray: the allocation churn a pass causes, read from the process's
//! minor-fault counter (`/proc/self/stat`, Linux) around 20 passes after 3 warm-up passes.
//!
//! Run: `cargo bench --bench page_faults` (add `--features rayon` for the threaded build;
//! `-- WORD` keeps the lines whose label holds WORD, e.g. `-- T256` or `-- ndarray`).
//! Prints one line per size and library: per pass, the faults, the allocations, the most
//! memory the pass held at once beyond its inputs, and the time (the counting allocator
//! around the system one costs a little).

// A counting global allocator is `unsafe` by nature (the workspace denies it elsewhere).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting calls, bytes live and the most bytes live at once.
struct Counting;
static CALLS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: the caller's contract for `alloc` is `System::alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from `System` through `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[path = "common/block.rs"]
mod block;

use block::{Dims, Flat, Nd, Typed, LARGE, SMALL};

/// The process's minor page faults so far (field 10 of `/proc/self/stat`).
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 2..];
    after.split(' ').nth(7)?.parse().ok()
}

const WARM: usize = 3;
const PASSES: usize = 20;

fn per_pass(label: &str, mut pass: impl FnMut()) {
    // `cargo bench --bench page_faults -- WORD` keeps the lines whose label holds WORD.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    if filter.is_some_and(|f| !label.contains(&f)) {
        return;
    }
    for _ in 0..WARM {
        pass();
    }
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let calls = CALLS.load(Relaxed);
    let (Some(before), start) = (minor_faults(), Instant::now()) else {
        println!("{label}: no /proc/self/stat on this system");
        return;
    };
    for _ in 0..PASSES {
        pass();
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / PASSES as f64;
    let after = minor_faults().unwrap_or(before);
    let faults = (after - before) as f64 / PASSES as f64;
    let calls = (CALLS.load(Relaxed) - calls) / PASSES;
    let peak = (PEAK.load(Relaxed) - base) as f64 / (1 << 20) as f64;
    println!(
        "{label}: {faults:.1} minor page faults, {calls} allocations, \
         {peak:.2} MiB peak, {ms:.2} ms per pass"
    );
}

fn one_size(d: Dims) {
    let flat = Flat::new(d);
    let (x, w) = Typed::new(d, &flat);
    let (xn, wn) = Nd::new(d, &flat);
    let threads = if cfg!(feature = "rayon") {
        "rayon"
    } else {
        "1 thread"
    };
    per_pass(&format!("{} [{threads}] shapecast", d.label()), || {
        std::hint::black_box(block::typed_block(&x, &w, d.dk));
    });
    per_pass(&format!("{} [{threads}] ndarray  ", d.label()), || {
        std::hint::black_box(block::nd_block(&xn, &wn, d));
    });
}

fn main() {
    one_size(SMALL);
    one_size(LARGE);
}

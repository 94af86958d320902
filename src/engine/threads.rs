//! How work is split over threads (feature `rayon`): rayon's pool runs it, the calling
//! thread takes part, and the pool's workers stay awake between operations.
//!
//! A model is a chain of operations of 10 µs to a few ms each. Rayon's workers go to sleep
//! a few µs after their last job, and waking one costs tens of µs on a virtual machine, more
//! than a short operation gains from a second core (`docs/performance.md`, threads, has the
//! measurement). So, as OpenMP's runtimes do
//! under PyTorch, every split operation keeps the pool's other workers spinning for
//! [`spin_time`] after it (1 ms unless `SHAPECAST_SPIN_US` or [`set_spin_time`] says
//! otherwise): a spinning worker runs rayon jobs as they come (`rayon::yield_now`) and goes
//! back to sleep once no operation has split for that long; while it spins it offers its
//! core to the scheduler every 10 µs, so a thread queued on that core (a caller woken by
//! the worker) is not held up for the whole spin. The calling thread does a share
//! of each operation itself, the pieces handed out one at a time to whichever thread is free.
//!
//! The thread count is rayon's: `RAYON_NUM_THREADS`, a global pool built with
//! [`rayon::ThreadPoolBuilder::build_global`](https://docs.rs/rayon/latest/rayon/struct.ThreadPoolBuilder.html#method.build_global),
//! or the pool of an enclosing `install`. One pool at a time is kept awake.
//!
//! ```
//! use std::time::Duration;
//! // Keep the workers awake for 5 ms after each split operation (0: never spin).
//! shapecast::threads::set_spin_time(Duration::from_millis(5));
//! assert_eq!(shapecast::threads::spin_time(), Duration::from_millis(5));
//! ```

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use core::time::Duration;
use std::cell::Cell;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

/// `u64::MAX`: not set yet (read from `SHAPECAST_SPIN_US` on first use).
static SPIN_NS: AtomicU64 = AtomicU64::new(u64::MAX);
/// When an operation last split, in ns since [`epoch`].
static LAST_SPLIT: AtomicU64 = AtomicU64::new(0);
/// The workers of a pool that spin, and when they were last asked to.
struct Awake {
    /// One bit per index in the pool (indexes from 64 on never spin).
    spinning: AtomicU64,
    /// When spinners were last asked for, in ns since [`epoch`].
    asked: AtomicU64,
}

/// Shapecast's own pool's workers (the helpers of a caller outside any pool).
static OWN: Awake = Awake {
    spinning: AtomicU64::new(0),
    asked: AtomicU64::new(0),
};
/// The workers of the pool a caller inside an `install` runs on.
static CALLERS: Awake = Awake {
    spinning: AtomicU64::new(0),
    asked: AtomicU64::new(0),
};

/// How long the spinners stay awake when `SHAPECAST_SPIN_US` is not set: 1 ms.
const DEFAULT_SPIN: Duration = Duration::from_millis(1);

thread_local! {
    /// The thread waits for the pieces of its own split: a spinner it picks up then leaves
    /// at once rather than hold the wait up.
    static WAITING: Cell<bool> = const { Cell::new(false) };
    /// The thread runs one part of a [`parts`] region: operations on it do not split.
    static IN_PART: Cell<bool> = const { Cell::new(false) };
}

/// How long the pool's workers stay awake after an operation that split over them: set by
/// [`set_spin_time`], else the environment variable `SHAPECAST_SPIN_US` (µs) read on first
/// use, else 1 ms.
///
/// ```
/// // The default, unless the environment says otherwise.
/// if std::env::var_os("SHAPECAST_SPIN_US").is_none() {
///     assert_eq!(shapecast::threads::spin_time().as_micros(), 1000);
/// }
/// ```
pub fn spin_time() -> Duration {
    let ns = SPIN_NS.load(Ordering::Relaxed);
    if ns != u64::MAX {
        return Duration::from_nanos(ns);
    }
    let from_env = std::env::var("SHAPECAST_SPIN_US")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(DEFAULT_SPIN, Duration::from_micros);
    let ns = u64::try_from(from_env.as_nanos()).unwrap_or(u64::MAX - 1);
    // A concurrent `set_spin_time` wins.
    let _ = SPIN_NS.compare_exchange(u64::MAX, ns, Ordering::Relaxed, Ordering::Relaxed);
    Duration::from_nanos(SPIN_NS.load(Ordering::Relaxed))
}

/// Sets how long the pool's workers stay awake after an operation that split over them
/// (see the [module docs](self)); `Duration::ZERO` lets them sleep at once, as rayon's own
/// jobs do. Overrides `SHAPECAST_SPIN_US`.
///
/// ```
/// use std::time::Duration;
/// shapecast::threads::set_spin_time(Duration::ZERO);
/// assert_eq!(shapecast::threads::spin_time(), Duration::ZERO);
/// ```
pub fn set_spin_time(time: Duration) {
    let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX - 1);
    SPIN_NS.store(ns, Ordering::Relaxed);
}

/// The threads an operation splits over: rayon's pool of the calling thread (the global one
/// outside any `install`), sized by `RAYON_NUM_THREADS` or the pool's builder; 1 inside a
/// part of [`parts`].
///
/// ```
/// assert!(shapecast::threads::count() >= 1);
/// ```
pub fn count() -> usize {
    if IN_PART.with(Cell::get) {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// `f(i)` for every `i < n`, the results in order: the calling thread and the pool's
/// workers each take the next `i` until none is left (as every split operation does), and
/// every operation `f` runs stays on its thread ([`count`] is 1 inside `f`), so a chain of
/// operations on one part hands work to the threads once. `Tensor::map_parts` (the `Parts`
/// trait) cuts a tensor into such parts along an axis.
///
/// ```
/// let sums = shapecast::threads::parts(3, |i| {
///     assert_eq!(shapecast::threads::count(), 1); // nothing inside splits again
///     (0..=i).sum::<usize>()
/// });
/// assert_eq!(sums, vec![0, 1, 3]);
/// ```
pub fn parts<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    /// Marks its thread as running a part until dropped (a panic in `f` included).
    struct InPart(bool);
    impl Drop for InPart {
        fn drop(&mut self) {
            IN_PART.with(|p| p.set(self.0));
        }
    }
    let cells: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
    pieces(n, count(), |i| {
        let _mark = InPart(IN_PART.with(|p| p.replace(true)));
        let r = f(i);
        // Each cell is written once: the lock is never contended.
        *cells[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
    });
    cells
        .into_iter()
        .filter_map(|c| c.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect()
}

/// Nanoseconds since the first call.
fn now() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Notes an operation splitting, and asks the workers `want` of the pool whose spinning
/// `awake` records to spin if they are not; `broadcast` sends a job to every worker of that
/// pool.
fn keep_awake(
    awake: &'static Awake,
    want: u64,
    broadcast: impl FnOnce(Box<dyn Fn(usize) + Send + Sync>),
) {
    let t = now();
    LAST_SPLIT.store(t, Ordering::Relaxed);
    if spin_time().is_zero() || awake.spinning.load(Ordering::Relaxed) & want == want {
        return;
    }
    // One request at a time: the broadcast reaches every worker, and the ones already
    // spinning or not wanted return at once.
    let last = awake.asked.load(Ordering::Relaxed);
    if t.saturating_sub(last) < 50_000 && last != 0 {
        return;
    }
    awake.asked.store(t, Ordering::Relaxed);
    broadcast(Box::new(move |index| spin_while_busy(awake, index, want)));
}

/// Shapecast's own pool: `count() - 1` workers, built on first use, for callers outside any
/// pool (the caller is the last thread); `None` with one thread. Rayon's global pool would
/// put a thread more than the cores to work: its sleeping workers are woken for each job
/// from outside, beside the caller and the spinning ones.
fn own_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = rayon::current_num_threads();
        if threads < 2 {
            return None;
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .thread_name(|i| format!("shapecast-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// The workers of a pool of `threads` that spin: every index but the caller's, below 64.
fn wanted(threads: usize, caller: usize) -> u64 {
    let all = if threads >= 64 {
        u64::MAX
    } else {
        (1u64 << threads) - 1
    };
    if caller < 64 {
        all & !(1u64 << caller)
    } else {
        all
    }
}

/// Worker `index` runs rayon's jobs as they come until no operation has split for
/// [`spin_time`], if it is one of `want` and not spinning already.
fn spin_while_busy(awake: &Awake, index: usize, want: u64) {
    if index >= 64 || want & (1 << index) == 0 || WAITING.with(Cell::get) {
        return;
    }
    let bit = 1u64 << index;
    if awake.spinning.fetch_or(bit, Ordering::AcqRel) & bit != 0 {
        return;
    }
    let mut offered = 0;
    loop {
        if let Some(rayon::Yield::Executed) = rayon::yield_now() {
            continue;
        }
        let t = now();
        let idle = t.saturating_sub(LAST_SPLIT.load(Ordering::Relaxed));
        if idle > u64::try_from(spin_time().as_nanos()).unwrap_or(u64::MAX) {
            break;
        }
        for _ in 0..64 {
            core::hint::spin_loop();
        }
        // The core offered to a thread queued on it (`sched_yield`, 0.5 µs when none is):
        // a caller woken by this worker may be queued on this core rather than on its own
        // idle one (this 2-core VM's scheduler placed it so every time, see
        // `docs/performance.md`, "a split after a pause"). Without the offer it waited
        // until the spinning ended, `spin_time` later: a split of 20 µs after a pause of
        // the workers' took 1 ms.
        if t.saturating_sub(offered) >= OFFER_EVERY_NS {
            std::thread::yield_now();
            offered = t;
        }
    }
    awake.spinning.fetch_and(!bit, Ordering::AcqRel);
}

/// How often a spinning worker offers its core to a thread queued on it: every 10 µs.
const OFFER_EVERY_NS: u64 = 10_000;

/// Runs `job(i)` for every `i < pieces`: the calling thread and up to `threads - 1` of the
/// pool's workers each take the next piece until none is left, so a slow piece holds up
/// no other. With one piece or one thread everything runs on the calling thread.
pub(crate) fn pieces(pieces: usize, threads: usize, job: impl Fn(usize) + Sync) {
    let threads = threads.min(pieces);
    if threads < 2 {
        (0..pieces).for_each(job);
        return;
    }
    /// Counts a piece as ended when dropped, a panicking one included.
    struct Ends<'a>(&'a AtomicUsize);
    impl Drop for Ends<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Release);
        }
    }
    let (next, ended) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let take = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= pieces {
            break;
        }
        let _end = Ends(&ended);
        job(i);
    };
    let was = WAITING.with(|w| w.replace(false));
    // The caller takes pieces too; then it waits for the pieces the helpers hold by
    // spinning, as the workers do between operations, for up to `spin_time`: waiting in the
    // scope would put it to sleep, and waking it costs tens of µs (`docs/performance.md`,
    // threads). Once every piece has ended the scope has only finished helpers to wait for.
    macro_rules! body {
        () => {
            |s| {
                for _ in 1..threads {
                    s.spawn(|_| take());
                }
                take();
                WAITING.with(|w| w.set(true));
                spin_until_ended(&ended, pieces);
            }
        };
    }
    match (rayon::current_thread_index(), own_pool()) {
        (Some(caller), _) => {
            let want = wanted(rayon::current_num_threads(), caller);
            keep_awake(&CALLERS, want, |f| {
                rayon::spawn_broadcast(move |c| f(c.index()))
            });
            rayon::in_place_scope(body!());
        }
        (None, Some(pool)) => {
            let want = wanted(pool.current_num_threads() + 1, pool.current_num_threads());
            keep_awake(&OWN, want, |f| pool.spawn_broadcast(move |c| f(c.index())));
            pool.in_place_scope(body!());
        }
        (None, None) => take(),
    }
    WAITING.with(|w| w.set(was));
    LAST_SPLIT.store(now(), Ordering::Relaxed);
}

/// Spins until `ended` reaches `pieces`, or for [`spin_time`] at the most.
fn spin_until_ended(ended: &AtomicUsize, pieces: usize) {
    let limit = u64::try_from(spin_time().as_nanos()).unwrap_or(u64::MAX);
    let start = now();
    while ended.load(Ordering::Acquire) < pieces {
        for _ in 0..16 {
            core::hint::spin_loop();
        }
        if now().saturating_sub(start) > limit {
            break;
        }
    }
}

/// Runs `f(i, chunk)` for each chunk `i` of `data` cut into chunks of `len` elements (the
/// last one shorter), as [`pieces`] does.
pub(crate) fn chunks<T: Send>(data: &mut [T], len: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let cells: Vec<Mutex<&mut [T]>> = data.chunks_mut(len.max(1)).map(Mutex::new).collect();
    pieces(cells.len(), count(), |i| {
        // Each chunk is taken once: the lock is never contended.
        let mut chunk = cells[i].lock().unwrap_or_else(PoisonError::into_inner);
        f(i, &mut chunk)
    });
}

/// [`chunks`] over two slices cut alike: chunk `i` of `a` (`la` elements) with chunk `i` of
/// `b` (`lb` elements), as many as the shorter cut gives.
pub(crate) fn chunks2<T: Send, U: Send>(
    (a, la): (&mut [T], usize),
    (b, lb): (&mut [U], usize),
    f: impl Fn(usize, &mut [T], &mut [U]) + Sync,
) {
    let cells: Vec<Mutex<(&mut [T], &mut [U])>> = a
        .chunks_mut(la.max(1))
        .zip(b.chunks_mut(lb.max(1)))
        .map(Mutex::new)
        .collect();
    pieces(cells.len(), count(), |i| {
        let mut pair = cells[i].lock().unwrap_or_else(PoisonError::into_inner);
        let (a, b) = &mut *pair;
        f(i, a, b)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_runs_once_on_pools_of_one_to_three() {
        for threads in 1..=3 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut data = vec![0u32; 1000];
            pool.install(|| {
                chunks(&mut data, 7, |i, c| {
                    c.iter_mut().for_each(|x| *x += i as u32 + 1)
                })
            });
            for (j, &x) in data.iter().enumerate() {
                assert_eq!(x, (j / 7) as u32 + 1);
            }
            // From outside the pool too.
            let runs = AtomicUsize::new(0);
            pieces(50, threads, |_| {
                runs.fetch_add(1, Ordering::Relaxed);
            });
            assert_eq!(runs.into_inner(), 50);
        }
    }

    #[test]
    fn a_panicking_piece_reaches_the_caller_whichever_thread_runs_it() {
        for threads in 2..=3 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for bad in [0, 5, 49] {
                let ran = AtomicUsize::new(0);
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    pool.install(|| {
                        pieces(50, threads, |i| {
                            ran.fetch_add(1, Ordering::Relaxed);
                            assert_ne!(i, bad, "piece {bad}");
                        })
                    })
                }));
                assert!(caught.is_err(), "the panic of piece {bad} was lost");
                assert!(ran.into_inner() >= 1);
                // From outside the pool too (shapecast's own pool's helpers).
                let caught = std::panic::catch_unwind(|| {
                    pieces(50, threads, |i| assert_ne!(i, bad, "piece {bad}"))
                });
                assert!(caught.is_err(), "the panic of piece {bad} was lost");
            }
        }
    }

    #[test]
    fn the_spinning_workers_exclude_the_caller() {
        assert_eq!(wanted(2, 1), 0b01);
        assert_eq!(wanted(2, 0), 0b10);
        assert_eq!(wanted(4, 1), 0b1101);
        assert_eq!(wanted(70, 65), u64::MAX);
        assert_eq!(wanted(64, 63), u64::MAX >> 1);
    }
}

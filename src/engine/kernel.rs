//! Elementwise kernels over a broadcast plan.
//!
//! A rule gives a plan (which axis of each operand feeds each output axis); this module turns
//! it into strides (0 where an operand is broadcast), merges output axes that are contiguous
//! in every operand, and runs one inner loop specialised on the stride pattern of the last
//! merged axis (both contiguous, one side broadcast, or strided), so the compiler can
//! vectorise it. Each inner run reads one bounds-checked sub-slice of each operand and writes
//! its slots of the output's spare capacity; the output's length is set once every slot is
//! written (the one `unsafe` step, in `raw`).
//!
//! ```
//! use shapecast::{broadcast, kernel, Rule};
//!
//! // [2, 3] + [3]: the right operand is broadcast along axis 0.
//! let b = broadcast(Rule::Numpy, &"[2, 3]".parse()?, &"[3]".parse()?)?;
//! let sizes = b.resolve(&[2, 3], &[3])?;
//! let lhs = kernel::frame_strides(&b.plan.lhs, &[2, 3])?;
//! let rhs = kernel::frame_strides(&b.plan.rhs, &[3])?;
//! assert_eq!((lhs.as_slice(), rhs.as_slice()), (&[3, 1][..], &[0, 1][..]));
//!
//! let mut out = Vec::new();
//! kernel::zip_map(&sizes, (&[1, 2, 3, 4, 5, 6], &lhs), (&[10, 20, 30], &rhs), &mut out, |x, y| x + y)?;
//! assert_eq!(out, vec![11, 22, 33, 14, 25, 36]);
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

pub use super::layout::{frame_strides, row_major};
use super::layout::{required_len, Merged};
use super::raw;
pub use super::split::PARALLEL_MIN_ELEMENTS;
use super::walk::{blocks_across, inner, reads_across, step};
use crate::values::error::Error;
use crate::values::shape::MAX_RANK;

/// `out` (cleared, then filled in row-major order over `sizes`) receives
/// `f(a[i], b[i])` for every output index `i`, where each operand is `(data, strides)` in the
/// output frame (see [`frame_strides`]).
///
/// Fails, without touching `out`, if the rank exceeds [`MAX_RANK`], a stride list does not
/// match the rank, or an operand's
/// data is too short for its strides, or if the element count overflows `usize`.
///
/// ```
/// use shapecast::kernel::zip_map;
/// // The outer product of [3, 1] and [1, 2].
/// let mut out = Vec::new();
/// zip_map(&[3, 2], (&[1, 2, 3], &[1, 0]), (&[10, 100], &[0, 1]), &mut out, |x, y| x * y)?;
/// assert_eq!(out, vec![10, 100, 20, 200, 30, 300]);
/// assert!(zip_map(&[3, 2], (&[1, 2], &[1, 0]), (&[10, 100], &[0, 1]), &mut out, |x, y| x * y).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn zip_map<A: Copy, B: Copy, O>(
    sizes: &[usize],
    a: (&[A], &[usize]),
    b: (&[B], &[usize]),
    out: &mut Vec<O>,
    f: impl Fn(A, B) -> O,
) -> Result<(), Error> {
    zip_map_ref(sizes, a, b, out, |x, y| f(*x, *y))
}

/// [`zip_map`] for elements that are not `Copy` (nested tensors, strings): `f` borrows them.
///
/// ```
/// use shapecast::kernel::zip_map_ref;
/// let names = ["a".to_string(), "b".to_string()];
/// let mut out = Vec::new();
/// zip_map_ref(&[2, 2], (&names, &[1, 0]), (&names, &[0, 1]), &mut out, |x, y| format!("{x}{y}"))?;
/// assert_eq!(out, ["aa", "ab", "ba", "bb"]);
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn zip_map_ref<A, B, O>(
    sizes: &[usize],
    a: (&[A], &[usize]),
    b: (&[B], &[usize]),
    out: &mut Vec<O>,
    f: impl Fn(&A, &B) -> O,
) -> Result<(), Error> {
    zip_checked::<MAX_RANK, A, B, O>(sizes, a, b, out, f)
}

/// [`zip_map_ref`] for at most `N` axes, its working arrays sized to them (the typed path
/// uses the type level's rank limit, so nothing larger is zeroed or copied per call).
pub(crate) fn zip_checked<const N: usize, A, B, O>(
    sizes: &[usize],
    (a, sa): (&[A], &[usize]),
    (b, sb): (&[B], &[usize]),
    out: &mut Vec<O>,
    f: impl Fn(&A, &B) -> O,
) -> Result<(), Error> {
    let total = validate::<N>(sizes, (a.len(), sa), (b.len(), sb))?;
    room_for::<O>(sizes)?;
    zip_sound::<N, A, B, O>(total, sizes, (a, sa), (b, sb), out, f);
    Ok(())
}

/// Whether an output of `sizes` can exist (two small operands can broadcast to more than
/// memory: `[2^20, 1]` with `[1, 2^20]`): [`Error::TooLarge`] before anything is allocated.
pub(crate) fn room_for<O>(sizes: &[usize]) -> Result<(), Error> {
    let shape = || crate::values::shape::DynShape::from_sizes(sizes).unwrap_or_default();
    super::allocation::ensure::<O>(sizes, shape).map(|_| ())
}

/// [`zip_checked`] on a layout already known to be sound (`total` is the product of `sizes`,
/// each operand long enough for its strides, at most `N` axes), as the typed tensors' layouts
/// are by construction. An unsound layout panics on an index, never reads out of bounds.
pub(crate) fn zip_sound<const N: usize, A, B, O>(
    total: usize,
    sizes: &[usize],
    (a, sa): (&[A], &[usize]),
    (b, sb): (&[B], &[usize]),
    out: &mut Vec<O>,
    f: impl Fn(&A, &B) -> O,
) {
    out.clear();
    out.reserve(total);
    if total == 0 {
        return;
    }
    raw::advise_huge_pages(out);
    let merged = Merged::<N>::new(sizes, sa, sb);
    let (ms, ma, mb) = (
        &merged.sizes[..merged.len],
        &merged.a[..merged.len],
        &merged.b[..merged.len],
    );
    let Some((&n, outer)) = ms.split_last() else {
        // Every axis has size 1: one element.
        out.push(f(&a[0], &b[0]));
        return;
    };
    let (ia, ib) = (ma[ma.len() - 1], mb[mb.len() - 1]);
    let rank = outer.len();
    // Each run writes its slots of the spare capacity, in order; the length is set once they
    // are all written (a panicking `f` leaves `out` empty, its written elements leaked).
    let spare = &mut out.spare_capacity_mut()[..total];
    if let Some(k) = rank.checked_sub(1) {
        let (sa, sb) = ([ma[k], ia], [mb[k], ib]);
        if reads_across(total, n, sa, sb) {
            let lead = (&outer[..k], &ma[..k], &mb[..k]);
            let block = ((outer[k], n), sa, sb);
            let mut tiles = raw::Tiles::new(total);
            let slots = (spare, &mut tiles);
            let written = blocks_across::<N, _, _, _>(lead, [0, 0], block, a, b, slots, &f);
            raw::set_len_written(out, written, total);
            return;
        }
    }
    if rank == 1 {
        // Two merged axes, the most common layout of a broadcast (a row or a column
        // repeated): a plain loop over the outer one, without the general index walk.
        let mut written = 0;
        for (i, slots) in spare.chunks_exact_mut(n).enumerate() {
            written += inner(n, (a, i * ma[0], ia), (b, i * mb[0], ib), slots, &f);
        }
        raw::set_len_written(out, written, total);
        return;
    }
    let mut index = [0usize; N];
    let mut at = [0usize; 2];
    // Each run starts where the previous one was meant to end; a short run leaves the count
    // below `total`, and the length is then not set.
    let (mut at_out, mut written) = (0, 0);
    loop {
        written += inner(
            n,
            (a, at[0], ia),
            (b, at[1], ib),
            &mut spare[at_out..][..n],
            &f,
        );
        at_out += n;
        if !step(&mut index[..rank], outer, [ma, mb], &mut at) {
            break;
        }
    }
    raw::set_len_written(out, written, total);
}

/// The output's element count once the layout is known to be sound: at most `N` axes, stride
/// lists of the output's rank, and operands long enough for their strides.
pub(crate) fn validate<const N: usize>(
    sizes: &[usize],
    (a_len, sa): (usize, &[usize]),
    (b_len, sb): (usize, &[usize]),
) -> Result<usize, Error> {
    let bad = |what: &str| Error::Layout {
        what: what.to_string(),
    };
    if sa.len() != sizes.len() || sb.len() != sizes.len() {
        return Err(bad("a stride list does not match the output's rank"));
    }
    if sizes.len() > N {
        return Err(Error::RankTooLarge {
            rank: sizes.len(),
            max: N,
        });
    }
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .ok_or_else(|| bad("the output's element count overflows usize"))?;
    for (data_len, strides, side) in [(a_len, sa, "left"), (b_len, sb, "right")] {
        let need = required_len(sizes, strides)
            .ok_or_else(|| bad("an operand's extent overflows usize"))?;
        if data_len < need {
            return Err(bad(&format!(
                "the {side} operand holds {data_len} elements but its strides reach {need}"
            )));
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "rayon")]
    use crate::engine::zip_fn::{Parallel, ZipFn};
    use crate::{broadcast, DynShape, Rule};
    use proptest::prelude::*;

    /// Output sizes and the two operands' strides after merging (see `Merged`), as vectors.
    #[cfg(test)]
    fn merge(sizes: &[usize], a: &[usize], b: &[usize]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
        let m = Merged::<MAX_RANK>::new(sizes, a, b);
        let n = m.len;
        (m.sizes[..n].to_vec(), m.a[..n].to_vec(), m.b[..n].to_vec())
    }

    /// The naive reference: for every output index, find each operand's element by the plan.
    fn reference(
        out_sizes: &[usize],
        plan: &crate::Plan,
        (a, a_sizes): (&[i64], &[usize]),
        (b, b_sizes): (&[i64], &[usize]),
    ) -> Vec<i64> {
        let total: usize = out_sizes.iter().product();
        let mut out = Vec::with_capacity(total);
        for flat in 0..total {
            let mut idx = vec![0; out_sizes.len()];
            let mut rest = flat;
            for i in (0..out_sizes.len()).rev() {
                idx[i] = rest % out_sizes[i];
                rest /= out_sizes[i];
            }
            let pick = |side: &[Option<usize>], sizes: &[usize], data: &[i64]| {
                let mut off = 0;
                for (k, &n) in sizes.iter().enumerate() {
                    let i = side.iter().position(|s| *s == Some(k)).unwrap();
                    off = off * n + if n == 1 { 0 } else { idx[i] };
                }
                data[off]
            };
            out.push(pick(&plan.lhs, a_sizes, a) * 1000 + pick(&plan.rhs, b_sizes, b));
        }
        out
    }

    fn sizes() -> impl Strategy<Value = Vec<usize>> {
        prop::collection::vec(prop_oneof![Just(1usize), 0usize..5], 0..5)
    }

    proptest! {
        /// The kernel equals the reference for every rule that accepts the shapes, including
        /// zero sizes, rank 0, broadcast axes and permuted named operands.
        #[test]
        fn kernel_matches_reference(
            sa in sizes(), sb in sizes(),
            names in prop::sample::subsequence(vec!["H", "W", "C"], 0..=3),
            rule in prop::sample::select(vec![Rule::Numpy, Rule::Named, Rule::Outer, Rule::Embed, Rule::Assign]),
        ) {
            let named = |sizes: &[usize], rev: bool| -> DynShape {
                let mut axes: Vec<_> = sizes.iter().map(|&n| crate::DynAxis::unnamed(crate::Size::Known(n))).collect();
                for (k, name) in names.iter().enumerate() {
                    let i = if rev { axes.len().wrapping_sub(1 + k) } else { k };
                    if let Some(axis) = axes.get_mut(i) {
                        *axis = crate::DynAxis::named(*name, axis.size).unwrap();
                    }
                }
                DynShape::new(axes).unwrap()
            };
            let (la, lb) = (named(&sa, false), named(&sb, true));
            let Ok(bc) = broadcast(rule, &la, &lb) else { return Ok(()) };
            let out_sizes = bc.resolve(&sa, &sb).unwrap();
            let a: Vec<i64> = (0..sa.iter().product::<usize>() as i64).collect();
            let b: Vec<i64> = (0..sb.iter().product::<usize>() as i64).map(|x| x + 500).collect();
            let mut out = Vec::new();
            zip_map(
                &out_sizes,
                (&a, &frame_strides(&bc.plan.lhs, &sa).unwrap()),
                (&b, &frame_strides(&bc.plan.rhs, &sb).unwrap()),
                &mut out,
                |x, y| x * 1000 + y,
            ).unwrap();
            prop_assert_eq!(out, reference(&out_sizes, &bc.plan, (&a, &sa), (&b, &sb)));
        }
    }

    /// Split over a pool of three threads (so the split happens on any machine), the kernel
    /// writes what the calling thread writes, on layouts above the threshold: one merged run,
    /// a broadcast row, a broadcast column, strided and reversed-order operands, an outer
    /// axis smaller than the number of pieces, and an outer axis that does not divide.
    #[cfg(feature = "rayon")]
    #[test]
    fn the_parallel_kernel_writes_what_the_serial_one_does() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let cases: [(&[usize], &[usize], &[usize]); 6] = [
            (&[300, 300], &[300, 1], &[300, 1]),
            (&[301, 257], &[257, 1], &[0, 1]),
            (&[257, 301], &[1, 0], &[301, 1]),
            (&[3, 2, 120, 100], &[1, 3, 600, 6], &[0, 0, 100, 1]),
            (&[5, 70_000], &[70_000, 1], &[1, 5]),
            (&[70_001], &[1], &[0]),
        ];
        for (sizes, sa, sb) in cases {
            let need = |st: &[usize]| required_len(sizes, st).unwrap();
            let a: Vec<i64> = (0..need(sa) as i64).collect();
            let b: Vec<i64> = (0..need(sb) as i64).map(|x| 7 * x + 1).collect();
            let f = |x: &i64, y: &i64| x * 3 - y;
            let (mut serial, mut parallel) = (Vec::new(), Vec::new());
            zip_checked::<MAX_RANK, _, _, _>(sizes, (&a, sa), (&b, sb), &mut serial, f).unwrap();
            pool.install(|| Parallel(f).zip::<MAX_RANK>(sizes, (&a, sa), (&b, sb), &mut parallel))
                .unwrap();
            assert_eq!(parallel, serial, "{sizes:?} {sa:?} {sb:?}");
            // A short operand is refused before any thread starts.
            let err = Parallel(f).zip::<MAX_RANK>(sizes, (&a[1..], sa), (&b, sb), &mut parallel);
            assert!(err.is_err());
        }
    }

    /// Runs of at most 64 that read an operand across a stride while the axis before them
    /// reads it in order (the outer rule's layout; from 4,096 elements) are written a block at
    /// a time (`walk::across`): each element is the definition's, in order, on the calling thread
    /// and split over three threads (pieces of the outer axis, and of the block's own rows
    /// when only the block's two axes remain); a tile's last rows, runs of 1, 15 and 64, the
    /// other operand broadcast or across too; elements of 8, 4, 2, 1 and 16 bytes (the first
    /// two moved by register blocks, the others one at a time).
    #[test]
    fn runs_read_across_a_stride_are_the_definition() {
        let cases: [(&[usize], &[usize], &[usize]); 6] = [
            // probs [N, C, HW] against preds [N, HW, S] read as [N, C, HW, S]
            (&[2, 3, 300, 15], &[900, 300, 1, 0], &[4500, 0, 1, 300]),
            (&[130, 64], &[1, 0], &[1, 130]),
            (&[70_001, 2], &[0, 1], &[1, 70_001]),
            (&[4, 1200, 1], &[1200, 1, 0], &[1200, 1, 1]),
            (&[5, 397, 3], &[1191, 1, 397], &[1191, 1, 397]),
            (&[3, 40_000, 2], &[2, 0, 1], &[80_000, 1, 40_000]),
        ];
        for (sizes, sa, sb) in cases {
            across_is_the_definition(sizes, sa, sb, |x| x);
            across_is_the_definition(sizes, sa, sb, |x| x as i32);
            across_is_the_definition(sizes, sa, sb, |x| x as u16);
            across_is_the_definition(sizes, sa, sb, |x| x as u8);
            across_is_the_definition(sizes, sa, sb, |x| (x as u64, x as u32));
        }
    }

    /// An output of 8 MiB or more (43 MB here) is written by non-temporal stores
    /// (`raw::streams`), on the calling thread and in pieces over three threads, its blocks
    /// starting off a 16-byte boundary: the same definition.
    #[test]
    fn a_large_output_read_across_is_the_definition() {
        let (sizes, sa, sb) = (
            &[4, 3, 60_001, 15],
            &[180_003, 60_001, 1, 0],
            &[900_015, 0, 1, 60_001],
        );
        assert!(raw::streams::<i32>(sizes.iter().product::<usize>()));
        across_is_the_definition(sizes, sa, sb, |x| x as i32);
    }

    /// The merged layout `sizes` over operands of `to(k)` for `k` in order, combined by a
    /// wrapping `x * 3 + y`, against the definition (each element from its own offsets), on
    /// the calling thread and, with `rayon`, on three threads.
    fn across_is_the_definition<T>(sizes: &[usize], sa: &[usize], sb: &[usize], to: fn(i64) -> T)
    where
        T: Wrapping + PartialEq + Send + Sync,
    {
        let need = |st: &[usize]| required_len(sizes, st).unwrap();
        let a: Vec<T> = (0..need(sa) as i64).map(to).collect();
        let b: Vec<T> = (0..need(sb) as i64).map(|x| to(7 * x + 1)).collect();
        let f = |x: &T, y: &T| x.triple_plus(y);
        let total: usize = sizes.iter().product();
        let want: Vec<T> = (0..total)
            .map(|flat| {
                let (mut rest, mut oa, mut ob) = (flat, 0, 0);
                for k in (0..sizes.len()).rev() {
                    let i = rest % sizes[k];
                    rest /= sizes[k];
                    (oa, ob) = (oa + i * sa[k], ob + i * sb[k]);
                }
                f(&a[oa], &b[ob])
            })
            .collect();
        let mut serial = Vec::new();
        zip_checked::<MAX_RANK, _, _, _>(sizes, (&a, sa), (&b, sb), &mut serial, f).unwrap();
        assert!(serial == want, "{sizes:?} {sa:?} {sb:?}");
        #[cfg(feature = "rayon")]
        {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(3)
                .build()
                .unwrap();
            let mut parallel = Vec::new();
            pool.install(|| Parallel(f).zip::<MAX_RANK>(sizes, (&a, sa), (&b, sb), &mut parallel))
                .unwrap();
            assert!(parallel == want, "{sizes:?} {sa:?} {sb:?} on three threads");
        }
    }

    /// `x * 3 + y`, wrapping, for the element types of the block walk's tests.
    trait Wrapping: Sized {
        fn triple_plus(&self, y: &Self) -> Self;
    }

    macro_rules! wrapping {
        ($($t:ty),*) => {$(
            impl Wrapping for $t {
                fn triple_plus(&self, y: &Self) -> Self {
                    self.wrapping_mul(3).wrapping_add(*y)
                }
            }
        )*};
    }
    wrapping!(i64, u64, i32, u16, u8);

    impl Wrapping for (u64, u32) {
        fn triple_plus(&self, y: &Self) -> Self {
            (self.0.triple_plus(&y.0), self.1 ^ y.1.rotate_left(3))
        }
    }

    /// A layout whose strided operand is shorter than its strides reach (what `validate`
    /// refuses, passed straight to the unchecked kernel): the strided run yields fewer values
    /// than slots, the count shows it, and the length is never set over unwritten slots.
    #[test]
    #[should_panic(expected = "every output slot is written once")]
    fn a_short_strided_operand_is_caught_by_the_count() {
        let a = [1i32, 2, 3, 4, 5];
        let mut out = Vec::new();
        // 2 rows of 3 taken with stride 2 along the row: the second row needs a[2..=6].
        zip_sound::<MAX_RANK, _, _, _>(
            6,
            &[2, 3],
            (&a, &[2, 2]),
            (&[7], &[0, 0]),
            &mut out,
            |x, y| x + y,
        );
    }

    #[test]
    fn rank_zero_and_all_ones() {
        let mut out = Vec::new();
        zip_map(&[], (&[2], &[]), (&[3], &[]), &mut out, |x, y| x * y).unwrap();
        assert_eq!(out, vec![6]);
        zip_map(
            &[1, 1],
            (&[2], &[0, 0]),
            (&[3], &[0, 0]),
            &mut out,
            |x, y| x + y,
        )
        .unwrap();
        assert_eq!(out, vec![5]);
    }

    #[test]
    fn refuses_short_data_and_wrong_ranks() {
        let mut out = Vec::new();
        assert!(zip_map(
            &[2, 2],
            (&[1, 2, 3], &[2, 1]),
            (&[1], &[0, 0]),
            &mut out,
            |x: i32, y: i32| x + y
        )
        .is_err());
        assert!(zip_map(
            &[2],
            (&[1, 2], &[1, 1]),
            (&[1], &[0]),
            &mut out,
            |x: i32, y: i32| x + y
        )
        .is_err());
        assert!(zip_map(
            &[usize::MAX, 3],
            (&[1], &[0, 0]),
            (&[1], &[0, 0]),
            &mut out,
            |x: i32, y: i32| x + y
        )
        .is_err());
    }

    #[test]
    fn merges_contiguous_runs() {
        // (16, 1024, 1024) + (16, 1024, 1024): one run.
        let s = row_major(&[16, 1024, 1024]);
        assert_eq!(merge(&[16, 1024, 1024], &s, &s).0, vec![16 * 1024 * 1024]);
        // (4096, 1) + (1, 4096): an outer product, two loops.
        assert_eq!(merge(&[4096, 4096], &[1, 0], &[0, 1]).0, vec![4096, 4096]);
    }
}

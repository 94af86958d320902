//! Multi-indices for the naive references of the reduction and contraction tests.

/// The row-major position of `index` in an array of `sizes`.
pub fn offset(sizes: &[usize], index: &[usize]) -> usize {
    sizes.iter().zip(index).fold(0, |acc, (&n, &i)| acc * n + i)
}

/// Every multi-index of `sizes`, in row-major order.
pub fn indices(sizes: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = sizes.iter().product();
    (0..total)
        .map(|mut k| {
            let mut idx = vec![0; sizes.len()];
            for a in (0..sizes.len()).rev() {
                idx[a] = k % sizes[a];
                k /= sizes[a];
            }
            idx
        })
        .collect()
}

//! One stable sort for the small, cold sorts of the models (a handful of
//! workers, units or LP rows): `slice::sort_by` is monomorphised per
//! element type and comparator, some 5 KB of wasm each, so these sort
//! indices through one instantiation and then move the elements.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// `v.sort_by(cmp)`, the same order (stable: equal elements keep theirs).
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    indices(&mut order, &mut |i, j| cmp(&v[i], &v[j]));
    permute(v, order);
}

#[inline(never)]
fn indices(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&i, &j| cmp(i, j));
}

/// Puts `v[order[k]]` at `k`, cycle by cycle.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..v.len() {
        let mut k = start;
        while order[k] != DONE {
            let from = core::mem::replace(&mut order[k], DONE);
            if from == start {
                break;
            }
            v.swap(k, from);
            k = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The same order as the standard library's stable sort, ties included.
    #[test]
    fn sorts_as_the_standard_stable_sort() {
        let mut seed = 7u64;
        for n in [0, 1, 2, 3, 5, 17, 100, 1000] {
            let xs: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = xs.clone();
            let mut std = xs.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std);
            let (mut reversed, mut std) = (xs.clone(), xs);
            sort_by(&mut reversed, |a, b| b.0.cmp(&a.0));
            std.sort_by_key(|x| core::cmp::Reverse(x.0));
            assert_eq!(reversed, std);
        }
        let mut v = vec![3.0, -1.0, 2.5, f64::NAN, 0.0, -0.0];
        sort_by(&mut v, f64::total_cmp);
        assert_eq!(alloc::format!("{v:?}"), "[-1.0, -0.0, 0.0, 2.5, 3.0, NaN]");
    }
}

//! The symbolic side of the normal equations' Cholesky factor: the rows'
//! elimination order (minimum degree) and the elimination tree.

use super::normal::Columns;
use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Reverse;

/// The rows of A in minimum-degree order of A A'.
pub(super) fn order(a: &Columns) -> Vec<usize> {
    minimum_degree(a.rows, neighbours(a))
}

/// Per row of A, the rows it shares a column with: the graph of A A'.
fn neighbours(a: &Columns) -> Vec<Vec<usize>> {
    let mut of_row: Vec<Vec<usize>> = vec![Vec::new(); a.rows];
    for j in 0..a.count() {
        a.of(j).for_each(|p| of_row[a.index[p]].push(j));
    }
    let mut seen = vec![usize::MAX; a.rows];
    (0..a.rows)
        .map(|r| {
            seen[r] = r;
            let mut near = Vec::new();
            for &j in &of_row[r] {
                for p in a.of(j) {
                    let s = a.index[p];
                    if seen[s] != r {
                        seen[s] = r;
                        near.push(s);
                    }
                }
            }
            near
        })
        .collect()
}

/// The rows in minimum-degree order, on the quotient graph (AMD's, without
/// its supervariables): an eliminated row becomes an element, the clique
/// of its neighbours kept as their list, which absorbs the elements it
/// touched; a row's degree is AMD's approximation, its own neighbours
/// left plus each element's rows outside the new one. The elimination
/// graph itself, each clique written out into its rows' lists, cost about
/// a numeric factorization's work (h = 10, n = 100: 13 % of the solve). A
/// row next to more than 10 sqrt(m) others (the load row, which shares a
/// chunk with most rows) is set aside and comes last, as AMD does: last
/// is where a dense row fills least.
fn minimum_degree(m: usize, mut near: Vec<Vec<usize>>) -> Vec<usize> {
    let mut gone = vec![false; m];
    let mut dense = Vec::new();
    let dense_at = 16.max(10 * libm::sqrt(m as f64) as usize);
    for v in 0..m {
        if near[v].len() > dense_at {
            gone[v] = true;
            dense.push(v);
        }
    }
    near.iter_mut().for_each(|rows| rows.retain(|&w| !gone[w]));
    // Per row its elements, per element its rows; absorbed elements die.
    let (mut elements, mut rows_of): (Vec<Vec<usize>>, Vec<Vec<usize>>) = (vec![Vec::new(); m], vec![Vec::new(); m]);
    let mut absorbed = vec![false; m];
    let mut degree: Vec<usize> = near.iter().map(Vec::len).collect();
    let (mut stamp, mut outside, mut counted) = (vec![usize::MAX; m], vec![0; m], vec![usize::MAX; m]);
    let mut left = m - dense.len();
    let mut order = Vec::with_capacity(m);
    // The fewest neighbours first, the lowest index among ties: a heap of
    // degree and row (one u64, compared at once) with entries left stale
    // as degrees change, skipped when popped (a scan of every row per
    // elimination cost 10 % of a solve).
    let key = |d: usize, v: usize| Reverse((d as u64) << 32 | v as u64);
    let mut heap: BinaryHeap<Reverse<u64>> = (0..m).filter(|&v| !gone[v]).map(|v| key(degree[v], v)).collect();
    while let Some(Reverse(top)) = heap.pop() {
        let (d, p) = ((top >> 32) as usize, top as u32 as usize);
        if gone[p] || d != degree[p] {
            continue;
        }
        gone[p] = true;
        left -= 1;
        order.push(p);
        // The new element: p's rows and those of the elements it absorbs.
        let mut clique = Vec::new();
        stamp[p] = p;
        let absorbs = core::mem::take(&mut elements[p]);
        for e in &absorbs {
            absorbed[*e] = true;
        }
        let reached = core::mem::take(&mut near[p]).into_iter().chain(absorbs.iter().flat_map(|&e| core::mem::take(&mut rows_of[e])));
        for j in reached {
            if !gone[j] && stamp[j] != p {
                stamp[j] = p;
                clique.push(j);
            }
        }
        // Its rows' lists lose what the element now stands for.
        for &i in &clique {
            elements[i].retain(|&e| !absorbed[e]);
            near[i].retain(|&j| stamp[j] != p && !gone[j]);
        }
        // |Le \ clique| for each other element of the clique's rows.
        for &i in &clique {
            for &e in &elements[i] {
                if counted[e] != p {
                    (counted[e], outside[e]) = (p, rows_of[e].len());
                }
                outside[e] -= 1;
            }
        }
        for &i in &clique {
            let approximate = near[i].len() + clique.len() - 1 + elements[i].iter().map(|&e| outside[e]).sum::<usize>();
            degree[i] = approximate.min(degree[i] + clique.len()).min(left - 1);
            elements[i].push(p);
            heap.push(key(degree[i], i));
        }
        rows_of[p] = clique;
    }
    order.append(&mut dense);
    order
}

/// The elimination tree of M's upper triangle (by columns): each row's
/// parent, usize::MAX at a root.
pub(super) fn elimination_tree(start: &[usize], index: &[usize]) -> Vec<usize> {
    let m = start.len() - 1;
    let (mut parent, mut ancestor) = (vec![usize::MAX; m], vec![usize::MAX; m]);
    for k in 0..m {
        for &i in &index[start[k]..start[k + 1]] {
            let mut i = i;
            while i != usize::MAX && i < k {
                let next = ancestor[i];
                ancestor[i] = k;
                if next == usize::MAX {
                    parent[i] = k;
                }
                i = next;
            }
        }
    }
    parent
}

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

/// The rows in minimum-degree order, on the elimination graph itself:
/// each row eliminated joins its neighbours into a clique. The tree LPs'
/// graphs are long and thin (stages one after another), so the cliques
/// stay small: 270,000 entries in the factor of h = 10, n = 30's 4,900
/// rows, where the rows in their own order filled 5.4 million. A row next
/// to more than 10 sqrt(m) others (the load row, which shares a chunk with
/// most rows) is set aside and comes last, as AMD does: each clique it was
/// in went through its list of thousands (h = 10, n = 30: 124-166 ms ->
/// 80 ms of a 0.6-0.9 s solve; n = 100: 0.66-0.99 -> 0.34 s), and last is
/// where a dense row fills least.
fn minimum_degree(m: usize, mut graph: Vec<Vec<usize>>) -> Vec<usize> {
    let mut gone = vec![false; m];
    let mut dense = Vec::new();
    let dense_at = 16.max(10 * libm::sqrt(m as f64) as usize);
    for v in 0..m {
        if graph[v].len() > dense_at {
            gone[v] = true;
            dense.push(v);
        }
    }
    let mut stamp = vec![usize::MAX; m];
    let mut pass = 0;
    let mut order = Vec::with_capacity(m);
    // The fewest neighbours first, the lowest index among ties: a heap of
    // degree and row (one u64, compared at once) with entries left stale
    // as degrees change, skipped when popped (a scan of every row per
    // elimination cost 10 % of a solve).
    let key = |d: usize, v: usize| Reverse((d as u64) << 32 | v as u64);
    let mut heap: BinaryHeap<Reverse<u64>> = (0..m).map(|v| key(graph[v].len(), v)).collect();
    while let Some(Reverse(top)) = heap.pop() {
        let (degree, v) = ((top >> 32) as usize, top as u32 as usize);
        if gone[v] || degree != graph[v].len() {
            continue;
        }
        gone[v] = true;
        order.push(v);
        let clique = core::mem::take(&mut graph[v]);
        for &u in clique.iter().filter(|&&u| !gone[u]) {
            pass += 1;
            let near = &mut graph[u];
            near.retain(|&w| {
                stamp[w] = pass;
                w != v
            });
            for &w in &clique {
                if w != u && stamp[w] != pass {
                    stamp[w] = pass;
                    near.push(w);
                }
            }
            heap.push(key(near.len(), u));
        }
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

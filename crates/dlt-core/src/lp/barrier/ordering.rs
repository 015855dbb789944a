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
///
/// The rows of a clique with no neighbour outside it (`mates`, rows that
/// became indistinguishable from the row eliminated) go with that row at
/// once, where one at a time each would have been next anyway: each
/// has one neighbour fewer than every other row after each of them goes,
/// and ties go to the lowest index. The same order to the row, the clique
/// joined once per group: the tree LPs' rows go in groups of about 16
/// (h = 10, n = 30: 60 -> 17 ms; n = 100: 265 -> 59 ms; n = 200: 712 ->
/// 172 ms).
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
    // degree and row (one u64, compared at once). Each row keeps an entry
    // at or below its degree: pushed where its degree falls, pushed again
    // at its degree where one below it comes up, skipped where above.
    let key = |d: usize, v: usize| Reverse((d as u64) << 32 | v as u64);
    let mut heap: BinaryHeap<Reverse<u64>> = (0..m).map(|v| key(graph[v].len(), v)).collect();
    let mut mates = Vec::new();
    while let Some(Reverse(top)) = heap.pop() {
        let (was, v) = ((top >> 32) as usize, top as u32 as usize);
        if gone[v] || was != graph[v].len() {
            if !gone[v] && was < graph[v].len() {
                heap.push(key(graph[v].len(), v));
            }
            continue;
        }
        gone[v] = true;
        order.push(v);
        let clique = core::mem::take(&mut graph[v]);
        mates.clear();
        for &u in clique.iter().filter(|&&u| !gone[u]) {
            pass += 1;
            let near = &mut graph[u];
            let before = near.len();
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
            if near.len() + 1 == clique.len() {
                mates.push(u);
            } else if near.len() < before {
                heap.push(key(near.len(), u));
            }
        }
        if mates.is_empty() {
            continue;
        }
        mates.sort_unstable();
        pass += 1;
        for &u in &mates {
            gone[u] = true;
            stamp[u] = pass;
            graph[u] = Vec::new();
        }
        order.extend_from_slice(&mates);
        for &u in clique.iter().filter(|&&u| !gone[u]) {
            graph[u].retain(|&w| stamp[w] != pass);
            heap.push(key(graph[u].len(), u));
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

#[cfg(test)]
mod tests {
    use super::{minimum_degree, neighbours};
    use crate::lp::barrier::normal::Columns;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Minimum degree as its definition reads: the live row with the
    /// fewest neighbours (the lowest index among ties) goes, its
    /// neighbours joined into a clique; the dense rows set aside alike.
    fn one_at_a_time(m: usize, mut graph: Vec<Vec<usize>>) -> Vec<usize> {
        let dense_at = 16.max(10 * libm::sqrt(m as f64) as usize);
        let mut gone: Vec<bool> = graph.iter().map(|g| g.len() > dense_at).collect();
        let dense: Vec<usize> = (0..m).filter(|&v| gone[v]).collect();
        let mut order = Vec::new();
        while let Some(v) = (0..m).filter(|&v| !gone[v]).min_by_key(|&v| (graph[v].len(), v)) {
            gone[v] = true;
            order.push(v);
            let clique = core::mem::take(&mut graph[v]);
            for &u in clique.iter().filter(|&&u| !gone[u]) {
                let near = &mut graph[u];
                near.retain(|&w| w != v);
                clique.iter().filter(|&&w| w != u).for_each(|&w| if !near.contains(&w) { near.push(w) });
            }
        }
        order.extend(dense);
        order
    }

    /// Columns of neighbouring rows (runs of 1-4, as the trees' chains),
    /// some twice with the same rows (rows alike from the start), every
    /// ninth also in row 0 (dense where the rows are many).
    fn chains(rows: usize, columns: usize, seed: u64) -> Columns {
        let mut seed = seed;
        let mut next = move |below: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % below
        };
        let (mut start, mut index) = (vec![0], Vec::new());
        let mut last: Vec<usize> = Vec::new();
        for j in 0..columns {
            let mut column: Vec<usize> = if next(5) == 0 && !last.is_empty() {
                last.clone()
            } else {
                let first = next(rows);
                (first..(first + 1 + next(4)).min(rows)).collect()
            };
            if j % 9 == 0 && column[0] != 0 {
                column.insert(0, 0);
            }
            index.extend_from_slice(&column);
            start.push(index.len());
            last = column;
        }
        let value = vec![1.0; index.len()];
        Columns { rows, start, index, value }
    }

    /// Rows eliminated in groups (`mates`) leave the order minimum degree
    /// gives one row at a time, to the row, with a dense row set aside.
    #[test]
    fn mass_elimination_keeps_the_order() {
        for (rows, columns, seed) in [(6, 10, 1), (40, 90, 2), (120, 300, 3), (300, 700, 4), (300, 1200, 5), (600, 2000, 6)] {
            let a = chains(rows, columns, seed);
            let graph = neighbours(&a);
            let expected = one_at_a_time(rows, graph.clone());
            assert_eq!(minimum_degree(rows, graph), expected, "{rows} rows, seed {seed}");
        }
    }
}

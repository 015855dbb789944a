//! The normal equations of the interior point method, A Theta A' dy = r,
//! by a sparse Cholesky factor: the rows ordered by minimum degree and the
//! factor's pattern found once per LP, its values once per iteration
//! (up-looking, as CSparse's cs_chol).

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Reverse;

/// A sparse matrix by columns.
pub(super) struct Columns {
    pub(super) rows: usize,
    pub(super) start: Vec<usize>,
    pub(super) index: Vec<usize>,
    pub(super) value: Vec<f64>,
}

impl Columns {
    pub(super) fn count(&self) -> usize {
        self.start.len() - 1
    }

    pub(super) fn of(&self, j: usize) -> core::ops::Range<usize> {
        self.start[j]..self.start[j + 1]
    }
}

/// A pivot below this share of the largest diagonal is a dependent row of
/// the normal equations: its component is set to 0 (a huge pivot), as in
/// Wright's "Modified Cholesky factorizations in interior-point algorithms".
/// A few ulps of the largest: a pivot that small is round-off, and kept it
/// gave directions the iterates could not follow. At 1e-30, h = 10 trees
/// (p = 2, n = 30, S = 1e-5 and 1e-4) took 79 and 63 iterations, and at
/// n = 100, S = 1e-5 stalled for 120 and went to the simplex (77 s); at
/// 1e-15, 50, 41 and 65 (6 s). 1e-14 and 1e-16 gave about the same, 1e-12
/// and 1e-18 failed on some; 24 random trees of 10 layers and 40 of all
/// kinds, the same or fewer iterations, and the same two failures.
const DEPENDENT: f64 = 1e-15;

pub(super) struct Normal {
    /// `order[k]`: the row eliminated k-th.
    order: Vec<usize>,
    /// M's upper triangle in elimination order, by columns, and where each
    /// product a_ij a_kj of a column j of A adds into it.
    m_start: Vec<usize>,
    m_index: Vec<usize>,
    m_value: Vec<f64>,
    into_m: Vec<usize>,
    /// Per row k of the factor, the columns j < k it has entries in.
    row_start: Vec<usize>,
    row_pattern: Vec<usize>,
    /// The factor by columns, its diagonal first.
    l_start: Vec<usize>,
    l_index: Vec<usize>,
    l_value: Vec<f64>,
}

impl Normal {
    pub(super) fn new(a: &Columns) -> Normal {
        let m = a.rows;
        let order = minimum_degree(m, neighbours(a));
        let mut position = vec![0; m];
        order.iter().enumerate().for_each(|(k, &r)| position[r] = k);
        let mut columns: Vec<Vec<usize>> = (0..m).map(|k| vec![k]).collect();
        for j in 0..a.count() {
            for p in a.of(j) {
                for q in a.of(j) {
                    let (r, s) = (position[a.index[p]], position[a.index[q]]);
                    if r < s {
                        columns[s].push(r);
                    }
                }
            }
        }
        let mut m_start = vec![0];
        let mut m_index = Vec::new();
        for column in &mut columns {
            column.sort_unstable();
            column.dedup();
            m_index.extend_from_slice(column);
            m_start.push(m_index.len());
        }
        let at = |r: usize, s: usize| {
            let (r, s) = (r.min(s), r.max(s));
            m_start[s] + m_index[m_start[s]..m_start[s + 1]].partition_point(|&i| i < r)
        };
        let mut into_m = Vec::new();
        for j in 0..a.count() {
            for p in a.of(j) {
                for q in p..a.start[j + 1] {
                    into_m.push(at(position[a.index[p]], position[a.index[q]]));
                }
            }
        }
        let parent = elimination_tree(&m_start, &m_index);
        // Row k of the factor: the tree paths from M's entries in column k
        // up to k. Increasing order is a topological one (parents follow).
        let mut row_start = vec![0];
        let mut row_pattern = Vec::new();
        let mut count = vec![1usize; m];
        let mut seen = vec![usize::MAX; m];
        for k in 0..m {
            seen[k] = k;
            let from = row_pattern.len();
            for &i in &m_index[m_start[k]..m_start[k + 1]] {
                let mut i = i;
                while seen[i] != k {
                    seen[i] = k;
                    row_pattern.push(i);
                    i = parent[i];
                }
            }
            row_pattern[from..].sort_unstable();
            row_pattern[from..].iter().for_each(|&j| count[j] += 1);
            row_start.push(row_pattern.len());
        }
        let mut l_start = vec![0];
        count.iter().for_each(|c| l_start.push(l_start.last().copied().unwrap_or(0) + c));
        let nonzeros = l_start[m];
        let m_value = vec![0.0; m_index.len()];
        Normal { order, m_start, m_index, m_value, into_m, row_start, row_pattern, l_start, l_index: vec![0; nonzeros], l_value: vec![0.0; nonzeros] }
    }

    /// Factors A diag(theta) A' + delta I.
    pub(super) fn factor(&mut self, a: &Columns, theta: &[f64], delta: f64) {
        self.m_value.iter_mut().for_each(|v| *v = 0.0);
        let mut slot = 0;
        for (j, &t) in theta.iter().enumerate() {
            for p in a.of(j) {
                let tp = t * a.value[p];
                for q in p..a.start[j + 1] {
                    self.m_value[self.into_m[slot]] += tp * a.value[q];
                    slot += 1;
                }
            }
        }
        let m = self.order.len();
        let largest = (0..m).map(|k| self.m_value[self.m_start[k + 1] - 1]).fold(1.0, f64::max);
        let mut next = self.l_start[..m].to_vec();
        let mut x = vec![0.0; m];
        for k in 0..m {
            for p in self.m_start[k]..self.m_start[k + 1] {
                x[self.m_index[p]] = self.m_value[p];
            }
            let mut d = x[k] + delta;
            x[k] = 0.0;
            for &i in &self.row_pattern[self.row_start[k]..self.row_start[k + 1]] {
                let (first, end) = (self.l_start[i], next[i]);
                let lki = x[i] / self.l_value[first];
                x[i] = 0.0;
                // Zipped slices: no bounds checks on the factor's own
                // entries (this loop is most of an iteration).
                for (&r, &l) in self.l_index[first + 1..end].iter().zip(&self.l_value[first + 1..end]) {
                    x[r] -= l * lki;
                }
                d -= lki * lki;
                self.l_index[next[i]] = k;
                self.l_value[next[i]] = lki;
                next[i] += 1;
            }
            if d <= DEPENDENT * largest {
                d = 1e128;
            }
            self.l_index[next[k]] = k;
            self.l_value[next[k]] = libm::sqrt(d);
            next[k] += 1;
        }
    }

    /// Solves the factored system for `b`, in place.
    pub(super) fn solve(&self, b: &mut [f64]) {
        let (start, index, value) = (&self.l_start, &self.l_index, &self.l_value);
        // Column j of the factor below its diagonal: (row, entry).
        let below = |j: usize| index[start[j] + 1..start[j + 1]].iter().zip(&value[start[j] + 1..start[j + 1]]);
        let mut y: Vec<f64> = self.order.iter().map(|&r| b[r]).collect();
        for j in 0..y.len() {
            y[j] /= value[start[j]];
            let yj = y[j];
            for (&i, &l) in below(j) {
                y[i] -= l * yj;
            }
        }
        for j in (0..y.len()).rev() {
            let s: f64 = below(j).map(|(&i, &l)| l * y[i]).sum();
            y[j] = (y[j] - s) / value[start[j]];
        }
        self.order.iter().zip(&y).for_each(|(&r, &v)| b[r] = v);
    }
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
            near.retain(|&w| w != v);
            near.iter().for_each(|&w| stamp[w] = pass);
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
fn elimination_tree(start: &[usize], index: &[usize]) -> Vec<usize> {
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

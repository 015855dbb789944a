//! The normal equations of the interior point method, A Theta A' dy = r,
//! by a supernodal Cholesky factor: the rows ordered by minimum degree
//! (`ordering`), the factor's pattern and its supernodes found once per
//! LP, its values once per iteration, left-looking, each supernode a
//! dense block (as CHOLMOD's supernodal factor, without the BLAS).

use super::ordering;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

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

/// Columns `first..first + width` of the factor that are a chain of the
/// elimination tree (each the next one's child), so that each one's
/// pattern below the chain is within the last one's: one pattern for all,
/// `rows` of `Normal::row_index` (the columns themselves, then the last
/// one's), and one dense block by columns at `at`, entry
/// (row_index[rows][i], first + c) at `at + c * height + i`, i >= c; where
/// a column's own pattern is smaller, its block holds zeros.
/// A supernode's products run over contiguous columns with no row index,
/// each target column kept in the cache while the columns it takes pass.
struct Supernode {
    first: usize,
    width: usize,
    rows: Range<usize>,
    at: usize,
}

/// The share of a supernode's block that may be zeros: fewer, larger
/// dense blocks, for some products of zeros (as CHOLMOD relaxes its
/// supernodes). h = 10, n = 100: at 0.1, 0.2 and 0.5 of the block 4.2,
/// 4.1 and 5.0 s; only the columns whose patterns nest exactly, 4.5 s.
const RELAXED: f64 = 0.2;

pub(super) struct Normal {
    /// `order[k]`: the row eliminated k-th.
    order: Vec<usize>,
    supernodes: Vec<Supernode>,
    /// Each column's supernode.
    of_column: Vec<usize>,
    row_index: Vec<usize>,
    /// The supernodes' blocks.
    l: Vec<f64>,
    /// Where each product a_ij a_kj of a column j of A adds into M's lower
    /// triangle, held in the blocks; and each diagonal entry.
    into_l: Vec<usize>,
    diagonal: Vec<usize>,
    /// A right-hand side in elimination order, and a supernode's entries
    /// below its columns: `solve`'s, kept for the next.
    permuted: Vec<f64>,
    below: Vec<f64>,
}

impl Normal {
    pub(super) fn new(a: &Columns) -> Normal {
        let m = a.rows;
        let order = ordering::order(a);
        let mut position = vec![0; m];
        order.iter().enumerate().for_each(|(k, &r)| position[r] = k);
        // M's upper triangle in elimination order, by columns.
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
        let parent = ordering::elimination_tree(&m_start, &m_index);
        // Row k of the factor: the tree paths from M's entries in column k
        // up to k; taken in increasing k, each column's pattern comes sorted.
        let mut pattern: Vec<Vec<usize>> = (0..m).map(|k| vec![k]).collect();
        let mut seen = vec![usize::MAX; m];
        for k in 0..m {
            seen[k] = k;
            for &i in &m_index[m_start[k]..m_start[k + 1]] {
                let mut i = i;
                while seen[i] != k {
                    seen[i] = k;
                    pattern[i].push(k);
                    i = parent[i];
                }
            }
        }
        let (mut supernodes, mut of_column, mut row_index) = (Vec::new(), vec![0; m], Vec::new());
        let (mut first, mut at) = (0, 0);
        while first < m {
            // Columns join while they are a chain of the tree and the zeros
            // their block holds stay few (`RELAXED`).
            let (mut end, mut nonzeros) = (first + 1, pattern[first].len());
            while end < m && parent[end - 1] == end {
                let width = end + 1 - first;
                let height = width - 1 + pattern[end].len();
                let entries = width * height - width * (width - 1) / 2;
                let nonzeros_then = nonzeros + pattern[end].len();
                if (entries - nonzeros_then) as f64 > RELAXED * entries as f64 {
                    break;
                }
                (end, nonzeros) = (end + 1, nonzeros_then);
            }
            // Its rows: its own columns, then the last one's pattern below it.
            let from = row_index.len();
            row_index.extend(first..end);
            row_index.extend_from_slice(&pattern[end - 1][1..]);
            let rows = from..row_index.len();
            of_column[first..end].fill(supernodes.len());
            let next = at + rows.len() * (end - first);
            supernodes.push(Supernode { first, width: end - first, rows, at });
            (first, at) = (end, next);
        }
        let slot = |r: usize, s: usize| {
            let (column, row) = (r.min(s), r.max(s));
            let sn = &supernodes[of_column[column]];
            let rows = &row_index[sn.rows.clone()];
            sn.at + (column - sn.first) * rows.len() + rows.partition_point(|&i| i < row)
        };
        let mut into_l = Vec::new();
        for j in 0..a.count() {
            for p in a.of(j) {
                for q in p..a.start[j + 1] {
                    into_l.push(slot(position[a.index[p]], position[a.index[q]]));
                }
            }
        }
        let diagonal = (0..m).map(|k| slot(k, k)).collect();
        Normal { order, supernodes, of_column, row_index, l: vec![0.0; at], into_l, diagonal, permuted: Vec::new(), below: Vec::new() }
    }

    /// The factor's work, about: its columns' entries squared summed
    /// (the multiplications of a left-looking Cholesky factor).
    pub(super) fn work(&self) -> f64 {
        let squares = |sn: &Supernode| (0..sn.width).map(|c| ((sn.rows.len() - c) as f64) * ((sn.rows.len() - c) as f64)).sum::<f64>();
        self.supernodes.iter().map(squares).sum()
    }

    /// Factors A diag(theta) A' + delta I.
    pub(super) fn factor(&mut self, a: &Columns, theta: &[f64], delta: f64) {
        let Normal { supernodes, of_column, row_index, l, into_l, diagonal, .. } = self;
        l.iter_mut().for_each(|v| *v = 0.0);
        let mut slot = 0;
        for (j, &t) in theta.iter().enumerate() {
            for p in a.of(j) {
                let tp = t * a.value[p];
                for q in p..a.start[j + 1] {
                    l[into_l[slot]] += tp * a.value[q];
                    slot += 1;
                }
            }
        }
        let largest = diagonal.iter().map(|&d| l[d]).fold(1.0, f64::max);
        diagonal.iter().for_each(|&d| l[d] += delta);
        // Left-looking: each supernode takes the updates of those before it
        // with rows in its columns, linked to it in `waiting` as their
        // earlier targets are done (`from`: where their rows for it begin).
        let count = supernodes.len();
        let (mut waiting, mut next, mut from) = (vec![usize::MAX; count], vec![usize::MAX; count], vec![0; count]);
        let mut relative = vec![0; diagonal.len()];
        let (mut update, mut at_row) = (Vec::new(), Vec::new());
        for (s, sn) in supernodes.iter().enumerate() {
            let rows = &row_index[sn.rows.clone()];
            let height = rows.len();
            rows.iter().enumerate().for_each(|(i, &r)| relative[r] = i);
            let mut d = core::mem::replace(&mut waiting[s], usize::MAX);
            while d != usize::MAX {
                let after = next[d];
                let dn = &supernodes[d];
                let d_rows = &row_index[dn.rows.clone()];
                let (top, d_height) = (from[d], d_rows.len());
                // Its rows in this supernode's columns: a few, counted one
                // by one (a binary search, not inlined in the wasm, was 2 %
                // of the method's time at h = 10, n = 100).
                let mut bottom = top;
                while bottom < d_height && d_rows[bottom] < sn.first + sn.width {
                    bottom += 1;
                }
                let (tall, wide) = (d_height - top, bottom - top);
                // L_D's rows from top times its rows top..bottom, the lower
                // trapezoid, by columns: contiguous, then added once.
                if update.len() < tall * wide {
                    update.resize(tall * wide, 0.0);
                }
                for j in 0..wide {
                    // Column j of the update stays in the cache while L_D's
                    // columns stream past it.
                    let out = &mut update[j * tall + j..(j + 1) * tall];
                    out.fill(0.0);
                    let column = |c: usize| &l[dn.at + c * d_height + top + j..dn.at + (c + 1) * d_height];
                    accumulate(out, (0..dn.width).map(column).map(|x| (x, x[0])));
                }
                // Where the rows land, looked up once per pair, not per
                // entry: the lookups took more of the factor's time than its
                // products (h = 10, n = 100: 14 % of it natively on one
                // line). Where a column's rows land together (their places
                // increase, so first and last tell), a plain slice.
                at_row.clear();
                at_row.extend(d_rows[top..].iter().map(|&r| relative[r]));
                for j in 0..wide {
                    let target = sn.at + at_row[j] * height;
                    let part = &update[j * tall + j..(j + 1) * tall];
                    if at_row[tall - 1] - at_row[j] == tall - 1 - j {
                        let into = &mut l[target + at_row[j]..target + at_row[tall - 1] + 1];
                        into.iter_mut().zip(part).for_each(|(x, u)| *x -= u);
                    } else {
                        for (&at, u) in at_row[j..].iter().zip(part) {
                            l[target + at] -= u;
                        }
                    }
                }
                from[d] = bottom;
                if bottom < d_height {
                    let t = of_column[d_rows[bottom]];
                    (next[d], waiting[t]) = (waiting[t], d);
                }
                d = after;
            }
            // The block's own columns, left-looking: column c takes the
            // columns before it, then is divided by its root.
            for c in 0..sn.width {
                let (done, rest) = l.split_at_mut(sn.at + c * height);
                let column = &mut rest[c..height];
                let earlier = |before: usize| &done[sn.at + before * height + c..sn.at + (before + 1) * height];
                // y - x b is y + x (-b) to the bit: negation is exact.
                accumulate(column, (0..c).map(earlier).map(|x| (x, -x[0])));
                let mut d = column[0];
                if d <= DEPENDENT * largest {
                    d = 1e128;
                }
                let root = libm::sqrt(d);
                column[0] = root;
                column[1..].iter_mut().for_each(|x| *x /= root);
            }
            if height > sn.width {
                let t = of_column[rows[sn.width]];
                from[s] = sn.width;
                (next[s], waiting[t]) = (waiting[t], s);
            }
        }
    }

    /// Solves the factored system for `b`, in place. A supernode's rows
    /// below its own columns are the same for all of them: their entries
    /// of y are gathered once into `below`, updated or read there by
    /// contiguous passes, and scattered back once, where each column's
    /// pass went through the row index. A supernode of one column (most
    /// of them: 1,410 of 1,736 at h = 10, n = 30) goes through the index
    /// once, as before: gathered, its rows took three passes, and in the
    /// wasm (no SIMD) more instructions than they saved. Each entry sees
    /// the same operations in the same order as column by column: the
    /// same bits.
    pub(super) fn solve(&mut self, b: &mut [f64]) {
        let mut y = core::mem::take(&mut self.permuted);
        y.clear();
        y.extend(self.order.iter().map(|&r| b[r]));
        let mut below = core::mem::take(&mut self.below);
        for sn in &self.supernodes {
            let (first, width, height) = (sn.first, sn.width, sn.rows.len());
            let rows = &self.row_index[sn.rows.clone()][width..];
            if width == 1 {
                let entries = &self.l[sn.at..sn.at + height];
                y[first] /= entries[0];
                let yk = y[first];
                // By index, as in `axpy`.
                for i in 0..rows.len() {
                    y[rows[i]] -= entries[i + 1] * yk;
                }
                continue;
            }
            below.clear();
            below.extend(rows.iter().map(|&r| y[r]));
            for c in 0..width {
                let entries = &self.l[sn.at + c * height + c..sn.at + (c + 1) * height];
                let k = first + c;
                y[k] /= entries[0];
                let yk = y[k];
                // y - e yk is y + e (-yk) to the bit: negation is exact.
                axpy(&mut y[k + 1..first + width], &entries[1..width - c], -yk);
                axpy(&mut below, &entries[width - c..], -yk);
            }
            rows.iter().zip(&below).for_each(|(&r, &v)| y[r] = v);
        }
        for sn in self.supernodes.iter().rev() {
            let (first, width, height) = (sn.first, sn.width, sn.rows.len());
            let rows = &self.row_index[sn.rows.clone()][width..];
            if width == 1 {
                let entries = &self.l[sn.at..sn.at + height];
                let mut s = -0.0;
                for i in 0..rows.len() {
                    s += entries[i + 1] * y[rows[i]];
                }
                y[first] = (y[first] - s) / entries[0];
                continue;
            }
            below.clear();
            below.extend(rows.iter().map(|&r| y[r]));
            for c in (0..width).rev() {
                let entries = &self.l[sn.at + c * height + c..sn.at + (c + 1) * height];
                let k = first + c;
                // From -0.0, as `sum` starts: the same bits.
                let s = dot(&entries[width - c..], &below, dot(&entries[1..width - c], &y[k + 1..first + width], -0.0));
                y[k] = (y[k] - s) / entries[0];
            }
        }
        self.order.iter().zip(&y).for_each(|(&r, &v)| b[r] = v);
        self.permuted = y;
        self.below = below;
    }
}

/// `y += x b`, element by element. By index, not zipped iterators: at
/// the wasm's opt-level "s" those stayed calls (node, h = 10, n = 30:
/// 2 % more instructions than before the solves by supernode).
fn axpy(y: &mut [f64], x: &[f64], b: f64) {
    let x = &x[..y.len()];
    for i in 0..y.len() {
        y[i] += x[i] * b;
    }
}

/// `s` plus the products of `x` and `y`, added left to right.
fn dot(x: &[f64], y: &[f64], mut s: f64) -> f64 {
    let y = &y[..x.len()];
    for i in 0..x.len() {
        s += x[i] * y[i];
    }
    s
}

/// `out += x b` for each `(x, b)` in turn, `x` as long as `out`: four at a
/// time through `out`, each element summed left to right as one at a time
/// would (the same rounding), loaded and stored once per four (the
/// factor's time is these passes: 11 % fewer of its instructions at h = 10,
/// n = 12).
fn accumulate<'a>(out: &mut [f64], mut columns: impl Iterator<Item = (&'a [f64], f64)>) {
    let n = out.len();
    loop {
        let Some((x0, b0)) = columns.next() else { return };
        let (x0, rest) = (&x0[..n], [columns.next(), columns.next(), columns.next()]);
        match rest {
            [Some((x1, b1)), Some((x2, b2)), Some((x3, b3))] => {
                let (x1, x2, x3) = (&x1[..n], &x2[..n], &x3[..n]);
                for i in 0..n {
                    out[i] = out[i] + x0[i] * b0 + x1[i] * b1 + x2[i] * b2 + x3[i] * b3;
                }
            }
            rest => {
                for (x, b) in [Some((x0, b0))].into_iter().chain(rest).flatten() {
                    out.iter_mut().zip(x).for_each(|(u, &x)| *u += x * b);
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;

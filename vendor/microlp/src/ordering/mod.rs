//! The pivot order of the LU factorization: [`order_markowitz`], a symbolic
//! Markowitz elimination out of the bucket queue in [`cols_queue`].
//! `lu_factorize` uses it for every factorization, and
//! `lu_factorize_ranked` [`order_ranked`], which sorts its columns by a rank.
//!
//! dlt: microlp took the columns by their number of entries alone, the
//! sparsest first. On the bases of the trees' LPs (h = 10, n = 30, 3,000
//! rows on average) the factors held twice the basis's entries; ordered
//! here they hold 1.2 times, and the solves through them that are most of
//! a simplex iteration cost less for it.

mod cols_queue;

use cols_queue::ColsQueue;

use crate::sparse::Perm;

/// The columns of the square matrix whose column `c` has its entries in the
/// rows `col_rows[c]`, in the order of a symbolic elimination, and a score
/// per row for the factorization's choice among the rows eligible to pivot
/// a column, the lowest first. Next comes the column with the fewest
/// active entries, to pivot on its row with the fewest, the fill the pivot
/// makes added to the columns it reaches; the row is scored with the
/// column's position, a row meant for no pivot `2 size`. Column singletons
/// come first and a row singleton pivots its column: the triangular parts
/// of a basis make no fill. An empty column comes with the first; the
/// factorization finds it dependent.
pub fn order_markowitz(col_rows: &[&[usize]], lists: &mut Lists) -> (Perm, Vec<usize>) {
    let size = col_rows.len();
    let mut row_score = vec![2 * size; size];
    let mut order = Vec::with_capacity(size);
    let Lists { cols, rows, pivot_col, pivot_row } = lists;
    for list in [&mut *cols, &mut *rows] {
        list.resize_with(size, Vec::new);
        list.iter_mut().for_each(Vec::clear);
    }
    let mut queue = ColsQueue::new(size + 1);
    for (c, &col) in col_rows.iter().enumerate() {
        cols[c].extend_from_slice(col);
        col.iter().for_each(|&r| rows[r].push(c));
        queue.add(c, col.len());
    }
    // A list keeps the columns (rows) ordered (pivoted) since it was last
    // read, skipped when it is, beside the count of its active entries:
    // removing each from its lists went through a dense row's thousands of
    // entries once per column it has, and through every column of a
    // slack's row, which fills nothing.
    let mut row_count: Vec<usize> = rows.iter().map(Vec::len).collect();
    let mut col_count: Vec<usize> = cols.iter().map(Vec::len).collect();
    let (mut ordered, mut pivoted) = (vec![false; size], vec![false; size]);
    // `seen[i] == pass`: row i is in the column being filled.
    let (mut seen, mut pass) = (vec![0usize; size], 0);
    while let Some(c) = queue.pop_min() {
        order.push(c);
        ordered[c] = true;
        pivot_col.clear();
        pivot_col.extend(cols[c].drain(..).filter(|&r| !pivoted[r]));
        pivot_col.iter().for_each(|&r| row_count[r] -= 1);
        let Some(pivot) = pivot_col.iter().copied().min_by_key(|&r| row_count[r]) else {
            continue;
        };
        row_score[pivot] = order.len() - 1;
        pivoted[pivot] = true;
        pivot_row.clear();
        pivot_row.extend(rows[pivot].drain(..).filter(|&j| !ordered[j]));
        for &j in pivot_row.iter() {
            queue.remove(j, col_count[j]);
            col_count[j] -= 1;
            if pivot_col.len() > 1 {
                pass += 1;
                cols[j].retain(|&i| !pivoted[i]);
                cols[j].iter().for_each(|&i| seen[i] = pass);
                for &i in pivot_col.iter().filter(|&&i| i != pivot && seen[i] != pass) {
                    cols[j].push(i);
                    col_count[j] += 1;
                    rows[i].push(j);
                    row_count[i] += 1;
                }
            }
            queue.add(j, col_count[j]);
        }
    }
    (Perm::from_new2orig(order), row_score)
}

/// dlt: [`order_markowitz`]'s lists, kept from one factorization to the
/// next (in the LU's [`crate::lu::ScratchSpace`]): written afresh, a
/// basis of 3,000 rows took 6,000 allocations per factorization, the
/// pruned tree's 320 factorizations 7 % of its solve.
#[derive(Clone, Debug, Default)]
pub struct Lists {
    cols: Vec<Vec<usize>>,
    rows: Vec<Vec<usize>>,
    pivot_col: Vec<usize>,
    pivot_row: Vec<usize>,
}

/// [`order_markowitz`]'s columns, stably sorted by `rank`, the lowest
/// first.
pub fn order_ranked(col_rows: &[&[usize]], rank: impl Fn(usize) -> u8, lists: &mut Lists) -> Perm {
    let (Perm { new2orig, .. }, _) = order_markowitz(col_rows, lists);
    // dlt: a counting sort by the rank, stable, where the slice's stable
    // sort was an instantiation of its own, 5 KB of the wasm.
    let mut start = [0usize; 257];
    new2orig.iter().for_each(|&c| start[usize::from(rank(c)) + 1] += 1);
    (0..256).for_each(|r| start[r + 1] += start[r]);
    let mut sorted = vec![0; new2orig.len()];
    for &c in &new2orig {
        let at = &mut start[usize::from(rank(c))];
        sorted[*at] = c;
        *at += 1;
    }
    Perm::from_new2orig(sorted)
}

#[cfg(test)]
mod tests;

//! The supernodal factor against the normal equations built from A.

use super::{accumulate, Columns, Normal};
use alloc::vec;
use alloc::vec::Vec;

/// A: `rows` rows, each column a short run of neighbouring rows (the
/// trees' chains), every seventh also in one row shared by many (the
/// load row), entries and theta from a fixed sequence.
fn chains(rows: usize, columns: usize, next: &mut impl FnMut() -> f64) -> Columns {
    let (mut start, mut index, mut value) = (vec![0], Vec::new(), Vec::new());
    for j in 0..columns {
        let first = (next() * rows as f64) as usize % rows;
        let mut column: Vec<usize> = (first..(first + 1 + j % 4).min(rows)).collect();
        if j % 7 == 0 && first != 0 {
            column.insert(0, 0);
        }
        for r in column {
            index.push(r);
            value.push(next() * 2.0 - 1.0);
        }
        start.push(index.len());
    }
    Columns { rows, start, index, value }
}

/// A diag(theta) A' x + delta x, from A itself.
fn product(a: &Columns, theta: &[f64], delta: f64, x: &[f64]) -> Vec<f64> {
    let mut y: Vec<f64> = x.iter().map(|v| delta * v).collect();
    for (j, t) in theta.iter().enumerate() {
        let ax: f64 = a.of(j).map(|p| a.value[p] * x[a.index[p]]).sum();
        a.of(j).for_each(|p| y[a.index[p]] += t * ax * a.value[p]);
    }
    y
}

/// The factor solves the normal equations it was given, for every
/// theta of a run: its supernodes (relaxed with zeros) and their
/// left-looking updates agree with the matrix built from A directly.
#[test]
fn the_supernodal_factor_solves_the_normal_equations() {
    let mut seed = 12345u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for (rows, columns) in [(5, 12), (60, 150), (300, 900)] {
        let a = chains(rows, columns, &mut next);
        let mut normal = Normal::new(&a);
        for delta in [0.0, 1e-8] {
            let theta: Vec<f64> = (0..columns).map(|_| 1e-3 + next() * 10.0).collect();
            normal.factor(&a, &theta, delta);
            let b: Vec<f64> = (0..rows).map(|_| next() - 0.5).collect();
            let mut x = b.clone();
            normal.solve(&mut x);
            let r = product(&a, &theta, delta, &x);
            let worst = r.iter().zip(&b).map(|(r, b)| (r - b).abs()).fold(0.0, f64::max);
            assert!(worst < 1e-9, "{rows} rows: residual {worst}");
        }
    }
}

/// A row that depends on others (here twice the same row) gets a
/// huge pivot, not a NaN: its component of the solution is 0.
#[test]
fn a_dependent_row_gives_a_finite_solution() {
    let a = Columns { rows: 3, start: vec![0, 3, 6], index: vec![0, 1, 2, 0, 1, 2], value: vec![1.0, 1.0, 2.0, 1.0, 1.0, -1.0] };
    let mut normal = Normal::new(&a);
    normal.factor(&a, &[1.0, 2.0], 0.0);
    let mut x = vec![1.0, 1.0, 0.5];
    normal.solve(&mut x);
    assert!(x.iter().all(|v| v.is_finite()), "{x:?}");
    let r = product(&a, &[1.0, 2.0], 0.0, &x);
    assert!((r[0] + r[1] - 2.0).abs() < 1e-9 && (r[2] - 0.5).abs() < 1e-9, "{r:?}");
}

/// Four columns at a time round exactly as one at a time: the factor,
/// and the interior point method's path, are the same to the bit.
#[test]
fn accumulating_by_fours_rounds_as_one_at_a_time() {
    let mut seed = 777u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1e3
    };
    for count in 0..=9 {
        let columns: Vec<Vec<f64>> = (0..count).map(|_| (0..17).map(|_| next()).collect()).collect();
        let start: Vec<f64> = (0..13).map(|_| next()).collect();
        let mut plain = start.clone();
        for column in &columns {
            let b = -column[0];
            plain.iter_mut().zip(column).for_each(|(u, &x)| *u += x * b);
        }
        let mut fours = start.clone();
        accumulate(&mut fours, columns.iter().map(|x| (&x[..], -x[0])));
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fours), bits(&plain), "{count} columns");
    }
}

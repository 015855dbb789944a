use super::*;
use sprs::{CsMat, TriMat};

fn init() {
    let _ = env_logger::builder().is_test(true).try_init();
}

fn mat_from_triplets(rows: usize, cols: usize, triplets: &[(usize, usize)]) -> CsMat<f64> {
    let mut mat = TriMat::with_capacity((rows, cols), triplets.len());
    for (r, c) in triplets {
        mat.add_triplet(*r, *c, 1.0);
    }
    mat.to_csc()
}

/// An empty column (a var with no entry in any row) comes first, for the
/// factorization to find dependent; then the column singleton on its row,
/// then the column whose rows are both singletons, on the first of them.
#[test]
fn order_markowitz_takes_the_sparsest_column_on_its_sparsest_row() {
    init();
    let mat = mat_from_triplets(3, 3, &[(0, 0), (1, 0), (2, 1)]);
    let (perm, row_score) = order_markowitz(&[0, 1, 2].map(|c| mat.outer_view(c).unwrap().into_raw_storage().0), &mut Lists::default());
    assert_eq!(perm.new2orig, [2, 1, 0]);
    assert_eq!(perm.orig2new, [2, 1, 0]);
    assert_eq!(row_score, [2, 6, 1]);
}

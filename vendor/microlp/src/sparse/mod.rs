use crate::helpers::to_dense;
use sprs::CsMat;
#[cfg(test)]
use sprs::CsVec;

#[derive(Clone, Debug, Default)]
pub(crate) struct SparseVec {
    indices: Vec<usize>,
    values: Vec<f64>,
}

impl SparseVec {
    pub(crate) fn new() -> SparseVec {
        SparseVec {
            indices: vec![],
            values: vec![],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.indices.clear();
        self.values.clear();
    }

    #[inline]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, &f64)> {
        self.indices.iter().copied().zip(&self.values)
    }

    pub(crate) fn sq_norm(&self) -> f64 {
        self.values.iter().map(|&v| v * v).sum()
    }
}

#[derive(Clone, Debug)]
pub struct ScatteredVec {
    pub(crate) values: Vec<f64>,
    pub(crate) is_nonzero: Vec<bool>,
    pub(crate) nonzero: Vec<usize>,
}

impl ScatteredVec {
    pub fn empty(n: usize) -> ScatteredVec {
        ScatteredVec {
            values: vec![0.0; n],
            is_nonzero: vec![false; n],
            nonzero: vec![],
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, &f64)> {
        self.nonzero.iter().map(move |&i| (i, &self.values[i]))
    }

    pub fn indices(&self) -> &[usize] {
        &self.nonzero
    }

    #[inline]
    pub fn get(&self, i: usize) -> &f64 {
        &self.values[i]
    }

    #[inline]
    pub fn get_mut(&mut self, i: usize) -> &mut f64 {
        if !std::mem::replace(&mut self.is_nonzero[i], true) {
            self.nonzero.push(i);
        }
        &mut self.values[i]
    }

    pub fn sq_norm(&self) -> f64 {
        self.nonzero
            .iter()
            .map(|&i| self.values[i] * self.values[i])
            .sum()
    }

    pub fn clear(&mut self) {
        // dlt: a vector an eighth nonzero or more is cleared whole: the
        // stores stream where scattered ones each take a random access.
        if self.nonzero.len() * 8 >= self.values.len() {
            self.values.fill(0.0);
            self.is_nonzero.fill(false);
        } else {
            for &i in &self.nonzero {
                self.values[i] = 0.0;
                self.is_nonzero[i] = false;
            }
        }
        self.nonzero.clear();
    }

    pub fn clear_and_resize(&mut self, n: usize) {
        self.clear();
        self.values.resize(n, 0.0);
        self.is_nonzero.resize(n, false);
    }

    pub fn set<'a, T>(&mut self, rhs: T)
    where
        T: IntoIterator<Item = (usize, &'a f64)>,
    {
        self.clear();
        for (i, &val) in rhs {
            self.is_nonzero[i] = true;
            self.nonzero.push(i);
            self.values[i] = val;
        }
    }

    pub(crate) fn to_sparse_vec(&self, lhs: &mut SparseVec) {
        lhs.clear();
        for &idx in &self.nonzero {
            lhs.indices.push(idx);
            lhs.values.push(self.values[idx])
        }
    }

    #[cfg(test)]
    pub(crate) fn to_csvec(&self) -> CsVec<f64> {
        let mut indices = vec![];
        let mut data = vec![];
        for &i in &self.nonzero {
            let val = self.values[i];
            if val != 0.0 {
                indices.push(i);
                data.push(val);
            }
        }
        //guaranteed to be sorted, in range and with same size
        CsVec::new_from_unsorted(self.values.len(), indices, data).unwrap()
    }
}

/// Unordered sparse matrix with elements stored by columns.
///
/// dlt: each column is a span of the storage, so that a column can be
/// replaced, grown or shrunk in place of a rebuild (the Forrest-Tomlin
/// update of U, `crate::lu::Updates`): an edited column moves to the end of
/// the storage, and what it left stays there, unused, until the factors are
/// computed afresh (a new matrix).
#[derive(Clone, Debug)]
pub(crate) struct SparseMat {
    n_rows: usize,
    starts: Vec<usize>,
    ends: Vec<usize>,
    indices: Vec<usize>,
    data: Vec<f64>,
    /// Where the column being pushed begins.
    open: usize,
    /// Entries no column holds any more.
    stale: usize,
}

impl SparseMat {
    pub(crate) fn new(n_rows: usize) -> SparseMat {
        SparseMat {
            n_rows,
            starts: vec![],
            ends: vec![],
            indices: vec![],
            data: vec![],
            open: 0,
            stale: 0,
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.n_rows
    }

    pub(crate) fn cols(&self) -> usize {
        self.starts.len()
    }

    /// The entries the columns hold.
    pub(crate) fn nnz(&self) -> usize {
        self.data.len() - self.stale
    }

    pub(crate) fn push(&mut self, row: usize, val: f64) {
        self.indices.push(row);
        self.data.push(val);
    }

    pub(crate) fn seal_column(&mut self) {
        self.starts.push(self.open);
        self.ends.push(self.indices.len());
        self.open = self.indices.len();
    }

    // dlt: `#[inline]` here, on `col_data`, `col_iter` and the vectors'
    // `iter`: at the wasm's opt-level "s" each was a call per column of
    // every triangular solve.
    #[inline]
    pub(crate) fn col_rows(&self, i_col: usize) -> &[usize] {
        &self.indices[self.starts[i_col]..self.ends[i_col]]
    }

    pub(crate) fn col_rows_mut(&mut self, i_col: usize) -> &mut [usize] {
        &mut self.indices[self.starts[i_col]..self.ends[i_col]]
    }

    #[inline]
    pub(crate) fn col_data(&self, i_col: usize) -> &[f64] {
        &self.data[self.starts[i_col]..self.ends[i_col]]
    }

    #[inline]
    pub(crate) fn col_iter(&self, i_col: usize) -> impl Iterator<Item = (usize, &f64)> {
        self.col_rows(i_col)
            .iter()
            .copied()
            .zip(self.col_data(i_col))
    }

    pub(crate) fn append_col<T>(&mut self, col: T)
    where
        T: IntoIterator<Item = (usize, f64)>,
    {
        assert_eq!(self.open, self.indices.len()); // prev column is sealed
        for (idx, val) in col {
            self.indices.push(idx);
            self.data.push(val);
        }
        self.seal_column();
    }

    /// Column `i_col` made `col`, at the end of the storage.
    pub(crate) fn replace_col(&mut self, i_col: usize, col: impl IntoIterator<Item = (usize, f64)>) {
        debug_assert_eq!(self.open, self.indices.len(), "a column is being pushed");
        self.stale += self.ends[i_col] - self.starts[i_col];
        self.starts[i_col] = self.indices.len();
        for (idx, val) in col {
            self.indices.push(idx);
            self.data.push(val);
        }
        self.ends[i_col] = self.indices.len();
        self.open = self.indices.len();
    }

    /// The entry `(row, val)` added to column `i_col`, which moves to the end
    /// of the storage unless it is there already.
    pub(crate) fn push_to_col(&mut self, i_col: usize, row: usize, val: f64) {
        debug_assert_eq!(self.open, self.indices.len(), "a column is being pushed");
        let (start, end) = (self.starts[i_col], self.ends[i_col]);
        if end != self.indices.len() {
            self.stale += end - start;
            self.starts[i_col] = self.indices.len();
            self.indices.extend_from_within(start..end);
            self.data.extend_from_within(start..end);
        }
        self.indices.push(row);
        self.data.push(val);
        self.ends[i_col] = self.indices.len();
        self.open = self.indices.len();
    }

    /// The entry of `row` taken out of column `i_col` (the column's last
    /// entry takes its place), if it has one.
    pub(crate) fn remove_from_col(&mut self, i_col: usize, row: usize) {
        let (start, end) = (self.starts[i_col], self.ends[i_col]);
        if let Some(at) = self.indices[start..end].iter().position(|&r| r == row) {
            self.indices.swap(start + at, end - 1);
            self.data.swap(start + at, end - 1);
            self.ends[i_col] = end - 1;
            self.stale += 1;
        }
    }

    /// The compressed column pointers of the columns as they stand.
    fn indptr(&self) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
        let mut indptr = vec![0];
        let (mut indices, mut data) = (vec![], vec![]);
        for c in 0..self.cols() {
            indices.extend_from_slice(self.col_rows(c));
            data.extend_from_slice(self.col_data(c));
            indptr.push(indices.len());
        }
        (indptr, indices, data)
    }

    pub(crate) fn into_csmat(self) -> CsMat<f64> {
        let (indptr, indices, data) = self.indptr();
        CsMat::new_csc((self.cols(), self.n_rows), indptr, indices, data)
    }

    pub(crate) fn to_csmat(&self) -> CsMat<f64> {
        self.clone().into_csmat()
    }

    pub(crate) fn transpose(&self) -> SparseMat {
        // calculate row counts, then cumulative counts so that the pointers
        // point to the *ends* of each resulting row.
        let mut indptr = vec![0; self.rows() + 1];
        for c in 0..self.cols() {
            for &r in self.col_rows(c) {
                indptr[r] += 1;
            }
        }
        for r in 1..indptr.len() {
            indptr[r] += indptr[r - 1];
        }

        // place the elements
        let nnz = self.nnz();
        let mut indices = vec![0; nnz];
        let mut data = vec![0.0; nnz];
        for c in 0..self.cols() {
            for (r, &val) in self.col_iter(c) {
                indptr[r] -= 1;
                indices[indptr[r]] = c;
                data[indptr[r]] = val;
            }
        }
        *indptr.last_mut().unwrap() = nnz;

        SparseMat {
            n_rows: self.cols(),
            starts: indptr[..self.rows()].to_vec(),
            ends: indptr[1..].to_vec(),
            indices,
            data,
            open: nnz,
            stale: 0,
        }
    }
}

#[derive(Clone)]
pub(crate) struct TriangleMat {
    pub(crate) nondiag: SparseMat,
    /// Diag elements, None means all 1's
    pub(crate) diag: Option<Vec<f64>>,
    /// dlt: the columns a solve must process, in order: those with entries
    /// off the diagonal or a diagonal other than 1. The others change
    /// nothing (x / 1 is x to the bit), and a dense solve skips them: a
    /// basis's slacks, most of its columns, pivot on their 1 alone.
    pub(crate) active: Vec<usize>,
}

impl TriangleMat {
    pub(crate) fn new(nondiag: SparseMat, diag: Option<Vec<f64>>) -> TriangleMat {
        let mut tri = TriangleMat { nondiag, diag, active: vec![] };
        tri.active = (0..tri.cols()).filter(|&c| tri.acts(c)).collect();
        tri
    }

    /// Whether a solve must process column `c`.
    pub(crate) fn acts(&self, c: usize) -> bool {
        !self.nondiag.col_rows(c).is_empty() || self.diag.as_ref().is_some_and(|d| d[c] != 1.0)
    }

    /// Column `c` taken out of `active`, whose columns are in the order of
    /// their `label`.
    pub(crate) fn deactivate(&mut self, c: usize, label: &[usize]) {
        if let Ok(at) = self.active.binary_search_by_key(&label[c], |&a| label[a]) {
            self.active.remove(at);
        }
    }

    /// Column `c` put in `active` at its `label`, if a solve must process it
    /// and it is not there.
    pub(crate) fn activate(&mut self, c: usize, label: &[usize]) {
        if let Err(at) = self.active.binary_search_by_key(&label[c], |&a| label[a]) {
            if self.acts(c) {
                self.active.insert(at, c);
            }
        }
    }

    pub(crate) fn rows(&self) -> usize {
        self.nondiag.rows()
    }

    pub(crate) fn cols(&self) -> usize {
        self.nondiag.cols()
    }

    pub(crate) fn transpose(&self) -> TriangleMat {
        TriangleMat::new(self.nondiag.transpose(), self.diag.clone())
    }

    #[cfg(test)]
    pub(crate) fn to_csmat(&self) -> CsMat<f64> {
        let mut tri_mat = sprs::TriMat::new((self.rows(), self.cols()));
        if let Some(diag) = self.diag.as_ref() {
            for (i, &val) in diag.iter().enumerate() {
                tri_mat.add_triplet(i, i, val);
            }
        } else {
            for i in 0..self.rows() {
                tri_mat.add_triplet(i, i, 1.0);
            }
        }

        for c in 0..self.nondiag.cols() {
            for (r, &val) in self.nondiag.col_iter(c) {
                tri_mat.add_triplet(r, c, val);
            }
        }

        tri_mat.to_csc()
    }
}

impl std::fmt::Debug for TriangleMat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "nondiag:")?;
        for row in self.nondiag.to_csmat().to_csr().outer_iterator() {
            writeln!(f, "{:?}", to_dense(&row))?
        }
        writeln!(f, "diag: {:?}", self.diag)?;
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Perm {
    pub(crate) orig2new: Vec<usize>,
    pub(crate) new2orig: Vec<usize>,
}

impl Perm {
    /// The permutation that puts `new2orig[new]` at `new`.
    pub(crate) fn from_new2orig(new2orig: Vec<usize>) -> Perm {
        let mut orig2new = vec![0; new2orig.len()];
        for (new, &orig) in new2orig.iter().enumerate() {
            orig2new[orig] = new;
        }
        Perm { orig2new, new2orig }
    }
}

#[cfg(test)]
mod tests;

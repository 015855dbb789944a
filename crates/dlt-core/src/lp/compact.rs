//! An LP's rows as written, read and written through two traits that
//! `Model` and `Compact` both implement: `Rows`, what a bound or a size
//! reads of them, and `Build`, what a model's generator writes. `Compact`
//! keeps every row's terms in one array (compressed rows, no names): a
//! proof's full LP of 261,012 rows (000 Fig. 13(b) at n = 1,582), as a
//! `Model` a vector per row, was more than half of its solve in
//! allocations, page faults and frees, though only its bound reads it.

use super::{Model, Row, Sense, Var};
use alloc::string::String;
use alloc::vec::Vec;

/// A row as written: its terms, its sense and its right-hand side.
#[derive(Clone, Copy)]
pub struct RowRef<'a> {
    pub terms: &'a [(Var, f64)],
    pub sense: Sense,
    pub rhs: f64,
}

/// An LP's rows, bounds and costs, as its generator wrote them.
pub trait Rows {
    fn rows(&self) -> usize;
    fn row_ref(&self, r: usize) -> RowRef<'_>;
    fn bounds(&self) -> &[(f64, f64)];
    fn objective(&self) -> &[f64];

    fn nonzeros(&self) -> usize;

    fn vars(&self) -> usize {
        self.bounds().len()
    }
}

/// What a model's generator writes: variables, then rows over them (the
/// rows written so far are `Rows::rows`). `Compact` drops the names.
pub trait Build: Rows {
    /// Whether it keeps the names it is given (worth formatting them).
    fn named(&self) -> bool;
    fn add_var(&mut self, name: String, lower: f64, upper: f64, cost: f64) -> Var;
    fn add_row(&mut self, name: String, terms: &[(Var, f64)], sense: Sense, rhs: f64);
    /// Room for `vars` more variables and `rows` more rows of about
    /// `terms` terms each.
    fn reserve(&mut self, vars: usize, rows: usize, terms: usize);
}

impl Rows for Model {
    fn rows(&self) -> usize {
        self.rows.len()
    }

    fn row_ref(&self, r: usize) -> RowRef<'_> {
        let Row { terms, sense, rhs, .. } = &self.rows[r];
        RowRef { terms, sense: *sense, rhs: *rhs }
    }

    fn bounds(&self) -> &[(f64, f64)] {
        &self.bounds
    }

    fn objective(&self) -> &[f64] {
        &self.objective
    }

    fn nonzeros(&self) -> usize {
        Model::nonzeros(self)
    }
}

impl Build for Model {
    fn named(&self) -> bool {
        true
    }

    fn add_var(&mut self, name: String, lower: f64, upper: f64, cost: f64) -> Var {
        self.var(name, lower, upper, cost)
    }

    fn add_row(&mut self, name: String, terms: &[(Var, f64)], sense: Sense, rhs: f64) {
        self.row(name, terms.to_vec(), sense, rhs);
    }

    fn reserve(&mut self, vars: usize, rows: usize, _terms: usize) {
        Model::reserve(self, vars, rows);
    }
}

/// An LP without names, its rows' terms one after the other.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Compact {
    pub bounds: Vec<(f64, f64)>,
    pub objective: Vec<f64>,
    /// Row r's terms are `terms[starts[r]..starts[r + 1]]`.
    starts: Vec<usize>,
    terms: Vec<(Var, f64)>,
    senses: Vec<Sense>,
    rhs: Vec<f64>,
}

impl Compact {
    /// The same LP as a `Model` (names empty), for an engine.
    pub fn to_model(&self) -> Model {
        let vars = self.vars();
        let mut model = Model { names: alloc::vec![String::new(); vars], bounds: self.bounds.clone(), objective: self.objective.clone(), binary: alloc::vec![false; vars], rows: Vec::new() };
        model.rows = (0..self.rows()).map(|r| {
            let RowRef { terms, sense, rhs } = self.row_ref(r);
            Row { name: String::new(), terms: terms.to_vec(), sense, rhs }
        }).collect();
        model
    }
}

impl Rows for Compact {
    fn rows(&self) -> usize {
        self.senses.len()
    }

    fn row_ref(&self, r: usize) -> RowRef<'_> {
        let end = self.starts.get(r + 1).copied().unwrap_or(self.terms.len());
        RowRef { terms: &self.terms[self.starts[r]..end], sense: self.senses[r], rhs: self.rhs[r] }
    }

    fn bounds(&self) -> &[(f64, f64)] {
        &self.bounds
    }

    fn objective(&self) -> &[f64] {
        &self.objective
    }

    fn nonzeros(&self) -> usize {
        self.terms.len()
    }
}

impl Build for Compact {
    fn named(&self) -> bool {
        false
    }

    fn add_var(&mut self, _name: String, lower: f64, upper: f64, cost: f64) -> Var {
        self.bounds.push((lower, upper));
        self.objective.push(cost);
        Var(self.bounds.len() - 1)
    }

    fn add_row(&mut self, _name: String, terms: &[(Var, f64)], sense: Sense, rhs: f64) {
        self.starts.push(self.terms.len());
        self.terms.extend_from_slice(terms);
        self.senses.push(sense);
        self.rhs.push(rhs);
    }

    fn reserve(&mut self, vars: usize, rows: usize, terms: usize) {
        self.bounds.reserve(vars);
        self.objective.reserve(vars);
        self.starts.reserve(rows);
        self.senses.reserve(rows);
        self.rhs.reserve(rows);
        self.terms.reserve(rows * terms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The same rows written into both read back alike, and `to_model`
    /// gives the model written directly (names aside).
    #[test]
    fn a_compact_lp_reads_as_the_model_written_alike() {
        let (mut model, mut compact) = (Model::default(), Compact::default());
        fn write(b: &mut impl Build) {
            let x = b.add_var("x".into(), 0.0, 2.0, 1.0);
            let y = b.add_var("y".into(), 1.0, f64::INFINITY, -3.0);
            b.add_row("r".into(), &[(x, 1.0), (y, 2.0)], Sense::Ge, 2.0);
            b.add_row("s".into(), &[], Sense::Eq, 0.0);
            b.add_row("t".into(), &[(y, -1.5)], Sense::Le, 4.0);
        }
        write(&mut model);
        write(&mut compact);
        assert_eq!((compact.rows(), compact.nonzeros(), Rows::nonzeros(&model)), (3, 3, 3));
        for r in 0..3 {
            let (a, b) = (model.row_ref(r), compact.row_ref(r));
            assert_eq!((a.terms, a.sense, a.rhs), (b.terms, b.sense, b.rhs));
        }
        assert_eq!(Rows::bounds(&compact), Rows::bounds(&model));
        assert_eq!(Rows::objective(&compact), Rows::objective(&model));
        let mut unnamed = model.clone();
        unnamed.names.iter_mut().for_each(String::clear);
        unnamed.rows.iter_mut().for_each(|row| row.name.clear());
        assert_eq!(compact.to_model(), unnamed);
        assert_eq!(compact.row_ref(2).terms, &vec![(Var(1), -1.5)][..]);
    }
}

//! Explain mode: the steps that produce an answer, with its numbers, for a
//! student stepping forward and back. The LP models are explained from the
//! program their paper prints (the one `dlt export` writes), solved again
//! here: its rows with the optimum's values in them, and which are tight.
//! A model adds steps of its own (a recurrence, an elimination) through
//! `Model::explain`.

#[cfg(feature = "lp")]
use crate::lp::{self, Model as Lp, Sense, Solution};
#[cfg(feature = "lp")]
use crate::model::Export;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

#[cfg(feature = "lp")]
/// The largest program explain mode solves and lists: a teaching size.
pub const MAX_EXPLAINED_VARIABLES: usize = 2000;
#[cfg(feature = "lp")]
/// Rows listed in one step; the rest are counted.
const LISTED_ROWS: usize = 60;
#[cfg(feature = "lp")]
/// Terms written out in one row; the rest are summed into "…".
const LISTED_TERMS: usize = 6;

/// How an answer came about, step by step.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Explanation {
    pub steps: Vec<Step>,
}

/// One step: what it does, where the paper says so, and its numbers.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Step {
    pub title: String,
    /// `paper` and `at` as one text, "000 (10)", with the program's name
    /// for an LP step, "LoadDirect (000), (3)".
    pub source: String,
    /// The paper's id, "000" to "004", which the page links.
    pub paper: &'static str,
    /// Its equation, section or lemma: "(10)", "Sec. 5", "Lemma 2".
    pub at: String,
    /// Plain language, with the numbers in it.
    pub text: String,
    /// Named numbers of the step.
    pub values: Vec<Value>,
    /// Rows of a program with the optimum's values substituted.
    pub rows: Vec<ExplainedRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Value {
    pub name: String,
    pub value: f64,
}

/// A row a . x (sense) b at the optimum: its terms with their values, the
/// left side's value, and whether it holds with equality.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct ExplainedRow {
    pub name: String,
    /// "0.001·alpha_1_1 [= 50.2] + t_1_1_0 [= 3.1] − Cmax [= 5.2] ≤ −0.001".
    pub text: String,
    pub lhs: f64,
    pub sense: &'static str,
    pub rhs: f64,
    pub tight: bool,
}

/// Where a program's rows are in its paper: the program's equations, and
/// those each family of its rows writes (rows named alike: `end_2_3` and
/// `end_1_4` are both `end`), declared where the rows are built.
pub struct Equations {
    pub paper: &'static str,
    /// The whole program, e.g. "(1)-(5)".
    pub program: &'static str,
    /// (family, its equations): ("end", "(3)").
    pub rows: &'static [(&'static str, &'static str)],
}

impl Equations {
    /// The equations of a family of rows; the program's for one the table
    /// does not name.
    pub fn of(&self, family: &str) -> &'static str {
        self.rows.iter().find(|(f, _)| *f == family).map_or(self.program, |(_, at)| at)
    }
}

impl Step {
    pub fn new(title: impl Into<String>, paper: &'static str, at: impl Into<String>, text: impl Into<String>) -> Step {
        let at = at.into();
        Step { title: title.into(), source: format!("{paper} {at}"), paper, at, text: text.into(), ..Step::default() }
    }

    pub fn value(mut self, name: impl Into<String>, value: f64) -> Step {
        self.values.push(Value { name: name.into(), value });
        self
    }

    /// `value` where there is one (a bound that may not exist).
    pub fn value_if(self, name: impl Into<String>, value: Option<f64>) -> Step {
        match value {
            Some(x) => self.value(name, x),
            None => self,
        }
    }
}

#[cfg(feature = "lp")]
/// The steps of an LP model's program: what it is, each family of rows
/// with the paper's equation it writes and the optimum's values in it, and
/// the optimum.
pub fn program_steps(export: &Export) -> Vec<Step> {
    let Export { name, model, units, equations } = export;
    let (paper, program) = (equations.paper, equations.program);
    let vars = model.names.len();
    let step = |title: String, at: &str, text: String| Step { source: format!("{name}, {at}"), ..Step::new(title, paper, at, text) };
    let mut first = step(
        format!("The program: {name}"),
        program,
        format!("The paper's program {program} for this request: {vars} variables and {} rows, in scaled units ({units}). Minimise Cmax.", model.rows.len()),
    );
    first = first.value("variables", vars as f64).value("rows", model.rows.len() as f64);
    if vars > MAX_EXPLAINED_VARIABLES {
        first.text.push_str(&format!(" Explain mode solves and lists programs of up to {MAX_EXPLAINED_VARIABLES} variables: fewer stages or processors give one."));
        return alloc::vec![first];
    }
    if model.is_mip() {
        first.text.push_str(" It is a MIP (0-1 variables choose the order of messages): the steps below explain the search.");
        return alloc::vec![first];
    }
    let sol = match lp::solve(&lp::Auto, model, name) {
        Ok(sol) => sol,
        Err(e) => {
            first.text.push_str(&format!(" Solving it again here failed: {e}"));
            return alloc::vec![first];
        }
    };
    let mut steps = alloc::vec![first];
    for family in families(model) {
        let mut rows: Vec<ExplainedRow> = family.rows.iter().map(|&r| explained(model, r, &sol)).collect();
        let tight = rows.iter().filter(|r| r.tight).count();
        // Tight rows first: they are what decides the optimum.
        crate::sort::sort_by(&mut rows, |a, b| b.tight.cmp(&a.tight));
        let shown = rows.len().min(LISTED_ROWS);
        let more = if rows.len() > shown { format!(" The first {shown} are listed.") } else { String::new() };
        rows.truncate(shown);
        let at = equations.of(&family.name);
        steps.push(Step {
            rows,
            ..step(
                format!("Rows {} {at}: {} of them, {tight} tight", family.name, family.rows.len()),
                at,
                format!("Each row with the optimum's values in brackets; a tight row holds with equality and is what keeps Cmax from being smaller.{more}"),
            )
            .value("rows", family.rows.len() as f64)
            .value("tight", tight as f64)
        });
    }
    let objective: f64 = model.objective.iter().zip(&sol.values).map(|(c, x)| c * x).sum();
    let at_upper = (0..vars).filter(|&j| model.bounds[j].1.is_finite() && sol.values[j] >= model.bounds[j].1 * (1.0 - lp::VERIFY_TOL)).count();
    let makespan = objective * units.time;
    steps.push(
        step(
            String::from("The optimum"),
            program,
            format!(
                "Cmax = {} scaled units, times {} per unit: Cmax = {} s. {at_upper} variables sit at their upper bound (a chunk at its buffer D, say). The simplex took {} iterations.",
                short(objective), short(units.time), short(makespan), sol.iterations
            ),
        )
        .value("Cmax", makespan)
        .value("Cmax (scaled)", objective)
        .value("at upper bound", at_upper as f64),
    );
    steps
}

#[cfg(feature = "lp")]
/// Rows named alike: the name without its trailing `_` indices (`c1_2_1`
/// is `c1`, not `c`: 002 and 003 name rows by their equation).
struct Family {
    name: String,
    rows: Vec<usize>,
}

#[cfg(feature = "lp")]
fn families(model: &Lp) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for (r, row) in model.rows.iter().enumerate() {
        let mut name = row.name.as_str();
        while let Some((head, index)) = name.rsplit_once('_') {
            if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
                break;
            }
            name = head;
        }
        let name = if name.is_empty() { "unnamed" } else { name };
        match out.iter_mut().find(|f| f.name == name) {
            Some(f) => f.rows.push(r),
            None => out.push(Family { name: name.into(), rows: alloc::vec![r] }),
        }
    }
    out
}

#[cfg(feature = "lp")]
fn explained(model: &Lp, r: usize, sol: &Solution) -> ExplainedRow {
    let row = &model.rows[r];
    let lhs = row.at(sol);
    let sense = match row.sense {
        Sense::Le => "≤",
        Sense::Ge => "≥",
        Sense::Eq => "=",
    };
    let mut text = String::new();
    for (i, &(v, a)) in row.terms.iter().take(LISTED_TERMS).enumerate() {
        let sign = if a < 0.0 { " − " } else if i > 0 { " + " } else { "" };
        let coef = if (a.abs() - 1.0).abs() < 1e-15 { String::new() } else { format!("{}·", short(a.abs())) };
        text.push_str(&format!("{sign}{coef}{} [= {}]", model.names[v.0], short(sol.get(v))));
    }
    if row.terms.len() > LISTED_TERMS {
        let rest: f64 = row.terms[LISTED_TERMS..].iter().map(|&(v, a)| a * sol.get(v)).sum();
        text.push_str(&format!(" + … ({} more terms, together {})", row.terms.len() - LISTED_TERMS, short(rest)));
    }
    text.push_str(&format!(" = {} {sense} {}", short(lhs), short(row.rhs)));
    let tight = (lhs - row.rhs).abs() <= 1e-7 * row.rhs.abs().max(lhs.abs()).max(1.0);
    ExplainedRow { name: row.name.clone(), text, lhs, sense, rhs: row.rhs, tight }
}

/// "1 phase", "4 phases".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Six significant digits, as a student reads them: 0.00125, 1.5e-7.
/// (Rounded by the formatter, not parsed back: a float parser would cost
/// the wasm 10 KB.)
pub fn short(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let exponent = libm::floor(libm::log10(libm::fabs(x))) as i32;
    if (-4..6).contains(&exponent) {
        let digits = (5 - exponent).max(0) as usize;
        let s = format!("{x:.digits$}");
        return if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').into() } else { s };
    }
    let s = format!("{x:.5e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    format!("{}e{exponent}", mantissa.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn numbers_read_with_six_digits() {
        assert_eq!(short(0.00125), "0.00125");
        assert_eq!(short(1.670001110555741), "1.67");
        assert_eq!(short(123456.7), "123457");
        assert_eq!(short(1234567.0), "1.23457e6");
        assert_eq!(short(-1.5e-7), "-1.5e-7");
        assert_eq!(short(100.0), "100");
        assert_eq!(short(0.0), "0");
    }
}

//! An LP written out for other solvers: CPLEX-LP and free-format MPS text.

use super::{Model, Sense};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

/// A name both formats accept: letters, digits and `_`, not starting with a
/// digit.
fn name(raw: &str) -> String {
    let mut s: String = raw.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// The units an exported model's numbers are in (one load unit, one time
/// unit), and the variant of the program where a model has several. Its
/// text is the title line's: the cross-check and the benchmark read the
/// time unit back from it (tests/highs/lp-units.mjs) to turn the optimum
/// into seconds, and explain mode does so here.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Units {
    pub load: f64,
    pub time: f64,
    pub variant: Option<&'static str>,
}

pub fn units(load: f64, time: f64) -> Units {
    Units { load, time, variant: None }
}

impl core::fmt::Display for Units {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(variant) = self.variant {
            write!(f, "{variant}: ")?;
        }
        write!(f, "loads in units of {:e}, times in units of {:e}", self.load, self.time)
    }
}

fn num(x: f64) -> String {
    if x == f64::INFINITY {
        String::from("inf")
    } else if x == f64::NEG_INFINITY {
        String::from("-inf")
    } else {
        // Shortest text that reads back as the same f64.
        format!("{x:e}")
    }
}

/// CPLEX-LP text of the model.
pub fn to_lp(model: &Model, title: &str) -> String {
    let mut out = String::new();
    let vars: Vec<String> = model.names.iter().map(|n| name(n)).collect();
    let terms = |out: &mut String, terms: &mut dyn Iterator<Item = (usize, f64)>| {
        let mut any = false;
        for (i, a) in terms {
            let _ = write!(out, " {} {} {}", if a < 0.0 { "-" } else { "+" }, num(a.abs()), vars[i]);
            any = true;
        }
        if !any {
            let _ = write!(out, " 0 {}", vars.first().map_or("x", |v| v.as_str()));
        }
    };
    let _ = write!(out, "\\ {title}\nMinimize\n obj:");
    terms(&mut out, &mut model.objective.iter().copied().enumerate().filter(|(_, c)| *c != 0.0));
    out.push_str("\nSubject To\n");
    for row in &model.rows {
        let _ = write!(out, " {}:", name(&row.name));
        terms(&mut out, &mut row.terms.iter().map(|&(v, a)| (v.0, a)));
        let op = match row.sense {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "=",
        };
        let _ = writeln!(out, " {op} {}", num(row.rhs));
    }
    out.push_str("Bounds\n");
    for (v, &(lo, hi)) in vars.iter().zip(&model.bounds) {
        match (lo, hi) {
            (l, h) if l == 0.0 && h == f64::INFINITY => {}
            (l, h) if l == f64::NEG_INFINITY && h == f64::INFINITY => {
                let _ = writeln!(out, " {v} free");
            }
            (l, h) => {
                let _ = writeln!(out, " {} <= {v} <= {}", num(l), num(h));
            }
        }
    }
    let binaries: Vec<&String> = vars.iter().zip(&model.binary).filter(|(_, &b)| b).map(|(v, _)| v).collect();
    if !binaries.is_empty() {
        out.push_str("Binaries\n");
        for v in binaries {
            let _ = writeln!(out, " {v}");
        }
    }
    out.push_str("End\n");
    out
}

/// Free-format MPS text of the model.
pub fn to_mps(model: &Model, title: &str) -> String {
    let mut out = format!("* {title}\nNAME dlt\nROWS\n N obj\n");
    let rows: Vec<String> = model.rows.iter().map(|r| name(&r.name)).collect();
    for (row, n) in model.rows.iter().zip(&rows) {
        let kind = match row.sense {
            Sense::Le => 'L',
            Sense::Ge => 'G',
            Sense::Eq => 'E',
        };
        let _ = writeln!(out, " {kind} {n}");
    }
    // MPS lists the matrix column by column.
    let mut columns: Vec<Vec<(usize, f64)>> = vec![Vec::new(); model.names.len()];
    for (r, row) in model.rows.iter().enumerate() {
        for &(v, a) in &row.terms {
            columns[v.0].push((r, a));
        }
    }
    out.push_str("COLUMNS\n");
    for (v, column) in columns.iter().enumerate() {
        let var = name(&model.names[v]);
        // Integer columns sit between markers; their bounds make them 0-1.
        if model.binary[v] {
            out.push_str(" MARKER 'MARKER' 'INTORG'\n");
        }
        let _ = writeln!(out, " {var} obj {}", num(model.objective[v]));
        for &(r, a) in column {
            let _ = writeln!(out, " {var} {} {}", rows[r], num(a));
        }
        if model.binary[v] {
            out.push_str(" MARKER 'MARKER' 'INTEND'\n");
        }
    }
    out.push_str("RHS\n");
    for (row, n) in model.rows.iter().zip(&rows) {
        if row.rhs != 0.0 {
            let _ = writeln!(out, " rhs {n} {}", num(row.rhs));
        }
    }
    out.push_str("BOUNDS\n");
    for (v, &(lo, hi)) in model.bounds.iter().enumerate() {
        let var = name(&model.names[v]);
        if lo == hi {
            let _ = writeln!(out, " FX bnd {var} {}", num(lo));
            continue;
        }
        match lo {
            l if l == f64::NEG_INFINITY && hi == f64::INFINITY => {
                let _ = writeln!(out, " FR bnd {var}");
                continue;
            }
            l if l == f64::NEG_INFINITY => {
                let _ = writeln!(out, " MI bnd {var}");
            }
            l if l != 0.0 => {
                let _ = writeln!(out, " LO bnd {var} {}", num(l));
            }
            _ => {}
        }
        if hi != f64::INFINITY {
            let _ = writeln!(out, " UP bnd {var} {}", num(hi));
        }
    }
    out.push_str("ENDATA\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Model, Sense};
    use super::*;

    #[test]
    fn writes_both_formats() {
        let mut m = Model::default();
        let x = m.var("alpha[1,2]", 0.0, f64::INFINITY, 0.0);
        let c = m.var("Cmax", f64::NEG_INFINITY, f64::INFINITY, 1.0);
        let y = m.var("y", 1.0, 2.0, 0.0);
        m.row("(3)[1,1]", vec![(x, 2.5), (c, -1.0)], Sense::Le, -1e-3);
        m.row("(5)", vec![(x, 1.0), (y, 1.0)], Sense::Eq, 3.0);
        let lp = to_lp(&m, "star");
        assert!(lp.contains(" obj: + 1e0 Cmax"), "{lp}");
        assert!(lp.contains(" _3__1_1_: + 2.5e0 alpha_1_2_ - 1e0 Cmax <= -1e-3"), "{lp}");
        assert!(lp.contains(" Cmax free") && lp.contains(" 1e0 <= y <= 2e0"), "{lp}");
        let mps = to_mps(&m, "star");
        assert!(mps.contains(" L _3__1_1_\n E _5_\n"), "{mps}");
        assert!(mps.contains(" alpha_1_2_ _3__1_1_ 2.5e0\n"), "{mps}");
        assert!(mps.contains(" FR bnd Cmax\n") && mps.contains(" LO bnd y 1e0\n UP bnd y 2e0\n"), "{mps}");
    }
}

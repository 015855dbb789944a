//! MIP (2)-(11) of 003 exactly as printed, big-M rows and all (Z is the
//! paper's large number), for export to other solvers and as an
//! independent check of the sequence search on small instances.

use super::Instance;
use crate::explain::Equations;
use crate::lp::{Model, Sense, Var};
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// The MIP's rows are named by their equations (`c3_1` writes (3)); explain
/// mode names the MIP, not its rows.
pub const EQUATIONS: Equations = Equations { paper: "003", program: "(2)-(11)", rows: &[] };

/// The MIP in the units of `sequence::model`; returns it with T.
pub fn model(inst: &Instance) -> (Model, Var) {
    let (x0, t0) = (inst.load_unit(), inst.time_unit());
    let (s, o, c) = (inst.s / t0, inst.o / t0, inst.c * x0 / t0);
    let (a1, a2, b2) = (inst.a1 * x0 / t0, inst.a2 * x0 / t0, inst.b2 / t0);
    let v = inst.v / x0;
    // Z must exceed every time (one machine doing all bounds them) and the
    // gap between the two pieces of tau anywhere in [0, V]: |b2| below rho,
    // (a2 - a1) V + b2 above.
    let spread = (-inst.b2).max((inst.a2 - inst.a1) * inst.v + inst.b2);
    let z = 2.0 * (inst.single() + inst.n as f64 * inst.o + spread) / t0;
    let (m, n) = (inst.m, inst.n);
    let mut lp = Model::default();
    let big_t = lp.var("T", 0.0, f64::INFINITY, 1.0);
    let t: Vec<Var> = (0..n).map(|j| lp.var(format!("t_{}", j + 1), 0.0, f64::INFINITY, 0.0)).collect();
    let grid = |lp: &mut Model, what: &str, binary: bool| -> Vec<Vec<Var>> {
        (0..m)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let name = format!("{what}_{}_{}", i + 1, j + 1);
                        if binary { lp.binary(name, 0.0) } else { lp.var(name, 0.0, f64::INFINITY, 0.0) }
                    })
                    .collect()
            })
            .collect()
    };
    let x = grid(&mut lp, "x", true);
    let u = grid(&mut lp, "u", true);
    let alpha = grid(&mut lp, "alpha", false);
    let q = grid(&mut lp, "q", false);
    let tau = grid(&mut lp, "tau", false);
    for j in 0..n {
        if j + 1 < n {
            // (3)
            let mut row = vec![(t[j + 1], 1.0), (t[j], -1.0)];
            row.extend((0..m).map(|i| (alpha[i][j], -c)));
            lp.row(format!("c3_{}", j + 1), row, Sense::Ge, o);
        }
        // (6)
        let mut row = vec![(t[j], 1.0)];
        row.extend((0..m).map(|i| (x[i][j], -s)));
        lp.row(format!("c6_{}", j + 1), row, Sense::Ge, 0.0);
        // (9)
        lp.row(format!("c9_{}", j + 1), (0..m).map(|i| (x[i][j], 1.0)).collect(), Sense::Eq, 1.0);
    }
    for i in 0..m {
        for j in 0..n {
            let label = format!("{}_{}", i + 1, j + 1);
            let done = vec![(q[i][j], 1.0), (alpha[i][j], c), (x[i][j], o), (tau[i][j], 1.0)];
            // (4)
            lp.row(format!("c4_{label}"), [done.clone(), vec![(big_t, -1.0)]].concat(), Sense::Le, 0.0);
            // (5)
            for l in j + 1..n {
                lp.row(format!("c5_{label}_{}", l + 1), [done.clone(), vec![(q[i][l], -1.0), (x[i][l], z)]].concat(), Sense::Le, z);
            }
            // (8)
            lp.row(format!("c8_{label}"), vec![(alpha[i][j], 1.0), (x[i][j], -v)], Sense::Le, 0.0);
            // (10)
            lp.row(format!("c10a_{label}"), vec![(q[i][j], 1.0), (x[i][j], -z)], Sense::Le, 0.0);
            lp.row(format!("c10b_{label}"), vec![(q[i][j], 1.0), (t[j], -1.0)], Sense::Le, 0.0);
            lp.row(format!("c10c_{label}"), vec![(q[i][j], 1.0), (t[j], -1.0), (x[i][j], -z)], Sense::Ge, -z);
            // (11)
            lp.row(format!("c11a_{label}"), vec![(tau[i][j], 1.0), (alpha[i][j], -a1), (u[i][j], -z)], Sense::Le, 0.0);
            lp.row(format!("c11b_{label}"), vec![(tau[i][j], 1.0), (alpha[i][j], -a1)], Sense::Ge, 0.0);
            lp.row(format!("c11c_{label}"), vec![(tau[i][j], 1.0), (alpha[i][j], -a2), (u[i][j], z)], Sense::Le, b2 + z);
            lp.row(format!("c11d_{label}"), vec![(tau[i][j], 1.0), (alpha[i][j], -a2)], Sense::Ge, b2);
        }
    }
    // (7)
    let all = alpha.iter().flatten().map(|&a| (a, 1.0)).collect();
    lp.row("c7", all, Sense::Ge, v);
    (lp, big_t)
}

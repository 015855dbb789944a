//! The windowed method against the full LP, and the inputs the HiGHS
//! cross-check found.

use super::*;

/// The windowed steady-state method against the full LP wherever the
/// full LP runs, with its schedules through the checker.
#[test]
fn windowed_equals_the_full_lp() {
    let mut rnd = crate::uniform(17);
    let mut worst: f64 = 0.0;
    for case in 0..40 {
        let (p, h) = (1.0 + libm::floor(rnd() * 2.0), 2 + (rnd() * 2.0) as usize);
        let n = 12 + (rnd() * 28.0) as usize;
        let (s, c, a, v) = (1e-4 + rnd() * 1e-2, rnd() * 1e-3, 1e-4 + rnd() * 1e-2, 1e2 + rnd() * 1e5);
        let d = v / (p * h as f64 * (n as f64 - 0.05 - 0.9 * rnd()));
        let order = if case % 2 == 0 { Order::Nlf } else { Order::Llf };
        let params = TreeParams { p, h: h as f64, load: Load::new(s, c, a, v), stages: Stages::new(Some(d), None, Some(false)), order, buffers: 1.0 + (case % 3 == 0) as u8 as f64 };
        let (tree, n_got, _) = validate(&params).unwrap();
        assert_eq!(n_got, n);
        let full = stages::solve(&tree, n, Prune::Raw).unwrap();
        let (fast, bound) = windowed(&tree, n).unwrap();
        assert!(bound <= full.makespan * (1.0 + 1e-9));
        let rel = (fast.makespan - full.makespan) / full.makespan;
        assert!(rel >= -1e-7, "the windowed LP beat the full LP: {rel}");
        worst = worst.max(rel);
        hop_schedule(&tree, &fast.kept, &fast.chunks, &fast.handles, fast.makespan).unwrap();
    }
    assert!(worst <= 1e-7, "windowed off the full LP by {worst}");
}

/// Found by the HiGHS cross-check: an LP start time of -3e-35 made the
/// checker reject an optimal schedule. HiGHS: 0.002036985409117215.
#[test]
fn round_off_below_zero_is_zero() {
    let params = TreeParams {
        p: 3.0, h: 2.0, load: Load::new(0.0, 0.00005757120163861357, 0.0000023682800468021873, 103.40508757750558),
        stages: Stages::new(Some(16.90693418219639), None, Some(false)), order: Order::Llf, buffers: 1.0,
    };
    let out = tree(&params).unwrap();
    assert!((out.schedule.makespan - 0.002036985409117215).abs() <= 1e-9 * 0.002036985409117215);
}

//! The search against brute force, the closed form against the LP, and the
//! limit cases, on seeded random instances.

use super::recurrence::tight;
use super::*;
use crate::lp::{self, Microlp};
use proptest::prelude::*;

fn request(v: f64, processors: &[Worker], order: ServiceOrder, result_return: Option<Return>) -> HeteroParams {
    HeteroParams { v, processors: processors.to_vec(), order, result_return, node_budget: None }
}

fn workers(raw: &[(f64, f64, f64)]) -> Vec<Worker> {
    raw.iter().map(|&(s, c, a)| Worker { s, c, a }).collect()
}

/// Every order of every subset, each by its all-tight closed form where
/// every load is positive: the optimum (recurrence.rs says why).
fn brute_force(list: &[Worker], v: f64, free: bool) -> f64 {
    let m = list.len();
    let mut best = f64::INFINITY;
    let mut stack: Vec<Vec<usize>> = (0..m).map(|i| alloc::vec![i]).collect();
    while let Some(s) = stack.pop() {
        let (t, loads) = tight(list, &s, v);
        if loads.iter().all(|&x| x > 0.0) {
            best = best.min(t);
        }
        let last = *s.last().unwrap();
        for i in (0..m).filter(|i| !s.contains(i) && (free || *i > last)) {
            let mut next = s.clone();
            next.push(i);
            stack.push(next);
        }
    }
    best
}

fn arb_workers(most: usize, startups: bool) -> impl Strategy<Value = Vec<Worker>> {
    let s = if startups { 0.0..3.0 } else { 0.0..1e-300 };
    prop::collection::vec((s, 0.01..2.0, 0.1..5.0), 1..=most).prop_map(|raw| workers(&raw.iter().map(|&(s, c, a)| (if s < 1e-200 { 0.0 } else { s }, c, a)).collect::<Vec<_>>()))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

proptest! {
    #![proptest_config(crate::cases(40))]

    /// Best order and given order: the search's answer is the brute force
    /// optimum, proven, and its schedule passes the checker.
    #[test]
    fn the_search_is_the_brute_force_optimum(list in arb_workers(5, true), v in 1.0..50.0) {
        for (order, free) in [(ServiceOrder::Best, true), (ServiceOrder::Given, false)] {
            let out = hetero_star(&request(v, &list, order, None)).unwrap();
            let want = brute_force(&list, v, free);
            prop_assert!(close(out.schedule.makespan, want), "{order:?}: {} vs brute force {want}", out.schedule.makespan);
            prop_assert!(out.proven && out.lower_bound <= out.schedule.makespan);
            prop_assert!(crate::check::check(&out.schedule).is_ok());
        }
    }

    /// Linear costs: serving by non-decreasing C, every worker used, is
    /// optimal (Bharadwaj et al.; Beaumont et al.).
    #[test]
    fn with_linear_costs_by_c_is_best(list in arb_workers(7, false), v in 1.0..50.0) {
        let by_c = hetero_star(&request(v, &list, ServiceOrder::ByC, None)).unwrap();
        let best = hetero_star(&request(v, &list, ServiceOrder::Best, None)).unwrap();
        prop_assert!(close(by_c.schedule.makespan, best.schedule.makespan), "{} vs {}", by_c.schedule.makespan, best.schedule.makespan);
        prop_assert_eq!(by_c.sequence.len(), list.len());
        prop_assert!(by_c.proven);
    }

    /// The closed form of a sequence is a feasible point of its LP (every
    /// worker served), so never better than the LP; the LP may do better
    /// by leaving a worker at load 0 even where every closed-form load is
    /// positive (C_1 > C_2 + A_2: the first message costs the port more
    /// than the second worker gains). The fixed-order answer is the
    /// optimum of the MIP that may leave workers out, start-ups unpaid.
    #[test]
    fn the_fixed_order_answer_is_the_mip_optimum(list in arb_workers(5, true), v in 1.0..50.0) {
        let p = request(v, &list, ServiceOrder::Given, None);
        let inst = validate(&p).unwrap();
        let order: Vec<usize> = (0..list.len()).collect();
        let tau = program::time_unit(&inst);
        let (t, loads) = tight(&list, &order, v);
        let (model, _, _) = program::program(&inst, &order, false, tau);
        let sol = lp::solve(&Microlp, &model, "test").unwrap();
        if loads.iter().all(|&x| x > 0.0) {
            prop_assert!(sol.objective * tau <= t * (1.0 + 1e-9), "LP {} vs closed form {t}", sol.objective * tau);
        }
        let (mip, _, _) = program::program(&inst, &order, true, tau);
        let sol = lp::solve(&Microlp, &mip, "test").unwrap();
        let given = hetero_star(&p).unwrap().schedule.makespan;
        prop_assert!((sol.objective * tau - given).abs() <= 1e-7 * given, "MIP {} vs fixed order {given}", sol.objective * tau);
    }

    /// Results of ratio 0 are nothing to return: the answer without return.
    #[test]
    fn ratio_zero_is_no_return(list in arb_workers(6, true), v in 1.0..50.0) {
        let none = hetero_star(&request(v, &list, ServiceOrder::Best, None)).unwrap();
        let zero = hetero_star(&request(v, &list, ServiceOrder::Best, Some(Return { ratio: 0.0, policy: Policy::Lifo }))).unwrap();
        prop_assert_eq!(none, zero);
    }

    /// With result return at m <= 5 every sequence's LP is solved: the
    /// answer is proven, no better than without return, and checked.
    #[test]
    fn returns_are_proven_at_small_m(list in arb_workers(4, true), v in 1.0..50.0, ratio in 0.01..2.0, lifo in any::<bool>()) {
        let policy = if lifo { Policy::Lifo } else { Policy::Fifo };
        let out = hetero_star(&request(v, &list, ServiceOrder::Best, Some(Return { ratio, policy }))).unwrap();
        let none = hetero_star(&request(v, &list, ServiceOrder::Best, None)).unwrap();
        prop_assert!(out.proven && out.schedule.makespan >= none.schedule.makespan);
        prop_assert!(crate::check::check(&out.schedule).is_ok());
    }
}

/// One worker: T = S + (C + A) V, and with results S + C r V more.
#[test]
fn one_worker_closed_form() {
    let list = workers(&[(2.0, 0.5, 3.0)]);
    let out = hetero_star(&request(4.0, &list, ServiceOrder::Best, None)).unwrap();
    assert!(close(out.schedule.makespan, 2.0 + 3.5 * 4.0) && out.proven);
    let back = hetero_star(&request(4.0, &list, ServiceOrder::Best, Some(Return { ratio: 0.5, policy: Policy::Fifo }))).unwrap();
    assert!(close(back.schedule.makespan, 16.0 + 2.0 + 0.5 * 0.5 * 4.0), "{}", back.schedule.makespan);
}

/// Two workers, S = 0, V = 1: (C, A) = (1, 2) and (2, 1). By C, worker 1
/// first: alpha_2 = A_1 alpha_1 / (C_2 + A_2) = 2 alpha_1 / 3, so alpha_1 =
/// 3/5, alpha_2 = 2/5 and T = (C_1 + A_1) alpha_1 = 9/5. The other order:
/// alpha_1 = alpha_2 / 3, alpha_2 = 3/4, T = 9/4.
#[test]
fn two_workers_by_hand() {
    let list = workers(&[(0.0, 1.0, 2.0), (0.0, 2.0, 1.0)]);
    let out = hetero_star(&request(1.0, &list, ServiceOrder::Best, None)).unwrap();
    assert!(close(out.schedule.makespan, 1.8), "{}", out.schedule.makespan);
    assert_eq!(out.sequence, [1, 2]);
    assert!(close(out.loads[0], 0.6) && close(out.loads[1], 0.4));
    let reversed = workers(&[(0.0, 2.0, 1.0), (0.0, 1.0, 2.0)]);
    let given = hetero_star(&request(1.0, &reversed, ServiceOrder::Given, None)).unwrap();
    assert!(close(given.schedule.makespan, 2.25), "{}", given.schedule.makespan);
    assert!(close(given.orders.iter().find(|o| o.order == "best").unwrap().makespan, 1.8));
}

/// Bad fields are named with their range; nothing panics.
#[test]
fn errors_name_the_field() {
    let list = workers(&[(0.0, 1.0, 2.0), (0.0, 2.0, 1.0), (1.0, 1.0, 1.0), (1.0, 1.0, 0.0)]);
    let e = hetero_star(&request(1.0, &list, ServiceOrder::Best, None)).unwrap_err();
    assert_eq!(e.field, "processors[3].A", "{}", e.message);
    let e = hetero_star(&request(1.0, &list[..1], ServiceOrder::Best, Some(Return { ratio: -1.0, policy: Policy::Fifo }))).unwrap_err();
    assert_eq!(e.field, "return.ratio");
    let e = hetero_star(&request(f64::NAN, &list[..1], ServiceOrder::Best, None)).unwrap_err();
    assert_eq!(e.field, "V");
    let e = hetero_star(&request(1.0, &[], ServiceOrder::Best, None)).unwrap_err();
    assert!(e.field == "processors" && e.message.contains("from 1 to 1000"), "{}", e.message);
}

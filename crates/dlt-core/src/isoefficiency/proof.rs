//! Branch and bound over send sequences: a proof that no sequence beats
//! the incumbent, and the certificate that lets anyone check it.
//!
//! A node is a prefix of a canonical sequence (machines numbered in order
//! of first use, so identical machines are not told apart); its bound is
//! the LP of `sequence::model` with only the prefix fixed, a relaxation of
//! every sequence below it, and a leaf's is its sequence's LP. Depth
//! first, children tried from the least bound. A node whose bound is
//! within TOLERANCE of the incumbent is closed: the closed nodes (the
//! frontier) cover the tree, so the least of their bounds is a lower bound
//! of the optimum. Work is counted in LPs, never in time.

use super::sequence::{self, Sequence};
use super::Instance;
use crate::error::{Code, Error, Result};
use super::Params;
use alloc::collections::{BTreeSet, BinaryHeap};
use core::cmp::Ordering;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A node closes when its bound is at least the incumbent less this
/// relative amount: the proof's gap.
pub const TOLERANCE: f64 = 1e-9;

/// A closed node: a prefix of machines (0-based, canonical) and its bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Closed {
    pub prefix: Vec<u8>,
    pub bound: f64,
}

/// Where a branch and bound got to.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The best sequence, its makespan.
    pub incumbent: (Sequence, f64),
    /// The closed nodes; with `open`, they cover every sequence.
    pub frontier: Vec<Closed>,
    /// Nodes left when the budget ran out (empty: a proof).
    pub open: Vec<Closed>,
    /// LPs solved.
    pub lps: u64,
}

impl Tree {
    /// The least bound of any node, closed or open, and at most the incumbent.
    pub fn bound(&self) -> f64 {
        self.frontier.iter().chain(&self.open).map(|c| c.bound).fold(self.incumbent.1, f64::min)
    }

    pub fn proven(&self) -> bool {
        self.open.is_empty()
    }
}

/// The bound of a node (its sequence's makespan at a leaf), in the instance's time.
pub fn bound(inst: &Instance, prefix: &[u8]) -> Result<f64> {
    Ok(sequence::solve(inst, prefix)?.makespan)
}

fn closes(bound: f64, incumbent: f64) -> bool {
    bound >= incumbent * (1.0 - TOLERANCE)
}

/// The prefixes one machine longer: a machine already used, or the next.
fn children(inst: &Instance, prefix: &[u8]) -> impl Iterator<Item = Sequence> {
    let top = prefix.iter().copied().max().map_or(0, |x| x as usize + 1);
    let prefix = prefix.to_vec();
    (0..(top + 1).min(inst.m)).map(move |i| [prefix.as_slice(), &[i as u8]].concat())
}

/// A node in the queue: the least bound first, then the deepest.
struct Queued(Closed);

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.bound.total_cmp(&self.0.bound).then(self.0.prefix.len().cmp(&other.0.prefix.len()))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Queued {}

/// Branch and bound from `incumbent` (a sequence and its makespan) within
/// `budget` LPs, best bound first: the least bound of the nodes left is
/// the optimum's lower bound, and it only rises. The search that found
/// the incumbent already did what depth first would add.
pub fn branch_and_bound(inst: &Instance, incumbent: (Sequence, f64), budget: u64) -> Result<Tree> {
    let mut tree = Tree { incumbent, frontier: Vec::new(), open: Vec::new(), lps: 1 };
    let root = vec![0u8];
    let mut queue = BinaryHeap::from([Queued(Closed { bound: bound(inst, &root)?, prefix: root })]);
    while let Some(Queued(node)) = queue.pop() {
        if closes(node.bound, tree.incumbent.1) {
            // The least bound left closes: so do all the others.
            tree.frontier.push(node);
            tree.frontier.extend(queue.drain().map(|q| q.0));
            break;
        }
        if node.prefix.len() == inst.n {
            tree.incumbent = (node.prefix.clone(), node.bound);
            tree.frontier.push(node);
            continue;
        }
        if tree.lps >= budget {
            tree.open.push(node);
            tree.open.extend(queue.drain().map(|q| q.0));
            break;
        }
        for prefix in children(inst, &node.prefix) {
            tree.lps += 1;
            // A child's relaxation has more rows than its parent's: never a lower bound.
            let child = Closed { bound: bound(inst, &prefix)?.max(node.bound), prefix };
            if closes(child.bound, tree.incumbent.1) {
                tree.frontier.push(child);
            } else {
                queue.push(Queued(child));
            }
        }
    }
    Ok(tree)
}

/// A proof as a file: the request, its best sequence (1-based, as the
/// answer lists it) and makespan, and the frontier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    pub request: Params,
    pub sequence: Vec<u8>,
    pub makespan: f64,
    pub tolerance: f64,
    pub frontier: Vec<Closed>,
    pub lps: u64,
}

/// The certificate of a request's optimum: its search, then a branch and
/// bound within its `proof_budget`, which must close every node.
pub fn certificate(p: &Params) -> Result<Certificate> {
    let inst = super::instance(p)?;
    let (out, _) = super::searched(&inst, super::lp_budget(p.lp_budget)?, 0)?;
    let seq: Vec<u8> = out.sequence.iter().map(|&x| x - 1).collect();
    let budget = super::proof_budget(p.proof_budget)?.max(1);
    let tree = branch_and_bound(&inst, (seq, out.schedule.makespan), budget as u64)?;
    if !tree.proven() {
        return Err(Error::new(Code::Limit, "proof_budget", format!(
            "not proven within proof_budget = {budget} LPs: {} nodes left open, the gap to their least bound {:.3e}; raise proof_budget",
            tree.open.len(), (tree.incumbent.1 - tree.bound()) / tree.incumbent.1)));
    }
    Ok(Certificate {
        request: p.clone(),
        sequence: tree.incumbent.0.iter().map(|&x| x + 1).collect(),
        makespan: tree.incumbent.1,
        tolerance: TOLERANCE,
        frontier: tree.frontier,
        lps: tree.lps,
    })
}

/// What a check of a certificate found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The incumbent's makespan, solved again.
    pub makespan: f64,
    /// The least bound of the frontier, every LP solved again.
    pub bound: f64,
    pub nodes: usize,
    pub lps: u64,
}

/// Checks a certificate without trusting any number in it: the sequence's
/// LP gives the makespan, the frontier covers every canonical sequence
/// exactly once, and every node's LP, solved again, is within the
/// certificate's tolerance (at most TOLERANCE) of the makespan.
pub fn verify(cert: &Certificate) -> Result<Verdict> {
    let inst = super::instance(&cert.request)?;
    let bad = |message: alloc::string::String| Error::range("certificate", message);
    if !(0.0..=TOLERANCE).contains(&cert.tolerance) {
        return Err(bad(format!("tolerance must be from 0 to {TOLERANCE}, got {}", cert.tolerance)));
    }
    let seq: Sequence = cert.sequence.iter().map(|&x| x.wrapping_sub(1)).collect();
    if seq.len() != inst.n || seq.iter().any(|&x| x as usize >= inst.m) {
        return Err(bad(format!("sequence must list n = {} machines from 1 to m = {}", inst.n, inst.m)));
    }
    let makespan = bound(&inst, &seq)?;
    let nodes: BTreeSet<&[u8]> = cert.frontier.iter().map(|c| c.prefix.as_slice()).collect();
    if nodes.len() != cert.frontier.len() {
        return Err(bad(String::from("a prefix of the frontier is listed twice")));
    }
    covered(&inst, &[0], &nodes).map_err(|p| bad(format!("the frontier leaves the sequences starting {p:?} out, or closes a node twice")))?;
    let mut least = f64::INFINITY;
    for node in &cert.frontier {
        let b = bound(&inst, &node.prefix)?;
        if b < makespan * (1.0 - cert.tolerance) {
            return Err(bad(format!("the node {:?} has bound {b}, below the makespan {makespan}", node.prefix)));
        }
        least = least.min(b);
    }
    Ok(Verdict { makespan, bound: least, nodes: cert.frontier.len(), lps: cert.frontier.len() as u64 + 1 })
}

/// Whether the tree below `prefix` is covered by `nodes` exactly once; on
/// failure, the prefix where it is not.
fn covered(inst: &Instance, prefix: &[u8], nodes: &BTreeSet<&[u8]>) -> core::result::Result<(), Sequence> {
    if nodes.contains(prefix) {
        // Nothing below a closed node may be listed again.
        let below = nodes.range(prefix..).nth(1).is_some_and(|p| p.starts_with(prefix));
        return if below { Err(prefix.to_vec()) } else { Ok(()) };
    }
    // An open node must have something of the frontier below it.
    if prefix.len() == inst.n || !nodes.range(prefix..).next().is_some_and(|p| p.starts_with(prefix)) {
        return Err(prefix.to_vec());
    }
    children(inst, prefix).try_for_each(|child| covered(inst, &child, nodes))
}

#[cfg(test)]
mod tests {
    use super::super::search::{round_robin, Search};
    use super::super::{best, Machines, Params};
    use super::*;
    use proptest::prelude::*;

    fn params(m: usize, n: usize, v: f64, c: f64) -> Params {
        let machines = Machines { n: n as f64, s: 25.4, o: 0.075, c, a1: 0.109, a2: 4.132, b2: -27109.0 };
        Params { m: m as f64, v, machines, lp_budget: None, proof_budget: Some(100_000.0) }
    }

    /// Every canonical sequence of length n that starts with `prefix`.
    fn below(inst: &Instance, prefix: &[u8]) -> Vec<Sequence> {
        if prefix.len() == inst.n {
            return vec![prefix.to_vec()];
        }
        children(inst, prefix).flat_map(|c| below(inst, &c)).collect()
    }

    proptest! {
        #![proptest_config(crate::cases(12))]
        /// From the worst start (everything on one machine), the branch and
        /// bound proves the optimum that solving every sequence finds, and
        /// no node's bound exceeds a sequence below it.
        #[test]
        fn proves_what_enumeration_finds(m in 2usize..4, n in 3usize..7, v in 0.3f64..6.0, c in 1e-3f64..0.1) {
            let p = params(m, n, v * 6738.0, c);
            let inst = super::super::instance(&p).unwrap();
            let all = best(&inst, Search::count(n, m) as usize).unwrap();
            prop_assert!(all.proven);
            let start = round_robin(n, 1);
            let t0 = bound(&inst, &start).unwrap();
            let tree = branch_and_bound(&inst, (start, t0), 100_000).unwrap();
            prop_assert!(tree.proven());
            let opt = all.schedule.makespan;
            prop_assert!((tree.incumbent.1 - opt).abs() <= 1e-9 * opt, "{} against {opt}", tree.incumbent.1);
            for node in tree.frontier.iter().filter(|c| c.prefix.len() < n) {
                let least = below(&inst, &node.prefix).iter().map(|s| bound(&inst, s).unwrap()).fold(f64::INFINITY, f64::min);
                prop_assert!(bound(&inst, &node.prefix).unwrap() <= least * (1.0 + 1e-9), "{:?}", node.prefix);
            }
        }
    }

    #[test]
    fn a_certificate_is_checked_and_a_forged_one_refused() {
        let p = params(3, 6, 4.0 * 6738.0, 0.005);
        let cert = super::certificate(&p).unwrap();
        let verdict = verify(&cert).unwrap();
        assert!((verdict.makespan - cert.makespan).abs() <= 1e-9 * cert.makespan);
        assert!(verdict.bound >= cert.makespan * (1.0 - TOLERANCE));
        // A node left out, a node listed twice, a worse sequence, a looser tolerance.
        let mut gap = cert.clone();
        gap.frontier.pop();
        assert_eq!(verify(&gap).unwrap_err().field, "certificate");
        let mut twice = cert.clone();
        twice.frontier.push(cert.frontier[0].clone());
        assert_eq!(verify(&twice).unwrap_err().field, "certificate");
        let mut worse = cert.clone();
        worse.sequence = vec![1; 6];
        let e = verify(&worse).unwrap_err();
        assert!(e.message.contains("below the makespan"), "{e}");
        let mut loose = cert;
        loose.tolerance = 0.1;
        assert_eq!(verify(&loose).unwrap_err().field, "certificate");
    }

    /// 003's Table 1 at m = 20 (n = 20): one chunk a machine, and the root's
    /// bound already closes the proof.
    #[test]
    fn table_1_at_m_20_is_proven_at_the_root() {
        let cert = super::certificate(&params(20, 20, 102_240.0, 0.005)).unwrap();
        assert_eq!(cert.frontier.len(), 1);
        verify(&cert).unwrap();
    }
}

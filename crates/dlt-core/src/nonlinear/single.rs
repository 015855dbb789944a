//! Algorithm S (Table III): processor elimination PE at rho = 1 (Lemma 2),
//! fractions of eq. (3), makespan of Theorem 4 (Theorem 9 with start-ups).

use super::fractions::{alphas, eliminate};
use super::{assemble, Algorithm, Decision, Net, Output};
use crate::error::Result;
use alloc::vec::Vec;

pub fn solve(net: &Net) -> Result<Output> {
    let (active, removed) = eliminate(net, (0..net.m()).collect(), 1.0);
    let (alpha0, alphas) = alphas(net, &active, 1.0);
    assemble(net, Decision { algorithm: Algorithm::S, rho: 1, active, alpha0, alphas, removed, warnings: Vec::new() })
}

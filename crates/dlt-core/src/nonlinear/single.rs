//! Algorithm S (Table III): processor elimination PE at rho = 1 (Lemma 2),
//! fractions of eq. (3), makespan of Theorem 4 (Theorem 9 with start-ups).

use super::fractions::{alphas, eliminate};
use super::{assemble, Algorithm, Decision, Net, Output, Trace};
use crate::error::Result;
use alloc::vec::Vec;

pub fn solve(net: &Net) -> Result<(Output, Trace)> {
    let pe = eliminate(net, (0..net.m()).collect(), 1.0);
    let (alpha0, alphas) = alphas(net, &pe.kept, 1.0);
    let trace = Trace { pe: alloc::vec![pe], fon: None };
    assemble(net, Decision { algorithm: Algorithm::S, rho: 1, alpha0, alphas, warnings: Vec::new() }, trace)
}

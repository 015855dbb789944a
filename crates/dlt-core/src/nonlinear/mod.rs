//! PLACEHOLDER — being written (004). Replaced before any commit that claims 004.
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Params {}
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {}
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundsParams {}
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoundsOutput {}

pub fn solve(_: &Params) -> Result<Output> { Err(Error::internal("not yet")) }
pub fn bounds(_: &BoundsParams) -> Result<BoundsOutput> { Err(Error::internal("not yet")) }

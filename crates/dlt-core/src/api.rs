//! The JSON contract of ../shared/API.md: one request in, one response out.
//! The list of models is written once, in `models!`, and yields the request
//! enum, the response enum, the dispatch and the field-aware parser.

use crate::error::Result;
use crate::{buffers, nonlinear, outofcore, torus};
#[cfg(feature = "lp")]
use crate::isoefficiency;
#[cfg(feature = "std")]
use crate::error::{Code, Error};
#[cfg(feature = "std")]
use alloc::{format, string::{String, ToString}};
use serde::{Deserialize, Serialize};

macro_rules! models {
    ($($(#[$meta:meta])* $name:literal => $variant:ident($params:ty) -> $output:ty = $solve:path;)*) => {
        /// A request: `{"model": NAME, ...parameters}`.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "model")]
        pub enum Request {
            $( $(#[$meta])* #[serde(rename = $name)] $variant($params), )*
        }

        /// A model's answer; serialised without a tag, as the contract shows.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Response {
            $( $(#[$meta])* $variant($output), )*
        }

        /// Validates the request and runs its model.
        pub fn solve(request: &Request) -> Result<Response> {
            match request {
                $( $(#[$meta])* Request::$variant(p) => $solve(p).map(Response::$variant), )*
            }
        }

        /// The names of all models, for messages and `dlt --help`.
        #[allow(clippy::vec_init_then_push)] // entries vary with features
        pub fn models() -> alloc::vec::Vec<&'static str> {
            let mut names = alloc::vec::Vec::new();
            $( $(#[$meta])* names.push($name); )*
            names
        }

        #[cfg(feature = "std")]
        fn parse_model(name: &str, params: serde_json::Value) -> Result<Request> {
            match name {
                $( $(#[$meta])* $name => Ok(Request::$variant(fields(params)?)), )*
                other => Err(Error::new(Code::Parse, "model", format!(
                    "unknown model {other:?}; accepted: {}", models().join(", ")))),
            }
        }
    };
}

models! {
    #[cfg(feature = "lp")]
    "star" => Star(buffers::StarParams) -> buffers::StarOutput = buffers::star;
    #[cfg(feature = "lp")]
    "tree" => Tree(buffers::TreeParams) -> buffers::TreeOutput = buffers::tree;
    #[cfg(feature = "lp")]
    "binomial" => Binomial(buffers::BinomialParams) -> buffers::BinomialOutput = buffers::binomial;
    #[cfg(feature = "lp")]
    "memory" => Memory(outofcore::MemoryParams) -> outofcore::MemoryOutput = outofcore::memory;
    "multi_installment" => MultiInstallment(outofcore::MultiParams) -> outofcore::MultiOutput = outofcore::multi_installment;
    #[cfg(feature = "lp")]
    "isoefficiency" => Isoefficiency(isoefficiency::Params) -> isoefficiency::Output = isoefficiency::solve;
    #[cfg(feature = "lp")]
    "isoefficiency_map" => IsoefficiencyMap(isoefficiency::map::MapParams) -> isoefficiency::map::MapOutput = isoefficiency::map::run;
    "torus" => Torus(torus::Params) -> torus::Output = torus::solve;
    "nonlinear" => Nonlinear(nonlinear::Params) -> nonlinear::Output = nonlinear::solve;
    "nonlinear_bounds" => NonlinearBounds(nonlinear::BoundsParams) -> nonlinear::BoundsOutput = nonlinear::bounds;
    "buffer_dstar" => BufferDstar(buffers::DstarParams) -> buffers::DstarOutput = buffers::d_star;
    "lb_layer" => LbLayer(buffers::LbParams) -> buffers::LbOutput = buffers::lb_layer;
    "chunk_size" => ChunkSize(outofcore::ChunkParams) -> outofcore::ChunkOutput = outofcore::chunk_size;
    #[cfg(feature = "std")]
    "sweep" => Sweep(crate::sweep::SweepParams) -> crate::sweep::SweepOutput = crate::sweep::run;
}

/// Like [`solve`], reporting `progress(done, total)` from the requests that
/// take many steps (sweeps, isoefficiency maps); a `false` from it stops
/// them early with what they have.
#[cfg(feature = "std")]
pub fn solve_with_progress(request: &Request, progress: &mut dyn FnMut(usize, usize) -> bool) -> Result<Response> {
    match request {
        Request::Sweep(p) => crate::sweep::sweep(p, progress).map(Response::Sweep),
        #[cfg(feature = "lp")]
        Request::IsoefficiencyMap(p) => isoefficiency::map::map(p, progress).map(Response::IsoefficiencyMap),
        other => solve(other),
    }
}

/// The text formats an LP is written in for other solvers.
#[cfg(feature = "lp")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LpFormat {
    /// CPLEX LP.
    Lp,
    /// Free-format MPS.
    Mps,
}

/// The LP a request solves (the raw LP as printed in its paper, in the
/// scaled units the calculator solves it in), as text for another solver.
#[cfg(feature = "lp")]
pub fn export(request: &Request, format: LpFormat) -> Result<String> {
    let (name, (model, units)) = match request {
        Request::Star(p) => ("LoadDirect (000)", buffers::star_lp(p)?),
        Request::Memory(p) => ("memory hierarchy LP (1)-(4) (002)", outofcore::memory_lp(p)?),
        Request::Binomial(p) => ("BinomialTreeNLF/LLF (000)", buffers::binomial_lp(p)?),
        Request::Tree(p) => ("ordinary tree LP (000)", buffers::tree_lp(p)?),
        Request::Isoefficiency(p) => ("MIP (2)-(11) (003)", isoefficiency::mip_lp(p)?),
        _ => return Err(Error::new(Code::OutOfRange, "model", "only the LP and MIP models (star, tree, binomial, memory, isoefficiency) have a model to export")),
    };
    let title = format!("{name}: {units}");
    Ok(match format {
        LpFormat::Lp => crate::lp::to_lp(&model, &title),
        LpFormat::Mps => crate::lp::to_mps(&model, &title),
    })
}

/// Reads a request from any serde data format (JSON text on the command
/// line, a JavaScript object in the browser) with errors that name the field.
#[cfg(feature = "std")]
pub fn parse<'de, D: serde::Deserializer<'de>>(input: D) -> Result<Request> {
    let value = crate::bounded::value(input).map_err(|(e, field)| Error::new(Code::Parse, field, format!("the request is not valid JSON: {e}")))?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(Error::new(Code::Parse, "", "the request must be a JSON object {\"model\": NAME, ...}"));
    };
    let name = match map.remove("model") {
        Some(serde_json::Value::String(s)) => s,
        Some(other) => return Err(Error::new(Code::Parse, "model", format!("model must be a string, got {other}"))),
        None => return Err(Error::new(Code::Parse, "model", format!("missing field model; accepted: {}", models().join(", ")))),
    };
    parse_model(&name, serde_json::Value::Object(map))
}

/// Deserialises one model's parameters, naming the field of any error.
#[cfg(feature = "std")]
fn fields<T: serde::de::DeserializeOwned>(params: serde_json::Value) -> Result<T> {
    serde_path_to_error::deserialize(params).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        let field = if path == "." { quoted(&message).unwrap_or_default() } else { path };
        Error::new(Code::Parse, field, message)
    })
}

/// The first `name` in backquotes in serde's "missing field `name`".
#[cfg(feature = "std")]
fn quoted(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(message[start..start + len].to_string())
}

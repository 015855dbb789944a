//! What every model owes the calculator. A model is one type: the registry
//! in `api` lists the types, and the contract's parsing, dispatch, export,
//! progress, plans and the CLI's examples all come from this trait.

use crate::error::Result;
use crate::explain::Explanation;
use crate::validate::Field;
use alloc::string::String;
use core::fmt::Debug;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// `progress(done, total)` after each step of a request that takes many
/// (a sweep's points, a map's machine counts); a `false` from it stops the
/// request early with what it has.
pub type Progress<'a> = dyn FnMut(usize, usize) -> bool + 'a;

/// What a request will cost, known without solving it: the page shows it,
/// chooses a method by it and sizes its progress by it, and the tests read
/// it instead of re-deriving a model's formulas.
///
/// Work is counted, never timed, so that the same request gets the same
/// plan and the same answer on every machine.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct Plan {
    /// Stages the LP models solve (`n`, by default n_min) and n_min, the
    /// fewest stages that let buffers of size D carry V.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_min: Option<usize>,
    /// Chunk variables (messages) and all variables of the LP as printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variables: Option<usize>,
    /// Variables of the first LP the engine is given: 0 where presolve
    /// provably removes the whole LP (a star whose buffers force every
    /// chunk to D), the reduced LP's where a reduced method stands in for
    /// the printed one. What a caller weighs a request's cost by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solved_variables: Option<usize>,
    /// How the request will be solved, in a few words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// LPs the request may solve at the most (isoefficiency searches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lp_budget: Option<u64>,
    /// Steps reported to `Progress` (sweep points, map columns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
}

/// An LP or MIP of a request, as text for another solver.
#[cfg(feature = "lp")]
pub struct Export {
    /// The paper's name of the program, e.g. "LoadDirect (000)".
    pub name: &'static str,
    pub model: crate::lp::Model,
    /// What one load and one time unit of the LP are.
    pub units: crate::lp::Units,
    /// The paper's equations its rows write, for explain mode.
    pub equations: &'static crate::explain::Equations,
}

/// One model of one paper.
///
/// An implementation owes: `solve` validates every field (an error names
/// the field and the accepted range, never a panic), returns a schedule
/// only through [`crate::check::checked`], and depends on nothing but its
/// parameters (no clock, no randomness that is not seeded by them); `plan`
/// agrees with what `solve` does; `lp`, where present, is the program as
/// its paper prints it, whose optimum `solve` reaches.
pub trait Model {
    /// `{"model": NAME}` in a request.
    const NAME: &'static str;
    /// The paper and what the model computes, one line for `dlt --help`.
    const SUMMARY: &'static str;
    /// A worked example request (examples/NAME.json).
    const EXAMPLE: &'static str;
    /// Whether `lp` writes a program for the model's requests.
    const HAS_LP: bool = false;
    /// The ranges of its numeric request fields, which its `solve` checks
    /// them by and the page's form shows (a field whose bound depends on
    /// others is listed with the widest; `solve` narrows it). A field of a
    /// list's rows is listed by its name in the row (memory's processors'
    /// `S`), each entry's range for a list of numbers.
    const FIELDS: &'static [Field] = &[];
    type Params: DeserializeOwned + Serialize + Clone + Debug + PartialEq;
    type Output: Serialize + Clone + Debug + PartialEq;

    fn solve(params: &Self::Params, progress: &mut Progress) -> Result<Self::Output>;

    /// Sizes and work of a request, validated, without solving it.
    fn plan(_params: &Self::Params) -> Result<Plan> {
        Ok(Plan::default())
    }

    /// The program the request solves, for export; `None` for a model
    /// that solves no LP.
    #[cfg(feature = "lp")]
    fn lp(_params: &Self::Params) -> Option<Result<Export>> {
        None
    }

    /// The steps that produce the answer, for explain mode. By default the
    /// model's program (`lp`) solved again, row by row; a model whose answer
    /// comes from a recurrence or a search says how instead.
    fn explain(_params: &Self::Params) -> Result<Explanation> {
        #[cfg(feature = "lp")]
        if let Some(export) = Self::lp(_params) {
            return Ok(Explanation { steps: crate::explain::program_steps(&export?) });
        }
        Ok(Explanation::default())
    }
}

/// A model's type and its `Model` impl in one declaration: its name,
/// summary, example, parameter and output types and solving function, and,
/// where it has them, its fields' ranges, its plan, the program it exports
/// (with the program's name as the paper gives it, and the paper's
/// equations of its rows for the request, `fn(&Params) -> &Equations`)
/// and its own explanation.
macro_rules! define_model {
    ($(#[$doc:meta])* $ty:ident: $name:literal, $summary:literal, $example:expr, $params:ty => $output:ty = $solve:path
     $(, fields = $fields:expr)? $(, plan = $plan:path)? $(, lp = $lp:path as $title:literal by $equations:expr)? $(, explain = $explain:path)?) => {
        $(#[$doc])*
        pub struct $ty;

        impl $crate::model::Model for $ty {
            const NAME: &'static str = $name;
            const SUMMARY: &'static str = $summary;
            const EXAMPLE: &'static str = $example;
            $(const HAS_LP: bool = { let _ = $title; true };)?
            $(const FIELDS: &'static [$crate::validate::Field] = $fields;)?
            type Params = $params;
            type Output = $output;
            fn solve(p: &$params, _: &mut $crate::model::Progress) -> $crate::error::Result<$output> {
                $solve(p)
            }
            $(fn plan(p: &$params) -> $crate::error::Result<$crate::model::Plan> {
                $plan(p)
            })?
            $(#[cfg(feature = "lp")]
            fn lp(p: &$params) -> Option<$crate::error::Result<$crate::model::Export>> {
                let equations: fn(&$params) -> &'static $crate::explain::Equations = $equations;
                Some($lp(p).map(|(model, units)| $crate::model::Export { name: $title, model, units, equations: equations(p) }))
            })?
            $(fn explain(p: &$params) -> $crate::error::Result<$crate::explain::Explanation> {
                $explain(p)
            })?
        }
    };
}
pub(crate) use define_model;

//! The JSON contract of docs/API.md: one request in, one response out.
//! The registry lists each model's type once, in `models!`, and yields the
//! request enum, the response enum, the dispatch, plans, export, the list
//! of models and the field-aware parser.

use crate::error::Result;
use crate::explain::Explanation;
#[cfg(feature = "std")]
use crate::error::{Code, Error};
use crate::model::{Model, Plan, Progress};
use crate::validate::Field;
#[cfg(feature = "lp")]
use crate::model::Export;
use crate::{buffers, nonlinear, outofcore, torus};
#[cfg(feature = "std")]
use crate::costs::{Costs, Load};
#[cfg(feature = "lp")]
use crate::isoefficiency;
#[cfg(feature = "std")]
use alloc::{format, string::{String, ToString}};
use serde::Serialize;

macro_rules! models {
    ($($(#[$meta:meta])* $variant:ident = $model:ty;)*) => {
        /// A request: `{"model": NAME, ...parameters}`.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Request {
            $( $(#[$meta])* $variant(<$model as Model>::Params), )*
        }

        /// A model's answer; serialised without a tag, as the contract shows.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Response {
            $( $(#[$meta])* $variant(<$model as Model>::Output), )*
        }

        /// Validates the request and runs its model, reporting
        /// `progress(done, total)` from the requests that take many steps
        /// (sweeps, isoefficiency maps); a `false` from it stops them early
        /// with what they have.
        pub fn solve_with_progress(request: &Request, progress: &mut Progress) -> Result<Response> {
            match request {
                $( $(#[$meta])* Request::$variant(p) => <$model>::solve(p, progress).map(Response::$variant), )*
            }
        }

        /// What the request will cost, without solving it.
        pub fn plan(request: &Request) -> Result<Plan> {
            match request {
                $( $(#[$meta])* Request::$variant(p) => <$model>::plan(p), )*
            }
        }

        /// The steps that produce the request's answer (explain mode).
        pub fn explain(request: &Request) -> Result<Explanation> {
            match request {
                $( $(#[$meta])* Request::$variant(p) => <$model>::explain(p), )*
            }
        }

        /// The program a request solves, for another solver; `None` for the
        /// models that solve no LP.
        #[cfg(feature = "lp")]
        fn program(request: &Request) -> Option<Result<Export>> {
            match request {
                $( $(#[$meta])* Request::$variant(p) => <$model>::lp(p), )*
            }
        }

        /// Every model: its name, its one-line summary, a worked example and
        /// its fields' ranges.
        pub static MODELS: &[About] = &[
            $( $(#[$meta])* About { name: <$model>::NAME, summary: <$model>::SUMMARY, example: <$model>::EXAMPLE, lp: has_lp::<$model>(), fields: <$model>::FIELDS }, )*
        ];

        /// TypeScript declarations of `Request`, `Response` and `ModelName`
        /// over the types tsify declares (the unions serde's untagged and
        /// hand-parsed enums cannot derive).
        #[cfg(feature = "ts")]
        pub fn typescript() -> String {
            let mut request = String::from("/** A request of the contract: {model: NAME, ...parameters}. */\nexport type DltRequest =");
            let mut response = String::from("/** The answer to a Request of the same model. */\nexport type DltResponse =");
            let mut names = String::from("/** The registered models. */\nexport type DltModel =");
            $( $(#[$meta])* {
                request.push_str(&format!("\n  | ({{ model: \"{}\" }} & {})", <$model>::NAME, declared::<<$model as Model>::Params>()));
                response.push_str(&format!("\n  | {}", declared::<<$model as Model>::Output>()));
                names.push_str(&format!("\n  | \"{}\"", <$model>::NAME));
            } )*
            format!("{request};\n\n{response};\n\n{names};\n")
        }

        /// Model `name`'s parameters read by `tracked` and by
        /// serde_path_to_error (its reference): each error's message and
        /// path (empty at the root), or None where they read.
        #[cfg(test)]
        pub(crate) fn read_both(name: &str, params: &serde_json::Value) -> [Option<(String, String)>; 2] {
            $( $(#[$meta])* if name == <$model>::NAME {
                type Params = <$model as Model>::Params;
                let ours = crate::tracked::deserialize::<Params>(params).err().map(|(e, path)| (e.to_string(), path));
                let theirs = serde_path_to_error::deserialize::<_, Params>(params).err().map(|e| {
                    let path = if e.path().iter().next().is_none() { String::new() } else { e.path().to_string() };
                    (e.into_inner().to_string(), path)
                });
                return [ours, theirs];
            } )*
            unreachable!("no model {name}")
        }

        #[cfg(feature = "std")]
        fn parse_model(name: &str, params: serde_json::Value) -> Result<Request> {
            $( $(#[$meta])* if name == <$model>::NAME { return Ok(Request::$variant(fields(params)?)); } )*
            Err(Error::new(Code::Parse, "model", format!("unknown model {name:?}; accepted: {}", names().join(", "))))
        }
    };
}

// The registry: one line a model.
models! {
    #[cfg(feature = "lp")]
    Star = buffers::Star;
    #[cfg(feature = "lp")]
    Tree = buffers::OrdinaryTree;
    #[cfg(feature = "lp")]
    Binomial = buffers::BinomialTree;
    #[cfg(feature = "lp")]
    Memory = outofcore::Memory;
    MultiInstallment = outofcore::MultiInstallment;
    #[cfg(feature = "lp")]
    Isoefficiency = isoefficiency::Isoefficiency;
    #[cfg(feature = "lp")]
    IsoefficiencyMap = isoefficiency::IsoefficiencyMap;
    Torus = torus::Torus;
    Nonlinear = nonlinear::Nonlinear;
    NonlinearBounds = nonlinear::NonlinearBounds;
    BufferDstar = buffers::BufferDstar;
    LbLayer = buffers::LbStrategy;
    ChunkSize = outofcore::ChunkSize;
    #[cfg(feature = "lp")]
    HeteroStar = crate::hetero::HeteroStar;
    #[cfg(feature = "std")]
    Sweep = crate::sweep::Sweep;
}

/// A registered model, as `dlt --help`, the page and the tests list it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct About {
    pub name: &'static str,
    pub summary: &'static str,
    pub example: &'static str,
    /// Whether `export` writes an LP or MIP for its requests.
    pub lp: bool,
    /// The ranges of its numeric request fields (`Model::FIELDS`).
    pub fields: &'static [Field],
}

/// Whether a model overrides `Model::lp` (probed on no request: the
/// default answers `None` without looking).
const fn has_lp<M: Model>() -> bool {
    M::HAS_LP
}

/// The name tsify declares a type under.
#[cfg(feature = "ts")]
fn declared<T: tsify::Tsify>() -> &'static str {
    let decl = T::DECL;
    let start = ["export interface ", "export type "].iter().find_map(|k| decl.find(k).map(|i| i + k.len())).expect("a declaration");
    let len = decl[start..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(decl.len() - start);
    &decl[start..start + len]
}

/// The names of all models, for messages.
pub fn names() -> alloc::vec::Vec<&'static str> {
    MODELS.iter().map(|m| m.name).collect()
}

/// Validates the request and runs its model.
pub fn solve(request: &Request) -> Result<Response> {
    solve_with_progress(request, &mut |_, _| true)
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
    let Export { name, model, units, .. } = program(request).ok_or_else(|| {
        let with: alloc::vec::Vec<&str> = MODELS.iter().filter(|m| m.lp).map(|m| m.name).collect();
        Error::new(Code::OutOfRange, "model", format!("only the LP and MIP models ({}) have a program to export", with.join(", ")))
    })??;
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
    parse_value(value)
}

/// [`parse`] of a request's JSON text as the browser's JSON.stringify
/// writes it, read without serde_json's text parser (`json_text`): `float`
/// reads the numbers beyond the reader's exact fast path, correctly rounded.
#[cfg(feature = "std")]
pub fn parse_text(text: &str, float: &dyn Fn(&str) -> Option<f64>) -> Result<Request> {
    let value = crate::json_text::read(text, float).map_err(|(e, field)| Error::new(Code::Parse, field, format!("the request is not valid JSON: {e}")))?;
    parse_value(value)
}

/// [`parse`] of a request already read, nested no deeper than
/// `bounded::MAX_DEPTH` (a sweep's point, its request with one field changed).
#[cfg(feature = "std")]
pub(crate) fn parse_value(value: serde_json::Value) -> Result<Request> {
    let serde_json::Value::Object(mut map) = value else {
        return Err(Error::new(Code::Parse, "", "the request must be a JSON object {\"model\": NAME, ...}"));
    };
    let name = match map.remove("model") {
        Some(serde_json::Value::String(s)) => s,
        Some(other) => return Err(Error::new(Code::Parse, "model", format!("model must be a string, got {other}"))),
        None => return Err(Error::new(Code::Parse, "model", format!("missing field model; accepted: {}", names().join(", ")))),
    };
    parse_model(&name, serde_json::Value::Object(map))
}

/// Deserialises one model's parameters, naming the field of any error.
///
/// Unknown fields are refused here rather than by serde, whose
/// `deny_unknown_fields` does not combine with the `flatten` of the shared
/// [`Load`], [`Costs`], `buffers::Stages` and `isoefficiency::Machines`: a field is known if the parameters serialise it
/// back, which they do for every field (an absent optional one as null).
#[cfg(feature = "std")]
fn fields<T: serde::de::DeserializeOwned + Serialize>(params: serde_json::Value) -> Result<T> {
    let parsed: T = crate::tracked::deserialize(&params).map_err(|(e, path)| refused(&params, e, path))?;
    known(&params, crate::sweep::pick::keys(&parsed))?;
    Ok(parsed)
}

/// The error of parameters serde refused, naming the field: kept out of
/// [`fields`], which is instantiated once per model, to be compiled once.
#[cfg(feature = "std")]
fn refused(params: &serde_json::Value, e: serde_json::Error, path: String) -> Error {
    let message = e.to_string();
    let field = if path.is_empty() { missing(&message).or_else(|| flattened(params, &message)).unwrap_or_default() } else { path };
    Error::new(Code::Parse, field, message)
}

/// Refuses a given field that the parsed parameters do not serialise back
/// (`names`, their fields' names).
#[cfg(feature = "std")]
fn known(params: &serde_json::Value, names: serde_json::Result<alloc::vec::Vec<String>>) -> Result<()> {
    let (serde_json::Value::Object(given), Ok(names)) = (params, names) else {
        return Ok(());
    };
    match given.keys().find(|key| !names.contains(key)) {
        None => Ok(()),
        Some(key) => {
            let expected: alloc::vec::Vec<String> = names.iter().map(|k| format!("`{k}`")).collect();
            Err(Error::new(Code::Parse, key.as_str(), format!("unknown field `{key}`, expected one of {}", expected.join(", "))))
        }
    }
}

/// The field of an error `message` in the shared fields: serde reads a
/// flattened struct after the whole object, where `tracked` no
/// longer knows the path, so they are read again on their own (they
/// ignore the other fields) to find which one it was.
#[cfg(feature = "std")]
fn flattened(params: &serde_json::Value, message: &str) -> Option<String> {
    fn at<T: serde::de::DeserializeOwned>(params: &serde_json::Value, message: &str) -> Option<String> {
        let (e, path) = crate::tracked::deserialize::<T>(params).err()?;
        (!path.is_empty() && e.to_string() == message).then_some(path)
    }
    let shared = at::<Load>(params, message).or_else(|| at::<Costs>(params, message));
    #[cfg(feature = "lp")]
    let shared = shared.or_else(|| at::<buffers::Stages>(params, message)).or_else(|| at::<isoefficiency::Machines>(params, message));
    shared
}

/// `name` in serde's "missing field `name`".
#[cfg(feature = "std")]
fn missing(message: &str) -> Option<String> {
    let name = message.strip_prefix("missing field `")?;
    Some(name[..name.find('`')?].to_string())
}

#[cfg(all(test, feature = "lp"))]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The shared fields are flattened, so serde neither refuses unknown
    /// fields nor knows the path of an error in them: `fields` does both.
    #[test]
    fn errors_in_the_flattened_fields_name_them() {
        let star = json!({"model": "star", "m": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 5e3});
        let with = |key: &str, value: Value| {
            let mut r = star.clone();
            r[key] = value;
            parse(r)
        };
        for key in ["S", "C", "A", "V"] {
            let e = with(key, json!(true)).unwrap_err();
            assert_eq!((e.code, e.field.as_str()), (Code::Parse, key), "{}", e.message);
        }
        let e = with("extra", Value::Null).unwrap_err();
        assert_eq!(e.field, "extra");
        assert!(e.message.contains("expected one of `m`, `S`, `C`, `A`, `V`, `D`, `n`, `prune`"), "{}", e.message);
        assert!(with("D", Value::Null).is_ok(), "an optional field given as null is left out");
        let e = parse(json!({"model": "buffer_dstar", "topology": "star", "m": 3, "S": 1, "C": 1, "A": 1, "V": 1})).unwrap_err();
        assert_eq!(e.field, "V", "buffer_dstar has no load: {}", e.message);
    }

    /// An LP past the engine's size is refused before it is built, unless
    /// the model's structure answers without it: a tree of 500 stages
    /// (37,501 variables) where its periodic middle stages are proven, and
    /// not where they are not; a star of that size by its shape.
    #[cfg(feature = "lp")]
    #[test]
    fn an_lp_too_large_is_refused_unless_its_structure_answers() {
        let tree = |s: f64| parse(json!({"model": "tree", "p": 2, "h": 10, "S": s, "C": 1e-6, "A": 1e-3, "V": 1e6, "D": 1e4, "order": "NLF", "buffers": 1, "n": 500})).unwrap();
        assert_eq!(plan(&tree(1e-3)).unwrap().variables, Some(37_501));
        let Response::Tree(out) = solve(&tree(1e-3)).unwrap() else { panic!("not a tree") };
        assert!((out.n, out.gap) == (500, None) && out.warnings.iter().any(|w| w.contains("proven optimal")), "{:?}", out.warnings);
        let e = solve(&tree(1e-5)).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (Code::Limit, "n"), "{}", e.message);
        assert!(e.message.contains("37501 variables") && e.message.contains("periodic middle stages came within 3.0e-1"), "{}", e.message);
        let star = parse(json!({"model": "star", "m": 1000, "S": 1e-3, "C": 1e-6, "A": 1e-3, "V": 1e6, "D": 1e4, "n": 100})).unwrap();
        assert_eq!(plan(&star).unwrap().variables, Some(300_001));
        let Response::Star(out) = solve(&star).unwrap() else { panic!("not a star") };
        assert_eq!((out.lp.variables, out.lp.iterations), (0, 0), "{:?}", out.lp);
    }

    /// Found by the fuzzer: a field named "." prints as the root's path.
    #[test]
    fn a_field_named_dot_is_named() {
        let e = parse(json!({"model": "nonlinear", "algorithm": "M", "L": 100, "gamma": 2, "rho": 2, "A0": 1, "A": [1.2, 1.5, 2], ".": [5.1, 0.2, 2]})).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (Code::Parse, "."), "{}", e.message);
    }

    /// Every plan that counts variables (the LP models'; 003's counts LPs
    /// instead) counts those of the program it exports, on the worked
    /// examples.
    #[cfg(feature = "lp")]
    #[test]
    fn plans_count_the_exported_programs() {
        let mut counted = alloc::vec::Vec::new();
        for model in MODELS.iter().filter(|m| m.lp) {
            let request = parse(serde_json::from_str::<serde_json::Value>(model.example).unwrap()).unwrap();
            if let Some(variables) = plan(&request).unwrap().variables {
                assert_eq!(variables, program(&request).unwrap().unwrap().model.names.len(), "{}", model.name);
                counted.push(model.name);
            }
        }
        assert_eq!(counted, ["star", "tree", "binomial", "memory"]);
    }
}

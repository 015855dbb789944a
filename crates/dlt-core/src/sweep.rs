//! A sweep: one request solved for each value of one of its parameters,
//! returning the chosen fields of every answer as series (the papers'
//! figures). A point that fails does not stop the sweep: its error is kept
//! in its place.

pub(crate) mod pick;

use crate::api;
use crate::error::{Code, Error, Result};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Most points in one sweep.
pub const MAX_POINTS: usize = 10_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct SweepParams {
    /// The request every point starts from.
    #[cfg_attr(feature = "ts", tsify(type = "DltRequest"))]
    pub request: Value,
    /// The top-level field of `request` that varies.
    pub parameter: String,
    pub values: Vec<f64>,
    /// Response fields to keep (default: makespan).
    #[serde(default)]
    #[cfg_attr(feature = "ts", tsify(optional))]
    pub fields: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify))]
pub struct SweepOutput {
    pub parameter: String,
    pub values: Vec<f64>,
    /// For each field, its value at each point (null where the point failed
    /// or the response has no such field).
    #[cfg_attr(feature = "ts", tsify(type = "Record<string, (number | boolean | string | object | null)[]>"))]
    pub series: Map<String, Value>,
    /// For each point, null or the error it met.
    pub errors: Vec<Option<Error>>,
    /// Points solved before the sweep ended (fewer when cancelled).
    pub completed: usize,
}

/// A request solved over a list of values of one of its parameters.
pub struct Sweep;

impl crate::model::Model for Sweep {
    const NAME: &'static str = "sweep";
    const SUMMARY: &'static str = "any request over a list of values of one of its parameters: the series behind a figure";
    const EXAMPLE: &'static str = include_str!("../../../examples/sweep.json");
    type Params = SweepParams;
    type Output = SweepOutput;
    fn solve(p: &SweepParams, progress: &mut crate::model::Progress) -> Result<SweepOutput> {
        sweep(p, progress)
    }
    fn plan(p: &SweepParams) -> Result<crate::model::Plan> {
        crate::validate::length("values", &p.values, 1, MAX_POINTS)?;
        Ok(crate::model::Plan { steps: Some(p.values.len()), ..Default::default() })
    }
}

/// Runs the sweep, calling `progress(done, total)` after every point; a
/// `false` from it stops the sweep there.
pub fn sweep(p: &SweepParams, progress: &mut dyn FnMut(usize, usize) -> bool) -> Result<SweepOutput> {
    crate::validate::length("values", &p.values, 1, MAX_POINTS)?;
    let Value::Object(base) = &p.request else {
        return Err(Error::range("request", "request must be a request object {\"model\": NAME, ...}"));
    };
    if base.get("model").and_then(Value::as_str) == Some("sweep") {
        return Err(Error::range("request.model", "a sweep cannot sweep a sweep"));
    }
    if p.parameter == "model" || !base.contains_key(&p.parameter) {
        return Err(Error::range("parameter", format!("parameter must name a numeric field of the request, got {:?}", p.parameter)));
    }
    let fields = p.fields.clone().unwrap_or_else(|| vec![String::from("makespan")]);
    crate::validate::length("fields", &fields, 1, 64)?;
    let mut columns: Vec<Vec<Value>> = vec![Vec::with_capacity(p.values.len()); fields.len()];
    let mut errors = Vec::with_capacity(p.values.len());
    for (done, &x) in p.values.iter().enumerate() {
        let mut point = base.clone();
        point.insert(p.parameter.clone(), Value::from(x));
        let answer = api::parse_value(Value::Object(point))
            .and_then(|r| api::solve(&r))
            .and_then(|r| pick::pick(&r, &fields).map_err(Error::internal));
        match answer {
            Ok(response) => {
                for (column, field) in columns.iter_mut().zip(&fields) {
                    column.push(response.get(field).cloned().unwrap_or(Value::Null));
                }
                errors.push(None);
            }
            Err(e) => {
                // A malformed base request fails every point alike: say so once.
                if e.code == Code::Parse {
                    return Err(Error::new(Code::Parse, format!("request.{}", e.field), e.message));
                }
                columns.iter_mut().for_each(|c| c.push(Value::Null));
                errors.push(Some(e));
            }
        }
        if !progress(done + 1, p.values.len()) {
            break;
        }
    }
    let completed = errors.len();
    // Inserted one by one: collecting the map sorts its keys first, by a
    // stable sort of its own, 5 KB of the wasm.
    let mut series = Map::new();
    for (field, column) in fields.into_iter().zip(columns) {
        series.insert(field, Value::Array(column));
    }
    Ok(SweepOutput { parameter: p.parameter.clone(), values: p.values.clone(), series, errors, completed })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(v: Value) -> SweepParams {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn sweeps_one_parameter_and_keeps_errors_in_place() {
        let p = params(json!({"request": {"model": "torus", "k": 2, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 1e6},
                              "parameter": "k", "values": [1, 2, 9], "fields": ["makespan", "phases"]}));
        let out = sweep(&p, &mut |_, _| true).unwrap();
        assert_eq!(out.completed, 3);
        assert_eq!(out.series["phases"], json!([2, 4, null]));
        assert!(out.errors[0].is_none() && out.errors[2].as_ref().unwrap().field == "k");
        let one = crate::api::solve(&crate::api::parse(json!({"model": "torus", "k": 2, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 1e6})).unwrap()).unwrap();
        assert_eq!(out.series["makespan"][1], serde_json::to_value(one).unwrap()["makespan"]);
    }

    #[test]
    fn progress_reports_and_cancels() {
        let p = params(json!({"request": {"model": "buffer_dstar", "topology": "star", "m": 10, "S": 1e-3, "C": 1e-6, "A": 1e-3},
                              "parameter": "m", "values": [1, 2, 3, 4], "fields": ["D_star"]}));
        let mut seen = Vec::new();
        let out = sweep(&p, &mut |done, total| {
            seen.push((done, total));
            done < 2
        })
        .unwrap();
        assert_eq!(seen, [(1, 4), (2, 4)]);
        assert_eq!(out.completed, 2);
    }

    #[test]
    fn bad_sweeps_name_the_field() {
        let base = json!({"model": "torus", "k": 2, "S": 1e-4, "C": 1e-7, "A": 1e-6, "V": 1e6});
        let e = sweep(&params(json!({"request": base, "parameter": "W", "values": [1]})), &mut |_, _| true).unwrap_err();
        assert_eq!(e.field, "parameter");
        let e = sweep(&params(json!({"request": base, "parameter": "V", "values": []})), &mut |_, _| true).unwrap_err();
        assert_eq!(e.field, "values");
        let bad = json!({"model": "torus", "k": 2, "S": "x", "C": 1e-7, "A": 1e-6, "V": 1e6});
        let e = sweep(&params(json!({"request": bad, "parameter": "V", "values": [1]})), &mut |_, _| true).unwrap_err();
        assert_eq!(e.field, "request.S");
    }
}

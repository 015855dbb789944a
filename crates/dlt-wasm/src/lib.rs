//! The browser's door to dlt-core: one request object in, one response object
//! out. No logic lives here; errors are the core's, thrown as a JS `Error`
//! that carries the contract's `{code, field, message}`.

use core::cell::RefCell;
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod tape;

#[wasm_bindgen(typescript_custom_section)]
const REGISTRY: &str = include_str!(concat!(env!("OUT_DIR"), "/registry.d.ts"));

/// Solves one request of the contract (docs/API.md).
#[wasm_bindgen(unchecked_return_type = "DltResponse")]
pub fn solve(#[wasm_bindgen(unchecked_param_type = "DltRequest")] request: JsValue) -> Result<JsValue, JsValue> {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    let request = read(&request).map_err(to_js_error)?;
    let response = dlt_core::solve(&request).map_err(to_js_error)?;
    to_js(&response).map_err(|e| to_js_error(dlt_core::Error::internal(e)))
}

/// Solves a request, calling `progress(done, total)` as a sweep or an
/// isoefficiency map advances; a `false` from it ends them early.
#[wasm_bindgen(unchecked_return_type = "DltResponse")]
pub fn solve_progress(
    #[wasm_bindgen(unchecked_param_type = "DltRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(done: number, total: number) => boolean | void")] progress: &js_sys::Function,
) -> Result<JsValue, JsValue> {
    let request = read(&request).map_err(to_js_error)?;
    let mut report = |done: usize, total: usize| {
        progress.call2(&JsValue::NULL, &(done as f64).into(), &(total as f64).into()).map_or(true, |go| go.as_bool() != Some(false))
    };
    let response = dlt_core::solve_with_progress(&request, &mut report).map_err(to_js_error)?;
    to_js(&response).map_err(|e| to_js_error(dlt_core::Error::internal(e)))
}

/// What a request will cost (stages, n_min, LP size, method, LP budget),
/// validated but not solved: the page asks instead of re-deriving.
#[wasm_bindgen(unchecked_return_type = "Plan")]
pub fn plan(#[wasm_bindgen(unchecked_param_type = "DltRequest")] request: JsValue) -> Result<JsValue, JsValue> {
    let request = read(&request).map_err(to_js_error)?;
    let plan = dlt_core::plan(&request).map_err(to_js_error)?;
    to_js(&plan).map_err(|e| to_js_error(dlt_core::Error::internal(e)))
}

/// The steps that produce a request's answer, with its numbers (explain mode).
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(#[wasm_bindgen(unchecked_param_type = "DltRequest")] request: JsValue) -> Result<JsValue, JsValue> {
    let request = read(&request).map_err(to_js_error)?;
    let explanation = dlt_core::explain(&request).map_err(to_js_error)?;
    to_js(&explanation).map_err(|e| to_js_error(dlt_core::Error::internal(e)))
}

/// Every model: name, summary, example request and whether it exports an LP.
#[wasm_bindgen(unchecked_return_type = "About[]")]
pub fn models() -> Result<JsValue, JsValue> {
    to_js(&dlt_core::MODELS).map_err(|e| to_js_error(dlt_core::Error::internal(e)))
}

/// The LP of a request as CPLEX-LP text (`format` "lp") or MPS ("mps").
#[wasm_bindgen]
pub fn export_lp(#[wasm_bindgen(unchecked_param_type = "DltRequest")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "\"lp\" | \"mps\"")] format: &str) -> Result<String, JsValue> {
    let format = match format {
        "mps" => dlt_core::LpFormat::Mps,
        _ => dlt_core::LpFormat::Lp,
    };
    let request = read(&request).map_err(to_js_error)?;
    dlt_core::export(&request, format).map_err(to_js_error)
}

/// The calculator's version, shown on the page and in bug reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").into()
}

/// The request object as the engine's JSON.stringify writes it, read as
/// text (`dlt_core::parse_text`): two crossings of the boundary where
/// reading it property by property took five per number. Numbers beyond
/// the reader's exact fast path go to the engine's parseFloat, correctly
/// rounded, as serde_json's own float parser (14 KB gzipped) would.
fn read(request: &JsValue) -> Result<dlt_core::Request, dlt_core::Error> {
    let refused = |why: String| dlt_core::Error::new(dlt_core::Code::Parse, "", format!("the request is not valid JSON: {why}"));
    let text = js_sys::JSON::stringify(request).map_err(|e| refused(js_sys::Error::from(e).message().into()))?;
    let text = JsValue::from(text).as_string().ok_or_else(|| refused("it is undefined or a function".into()))?;
    dlt_core::parse_text(&text, &|literal| Some(js_sys::parse_float(literal)))
}

/// Plain objects and arrays, as JSON.parse makes them of serde_json's text:
/// from a tape of the value (tape.rs) that js/tape.js reads in one call.
/// As JSON text the numbers were written and read back digit by digit
/// (writing them took 0.77 ms natively for a binomial tree's 2,300
/// intervals, solving and checking 0.61 ms); built
/// property by property across the boundary (serde-wasm-bindgen), a
/// schedule of 10,000 intervals took longer than solving it.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, String> {
    TAPE.with_borrow_mut(|tape| {
        tape.write(value).map_err(|e| e.to_string())?;
        Ok(read_tape(&tape.ops, &tape.nums, &tape.ids, &tape.strings, &tape.lengths))
    })
}

thread_local! {
    /// The last answer's tape, written over by the next: a worker solves one
    /// request after another (a sweep's points, a figure's).
    static TAPE: RefCell<tape::Tape> = RefCell::new(tape::Tape::default());
}

#[wasm_bindgen(module = "/js/tape.js")]
extern "C" {
    fn read_tape(ops: &[u8], nums: &[f64], ids: &[u32], strings: &str, lengths: &[u32]) -> JsValue;
}

/// The one error helper: an `Error` whose message reads well and whose
/// `error` property is the contract's error object.
fn to_js_error(e: dlt_core::Error) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    if let Ok(obj) = to_js(&e) {
        let _ = js_sys::Reflect::set(&err, &"error".into(), &obj);
    }
    err.into()
}

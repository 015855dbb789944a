//! `dlt`: the calculator's core on the command line. Reads a request of the
//! contract (docs/API.md), prints the response; exit 2 on bad input.

use std::io::{Read, Write};
use std::process::ExitCode;

fn help() -> String {
    let mut s = String::from(
        "dlt — the divisible-load calculator\n\n\
         USAGE:\n  dlt solve FILE    solve the request in FILE (JSON)\n  dlt solve -       read the request from standard input\n  \
         dlt plan FILE     what the request will cost (stages, n_min, LP size, method, LP budget) without solving it\n  \
         dlt explain FILE  the steps that produce the answer, with its numbers (the program's rows at the optimum, tight or not)\n  \
         dlt export FILE [--mps]   write the LP (or MIP) of a request of the models marked [LP] as CPLEX-LP (or MPS) text\n  \
         dlt prove FILE    an isoefficiency request's optimum proven by branch and bound within its proof_budget: the certificate (JSON)\n  \
         dlt verify-proof FILE     check a certificate: every LP solved again, no number of it trusted\n  \
         dlt --version\n\n\
         A request is {\"model\": NAME, ...parameters}; the response is JSON on standard output.\n\
         Bad input prints {\"error\": {\"code\", \"field\", \"message\"}} and exits with status 2.\n\nMODELS:\n",
    );
    for model in dlt_core::MODELS {
        let lp = if model.lp { " [LP]" } else { "" };
        s.push_str(&format!("  {}{lp}: {}\n    echo '{}' | dlt solve -\n", model.name, model.summary, model.example.trim()));
    }
    s
}

fn read(path: &str) -> std::io::Result<String> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin().read_to_string(&mut text)?;
    } else {
        text = std::fs::read_to_string(path)?;
    }
    Ok(text)
}

/// The request in `text`, which must hold one JSON value and nothing more.
fn request(text: &str) -> Result<dlt_core::Request, dlt_core::Error> {
    let mut input = serde_json::Deserializer::from_str(text);
    let request = dlt_core::parse(&mut input)?;
    input.end().map_err(|e| dlt_core::Error::new(dlt_core::Code::Parse, "", format!("the request is not valid JSON: {e}")))?;
    Ok(request)
}

fn solve(text: &str) -> Result<String, dlt_core::Error> {
    let request = request(text)?;
    let response = dlt_core::solve(&request)?;
    serde_json::to_string_pretty(&response).map_err(dlt_core::Error::internal)
}

fn explain(text: &str) -> Result<String, dlt_core::Error> {
    let explanation = dlt_core::explain(&request(text)?)?;
    serde_json::to_string_pretty(&explanation).map_err(dlt_core::Error::internal)
}

fn plan(text: &str) -> Result<String, dlt_core::Error> {
    let plan = dlt_core::plan(&request(text)?)?;
    serde_json::to_string_pretty(&plan).map_err(dlt_core::Error::internal)
}

fn export(text: &str, format: dlt_core::LpFormat) -> Result<String, dlt_core::Error> {
    let request = request(text)?;
    dlt_core::export(&request, format)
}

/// The isoefficiency request in `text` (its "model" must say so).
fn isoefficiency(text: &str) -> Result<dlt_core::isoefficiency::Params, dlt_core::Error> {
    match request(text)? {
        dlt_core::Request::Isoefficiency(p) => Ok(p),
        _ => Err(dlt_core::Error::new(dlt_core::Code::OutOfRange, "model", "dlt prove takes an isoefficiency request (\"model\": \"isoefficiency\")")),
    }
}

fn prove(text: &str) -> Result<String, dlt_core::Error> {
    let certificate = dlt_core::isoefficiency::proof::certificate(&isoefficiency(text)?)?;
    serde_json::to_string(&certificate).map_err(dlt_core::Error::internal)
}

fn verify_proof(text: &str) -> Result<String, dlt_core::Error> {
    let certificate: dlt_core::isoefficiency::proof::Certificate = serde_json::from_str(text)
        .map_err(|e| dlt_core::Error::new(dlt_core::Code::Parse, "certificate", format!("not a certificate of dlt prove: {e}")))?;
    let verdict = dlt_core::isoefficiency::proof::verify(&certificate)?;
    serde_json::to_string_pretty(&serde_json::json!({ "verified": true, "verdict": verdict })).map_err(dlt_core::Error::internal)
}

/// Reads the request at `path`, answers with `run`: exit 1 if it cannot be
/// read, 2 with the error object on bad input.
fn answer(path: &str, run: impl Fn(&str) -> Result<String, dlt_core::Error>) -> ExitCode {
    let text = match read(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("dlt: cannot read {path}: {e}");
            return ExitCode::from(1);
        }
    };
    match run(&text) {
        Ok(out) => emit(out.trim_end(), ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("dlt: {e}");
            emit(&serde_json::json!({ "error": e }).to_string(), ExitCode::from(2))
        }
    }
}

/// Writes `text` to standard output and exits with `code`; a reader that
/// stopped early (`dlt solve r.json | head`) is not an error, another
/// failed write is (exit 1).
fn emit(text: &str, code: ExitCode) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            eprintln!("dlt: cannot write the answer: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["solve", path] => answer(path, solve),
        ["plan", path] => answer(path, plan),
        ["explain", path] => answer(path, explain),
        ["export", path] => answer(path, |t| export(t, dlt_core::LpFormat::Lp)),
        ["export", path, "--mps"] | ["export", "--mps", path] => answer(path, |t| export(t, dlt_core::LpFormat::Mps)),
        ["prove", path] => answer(path, prove),
        ["verify-proof", path] => answer(path, verify_proof),
        ["--version"] | ["-V"] => emit(&format!("dlt {}", env!("CARGO_PKG_VERSION")), ExitCode::SUCCESS),
        ["--help"] | ["-h"] | ["help"] => emit(help().trim_end(), ExitCode::SUCCESS),
        _ => {
            eprint!("{}", help());
            ExitCode::from(2)
        }
    }
}

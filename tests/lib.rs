//! Cross-crate tests live in golden.rs and beside it; this is what several
//! of them share.

/// A request from its JSON text, parsed as the CLI and the page parse it.
pub fn request(text: &str) -> dlt_core::Request {
    dlt_core::parse(&mut serde_json::Deserializer::from_str(text)).unwrap()
}

//! Cross-crate tests live in golden.rs; this crate has no library code.

//! Arbitrary bytes as a JSON request to parse + solve: no panic, a
//! well-formed error or a success with finite numbers (see src/lib.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = dlt_fuzz::check(data) {
        panic!("{problem}\ninput: {}", String::from_utf8_lossy(data));
    }
});

//! Writes the TypeScript unions over the registry (Request, Response,
//! ModelName) for lib.rs to emit beside the types tsify declares: the
//! registry stays the one list of models.

fn main() {
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("registry.d.ts");
    std::fs::write(out, dlt_core::api::typescript()).unwrap();
    println!("cargo:rerun-if-changed=../dlt-core/src");
}

//! Sets `cfg(parket_opt_size)` when the crate is built for size (`opt-level = "s"` or `"z"`,
//! as in the `size` profile): the crate then picks compact variants of a few routines (bit
//! unpacking without one function per bit width, CRC-32 from a 16-entry table instead of eight
//! 256-entry ones, one instance of the hybrid and DELTA_BINARY_PACKED decoders for every output
//! type, dictionary pages gathered in two passes only, Thrift structs read by one shared field
//! loop, ...; each is property-tested against the default). Same results, smaller code; release
//! builds keep the fast variants.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(parket_opt_size)");
    println!("cargo::rerun-if-changed=build.rs");
    if matches!(std::env::var("OPT_LEVEL").as_deref(), Ok("s" | "z")) {
        println!("cargo::rustc-cfg=parket_opt_size");
    }
}

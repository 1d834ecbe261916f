//! The fuzz crate's own code: the structure-aware round trip (its harness needs `arbitrary`,
//! which the library does not depend on). The other targets are shims over `#[doc(hidden)]`
//! harnesses in the library.

pub mod roundtrip;

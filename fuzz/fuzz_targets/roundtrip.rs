#![no_main]
// Thin shim: the harness is fuzz/src/roundtrip.rs (it needs `arbitrary`); the regression tests
// include the same file.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    parket_fuzz::roundtrip::fuzz_roundtrip(data);
});

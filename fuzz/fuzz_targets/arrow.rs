#![no_main]
// Thin shim: the harness lives in the library so the regression tests call it too.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    parket::arrow::fuzz::fuzz_arrow(data);
});

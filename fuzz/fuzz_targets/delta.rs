#![no_main]
// Thin shim: data[0] % 3 picks the DELTA_* harness (tests/fuzz_regressions.rs does the same).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    use parket::encoding::{
        delta_binary_packed as dbp, delta_byte_array as dba, delta_length_byte_array as dlba,
    };
    let Some((sel, rest)) = data.split_first() else {
        return;
    };
    [dbp::fuzz_decode, dlba::fuzz_decode, dba::fuzz_decode][usize::from(sel % 3)](rest);
});

#![no_main]
// Thin shim: the harness lives in the library so the regression tests call it too. The first
// byte picks the corpus keys; the rest is an encrypted file (seeds: fuzz/seed.sh).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    parket::read::fuzz::fuzz_decrypt(data);
});

//! (module page: to be filled in)

pub mod decode;

//! (module write: to be filled in)

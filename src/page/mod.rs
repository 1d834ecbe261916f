//! (module page: to be filled in)

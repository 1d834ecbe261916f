//! (module encoding: to be filled in)

//! (module compression: to be filled in)

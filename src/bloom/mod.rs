//! (module bloom: to be filled in)

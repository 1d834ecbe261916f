//! (module schema: to be filled in)

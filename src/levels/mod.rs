//! (module levels: to be filled in)

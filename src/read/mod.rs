//! (module read: to be filled in)

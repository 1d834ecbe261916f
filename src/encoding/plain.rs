//! plain: to be filled in.

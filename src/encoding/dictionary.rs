//! dictionary: to be filled in.

//! bit_packed: to be filled in.

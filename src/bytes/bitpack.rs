//! Bit packing: to be filled in.

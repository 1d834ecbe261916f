//! delta_binary_packed: to be filled in.

//! delta_byte_array: to be filled in.

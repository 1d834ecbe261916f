//! delta_length_byte_array: to be filled in.

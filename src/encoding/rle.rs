//! rle: to be filled in.

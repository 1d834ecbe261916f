//! byte_stream_split: to be filled in.

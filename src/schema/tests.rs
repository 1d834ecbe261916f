//! Tests of the schema tree, levels, validation and the message text.

//! Layer 4: GEOMETRY / GEOGRAPHY values as the statistics see them — the ISO WKB scanner
//! ([`wkb`]) and the bounding box and type codes it accumulates ([`bbox`]).
//!
//! Spec: Geospatial.md ("Bounding Box", "Geospatial Types"). The writer does not use this
//! module yet; it is the base for `GeospatialStatistics` per GEOMETRY column chunk.

pub mod bbox;
pub mod wkb;

pub use bbox::GeoBounds;
pub use wkb::scan;

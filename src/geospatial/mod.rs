//! Layer 4: GEOMETRY / GEOGRAPHY values as the statistics see them — the ISO WKB scanner
//! ([`wkb`]), the planar bounding box and type codes it accumulates ([`bbox`]), the box of
//! spherical edges ([`sphere`], with `std`), and a column chunk's `GeospatialStatistics`
//! ([`chunk`]), which the writer fills for GEOMETRY and GEOGRAPHY columns.
//!
//! Spec: Geospatial.md ("Bounding Box", "Geospatial Types", "Edge Interpolation Algorithm").

pub mod bbox;
pub mod chunk;
#[cfg(feature = "std")]
pub mod sphere;
pub mod wkb;

pub use bbox::GeoBounds;
pub use chunk::ChunkGeoStats;
pub use wkb::scan;

//! The `GeospatialStatistics` of one GEOMETRY or GEOGRAPHY column chunk, as a writer builds
//! it value by value (Geospatial.md, "Statistics").
//!
//! - GEOMETRY: the planar box of every coordinate ([`GeoBounds`]: NaN skipped, Z and M when
//!   present) and the distinct top-level ISO WKB type codes, written in ascending order (the
//!   spec asks them unique; pyarrow sorts them too).
//! - GEOGRAPHY with SPHERICAL edges (or none given: SPHERICAL is the default): the box of the
//!   great-circle edges ([`super::sphere`], built with the `std` feature) and the type codes.
//! - GEOGRAPHY with VINCENTY, THOMAS, ANDOYER or KARNEY edges (ellipsoidal geodesics), or
//!   SPHERICAL without `std`: the type codes only, no box (the spec makes `bbox` optional: a
//!   writer that cannot compute it leaves it out).
//! - A value that is not valid WKB drops the chunk's geospatial statistics altogether, as
//!   pyarrow does: the value is still written (it is a BYTE_ARRAY), only nothing can be said
//!   of the chunk's extent.
//!
//! Nulls contribute nothing: a chunk of nulls has statistics with no box and an empty type
//! list, which the spec reads as "not known" (pyarrow writes the same).
//!
//! ```
//! use parket::format::LogicalType;
//! use parket::geospatial::ChunkGeoStats;
//! let point = |x: f64, y: f64| {
//!     let mut v = vec![1u8, 1, 0, 0, 0];
//!     v.extend(x.to_le_bytes());
//!     v.extend(y.to_le_bytes());
//!     v
//! };
//! let mut s = ChunkGeoStats::new(&LogicalType::Geometry { crs: None }).unwrap();
//! s.add(&point(1.0, 2.0));
//! s.add(&point(3.0, -4.0));
//! let g = s.finish().unwrap();
//! let b = g.bbox.unwrap();
//! assert_eq!((b.xmin, b.xmax, b.ymin, b.ymax), (1.0, 3.0, -4.0, 2.0));
//! assert_eq!(g.geospatial_types, Some(vec![1]));
//! ```

use alloc::vec::Vec;

use super::{wkb, GeoBounds};
use crate::format::{GeospatialStatistics, LogicalType};

/// Accumulates one column chunk's geospatial statistics.
#[derive(Debug, Clone)]
pub struct ChunkGeoStats {
    edges: Edges,
    /// Box (planar) and type codes; for spherical edges only the codes are used here.
    planar: GeoBounds,
    invalid: bool,
}

#[derive(Debug, Clone)]
enum Edges {
    Planar,
    #[cfg(feature = "std")]
    Spherical(alloc::boxed::Box<super::sphere::SphericalBounds>),
    /// No box can be computed: type codes only.
    Unbounded,
}

impl ChunkGeoStats {
    /// The accumulator for a column of this logical type; `None` unless GEOMETRY or
    /// GEOGRAPHY.
    pub fn new(logical: &LogicalType) -> Option<ChunkGeoStats> {
        let edges = match logical {
            LogicalType::Geometry { .. } => Edges::Planar,
            LogicalType::Geography { algorithm, .. } => match algorithm {
                #[cfg(feature = "std")]
                None | Some(crate::format::EdgeInterpolationAlgorithm::Spherical) => {
                    Edges::Spherical(Default::default())
                }
                _ => Edges::Unbounded,
            },
            _ => return None,
        };
        Some(ChunkGeoStats {
            edges,
            planar: GeoBounds::default(),
            invalid: false,
        })
    }

    /// Takes one non-null value (WKB bytes).
    pub fn add(&mut self, value: &[u8]) {
        if self.invalid {
            return;
        }
        let code = match &mut self.edges {
            Edges::Planar => wkb::scan(value, &mut self.planar).map(|()| None),
            #[cfg(feature = "std")]
            Edges::Spherical(s) => wkb::walk(value, &mut **s).map(Some),
            Edges::Unbounded => wkb::walk(value, &mut NoBox).map(Some),
        };
        match code {
            Ok(Some(code)) => self.planar.add_type(code),
            Ok(None) => {}
            Err(_) => self.invalid = true,
        }
    }

    /// The statistics, `None` after a value that is not WKB.
    pub fn finish(self) -> Option<GeospatialStatistics> {
        if self.invalid {
            return None;
        }
        let bbox = match &self.edges {
            Edges::Planar => self.planar.to_format(),
            #[cfg(feature = "std")]
            Edges::Spherical(s) => s.to_format(),
            Edges::Unbounded => None,
        };
        let mut types: Vec<i32> = self.planar.types;
        types.sort_unstable();
        Some(GeospatialStatistics {
            bbox,
            geospatial_types: Some(types),
        })
    }
}

/// A visitor that only checks the WKB (for type codes without a box).
struct NoBox;

impl wkb::Visitor for NoBox {
    fn begin(&mut self, _: wkb::Path) {}
    fn vertex(&mut self, _: [f64; 4]) {}
    fn end(&mut self) {}
}

//! The bounding box and geospatial type codes of GEOMETRY values (Geospatial.md, "Bounding
//! Box", "Geospatial Types").
//!
//! NaN coordinates are skipped per dimension; a dimension with no value is left out; without
//! X or Y there is no box. Worked example: `POINT (1 NaN)` and `POINT Z (3 4 5)` give
//! x 1..3, y 4..4, z 5..5, no m, and types `[1, 1001]`.

use alloc::vec::Vec;

/// Min/max per dimension (x, y, z, m) and the distinct top-level WKB type codes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GeoBounds {
    /// `(min, max)` of x, y, z, m; `None` while a dimension has no non-NaN value.
    pub dims: [Option<(f64, f64)>; 4],
    /// Distinct ISO WKB type codes of the values (e.g. 1 = Point, 1003 = Polygon Z), in
    /// the order first seen.
    pub types: Vec<i32>,
}

impl GeoBounds {
    /// Takes coordinate value `v` of dimension `dim` (0 x, 1 y, 2 z, 3 m); NaN is skipped.
    pub fn add(&mut self, dim: usize, v: f64) {
        if v.is_nan() {
            return;
        }
        if let Some(d) = self.dims.get_mut(dim) {
            *d = Some(match *d {
                None => (v, v),
                Some((lo, hi)) => (lo.min(v), hi.max(v)),
            });
        }
    }

    /// Takes in another value's bounds and types.
    pub fn merge(&mut self, other: &GeoBounds) {
        for (d, o) in other.dims.iter().enumerate() {
            if let Some((lo, hi)) = *o {
                self.add(d, lo);
                self.add(d, hi);
            }
        }
        for &t in &other.types {
            self.add_type(t);
        }
    }

    /// Records a top-level type code (once).
    pub fn add_type(&mut self, code: i32) {
        if !self.types.contains(&code) {
            self.types.push(code);
        }
    }

    /// The box as `BoundingBox` wants it: `None` without x or y (Geospatial.md).
    pub fn to_format(&self) -> Option<crate::format::BoundingBox> {
        let (x, y) = (self.dims[0]?, self.dims[1]?);
        Some(crate::format::BoundingBox {
            xmin: x.0,
            xmax: x.1,
            ymin: y.0,
            ymax: y.1,
            zmin: self.dims[2].map(|d| d.0),
            zmax: self.dims[2].map(|d| d.1),
            mmin: self.dims[3].map(|d| d.0),
            mmax: self.dims[3].map(|d| d.1),
        })
    }
}

//! Bounding boxes of GEOGRAPHY values with SPHERICAL edges (Geospatial.md, "Edge
//! Interpolation Algorithm", "Bounding Box"; LogicalTypes.md, GEOGRAPHY).
//!
//! An edge of a spherical geography is the shorter great-circle arc between its vertices, so
//! a box of the vertices alone is wrong twice over: the arc bulges poleward of both vertices
//! (from (-60, 45) to (60, 45) it reaches latitude 63.43), and an arc between 170 and -170
//! crosses the antimeridian, where the box's x range wraps (`xmin > xmax`, Geospatial.md).
//! This module computes, for each value and then the column chunk:
//!
//! - **Longitude**: a minor arc that does not pass through a pole moves monotonically in
//!   longitude, the shorter way round (`|Δλ| < 180`), so it covers exactly the longitudes
//!   between its vertices. The covered longitudes of all edges and points are kept as sorted
//!   disjoint intervals ([`LonSet`]); the box's x range is the circle minus the largest gap.
//!   When it does not wrap, the x range is the plain `[min, max]` of the covered longitudes.
//! - **Latitude**: the vertices' latitudes, widened by each edge's bulge. The great circle
//!   through vertex vectors `a` and `b` has normal `n = a × b`; its northernmost point has
//!   latitude `atan2(√(nx² + ny²), |nz|)` and longitude `atan2(-nz·ny, -nz·nx)`, its
//!   southernmost point is the antipode. A point of the circle lies on the arc exactly when
//!   its longitude lies in the arc's longitude range (one circle point per longitude), so
//!   the bulge counts when that longitude is in the edge's range.
//! - **Poles**: an edge whose vertices are 180° apart in longitude runs along a meridian
//!   through the pole on the side of the larger latitude sum; an edge between antipodes has
//!   no defined arc and makes the box the whole sphere. A polygon whose exterior ring winds
//!   around a pole holds that pole: as s2geography and BigQuery read unoriented rings, the
//!   polygon is the smaller of the two regions the ring bounds, found from the ring's
//!   winding number in longitude and the area of its fan of triangles to the north pole
//!   ([`ring_poles`]). A box that reaches a pole spans every longitude: the pole is at all
//!   of them, and a value may write it with any.
//! - Z and M are plain minimums and maximums.
//!
//! Coordinates outside [-180, 180] × [-90, 90] or infinite make the box unknown (the spec
//! restricts GEOGRAPHY to those ranges); NaN coordinates are skipped as missing, and an edge
//! with a missing endpoint is skipped. Computed latitudes (not vertex latitudes) are widened
//! by [`PAD_DEGREES`] to stay outside the rounding error of the trigonometry.
//!
//! Worked example: `LINESTRING (170 10, -170 10)` covers longitudes 170..180 and -180..-170;
//! the largest gap is -170..170, so `xmin = 170 > xmax = -170`; the arc's northernmost point
//! is at longitude 180, inside the arc's range, latitude `atan(tan 10° / cos 10°)` = 10.1511
//! (a test checks it).
//!
//! Needs `sin`, `cos`, `atan2` and `sqrt`, which `core` does not have: this module is built
//! with the `std` feature; without it GEOGRAPHY statistics carry the type codes only.

use alloc::vec::Vec;

use super::wkb::{Path, Visitor};
use super::GeoBounds;

/// Outward widening of computed (bulge) latitudes, in degrees (about 0.1 mm on the Earth):
/// orders of magnitude above the rounding error of the formulas, far below any use.
pub const PAD_DEGREES: f64 = 1e-9;

/// Most disjoint longitude intervals kept; beyond it the two closest are joined (the box can
/// only grow).
const MAX_PIECES: usize = 128;

/// Covered longitudes: sorted disjoint closed intervals within [-180, 180].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LonSet {
    pieces: Vec<(f64, f64)>,
}

impl LonSet {
    /// Adds `[lo, hi]` (`lo <= hi`, both within [-180, 180]).
    pub fn insert(&mut self, lo: f64, hi: f64) {
        let p = &mut self.pieces;
        // The first piece that ends at or after `lo`, and the first that starts after `hi`.
        let i = p.partition_point(|&(_, h)| h < lo);
        let j = p.partition_point(|&(l, _)| l <= hi);
        if i == j {
            p.insert(i, (lo, hi));
        } else {
            let merged = (lo.min(p[i].0), hi.max(p[j - 1].1));
            p.splice(i..j, [merged]);
        }
        if p.len() > MAX_PIECES {
            // Join the two neighbours with the smallest gap between them.
            let k = (1..p.len())
                .min_by(|&a, &b| (p[a].0 - p[a - 1].1).total_cmp(&(p[b].0 - p[b - 1].1)))
                .unwrap_or(1);
            p[k - 1].1 = p[k].1;
            p.remove(k);
        }
    }

    /// Adds the arc from `from` going east by `span` degrees (`0 <= span <= 360`), wrapping at
    /// the antimeridian.
    pub fn insert_east(&mut self, from: f64, span: f64) {
        if span >= 360.0 {
            self.insert(-180.0, 180.0);
            return;
        }
        let to = from + span;
        if to <= 180.0 {
            self.insert(from, to);
        } else {
            self.insert(from, 180.0);
            self.insert(-180.0, to - 360.0);
        }
    }

    /// Adds another set's intervals.
    pub fn merge(&mut self, other: &LonSet) {
        for &(lo, hi) in &other.pieces {
            self.insert(lo, hi);
        }
    }

    /// `(xmin, xmax)` of the smallest range holding every covered longitude: the circle
    /// minus its largest uncovered gap, `xmin > xmax` when that range crosses the
    /// antimeridian. `None` when nothing is covered. A gap no larger than the one across the
    /// antimeridian leaves the range unwrapped.
    pub fn range(&self) -> Option<(f64, f64)> {
        let p = &self.pieces;
        let (first, last) = (p.first()?, p.last()?);
        // The gap across ±180 (-180 and 180 are the same meridian).
        let mut best = (first.0 + 180.0) + (180.0 - last.1);
        let mut range = (first.0, last.1);
        for k in 1..p.len() {
            let gap = p[k].0 - p[k - 1].1;
            if gap > best {
                best = gap;
                range = (p[k].0, p[k - 1].1);
            }
        }
        Some(range)
    }
}

/// The box of spherical geography values, built as a [`Visitor`] of their vertices.
#[derive(Debug, Clone, Default)]
pub struct SphericalBounds {
    lon: LonSet,
    lat: Option<(f64, f64)>,
    /// Z and M (dims 2 and 3 of a [`GeoBounds`]; x and y stay empty).
    zm: GeoBounds,
    /// A coordinate outside the geographic ranges was seen: no box.
    out_of_range: bool,
    path: Option<Path>,
    prev: Option<(f64, f64)>,
    first: Option<(f64, f64)>,
    ring: RingSums,
}

/// What a ring's pole test needs: summed longitude steps and fan areas, and whether the ring
/// cannot be judged (a skipped vertex, a pole on the ring).
#[derive(Debug, Clone, Copy, Default)]
struct RingSums {
    dlon: f64,
    fan: f64,
    edges: u32,
    unjudged: bool,
}

impl SphericalBounds {
    /// Takes in another value's (or chunk's) box.
    pub fn merge(&mut self, other: &SphericalBounds) {
        self.lon.merge(&other.lon);
        if let Some((lo, hi)) = other.lat {
            self.add_lat(lo);
            self.add_lat(hi);
        }
        self.zm.merge(&other.zm);
        self.out_of_range |= other.out_of_range;
    }

    /// The box as `BoundingBox` wants it; `None` without longitudes or latitudes, or after a
    /// coordinate out of range.
    pub fn to_format(&self) -> Option<crate::format::BoundingBox> {
        if self.out_of_range {
            return None;
        }
        let (ymin, ymax) = self.lat?;
        // A pole is every longitude (whatever longitude a value writes for it).
        let (xmin, xmax) = match self.lon.range()? {
            _ if ymin == -90.0 || ymax == 90.0 => (-180.0, 180.0),
            x => x,
        };
        let (z, m) = (self.zm.dims[2], self.zm.dims[3]);
        Some(crate::format::BoundingBox {
            xmin,
            xmax,
            ymin,
            ymax,
            zmin: z.map(|d| d.0),
            zmax: z.map(|d| d.1),
            mmin: m.map(|d| d.0),
            mmax: m.map(|d| d.1),
        })
    }

    fn add_lat(&mut self, y: f64) {
        let y = y.clamp(-90.0, 90.0);
        self.lat = Some(match self.lat {
            None => (y, y),
            Some((lo, hi)) => (lo.min(y), hi.max(y)),
        });
    }

    fn whole_sphere(&mut self) {
        self.lon.insert(-180.0, 180.0);
        self.add_lat(-90.0);
        self.add_lat(90.0);
    }

    /// One edge between finite vertices within range, `a != b`.
    fn edge(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
        if y1.abs() == 90.0 || y2.abs() == 90.0 {
            // Along the other vertex's meridian: the vertices' own longitudes and latitudes
            // (already added) are the edge's.
            self.ring.unjudged = true;
            return;
        }
        let mut d = x2 - x1;
        if d > 180.0 {
            d -= 360.0;
        } else if d <= -180.0 {
            d += 360.0;
        }
        if d == 180.0 {
            // On the meridian plane through both: over the pole on the side of the larger
            // latitude sum, or between antipodes (no defined arc).
            self.ring.unjudged = true;
            match (y1 + y2).partial_cmp(&0.0) {
                Some(core::cmp::Ordering::Greater) => self.add_lat(90.0),
                Some(core::cmp::Ordering::Less) => self.add_lat(-90.0),
                _ => self.whole_sphere(),
            }
            return;
        }
        let a = unit(x1, y1);
        let b = unit(x2, y2);
        let sum = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        if dot(sum, sum) < 1e-24 {
            // (Nearly) antipodal: the arc is not determined.
            self.ring.unjudged = true;
            self.whole_sphere();
            return;
        }
        // n = a × b, computed as (a + b) × (b - a) / 2, accurate for close vertices.
        let diff = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let n = cross(sum, diff);
        if d >= 0.0 {
            self.lon.insert_east(x1, d);
        } else {
            self.lon.insert_east(x2, -d);
        }
        let (west, span) = if d >= 0.0 { (x1, d) } else { (x2, -d) };
        let horizontal = (n[0] * n[0] + n[1] * n[1]).sqrt();
        if horizontal > 0.0 && n[2] != 0.0 {
            let top = horizontal.atan2(n[2].abs()).to_degrees();
            let top_lon = (-n[2] * n[1]).atan2(-n[2] * n[0]).to_degrees();
            let bottom_lon = if top_lon > 0.0 {
                top_lon - 180.0
            } else {
                top_lon + 180.0
            };
            if within_east(west, span, top_lon) {
                self.add_lat(top + PAD_DEGREES);
            }
            if within_east(west, span, bottom_lon) {
                self.add_lat(-top - PAD_DEGREES);
            }
        }
        self.ring.dlon += d;
        self.ring.fan += fan_area(y1, y2, d);
        self.ring.edges += 1;
    }
}

impl Visitor for SphericalBounds {
    fn begin(&mut self, path: Path) {
        self.path = Some(path);
        self.prev = None;
        self.first = None;
        self.ring = RingSums::default();
    }

    fn vertex(&mut self, [x, y, z, m]: [f64; 4]) {
        self.zm.add(2, z);
        self.zm.add(3, m);
        let bad = |v: f64, lim: f64| v.is_infinite() || v.abs() > lim;
        if bad(x, 180.0) || bad(y, 90.0) {
            self.out_of_range = true;
        }
        if !x.is_nan() {
            self.lon
                .insert(x.clamp(-180.0, 180.0), x.clamp(-180.0, 180.0));
        }
        if !y.is_nan() {
            self.add_lat(y);
        }
        if x.is_nan() || y.is_nan() || self.out_of_range {
            self.prev = None;
            self.ring.unjudged = true;
            return;
        }
        let here = (x, y);
        if self.path != Some(Path::Point) {
            if let Some(p) = self.prev {
                if p != here {
                    self.edge(p, here);
                }
            }
        }
        self.first.get_or_insert(here);
        self.prev = Some(here);
    }

    fn end(&mut self) {
        let Some(Path::Ring { exterior }) = self.path else {
            return;
        };
        if let (Some(first), Some(last)) = (self.first, self.prev) {
            if first != last {
                // An unclosed ring: close it, as a reader would.
                self.edge(last, first);
            }
        }
        if exterior && !self.ring.unjudged && self.ring.edges >= 3 {
            let (north, south) = ring_poles(self.ring.dlon, self.ring.fan);
            if north {
                self.add_lat(90.0);
            }
            if south {
                self.add_lat(-90.0);
            }
            if north || south {
                self.lon.insert(-180.0, 180.0);
            }
        }
    }
}

/// Which poles lie inside the smaller of the two regions a ring bounds, from the sum of its
/// longitude steps (`dlon`, degrees: ±360 when it winds around the poles' axis, else 0) and
/// the signed sum of the areas of the triangles (north pole, vertex, next vertex) (`fan`,
/// steradians). Winding once, the fan is ± the area of the region holding the north pole;
/// not winding, it is ± the area of the region without it (which then also lacks the south
/// pole). A tie (a hemisphere) counts both ways.
pub fn ring_poles(dlon: f64, fan: f64) -> (bool, bool) {
    let half = 2.0 * core::f64::consts::PI;
    let area = fan.abs();
    let tol = 1e-9;
    if dlon.abs() < 180.0 {
        // Both poles on one side: inside the smaller region when the other side is smaller.
        let inside = area > half - tol;
        (inside, inside)
    } else {
        (area < half + tol, area > half - tol)
    }
}

/// The signed area (steradians) of the triangle (north pole, (·, y1), (·, y2)) whose vertices
/// are `d` degrees apart in longitude: `tan(E/2) = t1 t2 sin d / (1 + t1 t2 cos d)` with
/// `t = tan(colatitude / 2)`.
fn fan_area(y1: f64, y2: f64, d: f64) -> f64 {
    let t = |y: f64| ((90.0 - y).to_radians() / 2.0).tan();
    let tt = t(y1) * t(y2);
    let d = d.to_radians();
    2.0 * (tt * d.sin()).atan2(1.0 + tt * d.cos())
}

/// Whether longitude `x` is in the range from `west` going east by `span`, with a margin.
fn within_east(west: f64, span: f64, x: f64) -> bool {
    let mut off = x - west;
    while off < -1e-9 {
        off += 360.0;
    }
    while off > 360.0 {
        off -= 360.0;
    }
    off <= span + 1e-9
}

fn unit(lon: f64, lat: f64) -> [f64; 3] {
    let (l, p) = (lon.to_radians(), lat.to_radians());
    [p.cos() * l.cos(), p.cos() * l.sin(), p.sin()]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests;

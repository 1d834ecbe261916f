//! An ISO WKB scanner: walks one well-known-binary geometry, checking every length, and
//! feeds its coordinates and its type code to a [`GeoBounds`].
//!
//! Spec: Geospatial.md (values are ISO WKB; type codes 1..7, +1000 Z, +2000 M, +3000 ZM),
//! OGC Simple Features 06-103r4 §8.2. Each (sub)geometry starts with its own byte order
//! (0 big-endian, 1 little-endian) and a u32 type; points are coordinates, line strings and
//! rings a u32 count of points, polygons a u32 count of rings, multi-geometries and
//! collections a u32 count of geometries, each a full WKB geometry. Nesting is limited to
//! [`MAX_DEPTH`]. Worked example, `POINT (1 2)` little-endian:
//!
//! ```text
//! 01                         byte order: little-endian
//! 01 00 00 00                type 1: Point, XY
//! 00 00 00 00 00 00 f0 3f    x = 1.0
//! 00 00 00 00 00 00 00 40    y = 2.0
//! ```
//!
//! ```
//! use parket::geospatial::{scan, GeoBounds};
//! let wkb = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40];
//! let mut b = GeoBounds::default();
//! scan(&wkb, &mut b).unwrap();
//! assert_eq!(b.dims[0], Some((1.0, 1.0)));
//! assert_eq!(b.dims[1], Some((2.0, 2.0)));
//! assert_eq!(b.types, [1]);
//! ```

use super::GeoBounds;
use crate::error::{Error, Result};

/// Deepest nesting of collections accepted.
pub const MAX_DEPTH: u32 = 64;

/// What a run of vertices is, as [`walk`] reports it to a [`Visitor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// A point (alone or a member of a multi-point): no edges.
    Point,
    /// A line string: an edge between each vertex and the next.
    LineString,
    /// A ring of a polygon, the first (`exterior: true`) or a hole: edges as a line
    /// string, closed.
    Ring {
        /// Whether this is the polygon's first ring.
        exterior: bool,
    },
}

/// Receives a geometry's vertices from [`walk`], one run of connected vertices at a time.
pub trait Visitor {
    /// A run of vertices begins.
    fn begin(&mut self, path: Path);
    /// A vertex `[x, y, z, m]`; a dimension the geometry does not have is NaN (and a NaN
    /// coordinate is skipped as a missing one, Geospatial.md "Bounding Box").
    fn vertex(&mut self, xyzm: [f64; 4]);
    /// The run ends.
    fn end(&mut self);
}

impl Visitor for GeoBounds {
    fn begin(&mut self, _: Path) {}
    fn vertex(&mut self, xyzm: [f64; 4]) {
        for (d, v) in xyzm.into_iter().enumerate() {
            self.add(d, v);
        }
    }
    fn end(&mut self) {}
}

/// Scans one WKB geometry (the whole of `bytes`) into `bounds`. Errors name the byte offset
/// and leave `bounds` as they were.
pub fn scan(bytes: &[u8], bounds: &mut GeoBounds) -> Result<()> {
    let mut one = GeoBounds::default();
    let code = walk(bytes, &mut one)?;
    bounds.merge(&one);
    bounds.add_type(code);
    Ok(())
}

/// Walks one WKB geometry (the whole of `bytes`), handing its vertices to `visitor`;
/// returns the top-level type code. On an error the visitor may have seen part of the
/// geometry.
pub fn walk(bytes: &[u8], visitor: &mut impl Visitor) -> Result<i32> {
    let mut r = Reader { b: bytes, pos: 0 };
    let code = r.geometry(visitor, 0)?;
    if r.pos != bytes.len() {
        return Err(
            Error::out_of_spec("bytes after the end of a WKB geometry").at_offset(r.pos as u64)
        );
    }
    Ok(code)
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let rest = self.b.len() - self.pos;
        if n > rest {
            return Err(
                Error::truncated("WKB geometry", n as u64, rest as u64).at_offset(self.pos as u64)
            );
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u32(&mut self, le: bool) -> Result<u32> {
        let s: [u8; 4] = self.take(4)?.try_into().unwrap_or_default();
        Ok(if le {
            u32::from_le_bytes(s)
        } else {
            u32::from_be_bytes(s)
        })
    }

    fn f64(&mut self, le: bool) -> Result<f64> {
        let s: [u8; 8] = self.take(8)?.try_into().unwrap_or_default();
        Ok(if le {
            f64::from_le_bytes(s)
        } else {
            f64::from_be_bytes(s)
        })
    }

    /// A count of items each at least `min_item` bytes, checked against what remains.
    fn count(&mut self, le: bool, min_item: usize) -> Result<u32> {
        let at = self.pos;
        let n = self.u32(le)?;
        let rest = (self.b.len() - self.pos) as u64;
        if n as u64 * min_item as u64 > rest {
            return Err(
                Error::truncated("WKB count", n as u64 * min_item as u64, rest)
                    .at_offset(at as u64),
            );
        }
        Ok(n)
    }

    fn points(
        &mut self,
        le: bool,
        n: u32,
        dims: &[usize],
        path: Path,
        v: &mut impl Visitor,
    ) -> Result<()> {
        v.begin(path);
        for _ in 0..n {
            let mut c = [f64::NAN; 4];
            for &d in dims {
                c[d] = self.f64(le)?;
            }
            v.vertex(c);
        }
        v.end();
        Ok(())
    }

    /// One geometry; returns its type code.
    fn geometry(&mut self, v: &mut impl Visitor, depth: u32) -> Result<i32> {
        if depth > MAX_DEPTH {
            return Err(
                Error::limit("WKB nesting depth", depth as u64, MAX_DEPTH as u64)
                    .at_offset(self.pos as u64),
            );
        }
        let at = self.pos;
        let le = match self.take(1)?[0] {
            0 => false,
            1 => true,
            _ => {
                return Err(
                    Error::out_of_spec("WKB byte order is neither 0 nor 1").at_offset(at as u64)
                )
            }
        };
        let code = self.u32(le)?;
        let (base, dims): (u32, &[usize]) = match code / 1000 {
            0 => (code, &[0, 1]),
            1 => (code - 1000, &[0, 1, 2]),
            2 => (code - 2000, &[0, 1, 3]),
            3 => (code - 3000, &[0, 1, 2, 3]),
            _ => (0, &[]),
        };
        let point = 8 * dims.len();
        match base {
            1 => self.points(le, 1, dims, Path::Point, v)?,
            2 => {
                let n = self.count(le, point)?;
                self.points(le, n, dims, Path::LineString, v)?;
            }
            3 => {
                let rings = self.count(le, 4)?;
                for i in 0..rings {
                    let n = self.count(le, point)?;
                    let ring = Path::Ring { exterior: i == 0 };
                    self.points(le, n, dims, ring, v)?;
                }
            }
            4..=7 => {
                let n = self.count(le, 5)?;
                for _ in 0..n {
                    let child = self.geometry(v, depth + 1)?;
                    let ok = base == 7 || child % 1000 == base as i32 - 3;
                    if !ok || child / 1000 != code as i32 / 1000 {
                        return Err(Error::out_of_spec(
                            "WKB multi-geometry member of another type or dimension",
                        )
                        .at_offset(at as u64));
                    }
                }
            }
            _ => {
                return Err(Error::out_of_spec(
                    "WKB geometry type is not an ISO code 1..7 (+1000/2000/3000)",
                )
                .at_offset(at as u64 + 1))
            }
        }
        Ok(code as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn le_geom(code: u32, body: &[u8]) -> Vec<u8> {
        let mut v = alloc::vec![1];
        v.extend_from_slice(&code.to_le_bytes());
        v.extend_from_slice(body);
        v
    }

    fn f(xs: &[f64]) -> Vec<u8> {
        xs.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn point_z_linestring_m_and_nested_collection() {
        let mut b = GeoBounds::default();
        // POINT Z (3 4 5)
        scan(&le_geom(1001, &f(&[3.0, 4.0, 5.0])), &mut b).unwrap();
        // LINESTRING M (0 -1 7, 2 NaN 9): x 0..3, y -1..4, m 7..9
        let mut body = 2u32.to_le_bytes().to_vec();
        body.extend(f(&[0.0, -1.0, 7.0, 2.0, f64::NAN, 9.0]));
        scan(&le_geom(2002, &body), &mut b).unwrap();
        // GEOMETRYCOLLECTION (GEOMETRYCOLLECTION (POINT (10 20))) with a big-endian point.
        let mut pt = alloc::vec![0u8];
        pt.extend_from_slice(&1u32.to_be_bytes());
        pt.extend(10f64.to_be_bytes());
        pt.extend(20f64.to_be_bytes());
        let mut inner = 1u32.to_le_bytes().to_vec();
        inner.extend(pt);
        let mut outer = 1u32.to_le_bytes().to_vec();
        outer.extend(le_geom(7, &inner));
        scan(&le_geom(7, &outer), &mut b).unwrap();
        assert_eq!(b.dims[0], Some((0.0, 10.0)));
        assert_eq!(b.dims[1], Some((-1.0, 20.0)));
        assert_eq!(b.dims[2], Some((5.0, 5.0)));
        assert_eq!(b.dims[3], Some((7.0, 9.0)));
        assert_eq!(b.types, [1001, 2002, 7]);
    }

    #[test]
    fn bad_input_is_an_error_never_a_panic() {
        let mut b = GeoBounds::default();
        // A count of 2^32-1 points with 16 bytes left.
        let mut body = u32::MAX.to_le_bytes().to_vec();
        body.extend(f(&[1.0, 2.0]));
        assert!(scan(&le_geom(2, &body), &mut b).is_err());
        assert!(scan(&[2, 1, 0, 0, 0], &mut b).is_err()); // byte order 2
        assert!(scan(&le_geom(8, &[]), &mut b).is_err()); // type 8
        assert!(scan(&le_geom(1, &f(&[1.0])), &mut b).is_err()); // short point
        assert!(scan(&le_geom(1, &f(&[1.0, 2.0, 3.0])), &mut b).is_err()); // trailing
                                                                           // 100 nested collections: over the depth limit.
        let mut g = le_geom(1, &f(&[0.0, 0.0]));
        for _ in 0..100 {
            let mut body = 1u32.to_le_bytes().to_vec();
            body.extend(g);
            g = le_geom(7, &body);
        }
        assert!(scan(&g, &mut b).is_err());
        // Every prefix of a valid geometry is an error.
        let mut body = 1u32.to_le_bytes().to_vec();
        body.extend(le_geom(1, &f(&[1.0, 2.0])));
        let ok = le_geom(4, &body);
        for n in 0..ok.len() {
            assert!(scan(&ok[..n], &mut GeoBounds::default()).is_err());
        }
        assert!(scan(&ok, &mut GeoBounds::default()).is_ok());
        // MULTIPOINT holding a LINESTRING is an error.
        let mut body = 1u32.to_le_bytes().to_vec();
        body.extend(le_geom(2, &0u32.to_le_bytes()));
        assert!(scan(&le_geom(4, &body), &mut b).is_err());
        assert_eq!(b.to_format(), None, "nothing valid was scanned");
    }
}

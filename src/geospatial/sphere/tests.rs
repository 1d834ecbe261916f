use super::*;
use crate::format::BoundingBox;
use proptest::prelude::*;

fn line(points: &[(f64, f64)]) -> BoundingBox {
    path(Path::LineString, points)
}

fn path(p: Path, points: &[(f64, f64)]) -> BoundingBox {
    let mut s = SphericalBounds::default();
    s.begin(p);
    for &(x, y) in points {
        s.vertex([x, y, f64::NAN, f64::NAN]);
    }
    s.end();
    s.to_format().unwrap()
}

fn ring(points: &[(f64, f64)]) -> BoundingBox {
    path(Path::Ring { exterior: true }, points)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-8
}

#[test]
fn worked_example_crosses_the_antimeridian_and_bulges() {
    let b = line(&[(170.0, 10.0), (-170.0, 10.0)]);
    assert_eq!((b.xmin, b.xmax), (170.0, -170.0));
    assert_eq!(b.ymin, 10.0);
    // tan(top) = tan(10°) / cos(10°), by hand: 10.15105...
    let top = (10f64.to_radians().tan() / 10f64.to_radians().cos())
        .atan()
        .to_degrees();
    assert!(close(b.ymax, top) && b.ymax >= top, "{} vs {top}", b.ymax);
    assert!((b.ymax - 10.151_08).abs() < 1e-5);
}

#[test]
fn bulges_north_and_south() {
    // tan(top) = tan(45°) / cos(60°) = 2.
    let b = line(&[(-60.0, 45.0), (60.0, 45.0)]);
    assert!(close(b.ymax, 2f64.atan().to_degrees()));
    assert_eq!((b.xmin, b.xmax, b.ymin), (-60.0, 60.0, 45.0));
    let b = line(&[(60.0, -45.0), (-60.0, -45.0)]);
    assert!(close(b.ymin, -(2f64.atan().to_degrees())));
    assert_eq!(b.ymax, -45.0);
    // An edge going north-east that does not reach its circle's top: vertices only.
    let b = line(&[(0.0, 0.0), (10.0, 10.0)]);
    assert_eq!((b.xmin, b.xmax, b.ymin, b.ymax), (0.0, 10.0, 0.0, 10.0));
    // Along the equator and along a meridian: no bulge.
    let b = line(&[(-100.0, 0.0), (50.0, 0.0)]);
    assert_eq!((b.xmin, b.xmax, b.ymin, b.ymax), (-100.0, 50.0, 0.0, 0.0));
    let b = line(&[(20.0, -80.0), (20.0, 80.0)]);
    assert_eq!((b.xmin, b.xmax, b.ymin, b.ymax), (20.0, 20.0, -80.0, 80.0));
}

#[test]
fn poles() {
    // Over the north pole along the 0/180 meridian.
    let b = line(&[(0.0, 80.0), (180.0, 70.0)]);
    assert_eq!((b.ymin, b.ymax), (70.0, 90.0));
    assert_eq!(
        (b.xmin, b.xmax),
        (-180.0, 180.0),
        "the pole is every longitude"
    );
    let b = line(&[(-90.0, -80.0), (90.0, -70.0)]);
    assert_eq!((b.ymin, b.ymax), (-90.0, -70.0));
    // Antipodes: no defined arc, the whole sphere.
    let b = line(&[(10.0, 20.0), (-170.0, -20.0)]);
    assert_eq!(
        (b.xmin, b.xmax, b.ymin, b.ymax),
        (-180.0, 180.0, -90.0, 90.0)
    );
    // A vertex at the pole: along the other vertex's meridian.
    let b = line(&[(0.0, 90.0), (30.0, 60.0)]);
    assert_eq!(
        (b.xmin, b.xmax, b.ymin, b.ymax),
        (-180.0, 180.0, 60.0, 90.0)
    );
    let b = line(&[(10.0, 89.0), (30.0, 60.0)]);
    assert_eq!((b.xmin, b.xmax, b.ymin, b.ymax), (10.0, 30.0, 60.0, 89.0));
}

#[test]
fn rings_around_a_pole_hold_it_either_way_round() {
    let cap = [
        (0.0, 80.0),
        (90.0, 80.0),
        (180.0, 80.0),
        (-90.0, 80.0),
        (0.0, 80.0),
    ];
    let mut rev = cap;
    rev.reverse();
    for r in [&cap[..], &rev[..]] {
        let b = ring(r);
        assert_eq!(
            (b.xmin, b.xmax, b.ymin, b.ymax),
            (-180.0, 180.0, 80.0, 90.0)
        );
    }
    // A ring at latitude -10 around the axis: the smaller side is the south (area
    // 2π(1 - sin 10°) < 2π).
    let band: Vec<(f64, f64)> = (0..=12)
        .map(|i| (-180.0 + 30.0 * i as f64, -10.0))
        .collect();
    let b = ring(&band);
    assert_eq!(b.ymin, -90.0);
    assert!(b.ymax < 0.0, "{b:?}");
    // A small square holds no pole; as a line string the cap holds none either.
    let b = ring(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]);
    assert!(b.ymax < 1.1 && b.ymin == 0.0 && b.xmin == 0.0 && b.xmax == 1.0);
    let b = line(&cap);
    assert!(b.ymax < 90.0 && b.ymax > 80.0);
    // A hole around a pole does not add it.
    let b = path(Path::Ring { exterior: false }, &cap);
    assert!(b.ymax < 90.0);
}

#[test]
fn ring_poles_by_area() {
    use core::f64::consts::PI;
    assert_eq!(ring_poles(360.0, 0.5), (true, false));
    assert_eq!(ring_poles(-360.0, -3.0 * PI), (false, true));
    assert_eq!(ring_poles(0.0, 0.1), (false, false));
    assert_eq!(ring_poles(0.0, 3.5 * PI), (true, true));
}

#[test]
fn lon_set_range() {
    let mut s = LonSet::default();
    assert_eq!(s.range(), None);
    s.insert(10.0, 20.0);
    s.insert(-20.0, -10.0);
    assert_eq!(s.range(), Some((-20.0, 20.0)));
    s.insert(170.0, 180.0);
    s.insert(-180.0, -175.0);
    // Gaps: -175..-20 (155), -10..10 (20), 20..170 (150): the largest is -175..-20.
    assert_eq!(s.range(), Some((-20.0, -175.0)));
    s.insert(-100.0, 100.0);
    assert_eq!(s.range(), Some((-100.0, -175.0)));
    // Too many pieces: the closest ones join, the range only grows.
    let mut s = LonSet::default();
    for i in 0..300 {
        let x = -179.0 + i as f64;
        if x <= 120.0 {
            s.insert(x, x + 0.5);
        }
    }
    assert!(s.pieces.len() <= MAX_PIECES);
    assert_eq!(s.range(), Some((-179.0, 120.5)));
}

fn to_xyz(lon: f64, lat: f64) -> [f64; 3] {
    let (l, p) = (lon.to_radians(), lat.to_radians());
    [p.cos() * l.cos(), p.cos() * l.sin(), p.sin()]
}

/// Points along the great-circle arc from `a` to `b` by spherical linear interpolation (a
/// different construction from the module's), as (lon, lat) degrees.
fn sample(a: (f64, f64), b: (f64, f64), n: usize) -> Vec<(f64, f64)> {
    let (p, q) = (to_xyz(a.0, a.1), to_xyz(b.0, b.1));
    let omega = dot(p, q).clamp(-1.0, 1.0).acos();
    (0..=n)
        .map(|i| {
            let t = i as f64 / n as f64;
            let (s0, s1) = if omega.sin() < 1e-12 {
                (1.0 - t, t)
            } else {
                (
                    ((1.0 - t) * omega).sin() / omega.sin(),
                    (t * omega).sin() / omega.sin(),
                )
            };
            let v = [0, 1, 2].map(|k| s0 * p[k] + s1 * q[k]);
            let r = dot(v, v).sqrt();
            let lat = (v[2] / r).clamp(-1.0, 1.0).asin().to_degrees();
            (v[1].atan2(v[0]).to_degrees(), lat)
        })
        .collect()
}

fn lon_inside(b: &BoundingBox, x: f64, tol: f64) -> bool {
    let within = |x: f64| {
        if b.xmin <= b.xmax {
            x >= b.xmin - tol && x <= b.xmax + tol
        } else {
            x >= b.xmin - tol || x <= b.xmax + tol
        }
    };
    within(x) || within(x + 360.0) || within(x - 360.0)
}

/// The width in degrees of the box's x range.
fn width(b: &BoundingBox) -> f64 {
    if b.xmin <= b.xmax {
        b.xmax - b.xmin
    } else {
        360.0 - (b.xmin - b.xmax)
    }
}

/// The narrowest range holding the sampled longitudes: 360 minus their largest gap.
fn sampled_width(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let mut gap = xs[0] + 360.0 - xs[xs.len() - 1];
    for w in xs.windows(2) {
        gap = gap.max(w[1] - w[0]);
    }
    360.0 - gap
}

fn coord() -> impl Strategy<Value = (f64, f64)> {
    // Some vertices on round values (the meridian, equator and antimeridian cases), most
    // anywhere.
    let lon = prop_oneof![
        4 => -180.0..=180.0f64,
        1 => prop::sample::select(vec![-180.0, -90.0, 0.0, 90.0, 180.0]),
    ];
    let lat = prop_oneof![
        4 => -90.0..=90.0f64,
        1 => prop::sample::select(vec![-89.9, -45.0, 0.0, 45.0, 89.9]),
    ];
    (lon, lat)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every point of every edge, sampled densely, is inside the box; and the box is no
    /// looser than the samples by more than the sampling's own error.
    #[test]
    fn box_holds_every_point_of_every_edge(pts in prop::collection::vec(coord(), 2..5)) {
        let b = line(&pts);
        let tol = 1e-9;
        let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut xs = Vec::new();
        let mut near_pole_or_antipodal = false;
        // The largest longitude step between consecutive samples: the resolution of the
        // sampled x range.
        let mut step: f64 = 0.0;
        for w in pts.windows(2) {
            let (p, q) = (to_xyz(w[0].0, w[0].1), to_xyz(w[1].0, w[1].1));
            if dot(p, q) < -1.0 + 1e-9 {
                near_pole_or_antipodal = true;
                continue;
            }
            let samples = sample(w[0], w[1], 4000);
            for s in samples.windows(2) {
                let d = (s[1].0 - s[0].0).abs();
                step = step.max(d.min(360.0 - d));
            }
            for (x, y) in samples {
                prop_assert!(y >= b.ymin - tol && y <= b.ymax + tol,
                    "lat {y} outside {b:?} for {pts:?}");
                if y.abs() < 90.0 - 1e-7 {
                    prop_assert!(lon_inside(&b, x, tol), "lon {x} (lat {y}) outside {b:?} for {pts:?}");
                    xs.push(x);
                }
                if y.abs() > 85.0 {
                    near_pole_or_antipodal = true;
                }
                ymin = ymin.min(y);
                ymax = ymax.max(y);
            }
        }
        if !near_pole_or_antipodal {
            // A 180° arc in 4000 steps misses the top by at most ~1e-4 degrees.
            prop_assert!(b.ymax - ymax < 1e-3 && ymin - b.ymin < 1e-3, "loose {b:?}: {ymin}..{ymax}");
            prop_assert!(width(&b) - sampled_width(&mut xs) < step + 1e-6,
                "loose x {b:?}: sampled width {}", sampled_width(&mut xs));
        }
    }

    /// A ring winding around the north pole (vertices at increasing longitudes, high
    /// latitudes) holds the pole, walked either way round.
    #[test]
    fn rings_around_the_pole(
        steps in prop::collection::vec((1.0..100.0f64, 30.0..89.0f64), 3..12),
        south in any::<bool>(),
        reverse in any::<bool>(),
    ) {
        let total: f64 = steps.iter().map(|s| s.0).sum();
        let mut lon = -180.0;
        let mut pts: Vec<(f64, f64)> = steps
            .iter()
            .map(|&(d, lat)| {
                let p = (lon, if south { -lat } else { lat });
                lon += d * 360.0 / total;
                p
            })
            .collect();
        // No step of 180° or more (the edge would go the other way round).
        prop_assume!(steps.iter().all(|s| s.0 * 360.0 / total < 179.0));
        pts.push(pts[0]);
        if reverse {
            pts.reverse();
        }
        let b = ring(&pts);
        prop_assert_eq!((b.xmin, b.xmax), (-180.0, 180.0));
        if south {
            prop_assert_eq!(b.ymin, -90.0);
            prop_assert!(b.ymax < 89.0);
        } else {
            prop_assert_eq!(b.ymax, 90.0);
            prop_assert!(b.ymin > -89.0);
        }
    }
}

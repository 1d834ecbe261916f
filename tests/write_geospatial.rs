//! GEOMETRY and GEOGRAPHY statistics written by parket (Geospatial.md, "Statistics"):
//!
//! - Random WKB values (every type, XY/Z/M/ZM, nested collections, both byte orders, empty
//!   geometries, NaN coordinates, nulls, an all-null row group) written by parket and, from
//!   parket's file, by pyarrow 26 (`tests/interop/geo_rewrite.py`): the GeospatialStatistics of
//!   every row group are equal, field for field. Skipped with a message without pyarrow.
//! - The corpus's GEOMETRY files rewritten by parket give the statistics their writer
//!   (parquet-cpp) wrote; its GEOGRAPHY files (written by SedonaDB) give boxes that contain
//!   every vertex, and agree with SedonaDB's within a small margin.
//! - No min/max and no column index for these columns (LogicalTypes.md: undefined order).
#![cfg(all(feature = "std", feature = "write"))]

use std::path::{Path, PathBuf};
use std::process::Command;

use parket::format::{BoundingBox, GeospatialStatistics};
use parket::read::FileReader;
use parket::schema::Schema;
use parket::values::{ByteArrays, ValuesRef};
use parket::write::{FileWriter, WriteOptions};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A WKB writer: each (sub)geometry with its own random byte order.
struct Wkb<'a> {
    rng: &'a mut Rng,
    out: Vec<u8>,
    /// Percent of coordinates that are NaN; percent of points that are empty.
    nan: u64,
    empty: u64,
}

impl Wkb<'_> {
    fn u32(&mut self, le: bool, v: u32) {
        let b = if le { v.to_le_bytes() } else { v.to_be_bytes() };
        self.out.extend_from_slice(&b);
    }
    fn f64(&mut self, le: bool, v: f64) {
        let b = if le { v.to_le_bytes() } else { v.to_be_bytes() };
        self.out.extend_from_slice(&b);
    }
    fn coord(&mut self) -> f64 {
        match self.rng.below(100) {
            n if n < self.nan => f64::NAN,
            n if n < self.nan + 2 => -0.0,
            _ => self.rng.below(2_000_000) as f64 / 1000.0 - 1000.0,
        }
    }
    /// A count below `max`; 0 when every geometry is to be empty.
    fn count(&mut self, le: bool, max: u64) -> u32 {
        let n = if self.empty == 100 {
            0
        } else {
            self.rng.below(max) as u32
        };
        self.u32(le, n);
        n
    }
    fn points(&mut self, le: bool, n: u32, dims: usize, empty_ok: bool) {
        for _ in 0..n {
            let empty = empty_ok && self.rng.below(100) < self.empty;
            for _ in 0..dims {
                let v = if empty { f64::NAN } else { self.coord() };
                self.f64(le, v);
            }
        }
    }
    /// A geometry of base type `base` (1..7) in dimension `dim` (0 XY, 1 Z, 2 M, 3 ZM).
    fn geometry(&mut self, base: u32, dim: u32, depth: u32) {
        let le = self.rng.below(4) != 0;
        self.out.push(le as u8);
        self.u32(le, base + 1000 * dim);
        let dims = 2 + [0, 1, 1, 2][dim as usize];
        match base {
            1 => self.points(le, 1, dims, true),
            2 => {
                let n = self.count(le, 5);
                self.points(le, n, dims, false);
            }
            3 => {
                let rings = self.count(le, 3);
                for _ in 0..rings {
                    let n = self.count(le, 6);
                    self.points(le, n, dims, false);
                }
            }
            _ => {
                let n = self.count(le, 4);
                for _ in 0..n {
                    let child = match base {
                        4..=6 => base - 3,
                        _ if depth < 2 => 1 + self.rng.below(7) as u32,
                        _ => 1 + self.rng.below(3) as u32,
                    };
                    self.geometry(child, dim, depth + 1);
                }
            }
        }
    }
}

/// A row group's recipe: (rows, types allowed, dims allowed, % null, % NaN coordinates,
/// % empty points; 100 makes every geometry empty).
type Plan = (usize, &'static [u32], &'static [u32], u64, u64, u64);

/// One row group's values: `None` is a null.
type Group = Vec<Option<Vec<u8>>>;

fn groups(seed: u64) -> Vec<Group> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let plans: [Plan; 7] = [
        (300, &[1, 2, 3, 4, 5, 6, 7], &[0, 1, 2, 3], 10, 3, 5),
        (50, &[1], &[0], 100, 0, 0),
        (40, &[1, 2, 3, 7], &[0, 1, 2, 3], 0, 0, 100),
        (200, &[1], &[0], 0, 0, 0),
        (200, &[2, 3, 6], &[1], 20, 20, 0),
        (100, &[7], &[2, 3], 5, 50, 50),
        (0, &[1], &[0], 0, 0, 0),
    ];
    for (rows, types, dims, null, nan, empty) in plans {
        let mut g = Vec::new();
        for _ in 0..rows {
            if rng.below(100) < null {
                g.push(None);
                continue;
            }
            let base = types[rng.below(types.len() as u64) as usize];
            let dim = dims[rng.below(dims.len() as u64) as usize];
            let mut w = Wkb {
                rng: &mut rng,
                out: Vec::new(),
                nan,
                empty,
            };
            // A collection-only plan still nests anything.
            w.geometry(base, dim, 0);
            g.push(Some(w.out));
        }
        out.push(g);
    }
    out
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parket-geo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write_parket(path: &Path, schema: &str, groups: &[Group], options: WriteOptions) {
    let schema = Schema::parse(schema).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut w = FileWriter::new(std::io::BufWriter::new(file), schema, options).unwrap();
    for g in groups {
        let mut values = ByteArrays::new();
        let mut def = Vec::new();
        for v in g {
            def.push(v.is_some() as u16);
            if let Some(v) = v {
                values.push(v);
            }
        }
        let mut rg = w.next_row_group().unwrap();
        for c in 0..rg.num_columns() {
            rg.write(c, ValuesRef::ByteArray(values.as_ref()), &def, &[])
                .unwrap();
        }
        rg.finish().unwrap();
    }
    w.finish().unwrap();
}

/// Each row group's statistics of column `j`, through the reader's metadata API.
fn chunk_geo(r: &FileReader<'_>, j: usize) -> Vec<Option<GeospatialStatistics>> {
    r.metadata()
        .row_groups
        .iter()
        .map(|rg| {
            let m = rg.columns[j].meta_data.as_ref().unwrap();
            m.geospatial_statistics.clone()
        })
        .collect()
}

/// Each row group's statistics of column 0 of the file at `path`.
fn read_geo(path: &Path) -> Vec<Option<GeospatialStatistics>> {
    chunk_geo(
        &FileReader::from_owned(std::fs::read(path).unwrap()).unwrap(),
        0,
    )
}

/// pyarrow's statistics for the values of `path`'s `column`, row group by row group, as the
/// thrift struct; `None` when pyarrow is not available.
fn pyarrow_geo(path: &Path, column: &str) -> Option<Vec<Option<GeospatialStatistics>>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/geo_rewrite.py");
    let out_path = path.with_extension("pyarrow.parquet");
    let out = match Command::new("python3")
        .arg(script)
        .arg(path)
        .arg(&out_path)
        .arg(column)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: python3 not available ({e})");
            return None;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("No module named 'pyarrow'") {
        eprintln!("skipped: pyarrow not installed");
        return None;
    }
    assert!(out.status.success(), "geo_rewrite.py: {stderr}");
    let f = |v: &serde_json::Value, k: &str| v[k].as_f64();
    let stats = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v.is_null() {
                return None;
            }
            let bbox = match (f(&v, "xmin"), f(&v, "xmax"), f(&v, "ymin"), f(&v, "ymax")) {
                (Some(xmin), Some(xmax), Some(ymin), Some(ymax)) => Some(BoundingBox {
                    xmin,
                    xmax,
                    ymin,
                    ymax,
                    zmin: f(&v, "zmin"),
                    zmax: f(&v, "zmax"),
                    mmin: f(&v, "mmin"),
                    mmax: f(&v, "mmax"),
                }),
                _ => None,
            };
            // to_dict shows the empty list ("not known") as null.
            let types = v["geospatial_types"]
                .as_array()
                .map(|t| t.iter().map(|x| x.as_i64().unwrap() as i32).collect())
                .unwrap_or_default();
            Some(GeospatialStatistics {
                bbox,
                geospatial_types: Some(types),
            })
        })
        .collect();
    Some(stats)
}

#[test]
fn geometry_statistics_equal_pyarrows() {
    let schema = "message m { optional binary g (GEOMETRY); }";
    for seed in 0..4 {
        let groups = groups(seed);
        let path = temp(&format!("random-{seed}.parquet"));
        write_parket(&path, schema, &groups, WriteOptions::default());
        let ours = read_geo(&path);
        assert_eq!(ours.len(), groups.len());
        // Hand-checked expectations that do not need pyarrow.
        let all_null = ours[1].as_ref().unwrap();
        assert_eq!(all_null.bbox, None);
        assert_eq!(all_null.geospatial_types.as_deref(), Some(&[][..]));
        let empties = ours[2].as_ref().unwrap();
        assert_eq!(empties.bbox, None, "only empty geometries: no box");
        assert!(!empties.geospatial_types.as_ref().unwrap().is_empty());
        let z = ours[4].as_ref().unwrap().bbox.as_ref().unwrap();
        assert!(z.zmin.is_some() && z.mmin.is_none());
        let Some(theirs) = pyarrow_geo(&path, "g") else {
            return;
        };
        assert_eq!(ours.len(), theirs.len(), "seed {seed}: row groups");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "seed {seed}, row group {i}");
        }
    }
}

#[test]
fn no_min_max_nor_column_index_for_geospatial_columns() {
    let groups = groups(7);
    for schema in [
        "message m { optional binary g (GEOMETRY); }",
        "message m { optional binary g (GEOGRAPHY); }",
    ] {
        let path = temp("no-min-max.parquet");
        // Coordinates of the random groups are not geographic: only the first plan's points
        // matter here, and a GEOGRAPHY box is left out for out-of-range values.
        write_parket(&path, schema, &groups[..4], WriteOptions::default());
        let r = FileReader::from_owned(std::fs::read(&path).unwrap()).unwrap();
        for rg in &r.metadata().row_groups {
            let cc = &rg.columns[0];
            let m = cc.meta_data.as_ref().unwrap();
            let st = m.statistics.as_ref().unwrap();
            assert!(st.min_value.is_none() && st.max_value.is_none() && st.min.is_none());
            assert!(st.null_count.is_some());
            assert!(
                cc.column_index_offset.is_none(),
                "{schema}: no column index"
            );
            assert!(m.geospatial_statistics.is_some());
        }
    }
    // Statistics off: no geospatial statistics either.
    let path = temp("stats-off.parquet");
    let options = WriteOptions::default().statistics(false);
    write_parket(
        &path,
        "message m { optional binary g (GEOMETRY); }",
        &groups[..1],
        options,
    );
    assert_eq!(read_geo(&path), [None]);
}

fn wkb_point(x: f64, y: f64) -> Vec<u8> {
    let mut v = vec![1, 1, 0, 0, 0];
    v.extend(x.to_le_bytes());
    v.extend(y.to_le_bytes());
    v
}

#[test]
fn crs_and_algorithms_round_trip_and_choose_the_box() {
    let schema = "message m {
  optional binary k (GEOGRAPHY(OGC:CRS84,KARNEY));
  optional binary g (GEOMETRY(srid:5070));
  optional binary s (GEOGRAPHY);
}";
    // POINT (10 20), LINESTRING (170 10, -170 10), a null.
    let mut line = vec![1, 2, 0, 0, 0, 2, 0, 0, 0];
    for v in [170.0f64, 10.0, -170.0, 10.0] {
        line.extend(v.to_le_bytes());
    }
    let groups = vec![vec![Some(wkb_point(10.0, 20.0)), Some(line), None]];
    let path = temp("crs.parquet");
    write_parket(&path, schema, &groups, WriteOptions::default());
    let r = FileReader::from_owned(std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        r.schema().to_string(),
        Schema::parse(schema).unwrap().to_string()
    );
    let geo = |c: usize| {
        let m = r.metadata().row_groups[0].columns[c]
            .meta_data
            .clone()
            .unwrap();
        m.geospatial_statistics.unwrap()
    };
    // KARNEY (ellipsoidal geodesics): type codes only.
    assert_eq!(geo(0).bbox, None);
    assert_eq!(geo(0).geospatial_types, Some(vec![1, 2]));
    // Planar: the coordinates' extent.
    let g = geo(1).bbox.unwrap();
    assert_eq!(
        (g.xmin, g.xmax, g.ymin, g.ymax),
        (-170.0, 170.0, 10.0, 20.0)
    );
    // Spherical: covered longitudes {10} and 170..-170 across the antimeridian; the largest
    // gap is -170..10, so the box wraps from 10 to -170; the arc bulges to 10.15108 degrees,
    // below the point's 20.
    let s = geo(2).bbox.unwrap();
    assert_eq!((s.xmin, s.xmax, s.ymin, s.ymax), (10.0, -170.0, 10.0, 20.0));
    // pyarrow reads the annotations as written.
    let out = Command::new("python3")
        .args([
            "-c",
            "import sys, pyarrow.parquet as pq; print(pq.ParquetFile(sys.argv[1]).schema)",
        ])
        .arg(&path)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(
                text.contains("k (Geography(crs=OGC:CRS84, algorithm=karney))")
                    && text.contains("g (Geometry(crs=srid:5070))")
                    && text.contains("s (Geography(crs=, algorithm=spherical))"),
                "{text}"
            );
        }
        _ => eprintln!("skipped the pyarrow schema check: no python3 with pyarrow"),
    }
}

/// Every row group of a corpus file rewritten by parket, column `column` returned.
fn rewrite_corpus(
    name: &str,
) -> (
    Vec<Option<GeospatialStatistics>>,
    Vec<Option<GeospatialStatistics>>,
) {
    let path = parket::testing::corpus_dir()
        .join("data/geospatial")
        .join(name);
    let r = FileReader::from_owned(std::fs::read(&path).unwrap()).unwrap();
    let schema = r.schema();
    let j = (0..schema.columns().len())
        .find(|&j| {
            matches!(
                schema.column(j).unwrap().logical_type,
                Some(parket::format::LogicalType::Geometry { .. })
                    | Some(parket::format::LogicalType::Geography { .. })
            )
        })
        .unwrap();
    let theirs = chunk_geo(&r, j);
    let out = temp(&format!("rewrite-{name}"));
    let file = std::fs::File::create(&out).unwrap();
    let mut w = FileWriter::new(
        std::io::BufWriter::new(file),
        schema.clone(),
        WriteOptions::default(),
    )
    .unwrap();
    let all: Vec<usize> = (0..schema.columns().len()).collect();
    for i in 0..r.num_row_groups() {
        let leaves = r.read_row_group(i, &all).unwrap();
        let mut rg = w.next_row_group().unwrap();
        for (c, l) in leaves.iter().enumerate() {
            rg.write(c, l.values.as_ref(), &l.def_levels, &l.rep_levels)
                .unwrap();
        }
        rg.finish().unwrap();
    }
    w.finish().unwrap();
    drop(w);
    let r2 = FileReader::from_owned(std::fs::read(&out).unwrap()).unwrap();
    let ours = chunk_geo(&r2, j);
    (ours, theirs)
}

#[test]
fn corpus_geometry_files_rewritten_give_their_statistics() {
    for name in [
        "geospatial.parquet",
        "geospatial-with-nan.parquet",
        "crs-default.parquet",
        "crs-srid.parquet",
        "crs-projjson.parquet",
        "crs-arbitrary-value.parquet",
    ] {
        let (ours, theirs) = rewrite_corpus(name);
        assert_eq!(ours, theirs, "{name}");
    }
}

/// Whether `x` is in the box's x range (wrapping when `xmin > xmax`), with a margin.
fn x_inside(b: &BoundingBox, x: f64, tol: f64) -> bool {
    if b.xmin <= b.xmax {
        x >= b.xmin - tol && x <= b.xmax + tol
    } else {
        x >= b.xmin - tol || x <= b.xmax + tol
    }
}

/// Collects vertices (x, y).
struct Vertices(Vec<(f64, f64)>);

impl parket::geospatial::wkb::Visitor for Vertices {
    fn begin(&mut self, _: parket::geospatial::wkb::Path) {}
    fn vertex(&mut self, c: [f64; 4]) {
        self.0.push((c[0], c[1]));
    }
    fn end(&mut self) {}
}

/// Row groups where parket's box and SedonaDB's differ, and why.
const SEDONA_DIFFERENCES: &[(&str, usize, &str)] = &[
    (
        "geography-points.parquet",
        20,
        "a point at the north pole: parket's box spans every longitude (the pole is at all of \
         them), SedonaDB's keeps the longitude the point was written with",
    ),
    ("geography-points.parquet", 45, "the same at the south pole"),
    (
        "geography-polygons.parquet",
        28,
        "ten small diamonds near the antimeridian (latitudes -44.5..-7.2): SedonaDB's box \
         claims the north pole and every longitude; parket's is 148.79..-171.69 (wrapping) by \
         -44.53..-7.18 and holds every vertex",
    ),
];

#[test]
fn corpus_geography_boxes_agree_with_sedonadb() {
    let mut differing = 0;
    for name in [
        "geography-points.parquet",
        "geography-lines.parquet",
        "geography-polygons.parquet",
    ] {
        let (ours, theirs) = rewrite_corpus(name);
        assert_eq!(ours.len(), 50, "{name}");
        let path = parket::testing::corpus_dir()
            .join("data/geospatial")
            .join(name);
        let r = FileReader::from_owned(std::fs::read(&path).unwrap()).unwrap();
        let j = r.schema().column_index("geometry").unwrap();
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
            assert_eq!(a.geospatial_types, b.geospatial_types, "{name} {i}");
            let (a, b) = (a.bbox.as_ref().unwrap(), b.bbox.as_ref().unwrap());
            // Every vertex is in parket's box.
            let leaves = r.read_row_group(i, &[j]).unwrap();
            let parket::values::Values::ByteArray(values) = &leaves[0].values else {
                panic!("{name}: geometry is BYTE_ARRAY")
            };
            for v in values.iter() {
                let mut vs = Vertices(Vec::new());
                parket::geospatial::wkb::walk(v, &mut vs).unwrap();
                for (x, y) in vs.0 {
                    assert!(
                        x_inside(a, x, 0.0) && y >= a.ymin && y <= a.ymax,
                        "{name} {i}: ({x}, {y}) outside {a:?}"
                    );
                }
            }
            let near = |p: f64, q: f64| (p - q).abs() < 1e-9;
            let same = near(a.xmin, b.xmin)
                && near(a.xmax, b.xmax)
                && near(a.ymin, b.ymin)
                && near(a.ymax, b.ymax);
            let listed = SEDONA_DIFFERENCES.iter().any(|d| d.0 == name && d.1 == i);
            assert_eq!(
                same, !listed,
                "{name} row group {i}: parket {a:?}, SedonaDB {b:?}"
            );
            differing += listed as usize;
        }
    }
    assert_eq!(differing, SEDONA_DIFFERENCES.len());
}

#!/usr/bin/env python3
"""The explorer test: opens explorer/index.html in headless Chromium on corpus files and checks
what the page shows.

For each file, a copy of index.html that also loads the file (as base64, through the page's
PARKET_OPEN hook) is opened from a file:// URL; Chromium prints the DOM after the page's
scripts ran (the page reads the file synchronously), and takes a screenshot into
target/explorer-screens/. The DOM is checked against
  - pyarrow (independent of parket): row count, every leaf's name and physical type in the
    schema, and per column chunk the level count of its data pages in the pages table
    (pyarrow's ColumnChunkMetaData.num_values); for a file pyarrow cannot open, that the page
    shows an error;
  - the native `parket` tool: the schema, metadata, levels and page dump texts are the same
    bytes the command line prints, the pages table has one row per line of `pages --json`
    (and the same page errors), the layout table one row per region of `layout --html`.
So the WebAssembly build, the WASI host in wasi.js and the page together show what the tool
shows. Chromium missing is a failure, never a skip.

Usage: python3 explorer/test_explorer.py [--no-build]   (PARQUET_TEST_DATA: the corpus)
Closes with "explorer: N passed, N failed"; exits 1 on any failure.
"""

import base64
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPLORER = os.path.join(ROOT, "explorer")
TARGET = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
TARGET = os.path.abspath(TARGET)
WORK = os.path.join(TARGET, "explorer-test")
SCREENS = os.path.join(TARGET, "explorer-screens")
DATA = os.environ.get("PARQUET_TEST_DATA") or os.path.join(ROOT, "..", "shared", "parquet-testing")

# Varied corpus files: nested lists (dictionary, SNAPPY), data page V2, a page index with null
# pages, Bloom filters + encoding stats, DELTA_BINARY_PACKED, nested MAPs,
# BYTE_STREAM_SPLIT with ZSTD (the pure-Rust decoder), a file whose pages do not decode and
# one whose footer does not parse.
CASES = [
    ("data", "nested_lists.snappy.parquet"),
    ("data", "datapage_v2.snappy.parquet"),
    ("data", "int32_with_null_pages.parquet"),
    ("data", "data_index_bloom_encoding_stats.parquet"),
    ("data", "delta_binary_packed.parquet"),
    ("data", "nested_maps.snappy.parquet"),
    ("data", "byte_stream_split.zstd.parquet"),
    ("bad_data", "ARROW-GH-41321.parquet"),
    ("bad_data", "PARQUET-1481.parquet"),
]

# How the schema text (parquet-format's message syntax) names pyarrow's physical types.
SCHEMA_TYPE = {"BYTE_ARRAY": "binary", "FIXED_LEN_BYTE_ARRAY": "fixed_len_byte_array"}

MAX_PAGE_ROWS = 2000  # explorer.js shows at most this many pages

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Dom(html.parser.HTMLParser):
    """The text of each element with an id, the rows of the pages table, what #layout holds."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, id, classes)
        self.text = {}
        self.classes = {}
        self.page_rows = []
        self.layout_rows = 0
        self.layout_svg = False
        self.attrs_of = {}

    def inside(self, ident):
        return any(i == ident for _, i, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        ident = a.get("id")
        if ident:
            self.text.setdefault(ident, "")
            self.classes[ident] = (a.get("class") or "").split()
        if tag == "body":
            self.attrs_of["body"] = a
        if tag == "tr" and self.inside("pages") and any(t == "tbody" for t, _, _ in self.stack):
            self.page_rows.append([])
        if tag == "td" and self.inside("pages") and self.page_rows:
            self.page_rows[-1].append("")
        if self.inside("layout"):
            if tag == "tr":
                self.layout_rows += 1
            if tag == "svg":
                self.layout_svg = True
        if tag not in VOID:
            self.stack.append((tag, ident, a.get("class")))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                return

    def handle_data(self, data):
        for _, ident, _ in self.stack:
            if ident:
                self.text[ident] += data
        if self.stack and self.stack[-1][0] == "td" and self.inside("pages") and self.page_rows:
            self.page_rows[-1][-1] += data


class Failed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failed(what)


def same(got, want, what):
    if got != want:
        g, w = got.splitlines(), want.splitlines()
        for k in range(max(len(g), len(w))):
            a = g[k] if k < len(g) else "<missing>"
            b = w[k] if k < len(w) else "<missing>"
            if a != b:
                raise Failed(f"{what}: line {k + 1} differs:\n  page:   {a!r}\n  parket: {b!r}")
        raise Failed(f"{what}: differs (line ends)")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("explorer test: no chromium on PATH (install Debian's `chromium` package; "
             ".ci/run does): FAILED, not skipped\nexplorer: 0 passed, 1 failed")


def chromium(binary, url, *extra):
    # --virtual-time-budget lets the (synchronous) page settle before the DOM is printed.
    cmd = [binary, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
           "--allow-file-access-from-files", "--virtual-time-budget=5000", *extra, url]
    r = run(cmd, timeout=120)
    if r.returncode != 0:
        raise Failed(f"chromium exited {r.returncode}: {r.stderr[-2000:]}")
    return r.stdout


def page_for(name, data, after=None):
    """A copy of index.html that opens `data` on load, then runs the script `after` (if any);
    returns its file:// URL."""
    case_dir = os.path.join(WORK, name + ("-clicked" if after else ""))
    os.makedirs(case_dir, exist_ok=True)
    with open(os.path.join(case_dir, "case.js"), "w") as f:
        f.write("const PARKET_OPEN = %s;\n" % json.dumps(
            {"name": name, "base64": base64.b64encode(data).decode()}))
    with open(os.path.join(EXPLORER, "index.html")) as f:
        page = f.read()
    hook = '<script src="explorer.js">'
    check(hook in page and "<head>" in page, "index.html lost its explorer.js script tag")
    page = page.replace("<head>", '<head><base href="file://%s/">' % EXPLORER, 1)
    page = page.replace(hook, '<script src="file://%s/case.js"></script>%s' % (case_dir, hook))
    if after:
        with open(os.path.join(case_dir, "after.js"), "w") as f:
            f.write(after)
        page = page.replace("</body>", '<script src="file://%s/after.js"></script></body>' % case_dir)
    with open(os.path.join(case_dir, "case.html"), "w") as f:
        f.write(page)
    return "file://" + os.path.join(case_dir, "case.html")


def screenshot(binary, url, name):
    out = os.path.join(SCREENS, name + ".png")
    chromium(binary, url, "--window-size=1400,3200", "--screenshot=" + out)
    check(os.path.getsize(out) > 10000, f"screenshot {out} is nearly empty")


def test_empty_page(binary):
    """index.html itself, from its file:// URL: the embedded WebAssembly compiles."""
    url = "file://" + os.path.join(EXPLORER, "index.html")
    dom = Dom()
    dom.feed(chromium(binary, url, "--dump-dom"))
    same(dom.text.get("status", "").strip(), "No file yet.", "status of the empty page")
    check("error" not in dom.classes.get("status", []), "the empty page shows an error")
    screenshot(binary, url, "index")


# What a person does on the page, in order; each result is copied into a <pre id="t-...">.
CLICKS = """
"use strict";
const keep = (id, from) => {
  const pre = document.createElement("pre");
  pre.id = id;
  pre.textContent = document.getElementById(from).textContent;
  document.body.appendChild(pre);
};
const rows = document.querySelectorAll("#pages tbody tr");
rows[rows.length - 1].click();
keep("t-page", "dump");
const what = document.getElementById("dump-what");
what.selectedIndex = [...what.options].findIndex((o) => o.textContent.startsWith("offset index"));
document.querySelector("#dump-controls button").click();
keep("t-offset-index", "dump");
document.getElementById("levels-column").value = "int32_field";
document.getElementById("levels-rows").value = "5..7";
document.getElementById("levels-show").click();
keep("t-levels", "levels");
document.getElementById("check-run").click();
keep("t-check", "check");
"""


def test_clicks(binary, parket):
    """Clicking a page dumps it; the dump menu, the levels controls and check work."""
    name = "int32_with_null_pages.parquet"
    path = os.path.join(DATA, "data", name)
    with open(path, "rb") as f:
        url = page_for(name, f.read(), after=CLICKS)
    dom = Dom()
    dom.feed(chromium(binary, url, "--dump-dom"))
    pages = [json.loads(line) for line in run([parket, "pages", "--json", path]).stdout.split()]

    def native(*args):
        r = run([parket, *args, path])
        check(r.returncode == 0, f"parket {' '.join(args)}: {r.stderr}")
        return r.stdout.replace(path, "/" + name)

    for ident in ("t-page", "t-offset-index", "t-levels", "t-check"):
        check(ident in dom.text, f"the clicks did not finish ({ident} missing)")
    same(dom.text["t-page"], native("dump", "--at", str(pages[-1]["offset"])), "last page's dump")
    same(dom.text["t-offset-index"], native("dump", "--offset-index", "0:0"), "offset index")
    same(dom.text["t-levels"], native("levels", "--column", "int32_field", "--rows", "5..7"),
         "levels of one column")
    seconds = lambda text: re.sub(r", [0-9.]+ s$", ", (time) s", text, flags=re.M)
    same(seconds(dom.text["t-check"]), seconds(native("check")), "check")
    return f"page {len(pages) - 1} dumped, offset index, levels 5..7, check"


def test_file(binary, parket, folder, name):
    import pyarrow.parquet as pq

    path = os.path.join(DATA, folder, name)
    with open(path, "rb") as f:
        data = f.read()
    url = page_for(name, data)
    dom = Dom()
    dom.feed(chromium(binary, url, "--dump-dom"))
    screenshot(binary, url, name)
    check(dom.attrs_of.get("body", {}).get("data-loaded") == name,
          "the page did not finish loading the file")
    status = dom.text.get("status", "").strip()
    wasm_path = "/" + name

    def native(*args):
        return run([parket, *args, path])

    def shown(r):
        """What the page shows of a command's result: stdout, then the error without the
        program's name (and with the page's path for the file)."""
        out = r.stdout if r.returncode == 0 else r.stdout + r.stderr.replace("parket: ", "", 1)
        return out.replace(path, wasm_path)

    try:
        pf = pq.ParquetFile(path)
    except Exception as e:  # pyarrow cannot read the footer either: the page must say why
        r = native("schema")
        check(r.returncode != 0, f"pyarrow fails ({e}) but parket reads the schema")
        why = r.stderr.strip().split(f"{path}: ", 1)[-1]
        check("error" in dom.classes.get("status", []), f"status {status!r} is not an error")
        check(why in status, f"status {status!r} does not say {why!r}")
        return f"error shown: {why}"

    md = pf.metadata
    check(status.startswith(f"{name}: {len(data)} bytes, {md.num_rows} rows"),
          f"status {status!r}: pyarrow says {md.num_rows} rows")
    schema_text = dom.text["schema"]
    for i in range(len(pf.schema)):
        col = pf.schema.column(i)
        check(f" {col.name}" in schema_text, f"leaf {col.path} not in the schema view")
        check(SCHEMA_TYPE.get(col.physical_type, col.physical_type.lower()) in schema_text,
              f"physical type {col.physical_type} of {col.path} not in the schema view")
    same(schema_text, shown(native("schema")), "schema")
    same(dom.text["meta"], shown(native("meta")), "meta")
    same(dom.text["levels"], shown(native("levels", "--rows", "0..10")), "levels")

    # Pages: one row per page; the data pages of each chunk hold its values (pyarrow's count).
    want = [json.loads(line) for line in native("pages", "--json").stdout.splitlines() if line]
    rows = dom.page_rows
    check(len(rows) == min(len(want), MAX_PAGE_ROWS),
          f"{len(rows)} rows in the pages table, parket pages has {len(want)}")
    check(dom.text["pages-count"].startswith(f"{len(want)} page(s)"),
          f"the pages count says {dom.text['pages-count']!r}, parket pages has {len(want)}")
    levels = {}
    check(len(want) <= MAX_PAGE_ROWS, "pick a test file with fewer pages")
    for r in rows:
        rg, column, page_type, values = int(r[0]), r[1], r[4], r[8]
        if page_type.startswith("DATA_PAGE") and values != "-":
            levels[(rg, column)] = levels.get((rg, column), 0) + int(values)
    for i in range(md.num_row_groups):
        for j in range(md.num_columns):
            c = md.row_group(i).column(j)
            got = levels.get((i, c.path_in_schema), 0)
            check(got == c.num_values,
                  f"row group {i}, {c.path_in_schema}: the pages table's data pages hold {got} "
                  f"values, pyarrow says {c.num_values}")
    errors = sum(1 for r in rows if r[13].strip())
    want_errors = sum(1 for p in want if p["error"])
    check(errors == want_errors, f"{errors} page errors shown, parket pages has {want_errors}")

    # The dump shown first is the first page's, as `parket dump --at` prints it.
    if want:
        same(dom.text["dump"], shown(native("dump", "--at", str(want[0]["offset"]))), "page dump")

    # The layout: the picture and one table row per region (plus the header row).
    check(dom.layout_svg, "no layout picture")
    html_out = os.path.join(WORK, name, "layout.html")
    r = run([parket, "layout", "--html", html_out, path])
    check(r.returncode == 0, f"parket layout: {r.stderr}")
    with open(html_out) as f:
        want_rows = f.read().count("<tr>")
    check(dom.layout_rows == want_rows,
          f"layout table has {dom.layout_rows} rows, parket layout has {want_rows}")
    return (f"{md.num_rows} rows, {md.num_row_groups} row group(s), {len(rows)} pages, "
            f"{errors} page error(s)")


def main():
    started = time.time()
    if "--no-build" not in sys.argv:
        subprocess.run([os.path.join(EXPLORER, "build.sh")], check=True)
        subprocess.run(["cargo", "build", "-q", "--profile", "test", "--all-features", "--bin",
                        "parket"], check=True, cwd=ROOT)
    parket = os.path.join(TARGET, "debug", "parket")
    binary = chromium_binary()
    print(run([binary, "--version"]).stdout.strip())
    shutil.rmtree(SCREENS, ignore_errors=True)  # only this run's pictures
    os.makedirs(SCREENS)
    passed = failed = 0
    tests = [("index.html", lambda: test_empty_page(binary) or "loads from file://")]
    tests += [(n, lambda f=f, n=n: test_file(binary, parket, f, n)) for f, n in CASES]
    tests.append(("clicks", lambda: test_clicks(binary, parket)))
    for name, test in tests:
        t = time.time()
        try:
            what = test()
            passed += 1
            print(f"ok   {name} ({time.time() - t:.1f}s): {what}")
        except (Failed, subprocess.SubprocessError, OSError) as e:
            failed += 1
            print(f"FAIL {name} ({time.time() - t:.1f}s): {e}")
    print(f"screenshots in {SCREENS}; {time.time() - started:.0f}s in all")
    print(f"explorer: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

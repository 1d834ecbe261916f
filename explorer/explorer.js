// The explorer page: runs the parket command-line tool (compiled to WebAssembly by build.sh,
// embedded as base64 in parket-wasm.js) on a dropped file through wasi.js, and shows what each
// command prints. Plain JavaScript, no build step: the page works from a file:// URL.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let wasmModule = null;
  let current = null; // {name, path, bytes, meta}
  // A table of more pages than this is slow to draw and no easier to read.
  const MAX_PAGE_ROWS = 2000;

  function status(text, isError) {
    $("status").textContent = text;
    $("status").className = isError ? "error" : "";
  }

  function fromBase64(text) {
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  // Compiles the embedded module: synchronously where the browser allows it for a module this
  // size (then the page is complete when its scripts have run), else in the background.
  function compile(then) {
    if (typeof PARKET_WASM_BASE64 === "undefined") {
      status("parket-wasm.js is missing: run explorer/build.sh to build it", true);
      return;
    }
    const bytes = fromBase64(PARKET_WASM_BASE64);
    try {
      wasmModule = new WebAssembly.Module(bytes);
      then();
    } catch (e) {
      status("compiling the parket module…", false);
      WebAssembly.compile(bytes).then(
        (m) => {
          wasmModule = m;
          status(current ? $("status").textContent : "No file yet.", false);
          then();
        },
        (err) => status(`the parket module does not compile: ${err}`, true)
      );
    }
  }

  function module() {
    if (!wasmModule) throw new Error("the parket module is not ready yet");
    return wasmModule;
  }

  // Runs `parket ARGS...` on the current file; returns {code, stdout, stderr, files}.
  function parket(...args) {
    const files = new Map([[current.path, current.bytes]]);
    return runWasi(module(), ["parket", ...args], files);
  }

  // Shows what a command printed in `el`, then its error if it failed.
  function show(el, r) {
    el.textContent = r.code === 0 ? r.stdout : r.stdout + r.stderr.replace(/^parket: /, "");
    el.className = r.code === 0 ? "" : "error";
    return r.code === 0;
  }

  function cell(tr, text, numeric) {
    const td = document.createElement("td");
    td.textContent = text === null || text === undefined ? "-" : String(text);
    if (numeric) td.className = "n";
    tr.appendChild(td);
  }

  function showPages() {
    const box = $("pages");
    box.textContent = "";
    const r = parket("pages", "--json", current.path);
    if (r.code !== 0) {
      const pre = document.createElement("pre");
      show(pre, r);
      box.appendChild(pre);
      return [];
    }
    const pages = r.stdout.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    const table = document.createElement("table");
    table.className = "pages";
    const head = ["rg", "column", "page", "offset", "type", "encoding (def/rep)", "compressed",
      "uncompressed", "values", "nulls", "rows", "crc", "first .. last", "error"];
    const thead = table.createTHead().insertRow();
    for (const h of head) {
      const th = document.createElement("th");
      th.textContent = h;
      thead.appendChild(th);
    }
    const body = table.createTBody();
    for (const p of pages.slice(0, MAX_PAGE_ROWS)) {
      const tr = body.insertRow();
      tr.dataset.offset = p.offset;
      let enc = p.encoding || "-";
      if (p.definition_level_encoding || p.repetition_level_encoding) {
        enc += ` (${p.definition_level_encoding || "-"}/${p.repetition_level_encoding || "-"})`;
      }
      cell(tr, p.row_group, true);
      cell(tr, p.column);
      cell(tr, p.page, true);
      cell(tr, p.offset, true);
      cell(tr, p.page_type);
      cell(tr, enc);
      cell(tr, p.compressed_page_size, true);
      cell(tr, p.uncompressed_page_size, true);
      cell(tr, p.num_values, true);
      cell(tr, p.num_nulls, true);
      cell(tr, p.num_rows, true);
      cell(tr, p.crc);
      cell(tr, `${p.first ?? "-"} .. ${p.last ?? "-"}`);
      cell(tr, p.error || "");
      tr.addEventListener("click", () => {
        for (const c of body.querySelectorAll("tr.chosen")) c.classList.remove("chosen");
        tr.classList.add("chosen");
        dump(`page at offset ${p.offset} (row group ${p.row_group}, ${p.column}, page ${p.page})`,
          "--at", String(p.offset));
        $("sec-dump").scrollIntoView();
      });
    }
    box.appendChild(table);
    const note = document.createElement("div");
    note.className = "note";
    note.id = "pages-count";
    note.textContent = `${pages.length} page(s)` +
      (pages.length > MAX_PAGE_ROWS ? `, the first ${MAX_PAGE_ROWS} shown` : "");
    box.appendChild(note);
    return pages;
  }

  function dump(title, ...args) {
    $("dump-title").textContent = title;
    show($("dump"), parket("dump", ...args, current.path));
  }

  // The structures `dump` can annotate: the footer, and each chunk's page index and Bloom filter.
  function dumpControls() {
    const box = $("dump-controls");
    box.textContent = "";
    const select = document.createElement("select");
    select.id = "dump-what";
    const add = (label, args) => {
      const o = document.createElement("option");
      o.textContent = label;
      o.value = JSON.stringify(args);
      select.appendChild(o);
    };
    add("footer (FileMetaData)", ["--footer"]);
    const rgs = (current.meta && current.meta.row_groups) || [];
    rgs.forEach((rg, i) =>
      rg.columns.forEach((c, j) => {
        const at = `${i}:${j}`;
        if (c.column_index) add(`column index of row group ${i}, ${c.path}`, ["--column-index", at]);
        if (c.offset_index) add(`offset index of row group ${i}, ${c.path}`, ["--offset-index", at]);
        if (c.bloom_filter) add(`Bloom filter of row group ${i}, ${c.path}`, ["--bloom-filter", at]);
      })
    );
    const button = document.createElement("button");
    button.textContent = "dump";
    button.addEventListener("click", () =>
      dump(select.selectedOptions[0].textContent, ...JSON.parse(select.value))
    );
    const title = document.createElement("span");
    title.id = "dump-title";
    box.append(select, button, "showing: ", title);
  }

  function showLevels() {
    const column = $("levels-column").value;
    const args = ["levels", "--rows", $("levels-rows").value.trim() || "0..10"];
    if (column) args.push("--column", column);
    show($("levels"), parket(...args, current.path));
  }

  function levelControls() {
    const select = $("levels-column");
    select.textContent = "";
    const add = (label, value) => {
      const o = document.createElement("option");
      o.textContent = label;
      o.value = value;
      select.appendChild(o);
    };
    add("all leaves", "");
    const rg = current.meta && current.meta.row_groups && current.meta.row_groups[0];
    for (const c of (rg && rg.columns) || []) add(c.path, c.path);
  }

  function showLayout() {
    const box = $("layout");
    box.textContent = "";
    const r = parket("layout", "--html", "/layout.html", current.path);
    const html = r.files.get("/layout.html");
    if (r.code !== 0 || !html) {
      const pre = document.createElement("pre");
      show(pre, r);
      box.appendChild(pre);
      return;
    }
    const doc = new DOMParser().parseFromString(new TextDecoder().decode(html), "text/html");
    for (const node of Array.from(doc.body.childNodes)) box.appendChild(document.adoptNode(node));
  }

  function openFile(name, bytes) {
    const started = performance.now();
    current = { name, path: "/" + name.replace(/[\/\\]/g, "_"), bytes, meta: null };
    $("views").classList.remove("hidden");
    $("check").textContent = "";
    try {
      const schemaOk = show($("schema"), parket("schema", current.path));
      show($("meta"), parket("meta", current.path));
      const mj = parket("meta", "--json", current.path);
      if (mj.code === 0) current.meta = JSON.parse(mj.stdout);
      showLayout();
      const pages = showPages();
      dumpControls();
      if (pages.length > 0) {
        dump(`page at offset ${pages[0].offset} (row group 0, ${pages[0].column}, page 0)`,
          "--at", String(pages[0].offset));
      } else {
        dump("footer (FileMetaData)", "--footer");
      }
      levelControls();
      showLevels();
      const ms = Math.round(performance.now() - started);
      if (schemaOk) {
        const rows = current.meta ? `, ${current.meta.num_rows} rows` : "";
        status(`${name}: ${bytes.length} bytes${rows} (read in ${ms} ms)`, false);
      } else {
        status(`${name}: not readable: ${$("schema").textContent}`, true);
      }
    } catch (e) {
      status(`${name}: ${e.message || e}`, true);
    }
    document.body.dataset.loaded = name; // for tests: the views are complete
  }

  function openBlob(file) {
    status(`reading ${file.name}…`, false);
    file.arrayBuffer().then(
      (buf) => openFile(file.name, new Uint8Array(buf)),
      (e) => status(`${file.name}: ${e}`, true)
    );
  }

  $("pick").addEventListener("change", (e) => {
    if (e.target.files.length) openBlob(e.target.files[0]);
  });
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    $("drop").classList.add("over");
  });
  document.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    $("drop").classList.remove("over");
    if (e.dataTransfer.files.length) openBlob(e.dataTransfer.files[0]);
  });
  $("levels-show").addEventListener("click", () => current && showLevels());
  $("check-run").addEventListener("click", () => {
    if (current) show($("check"), parket("check", current.path));
  });

  // Tests (and anyone embedding the page) may set PARKET_OPEN = {name, base64} before this script.
  compile(() => {
    if (typeof PARKET_OPEN !== "undefined") openFile(PARKET_OPEN.name, fromBase64(PARKET_OPEN.base64));
  });
})();

// A minimal WASI (preview 1) host for running the `parket` command-line tool, compiled to
// wasm32-wasip1, inside a web page (or node) with no server: files live in memory.
//
// runWasi(module, args, files) instantiates `module` afresh (a WASI command runs once), gives
// it the command line `args`, a preopened directory "/" holding `files` (a Map from absolute
// path to Uint8Array), and returns {code, stdout, stderr, files}: the exit code, what it
// printed, and the files afterwards (including any it wrote, such as `layout --svg /out.svg`).
//
// Only what Rust's std needs for reading and writing whole files and printing is implemented;
// every other WASI call answers ENOSYS, so a tool that needs more fails with an error message
// rather than a link error. The calls and layouts follow the WASI preview 1 specification
// (wasi_snapshot_preview1.witx).
"use strict";

(function (root) {
  const E = { SUCCESS: 0, BADF: 8, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, SPIPE: 70 };
  const FILETYPE = { CHAR: 2, DIR: 3, FILE: 4 };
  const OFLAGS = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
  const ROOT_FD = 3;

  class Exit {
    constructor(code) {
      this.code = code;
    }
  }

  function runWasi(module, args, files) {
    files = new Map(files);
    const enc = new TextEncoder();
    const out = { 1: [], 2: [] };
    // fd -> {path, pos} for open files; ROOT_FD is the preopened "/".
    const fds = new Map();
    let nextFd = ROOT_FD + 1;
    let memory = null;
    const view = () => new DataView(memory.buffer);
    const bytes = () => new Uint8Array(memory.buffer);
    const str = (ptr, len) => new TextDecoder().decode(bytes().subarray(ptr, ptr + len));
    const argBytes = args.map((a) => enc.encode(a + "\0"));

    function resolve(dirfd, ptr, len) {
      if (dirfd !== ROOT_FD) return null;
      const parts = [];
      for (const p of str(ptr, len).split("/")) {
        if (p === "" || p === ".") continue;
        if (p === "..") parts.pop();
        else parts.push(p);
      }
      return "/" + parts.join("/");
    }
    function putFilestat(ptr, type, size) {
      const v = view();
      for (let i = 0; i < 64; i += 8) v.setBigUint64(ptr + i, 0n, true);
      v.setUint8(ptr + 16, type);
      v.setBigUint64(ptr + 24, 1n, true);
      v.setBigUint64(ptr + 32, BigInt(size), true);
    }
    // Calls iov(buf, len) for each iovec and writes the total it returns at resultPtr.
    function eachIov(iovs, n, resultPtr, iov) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const v = view();
        const buf = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        const done = iov(buf, len);
        total += done;
        if (done < len) break;
      }
      view().setUint32(resultPtr, total, true);
      return E.SUCCESS;
    }

    const wasi = {
      args_sizes_get(argc, size) {
        view().setUint32(argc, args.length, true);
        view().setUint32(size, argBytes.reduce((s, b) => s + b.length, 0), true);
        return E.SUCCESS;
      },
      args_get(argv, buf) {
        for (let i = 0; i < argBytes.length; i++) {
          view().setUint32(argv + 4 * i, buf, true);
          bytes().set(argBytes[i], buf);
          buf += argBytes[i].length;
        }
        return E.SUCCESS;
      },
      environ_sizes_get(count, size) {
        view().setUint32(count, 0, true);
        view().setUint32(size, 0, true);
        return E.SUCCESS;
      },
      environ_get() {
        return E.SUCCESS;
      },
      fd_prestat_get(fd, ptr) {
        if (fd !== ROOT_FD) return E.BADF;
        view().setUint8(ptr, 0); // a directory
        view().setUint32(ptr + 4, 1, true); // name "/"
        return E.SUCCESS;
      },
      fd_prestat_dir_name(fd, ptr, len) {
        if (fd !== ROOT_FD) return E.BADF;
        if (len >= 1) bytes()[ptr] = 47; // "/"
        return E.SUCCESS;
      },
      fd_fdstat_get(fd, ptr) {
        let type;
        if (fd <= 2) type = FILETYPE.CHAR;
        else if (fd === ROOT_FD) type = FILETYPE.DIR;
        else if (fds.has(fd)) type = FILETYPE.FILE;
        else return E.BADF;
        const v = view();
        v.setUint8(ptr, type);
        v.setUint16(ptr + 2, 0, true);
        v.setBigUint64(ptr + 8, 0xffffffffffffffffn, true);
        v.setBigUint64(ptr + 16, 0xffffffffffffffffn, true);
        return E.SUCCESS;
      },
      fd_fdstat_set_flags() {
        return E.SUCCESS;
      },
      fd_filestat_get(fd, ptr) {
        if (fd <= 2) putFilestat(ptr, FILETYPE.CHAR, 0);
        else if (fd === ROOT_FD) putFilestat(ptr, FILETYPE.DIR, 0);
        else if (fds.has(fd)) putFilestat(ptr, FILETYPE.FILE, files.get(fds.get(fd).path).length);
        else return E.BADF;
        return E.SUCCESS;
      },
      path_filestat_get(dirfd, flags, ptr, len, buf) {
        const path = resolve(dirfd, ptr, len);
        if (path === null) return E.BADF;
        if (path === "/") putFilestat(buf, FILETYPE.DIR, 0);
        else if (files.has(path)) putFilestat(buf, FILETYPE.FILE, files.get(path).length);
        else return E.NOENT;
        return E.SUCCESS;
      },
      path_open(dirfd, dirflags, ptr, len, oflags, rightsBase, rightsInheriting, fdflags, fdPtr) {
        const path = resolve(dirfd, ptr, len);
        if (path === null) return E.BADF;
        if (path === "/") return E.ISDIR;
        if (oflags & OFLAGS.DIRECTORY) return E.NOTDIR;
        if (!files.has(path)) {
          if (!(oflags & OFLAGS.CREAT)) return E.NOENT;
          files.set(path, new Uint8Array(0));
        } else if (oflags & OFLAGS.TRUNC) {
          files.set(path, new Uint8Array(0));
        }
        const fd = nextFd++;
        fds.set(fd, { path, pos: 0 });
        view().setUint32(fdPtr, fd, true);
        return E.SUCCESS;
      },
      fd_close(fd) {
        return fds.delete(fd) ? E.SUCCESS : E.BADF;
      },
      fd_read(fd, iovs, n, nread) {
        if (fd === 0) return eachIov(iovs, n, nread, () => 0);
        const f = fds.get(fd);
        if (!f) return E.BADF;
        const data = files.get(f.path);
        return eachIov(iovs, n, nread, (buf, len) => {
          const chunk = data.subarray(f.pos, Math.min(f.pos + len, data.length));
          bytes().set(chunk, buf);
          f.pos += chunk.length;
          return chunk.length;
        });
      },
      fd_pread(fd, iovs, n, offset, nread) {
        const f = fds.get(fd);
        if (!f) return E.BADF;
        const data = files.get(f.path);
        let pos = Number(offset);
        return eachIov(iovs, n, nread, (buf, len) => {
          const chunk = data.subarray(pos, Math.min(pos + len, data.length));
          bytes().set(chunk, buf);
          pos += chunk.length;
          return chunk.length;
        });
      },
      fd_write(fd, iovs, n, nwritten) {
        if (fd === 1 || fd === 2) {
          return eachIov(iovs, n, nwritten, (buf, len) => {
            out[fd].push(bytes().slice(buf, buf + len));
            return len;
          });
        }
        const f = fds.get(fd);
        if (!f) return E.BADF;
        return eachIov(iovs, n, nwritten, (buf, len) => {
          const old = files.get(f.path);
          const grown = new Uint8Array(Math.max(old.length, f.pos + len));
          grown.set(old);
          grown.set(bytes().subarray(buf, buf + len), f.pos);
          files.set(f.path, grown);
          f.pos += len;
          return len;
        });
      },
      fd_seek(fd, offset, whence, newOffset) {
        const f = fds.get(fd);
        if (!f) return fd <= 2 ? E.SPIPE : E.BADF;
        const size = files.get(f.path).length;
        const base = whence === 0 ? 0 : whence === 1 ? f.pos : size;
        const pos = base + Number(offset);
        if (pos < 0) return E.INVAL;
        f.pos = pos;
        view().setBigUint64(newOffset, BigInt(pos), true);
        return E.SUCCESS;
      },
      fd_tell(fd, ptr) {
        const f = fds.get(fd);
        if (!f) return E.BADF;
        view().setBigUint64(ptr, BigInt(f.pos), true);
        return E.SUCCESS;
      },
      fd_sync() {
        return E.SUCCESS;
      },
      random_get(ptr, len) {
        // Only seeds hash maps: any bytes do, so the run is repeatable.
        for (let i = 0; i < len; i++) bytes()[ptr + i] = (i * 131 + 7) & 255;
        return E.SUCCESS;
      },
      clock_time_get(id, precision, ptr) {
        view().setBigUint64(ptr, BigInt(Math.round(Date.now() * 1e6)), true);
        return E.SUCCESS;
      },
      proc_exit(code) {
        throw new Exit(code);
      },
      sched_yield() {
        return E.SUCCESS;
      },
    };
    const imports = {
      wasi_snapshot_preview1: new Proxy(wasi, {
        get: (target, name) => target[name] || (() => E.NOSYS),
      }),
    };
    const instance = new WebAssembly.Instance(module, imports);
    memory = instance.exports.memory;
    let code = 0;
    try {
      instance.exports._start();
    } catch (e) {
      if (e instanceof Exit) code = e.code;
      else {
        // A trap (a panic aborts): report it like a crash, with what was printed so far.
        out[2].push(enc.encode("\n" + String(e)));
        code = 134;
      }
    }
    const text = (chunks) => {
      const all = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      return new TextDecoder().decode(all);
    };
    return { code, stdout: text(out[1]), stderr: text(out[2]), files };
  }

  root.runWasi = runWasi;
  if (typeof module !== "undefined") module.exports = { runWasi };
})(typeof window !== "undefined" ? window : globalThis);

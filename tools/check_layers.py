#!/usr/bin/env python3
"""Checks the #include lines of csrc/ against tfc's layering rules.

Rules:
  * a file in layer L includes project headers ("...") only from layers <= L,
    in the order base < core < graph < io < kernels < runtime < distributed < python;
  * only csrc/python/ includes Python.h or NumPy headers;
  * only csrc/kernels/blas.h (the BLAS door) and its implementation
    csrc/kernels/blas.c include cblas.h;
  * only csrc/distributed/rpc_server.c and rpc_client.c include gRPC's headers.
Prints one line per violation and exits 1 if there is any.
Usage: check_layers.py [csrc-dir]
"""

import os
import re
import sys

LAYERS = ["base", "core", "graph", "io", "kernels", "runtime", "distributed", "python"]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
PYTHON_HEADER_RE = re.compile(r"^(Python\.h|numpy/|structmember\.h|pythread\.h)")
BLAS_HEADER_RE = re.compile(r"^cblas(\.h|-.*\.h)$")
BLAS_FILES = ("kernels/blas.h", "kernels/blas.c")
GRPC_HEADER_RE = re.compile(r"^grpc/")
GRPC_FILES = ("distributed/rpc_server.c", "distributed/rpc_client.c")


def layer_of(relpath):
    """The layer name of a path relative to csrc/, or None."""
    top = relpath.replace(os.sep, "/").split("/", 1)[0]
    return top if top in LAYERS else None


def check_file(csrc, path):
    """Yields violation messages for one source or header file."""
    rel = os.path.relpath(path, csrc).replace(os.sep, "/")
    layer = layer_of(rel)
    if layer is None:
        yield f"csrc/{rel}: file is not inside a layer folder ({', '.join(LAYERS)})"
        return
    rank = LAYERS.index(layer)
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            kind, name = m.groups()
            where = f"csrc/{rel}:{lineno}"
            if PYTHON_HEADER_RE.match(name) and layer != "python":
                yield f"{where}: {name} may only be included from csrc/python/"
                continue
            if BLAS_HEADER_RE.match(name) and rel not in BLAS_FILES:
                yield f"{where}: {name} may only be included from csrc/kernels/blas.[ch]"
                continue
            if GRPC_HEADER_RE.match(name) and rel not in GRPC_FILES:
                yield f"{where}: {name} may only be included from {' and '.join('csrc/' + g for g in GRPC_FILES)}"
                continue
            if kind != '"':
                continue
            # Resolve like the compiler: the including file's folder first, then -Icsrc.
            local = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if os.path.exists(local):
                target = os.path.relpath(local, csrc)
            else:
                target = os.path.normpath(name)
            target_layer = layer_of(target)
            if target_layer is None or target.startswith(".."):
                if os.path.exists(local):
                    yield f"{where}: \"{name}\" resolves outside the csrc layers"
                continue  # a system or generated header spelled with quotes
            if LAYERS.index(target_layer) > rank:
                yield (f"{where}: layer '{layer}' must not include \"{name}\" "
                       f"from higher layer '{target_layer}'")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    csrc = argv[1] if len(argv) > 1 else os.path.join(root, "csrc")
    violations = []
    nfiles = 0
    for dirpath, _, files in os.walk(csrc):
        for fn in sorted(files):
            if fn.endswith((".c", ".h")):
                nfiles += 1
                violations.extend(check_file(csrc, os.path.join(dirpath, fn)))
    for v in violations:
        print(v)
    if violations:
        print(f"check_layers: {len(violations)} violation(s)")
        return 1
    print(f"check_layers: {nfiles} files OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Builds the tfc package and its C extension tfc._tfc.

The extension is compiled from every csrc/**/*.c file. Compilation is
parallel (TFC_BUILD_JOBS, default 2) and incremental: an object is rebuilt
only when its source, a header it includes (tracked with -MMD), or the
compiler command line changed. Temporary files go to TFC_BUILD_BASE
(default build/py) so sanitizer builds can live beside normal ones.
Before compiling, protoc-c turns proto/*.proto into C under <build base>/gen
(see _generate_protos); csrc/graph/graphdef_pb.c compiles that code.
If CFLAGS in the environment carries an optimisation level, it replaces -O3.
"""

import glob
import os
import re
import shlex
import shutil
import subprocess
from multiprocessing.pool import ThreadPool

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARIES = ["protobuf-c", "jpeg", "png", "z", "m", "pthread"]  # keep in sync with LIBS in the Makefile; OpenBLAS and oneDNN are dlopen()ed on first use


def _rel(paths):
    return sorted(os.path.relpath(p, HERE) for p in paths)


def _compile_args():
    env_cflags = os.environ.get("CFLAGS", "")
    opt = [] if re.search(r"(^|\s)-O", env_cflags) else ["-O3"]
    return ["-std=c11", "-Wall", "-Wextra", "-Werror", "-D_GNU_SOURCE", "-march=native", "-fno-math-errno"] + opt


def _stale(obj, signature):
    """True when obj must be rebuilt: missing, built with other flags, or older than a dependency."""
    dep_file = obj + ".d"
    sig_file = obj + ".cmd"
    if not (os.path.exists(obj) and os.path.exists(dep_file) and os.path.exists(sig_file)):
        return True
    with open(sig_file) as f:
        if f.read() != signature:
            return True
    obj_mtime = os.path.getmtime(obj)
    with open(dep_file) as f:
        text = f.read().replace("\\\n", " ")
    for token in text.split():
        if token.endswith(":"):
            continue
        if not os.path.exists(token) or os.path.getmtime(token) > obj_mtime:
            return True
    return False


def _generate_protos(gen_dir):
    """Runs protoc-c for every proto/*.proto newer than its output, writes
    gen_dir/tfc_protos.inc (including every generated .c) when it changed, and
    gen_dir/tfc_protos_desc.inc: the FileDescriptorSet of all the files as a C
    initializer list (compiled by csrc/python/py_protos.c, read by tfc/protos.py)."""
    protos = sorted(glob.glob(os.path.join(HERE, "proto", "*.proto")))
    os.makedirs(gen_dir, exist_ok=True)
    for proto in protos:
        out = os.path.join(gen_dir, os.path.basename(proto)[:-len(".proto")] + ".pb-c.c")
        if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(proto):
            subprocess.check_call(["protoc-c", "--c_out=" + gen_dir,
                                   "-I" + os.path.join(HERE, "proto"), proto])
    text = "".join('#include "%s"\n' % (os.path.basename(p)[:-len(".proto")] + ".pb-c.c")
                   for p in protos)
    _write_if_changed(os.path.join(gen_dir, "tfc_protos.inc"), text)
    desc = os.path.join(gen_dir, "tfc_protos.desc")
    subprocess.check_call(["protoc-c", "--descriptor_set_out=" + desc, "--include_imports",
                           "-I" + os.path.join(HERE, "proto")] + protos)
    with open(desc, "rb") as f:
        data = f.read()
    lines = [",".join(str(b) for b in data[i:i + 32]) + ",\n" for i in range(0, len(data), 32)]
    _write_if_changed(os.path.join(gen_dir, "tfc_protos_desc.inc"), "".join(lines))


def _write_if_changed(path, text):
    """Writes text to path unless the file already holds exactly that (keeps mtimes stable)."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


# System libraries the extension needs: pkg-config module (or None when the
# library ships no .pc file: then a header decides) and the Debian package.
SYSTEM_DEPS = [
    ("openblas", "cblas.h", "libopenblas-dev"),
    (None, "oneapi/dnnl/dnnl.h", "libdnnl-dev"),
    ("libprotobuf-c", "protobuf-c/protobuf-c.h", "libprotobuf-c-dev"),
    ("libjpeg", "jpeglib.h", "libjpeg-dev"),
    ("libpng", "png.h", "libpng-dev"),
    ("zlib", "zlib.h", "zlib1g-dev"),
]


def _check_system_deps():
    """Fails with one message listing every missing system package (checked with
    pkg-config, or the header where a library has no .pc file) and protoc-c."""
    missing = []
    have_pkg_config = shutil.which("pkg-config") is not None
    for module, header, package in SYSTEM_DEPS:
        found = False
        if module and have_pkg_config:
            found = subprocess.call(["pkg-config", "--exists", module]) == 0
        if not found:
            found = any(os.path.exists(os.path.join(d, header))
                        for d in ("/usr/include", "/usr/local/include",
                                  "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu"))
        if not found:
            missing.append(package)
    if shutil.which("protoc-c") is None:
        missing.append("protobuf-c-compiler")
    if missing:
        raise SystemExit(
            "tfc: cannot build the C extension; missing system packages: %s\n"
            "On Debian/Ubuntu: sudo apt-get install %s\n"
            "(tfc builds on Linux x86-64 and arm64 with these libraries; see README.md)"
            % (" ".join(missing), " ".join(missing)))


class ParallelBuildExt(build_ext):
    """build_ext that compiles sources in parallel and skips up-to-date objects."""

    def build_extensions(self):
        import numpy
        # setuptools skips an extension whose file is newer than its sources,
        # which misses changed compile flags; the per-object signatures below
        # decide what really needs compiling, so always take that path.
        self.force = True
        # ... and relink every time (the compiler object was made with the old
        # flag), so that a change of link flags alone takes effect too.
        self.compiler.force = True

        _check_system_deps()
        _generate_protos(GEN_DIR)
        for ext in self.extensions:
            ext.include_dirs.append(numpy.get_include())
        compiler = self.compiler
        jobs = max(1, int(os.environ.get("TFC_BUILD_JOBS", "2")))

        def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                    extra_preargs=None, extra_postargs=None, depends=None):
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
            signature = shlex.join(list(compiler.compiler_so) + cc_args + list(extra_postargs))

            def one(obj):
                src, ext = build[obj]
                if not _stale(obj, signature):
                    return
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                compiler._compile(obj, src, ext, cc_args,
                                  list(extra_postargs) + ["-MMD", "-MF", obj + ".d"], pp_opts)
                with open(obj + ".cmd", "w") as f:
                    f.write(signature)

            with ThreadPool(jobs) as pool:
                pool.map(one, objects)
            return objects

        compiler.compile = compile
        super().build_extensions()


SOURCES = _rel(glob.glob(os.path.join(HERE, "csrc", "**", "*.c"), recursive=True))
HEADERS = _rel(glob.glob(os.path.join(HERE, "csrc", "**", "*.h"), recursive=True))
BUILD_BASE = os.environ.get("TFC_BUILD_BASE", os.path.join("build", "py"))
GEN_DIR = os.path.join(BUILD_BASE, "gen")

# setuptools runs this file as __main__; tests import it under another name
# to reach _check_system_deps without building.
if __name__ == "__main__":
    setup(
        packages=find_packages(include=["tfc", "tfc.*"]),
        ext_modules=[
            Extension(
                "tfc._tfc",
                sources=SOURCES,
                depends=HEADERS,
                include_dirs=["csrc", GEN_DIR],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                libraries=LIBRARIES,
                extra_compile_args=_compile_args(),
                # -Bsymbolic: the extension's references to its own functions
                # and data (protoc-c descriptors, kernel tables) are bound when
                # it is linked, so loading it resolves about 1,200 fewer symbols
                # (0.3-0.4 ms of every `import tfc`).
                extra_link_args=["-pthread", "-Wl,-Bsymbolic"],
            )
        ],
        cmdclass={"build_ext": ParallelBuildExt},
        options={"build": {"build_base": BUILD_BASE}},
    )

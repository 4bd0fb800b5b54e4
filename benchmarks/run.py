"""Runs the benchmarks for tfc and for real TensorFlow and writes BENCHMARKS.md.

Usage (from the repository root): .venv/bin/python benchmarks/run.py
tfc runs in .venv, TensorFlow (tensorflow-cpu from PyPI) in .venv-tf; each
benchmark runs in a fresh process per framework, one after the other on the
same machine, and the results are reported as ratios.
"""
import json
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TFC_PY = os.path.join(ROOT, ".venv", "bin", "python")
TF_PY = os.path.join(ROOT, ".venv-tf", "bin", "python")
HERE = os.path.join(ROOT, "benchmarks")


def run_json(py, *args):
    """Runs a benchmark script with interpreter py; returns its JSON output."""
    out = subprocess.run([py, *args], cwd="/tmp", capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def import_cost(py, module, n=15):
    """Median import seconds, CPU seconds and rss of module over n fresh interpreters."""
    runs = [run_json(py, os.path.join(HERE, "bench_import.py"), module) for _ in range(n)]
    return (statistics.median(r["seconds"] for r in runs),
            statistics.median(r["cpu_seconds"] for r in runs),
            statistics.median(r["rss_kb"] for r in runs))


NUMPY_GEMM = """
import time, numpy as np
A = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
A @ A
best = min((lambda t0: (A @ A, time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3))
print(2.0 * 2048 ** 3 / best / 1e9)
"""


def numpy_gemm_unpinned():
    """NumPy's 2048^2 float32 GFLOP/s with OPENBLAS_CORETYPE removed from the environment."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    out = subprocess.run([TFC_PY, "-c", NUMPY_GEMM], cwd="/tmp", env=env, capture_output=True,
                         text=True, check=True)
    return float(out.stdout.strip())


def cpu_model():
    """The CPU model name from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    have_tf = os.path.exists(TF_PY)
    res = {"tfc": run_json(TFC_PY, os.path.join(HERE, "bench_core.py"), "tfc")}
    res["tfc"].update(run_json(TFC_PY, os.path.join(HERE, "bench_train.py"), "tfc"))
    res["tfc"].update(run_json(TFC_PY, os.path.join(HERE, "bench_control_flow.py"), "tfc"))
    (res["tfc"]["import_s"], res["tfc"]["import_cpu_s"],
     res["tfc"]["import_rss_kb"]) = import_cost(TFC_PY, "tfc")
    if have_tf:
        res["tf"] = run_json(TF_PY, os.path.join(HERE, "bench_core.py"), "tf")
        res["tf"].update(run_json(TF_PY, os.path.join(HERE, "bench_train.py"), "tf"))
        res["tf"].update(run_json(TF_PY, os.path.join(HERE, "bench_control_flow.py"), "tf"))
        (res["tf"]["import_s"], res["tf"]["import_cpu_s"],
         res["tf"]["import_rss_kb"]) = import_cost(TF_PY, "tensorflow", n=3)
    t, f = res["tfc"], res.get("tf", {})
    us = lambda s: "%.2f µs" % (s * 1e6)
    ms = lambda s: "%.1f ms" % (s * 1e3)
    def ratio(a, b):
        return "%.2fx" % (a / b) if a and b else "n/a"
    rows = [
        ("`import` over numpy (time)", ms(t["import_s"]), ms(f["import_s"]) if f else "n/a",
         ratio(f.get("import_s"), t["import_s"]), "≤ 15 ms"),
        ("`import` over numpy (CPU)", ms(t["import_cpu_s"]),
         ms(f["import_cpu_s"]) if f else "n/a", ratio(f.get("import_cpu_s"), t["import_cpu_s"]),
         ""),
        ("`import` over numpy (RSS)", "%.1f MB" % (t["import_rss_kb"] / 1024),
         "%.1f MB" % (f["import_rss_kb"] / 1024) if f else "n/a",
         ratio(f.get("import_rss_kb"), t["import_rss_kb"]), "≤ 10 MB"),
        ("`RunOptions()` and set a field", us(t["run_options_s"]),
         us(f["run_options_s"]) if f else "n/a",
         ratio(f.get("run_options_s"), t["run_options_s"]), "≤ 0.5 µs"),
        ("run: fed scalar add", us(t["scalar_add_run_s"]), us(f["scalar_add_run_s"]) if f else "n/a",
         ratio(f.get("scalar_add_run_s"), t["scalar_add_run_s"]), "≤ 3 µs"),
        ("make_callable: scalar add", us(t["scalar_add_callable_s"]),
         us(f["scalar_add_callable_s"]) if f else "n/a",
         ratio(f.get("scalar_add_callable_s"), t["scalar_add_callable_s"]), "≤ 1.5 µs"),
        ("matmul 2048² f32", ms(t["matmul_s"]) + " (%.0f GFLOP/s)" % t["matmul_gflops"],
         ms(f["matmul_s"]) + " (%.0f GFLOP/s)" % f["matmul_gflops"] if f else "n/a",
         ratio(f.get("matmul_s"), t["matmul_s"]),
         "≥ 0.85 of NumPy: %.2f (NumPy %.0f GFLOP/s)" % (t["numpy_matmul_s"] / t["matmul_s"], t["numpy_matmul_gflops"])),
        ("add 10M f32, 1 thread", ms(t["add10m_1t_s"]), ms(f["add10m_1t_s"]) if f else "n/a",
         ratio(f.get("add10m_1t_s"), t["add10m_1t_s"]),
         "≥ 0.8 of NumPy: %.2f" % (t["numpy_add10m_s"] / t["add10m_1t_s"])),
        ("add 10M f32, 2 threads", ms(t["add10m_2t_s"]), ms(f["add10m_2t_s"]) if f else "n/a",
         ratio(f.get("add10m_2t_s"), t["add10m_2t_s"]),
         "faster than 1 thread: %.2fx" % (t["add10m_1t_s"] / t["add10m_2t_s"])),
    ]
    for key, label, target in [
            ("mlp_adam_1t_s", "Adam step, MLP 784-256-10, batch 128, 1 thread", "≥ 1.00 (TF/tfc)"),
            ("mlp_adam_2t_s", "Adam step, MLP 784-256-10, batch 128, 2 threads", "≥ 1.00 (TF/tfc)"),
            ("cnn_adam_1t_s", "Adam step, CNN 2 conv, batch 64, 1 thread", "≥ 0.80 (TF/tfc)"),
            ("cnn_adam_2t_s", "Adam step, CNN 2 conv, batch 64, 2 threads", "≥ 0.80 (TF/tfc)"),
            ("grad_build_50_s", "tf.gradients build, 50-layer MLP", "< 50 ms"),
            ("while_10k_add_s", "tf.while_loop, 10,000 scalar adds", "≥ 3.00 (TF/tfc)"),
            ("cond_run_s", "run: tf.cond on a fed predicate", "faster than TF")]:
        if key in t:
            in_ms = key.startswith(("grad", "while"))
            rows.append((label, ms(t[key]) if in_ms else us(t[key]),
                         (ms(f[key]) if in_ms else us(f[key])) if key in f else "n/a",
                         ratio(f.get(key), t[key]), target))
    lines = [
        "# Benchmarks",
        "",
        "Reproduce with `make bench` (runs `.venv/bin/python benchmarks/run.py`; TensorFlow",
        "comes from `tensorflow-cpu` in `.venv-tf`, created by `make bench`).",
        "Each framework runs the same scripts (`benchmarks/bench_core.py`, `bench_train.py`) in a fresh process,",
        "one after the other; times are the best of several repeats. \"TF/tfc\" > 1 means tfc is faster.",
        "",
        "Machine: %s, %d cores; Python %s." % (cpu_model(), os.cpu_count(), platform.python_version()),
        "",
        "| benchmark | tfc | TensorFlow | TF/tfc | target |",
        "|---|---|---|---|---|",
    ]
    lines += ["| %s | %s | %s | %s | %s |" % r for r in rows]
    lines.append("")
    pinned = os.environ.get("OPENBLAS_CORETYPE")
    if pinned:
        unpinned = numpy_gemm_unpinned()
        lines += [
            "Note on GEMM: this machine's environment sets `OPENBLAS_CORETYPE=%s`, which makes "
            "OpenBLAS use its AVX2 kernel. NumPy's bundled OpenBLAS obeys it (the NumPy figure above); "
            "tfc loads its OpenBLAS with the kernel auto-detected on AVX-512 CPUs (override with "
            "`TFC_OPENBLAS_CORETYPE`). With the variable removed NumPy reaches %.0f GFLOP/s, so "
            "tfc/NumPy at equal kernels is %.2f." % (pinned, unpinned, t["matmul_gflops"] / unpinned),
            "",
        ]
    lines += [
        "Peak: 2 cores x 64 float32 FLOP/cycle (two 512-bit FMA pipes) x about 4 GHz sustained "
        "(one core reaches 250 GFLOP/s in OpenBLAS's AVX-512 SGEMM) = about 510 GFLOP/s float32.",
        "",
    ]
    # Inference and the task farm: benchmarks/bench_infer.py, its own section.
    sys.path.insert(0, HERE)
    import bench_infer
    res["infer"] = bench_infer.collect(TFC_PY, TF_PY if have_tf else None)
    lines += bench_infer.markdown(res["infer"])
    # Convolution compute beside TF as fractions of the SGEMM peak: benchmarks/bench_compute.py.
    if have_tf:
        import bench_compute
        res["compute"] = bench_compute.collect()
        lines += ["", "## Convolution compute and the float32 peak", "",
                  "`benchmarks/bench_compute.py` (see docs/compute.md): medians over 3 alternating "
                  "fresh processes per framework of each process's best step; CPU is user + system "
                  "time of the step.", ""]
        lines += bench_compute.markdown(res["compute"]) + [""]
    # Where a cold start goes, phase by phase: benchmarks/bench_cold.py.
    import bench_cold
    pys = {"tfc": TFC_PY}
    if have_tf:
        pys["tf"] = TF_PY
    res["cold_phases"] = bench_cold.collect(pys)
    lines += ["", "## Where a cold start goes", "",
              "Seed 000's task in a fresh process (`benchmarks/bench_cold.py`), medians of 9 runs "
              "per framework, alternating; wall / CPU (user + sys) milliseconds:", ""]
    lines += bench_cold.markdown(res["cold_phases"]) + [""]
    # Saver save/restore beside TF and the disk: benchmarks/bench_checkpoint.py.
    import bench_checkpoint
    res["checkpoint"] = bench_checkpoint.collect(TFC_PY, TF_PY if have_tf else None)
    lines += bench_checkpoint.markdown(res["checkpoint"])
    # TFRecord Examples read and parsed, beside TF and the raw read: benchmarks/bench_tfrecord.py.
    import bench_tfrecord
    res["tfrecord"] = bench_tfrecord.collect(TFC_PY, TF_PY if have_tf else None)
    lines += bench_tfrecord.markdown(res["tfrecord"])
    # The distributed runtime: benchmarks/bench_dist.py, server processes on local ports.
    import bench_dist
    res["dist"] = bench_dist.collect(TFC_PY, TF_PY if have_tf else None)
    lines += bench_dist.markdown(res["dist"])
    # Failures and async training on a cluster: benchmarks/bench_dist_prod.py.
    import bench_dist_prod
    res["dist_prod"] = bench_dist_prod.collect(TFC_PY, TF_PY if have_tf else None)
    lines += bench_dist_prod.markdown(res["dist_prod"])
    # The convolution/GEMM backend comparison is a C program (`make bench-backends`)
    # whose figures are kept, with their discussion, in benchmarks/backends.md.
    with open(os.path.join(HERE, "backends.md")) as fh:
        lines += ["", fh.read().rstrip(), ""]
    with open(os.path.join(ROOT, "BENCHMARKS.md"), "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))
    print(json.dumps(res, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()

"""Import cost: wall time and resident memory of `import tfc` over `import numpy`.

Usage: python bench_import.py MODULE
  -> prints JSON {"seconds": s, "cpu_seconds": s, "rss_kb": kb}
measured inside a fresh interpreter that has already imported numpy (CPU:
user + sys of the process, time.process_time, which a loaded machine
inflates less than wall time).
"""
import json
import sys
import time

import numpy  # noqa: F401  (the baseline every user already pays)


def rss_kb():
    """Resident set size of this process in kB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    mod = sys.argv[1]
    before = rss_kb()
    t0 = time.perf_counter()
    c0 = time.process_time()
    if mod == "tensorflow":
        import os
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    __import__(mod)
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(json.dumps({"seconds": dt, "cpu_seconds": cpu, "rss_kb": rss_kb() - before}))


if __name__ == "__main__":
    main()

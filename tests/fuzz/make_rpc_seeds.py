"""Writes the seeds of the rpc_requests fuzz target in tests/fuzz/seeds/rpc_requests/.

One well-formed request per WorkerService/MasterService method, prefixed with
the method's index (the target's first byte); plain wire-format encoding:

    python3 tests/fuzz/make_rpc_seeds.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "rpc_requests")


def varint(v):
  out = bytearray()
  while v >= 0x80:
    out.append((v & 0x7F) | 0x80)
    v >>= 7
  out.append(v)
  return bytes(out)


def vf(num, v):
  return varint(num << 3) + varint(v)


def ld(num, b):
  return varint(num << 3 | 2) + varint(len(b)) + b


def node(name, op, inputs=(), attrs=()):
  out = ld(1, name.encode()) + ld(2, op.encode())
  for i in inputs:
    out += ld(3, i.encode())
  for k, v in attrs:
    out += ld(5, ld(1, k.encode()) + ld(2, v))
  return ld(1, out)


FLOAT = vf(6, 1)  # AttrValue.type = DT_FLOAT
GRAPH = (node("x", "Placeholder", attrs=[("dtype", FLOAT)]) + node("y", "Neg", ["x"], [("T", FLOAT)]) +
         node("z", "Identity", ["y"], [("T", FLOAT)]))
TENSOR = vf(1, 1) + ld(2, ld(2, vf(1, 2))) + ld(4, struct.pack("<2f", 1.5, -2.0))
DEV = "/job:local/replica:0/task:0/device:CPU:0"
KEY = ("%s;0000000000000001;%s;y:0;0:0" % (DEV, DEV)).encode()

SEEDS = {
    "get_status": (0, b""),
    "create_worker_session": (1, ld(1, b"s1")),
    "delete_worker_session": (2, ld(1, b"s1")),
    "register_graph": (3, ld(1, b"s1") + ld(2, GRAPH)),
    "deregister_graph": (4, ld(1, b"0000000000000001/1")),
    "run_graph": (5, ld(1, b"0000000000000001/1") + vf(2, 7) + ld(3, ld(1, KEY) + ld(2, TENSOR)) +
                  ld(4, KEY) + ld(5, vf(3, 1))),
    "cleanup_graph": (6, vf(1, 7)),
    "cleanup_all": (7, ld(1, b"container")),
    "recv_tensor": (8, vf(1, 7) + ld(2, KEY)),
    "create_session": (11, ld(1, GRAPH) + ld(2, vf(11, 1000))),
    "extend_session": (12, ld(2, node("w", "Identity", ["z"], [("T", FLOAT)])) + vf(3, 0)),
    "run_step": (14, ld(2, ld(1, b"x:0") + ld(2, TENSOR)) + ld(3, b"z:0") + ld(4, b"y") +
                 ld(5, vf(1, 3) + vf(5, 1)) + vf(7, 1)),
    "close_session": (15, ld(1, b"0123456789abcdef")),
    "list_devices": (16, b""),
    "reset": (17, ld(1, b"c")),
    "make_callable": (18, ld(2, ld(1, b"x:0") + ld(2, b"z:0"))),
    "run_callable": (19, vf(2, 0) + ld(3, TENSOR)),
    "release_callable": (20, vf(2, 0)),
}


def main():
  os.makedirs(OUT, exist_ok=True)
  for name, (method, body) in SEEDS.items():
    with open(os.path.join(OUT, name), "wb") as f:
      f.write(bytes([method]) + body)


if __name__ == "__main__":
  main()

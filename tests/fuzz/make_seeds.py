"""Writes the hand-made TensorProto seeds in tests/fuzz/seeds/tensor_proto/.

One small encoding per decoding path of graph/tensor_proto.c: tensor_content
for a few dtypes (strings with varint lengths), each typed *_val field,
repeat-last-value, zeros from an empty field, empty and scalar shapes.
Plain wire-format encoding, no protobuf library needed:

    python3 tests/fuzz/make_seeds.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "tensor_proto")


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, b):
    return varint(num << 3 | 2) + varint(len(b)) + b


def shape(*dims):
    return field_bytes(2, b"".join(field_bytes(2, field_varint(1, d)) for d in dims))


def tensor(dtype, dims, *fields):
    return field_varint(1, dtype) + shape(*dims) + b"".join(fields)


def packed(num, fmt, values):
    return field_bytes(num, b"".join(struct.pack("<" + fmt, v) for v in values))


def packed_varints(num, values):
    return field_bytes(num, b"".join(varint(v) for v in values))


# dtype enums: float 1, double 2, int32 3, uint8 4, int16 5, int8 6, string 7,
# complex64 8, int64 9, bool 10, bfloat16 14, uint16 17, complex128 18,
# half 19, uint32 22, uint64 23.
SEEDS = {
    "float_content": tensor(1, [2, 3], field_bytes(4, struct.pack("<6f", 1, 2, 3, 4, 5, 6))),
    "float_val_repeat": tensor(1, [4], packed(5, "f", [1.5, -2.0])),
    "float_scalar": tensor(1, [], packed(5, "f", [3.25])),
    "float_zeros": tensor(1, [3, 1]),
    "double_val": tensor(2, [2], packed(6, "d", [1e300, -0.0])),
    "int32_val": tensor(3, [3], packed_varints(7, [1, -1, 2**31 - 1])),
    "uint8_content": tensor(4, [4], field_bytes(4, bytes([0, 1, 254, 255]))),
    "int16_val": tensor(5, [2], packed_varints(7, [-32768, 32767])),
    "int8_val": tensor(6, [2, 2], packed_varints(7, [-128])),
    "string_val": tensor(7, [3], field_bytes(8, b"ab"), field_bytes(8, b""), field_bytes(8, b"xyz")),
    "string_content": tensor(7, [2], field_bytes(4, varint(3) + varint(0) + b"abc")),
    "string_repeat": tensor(7, [2, 2], field_bytes(8, b"only")),
    "complex64_val": tensor(8, [2], packed(9, "f", [1, 2, 3, 4])),
    "int64_val": tensor(9, [2], packed_varints(10, [-(2**63), 2**63 - 1])),
    "bool_val": tensor(10, [3], packed_varints(11, [1, 0, 1])),
    "bool_content": tensor(10, [2], field_bytes(4, bytes([1, 0]))),
    "bfloat16_val": tensor(14, [2], packed_varints(13, [0x3F80, 0xC000])),
    "uint16_val": tensor(17, [2], packed_varints(7, [0, 65535])),
    "complex128_val": tensor(18, [1], packed(12, "d", [1.0, -1.0])),
    "half_val": tensor(19, [2], packed_varints(13, [0x3C00, 0x7C00])),
    "uint32_val": tensor(22, [2], packed_varints(16, [0, 2**32 - 1])),
    "uint64_val": tensor(23, [1], packed_varints(17, [2**64 - 1])),
    "empty_dim": tensor(1, [0, 5]),
    "rank4_content": tensor(3, [1, 2, 1, 2], field_bytes(4, struct.pack("<4i", 1, 2, 3, 4))),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(OUT, name + ".pb"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes tests/data/io/: .npy files by NumPy's np.save and .safetensors files by the
safetensors package, good and broken, for tests/suite/io.rs. Needs `pip install numpy safetensors`.

    python3 scripts/gen_io_files.py
"""
import os
import struct

import numpy as np
from safetensors.numpy import save_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "io")
os.makedirs(OUT, exist_ok=True)


def path(name):
    return os.path.join(OUT, name)


# Good .npy files.
np.save(path("f32_2x3.npy"), np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
np.save(path("f64_fortran_3x4.npy"), np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4)))
np.save(path("i64_big_endian_5.npy"), np.array([-2, -1, 0, 1, 2 ** 40], dtype=">i8"))
np.save(path("bool_2x2.npy"), np.array([[True, False], [False, True]]))
np.save(path("f32_scalar.npy"), np.array(3.5, dtype=np.float32))
np.save(path("u8_0x5.npy"), np.zeros((0, 5), dtype=np.uint8))
# A weight stored [HIDDEN, EMBED] = [4, 2].
np.save(path("w_4x2.npy"), np.arange(8, dtype=np.float32).reshape(4, 2))

# Broken .npy files.
good = open(path("f32_2x3.npy"), "rb").read()
open(path("truncated.npy"), "wb").write(good[:-5])
open(path("trailing.npy"), "wb").write(good + b"\0\0\0\0")
open(path("not_npy.npy"), "wb").write(b"this is not a numpy file\n")
np.save(path("object.npy"), np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
# A header whose shape asks for 2^60 elements, over 16 bytes of data.
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1152921504606846976,), }"
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
open(path("huge_shape.npy"), "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\0" * 16)

# .safetensors files.
save_file(
    {
        "wq": (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 2,
        "bias": np.array([1, -2, 3], dtype=np.int32),
        "mask": np.array([[True, False], [True, True]]),
        "w_hidden_embed": np.arange(8, dtype=np.float32).reshape(4, 2),
    },
    path("weights.safetensors"),
)
good = open(path("weights.safetensors"), "rb").read()
open(path("truncated.safetensors"), "wb").write(good[:-7])
# The first eight bytes claim a header of 2^60 bytes.
open(path("huge_header.safetensors"), "wb").write(struct.pack("<Q", 2 ** 60) + good[8:])
open(path("not_json.safetensors"), "wb").write(struct.pack("<Q", 8) + b"not json" + b"\0" * 8)
print("wrote", sorted(os.listdir(OUT)))

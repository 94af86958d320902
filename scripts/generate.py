#!/usr/bin/env python3
"""Writes every generated file, into src/typed/generated/ and macros/src/generated/, each
marked `// @generated` in its first line, in two parts: generate_numbers.py (the tuples'
`Shape` impls, the digits of names and sizes, inline element counts, the macros' copy of the
limits) and generate_lists.py (the name search, the walks, hex sums and window lengths), with
what they share in generate_common.py. The limits are read from the crate (`MAX_TYPED_RANK`
in src/values/shape.rs, the one place the rank limit is written). Every file is written
formatted (rustfmt), so `.ci/run` can regenerate and compare.

Each arity maps, in one impl and without recursion, a tuple in notation order to the
reversed, index-tagged cons list the rules work on (`(At<1, B>, (At<0, A>, ()))`), and a
reversed list of output axes back to a tuple. Run: python3 scripts/generate.py
"""
import runpy
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # the parts import generate_common: no __pycache__ in scripts/

# Each part writes its files when run; `generate_common` holds what they share.
for part in ("generate_numbers.py", "generate_lists.py"):
    runpy.run_path(str(Path(__file__).with_name(part)), run_name="__main__")

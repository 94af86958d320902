#!/usr/bin/env python3
"""Checks that the crate's layers run one way: every path a source file names (`use crate::…`,
`crate::…` in code, `super::…`) is resolved to the file it reaches, and a file may reach only
files of its own layer or the layers below it. Prints each reference that runs back up and
fails if there is one; `--graph` prints the layers and which layer uses which.

    python3 scripts/layers.py           # the check (.ci/run runs it)

It also checks that every module of the folders in TABLED has a row in its folder's file
table (the `| file | what it holds |` table of the folder's module docs), and that no row
names a module that is gone.
    python3 scripts/layers.py --graph   # the house, bottom first

The layers, bottom first (a file's layer is the first pattern its path matches):
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")

# (layer, what it holds, path patterns relative to src/)
LAYERS = [
    ("values", "shape values, names, sizes, selectors, rules as values, errors",
     [r"values/", r"alloc_prelude\.rs"]),
    ("engine", "sizes, strides and data in, elements out: layouts, the index walk, kernels, "
     "threads, the allocation guard, the crate's unsafe (no tensor, no rule)", [r"engine/"]),
    ("rules", "each rule and operation on shapes at run time", [r"dynamic/"]),
    ("types", "each rule and operation at the type level (no kernel, no tensor)", [r"typed/"]),
    ("tensors", "tensors, views, kernels, operations on data", [r"tensor/"]),
    ("edges", "files, ndarray, the command line", [r"io/", r"interop\.rs", r"bin/"]),
    ("training", "gradients over tracked tensors, parameters, optimizers", [r"train/"]),
    ("root", "the crate root's re-exports, the prelude and the guide", [r"lib\.rs", r"guide\.rs"]),
]
__doc__ += "".join(f"\n  {i}. {n}: {w}" for i, (n, w, _) in enumerate(LAYERS))


def layer_of(rel):
    for i, (_, _, pats) in enumerate(LAYERS):
        if any(re.match(p, rel) for p in pats):
            return i
    raise SystemExit(f"{rel}: in no layer (add it to scripts/layers.py)")


def module_file(parts):
    """The file a module path (crate-relative parts) lives in, as far as the parts go."""
    best = "lib.rs"
    for k in range(1, len(parts) + 1):
        base = os.path.join(*parts[:k])
        for cand in (base + ".rs", os.path.join(base, "mod.rs")):
            if os.path.exists(os.path.join(SRC, cand)):
                best = cand
                break
        else:
            break
    return best


def expand(tree):
    """The paths a `use` tree names, braces expanded at any depth: `a::{b, c::{d, self}}`
    gives `a::b`, `a::c::d` and `a::c`; an alias stays on its path (`a::b as c`)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    if "{" not in tree:
        return [tree]
    i = tree.index("{")
    prefix, inner = tree[:i], tree[i + 1: tree.rindex("}")]
    items, depth, start = [], 0, 0
    for k, ch in enumerate(inner + ","):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(inner[start:k].strip())
            start = k + 1
    out = []
    for item in filter(None, items):
        for path in expand(item):
            out.append(prefix[:-2] if path == "self" else prefix + path)
    return out


def use_paths(text, public_only=False):
    """Every path the file's `use` statements (or only its `pub use`) name."""
    vis = r"pub\s+" if public_only else r"(?:pub(?:\([^)]*\))?\s+)?"
    pattern = rf"(?m)^\s*{vis}use\s+([^;]+);"
    return [p for m in re.finditer(pattern, text) for p in expand(m.group(1))]


def root_reexports():
    """Names the crate root re-exports, mapped to the path they come from."""
    out = {}
    for path in use_paths(open(os.path.join(SRC, "lib.rs")).read(), public_only=True):
        path, _, alias = path.partition(" as ")
        parts = path.replace("crate::", "").split("::")
        out[alias.strip() or parts[-1]] = parts
    return out


def strip_comments(text):
    # Unit tests (a file's trailing `#[cfg(test)] mod tests`) may reach anything.
    text = re.split(r"(?m)^#\[cfg\(test\)\]\nmod tests", text)[0]
    text = re.sub(r"(?m)^\s*//.*$", "", text)
    return re.sub(r"//[^\n]*", "", text)


# The folders whose module docs carry a `| file | what it holds |` table: every module the
# folder declares has a row, and every row names a module the folder declares.
TABLED = ["values", "engine", "tensor", "tensor/ops"]


def table_problems():
    """Modules missing from their folder's file table, and rows naming no module."""
    out = []
    for folder in TABLED:
        rel = os.path.join(folder, "mod.rs")
        text = open(os.path.join(SRC, rel)).read()
        declared = set(re.findall(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+);", text))
        rows, in_table = set(), False
        for line in text.splitlines():
            if re.match(r"//! \| file \|", line):
                in_table = True
            elif in_table and line.startswith("//! |"):
                m = re.match(r"//! \| `(\w+)` \|", line)
                if m:
                    rows.add(m.group(1))
            elif in_table:
                in_table = False
        if not rows:
            out.append(f"{rel}: no `| file | what it holds |` table in the module docs")
        for name in sorted(declared - rows):
            out.append(f"{rel}: module `{name}` has no row in the file table")
        for name in sorted(rows - declared):
            out.append(f"{rel}: the file table names `{name}`, which is not a module here")
    return out


def main():
    reexp = root_reexports()
    files = []
    for d, _, fs in os.walk(SRC):
        for f in fs:
            if f.endswith(".rs"):
                files.append(os.path.relpath(os.path.join(d, f), SRC))
    bad, uses = [], set()
    for rel in sorted(files):
        me = layer_of(rel)
        here = rel[:-3].split("/")
        if here[-1] == "mod":
            here = here[:-1]
        modpath = here if rel not in ("lib.rs",) else []
        text = strip_comments(open(os.path.join(SRC, rel)).read())
        # The paths of the `use` statements, braces expanded, and those written in the code.
        code = re.sub(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]+;", "", text)
        paths = [p.partition(" as ")[0] for p in use_paths(text)]
        paths += [m.group(0) for m in re.finditer(r"\b(?:crate|super|self)::(?:\w+::)*\w+", code)]
        for path in paths:
            m = re.match(r"(crate|super(?:::super)*|self)::((?:\w+::)*\w+)$", path)
            if not m:
                continue  # another crate's path (`core::…`, `typenum::…`)
            head, tail = m.group(1), m.group(2).split("::")
            if head == "crate":
                parts = tail
                if parts[0] in reexp and not os.path.exists(os.path.join(SRC, parts[0] + ".rs")) \
                        and not os.path.isdir(os.path.join(SRC, parts[0])):
                    parts = reexp[parts[0]]
            else:
                ups = head.count("super")
                parts = modpath[: len(modpath) - ups] + tail
            if not parts or parts[0] in ("alloc_prelude", "__private"):
                continue
            if not (os.path.exists(os.path.join(SRC, parts[0] + ".rs"))
                    or os.path.isdir(os.path.join(SRC, parts[0]))):
                continue  # another crate's item re-exported at the root (`shape!`, typenum)
            target = module_file(parts)
            if target == rel:
                continue
            them = layer_of(target)
            uses.add((me, them))
            if them > me:
                bad.append(f"{rel} ({LAYERS[me][0]}) uses {'::'.join([head] + tail)} in {target} ({LAYERS[them][0]})")
    if "--graph" in sys.argv:
        for i, (n, w, _) in enumerate(LAYERS):
            below = sorted({LAYERS[t][0] for (s, t) in uses if s == i and t != i})
            print(f"{i}. {n}: {w}\n   uses: {', '.join(below) or '-'}")
    for b in sorted(set(bad)):
        print(b)
    tables = table_problems()
    for t in tables:
        print(t)
    if bad:
        print(f"{len(set(bad))} references run up a layer")
    if bad or tables:
        sys.exit(1)
    print("the layers run one way, and every module has its row in its folder's file table")


main()

#!/usr/bin/env python3
"""The crate's public API as a sorted listing, one item a line: every item reachable by a
public path (modules, re-exports and globs followed), the inherent methods of its types and
the methods of its traits. `.ci/run` compares it with `public-api.txt`, so that a change to
the API is a deliberate one: after changing the API on purpose, regenerate the file with

    python3 scripts/public_api.py > public-api.txt

It reads rustdoc's JSON output (an unstable format, so the installed nightly toolchain
builds it; the crate itself is built by the pinned stable one), for all features.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("PUBLIC_API_TARGET", os.path.join(ROOT, "target", "public-api"))

subprocess.run(
    ["cargo", "+nightly", "rustdoc", "--quiet", "--lib", "--all-features",
     "--target-dir", TARGET, "--", "-Z", "unstable-options", "--output-format", "json",
     "--document-hidden-items", "-A", "warnings"],
    cwd=ROOT, check=True,
)
doc = json.load(open(os.path.join(TARGET, "doc", "shapecast.json")))
index = doc["index"]
KINDS = {
    "module": "mod", "struct": "struct", "enum": "enum", "trait": "trait",
    "function": "fn", "type_alias": "type", "constant": "const", "static": "static",
    "macro": "macro", "proc_macro": "macro", "union": "union", "trait_alias": "trait",
}
lines = set()
seen_modules = set()
# Each type's and trait's paths: its methods are listed once, under the shortest.
owners = {}


def kind_of(item):
    return next(iter(item["inner"]))


def hidden(item):
    """`#[doc(hidden)]`: not part of the documented surface (the type level's machinery,
    which compile errors and macros reach by path). Hidden items are in the JSON only so that
    public re-exports of them (`rule::Row`) resolve."""
    return any("doc(hidden)" in str(a) for a in item.get("attrs", []))


def methods(path, item):
    """The inherent methods of a type, or the items of a trait, under `path`."""
    kind = kind_of(item)
    inner = item["inner"][kind]
    if kind == "trait":
        for i in inner["items"]:
            it = index.get(str(i))
            if it and it.get("name") and not hidden(it):
                lines.add(f"trait-item {path}::{it['name']}")
        return
    for impl_id in inner.get("impls", []):
        imp = index.get(str(impl_id))
        if not imp or imp["inner"]["impl"]["trait"] is not None:
            continue
        for i in imp["inner"]["impl"]["items"]:
            it = index.get(str(i))
            if it and it.get("name") and it.get("visibility") == "public" and not hidden(it):
                lines.add(f"method {path}::{it['name']}")


def visit(item_id, path):
    item = index.get(str(item_id))
    if item is None or hidden(item):
        return
    kind = kind_of(item)
    if kind == "use":
        use = item["inner"]["use"]
        target = index.get(str(use["id"])) if use.get("id") is not None else None
        if use["is_glob"]:
            if target is not None and kind_of(target) == "module":
                for i in target["inner"]["module"]["items"]:
                    visit(i, path)
            else:
                lines.add(f"use {path}::* (from {use['source']})")
            return
        name = f"{path}::{use['name']}"
        if target is None:
            lines.add(f"use {name} (from {use['source']})")
        else:
            show(target, name)
        return
    show(item, f"{path}::{item['name']}")


def show(item, path):
    kind = kind_of(item)
    if kind in ("impl", "use"):
        return
    lines.add(f"{KINDS.get(kind, kind)} {path}")
    if kind == "module":
        if (item["id"], path) in seen_modules:
            return
        seen_modules.add((item["id"], path))
        for i in item["inner"]["module"]["items"]:
            visit(i, path)
    elif kind in ("struct", "enum", "union", "trait"):
        owners.setdefault(item["id"], (item, set()))[1].add(path)


root = index[str(doc["root"])]
for i in root["inner"]["module"]["items"]:
    visit(i, "shapecast")
for item, paths in owners.values():
    methods(min(paths, key=lambda p: (p.count("::"), p)), item)
sys.stdout.write("".join(f"{line}\n" for line in sorted(lines)))

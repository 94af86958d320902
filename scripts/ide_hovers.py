#!/usr/bin/env python3
"""The type of every `let` in the IDE probe and the examples, as an editor's hover shows it.

Reads rust-analyzer's LSIF dump on stdin (`rust-analyzer lsif ide/`) and prints
`file:line:column: let name: Type` for each binding in files under ide/ or examples/.
Used by `scripts/ide_types.sh --types`.
"""
import json
import sys

vertices, edges = {}, []
for line in sys.stdin:
    o = json.loads(line)
    if o["type"] == "vertex":
        vertices[o["id"]] = o
    else:
        edges.append(o)
docs = {i: v["uri"] for i, v in vertices.items()
        if v.get("label") == "document" and ("/ide/src/" in v["uri"] or "/examples/" in v["uri"])}
in_doc, result_set, hover = {}, {}, {}
for e in edges:
    if e["label"] == "contains" and e["outV"] in docs:
        for r in e["inVs"]:
            in_doc[r] = e["outV"]
    elif e["label"] == "next":
        result_set[e["outV"]] = e["inV"]
    elif e["label"] == "textDocument/hover":
        hover[e["outV"]] = e["inV"]
rows = []
for r, doc in in_doc.items():
    h = hover.get(result_set.get(r, r)) or hover.get(r)
    if h is None:
        continue
    contents = vertices[h]["result"]["contents"]
    text = contents["value"] if isinstance(contents, dict) else str(contents)
    text = " ".join(text.replace("```rust", "").replace("```", "").split())
    if not text.startswith("let "):
        continue
    start = vertices[r]["start"]
    uri = docs[doc]
    path = uri[max(uri.rfind("/ide/src/"), uri.rfind("/examples/")) + 1:]
    rows.append((path, start["line"] + 1, start["character"] + 1, text))
for path, line, col, text in sorted(set(rows)):
    print(f"{path}:{line}:{col}: {text}")

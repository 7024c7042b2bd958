#!/usr/bin/env python3
"""The dependency rule of docs/dev/architecture.md, checked on the sources: every `#include "..."` of a layer's
files names a file of the same layer or of a layer it may use, and every layer's CMake DEPENDS names only the
libraries it may use. The table of layers is read from the architecture document itself (its "Layers" table), so
the rule is written down once. Exit 1 with one line per violation.

Usage: tests/source/check_layers.py [--repo DIR]
"""
import argparse
import os
import re
import sys


def read_layers(doc_path):
    """{layer: set of layers it may use} from the Markdown table whose header starts with `| layer | may use |`."""
    layers = {}
    in_table = False
    with open(doc_path, encoding="utf-8") as f:
        for line in f:
            if re.match(r"\|\s*layer\s*\|\s*may use\s*\|", line):
                in_table = True
                continue
            if in_table:
                if not line.startswith("|"):
                    break
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if set(cells[0]) <= set("-: "):
                    continue
                name = cells[0].strip("`/ ")
                uses = {u.strip("`/ ") for u in re.split(r"[,\s]+", cells[1]) if u.strip("`/ ") and u.strip() != "nothing"}
                layers[name] = uses
    if not layers:
        raise SystemExit(f"{doc_path}: no table headed '| layer | may use |'")
    return layers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    layers = read_layers(os.path.join(repo, "docs", "dev", "architecture.md"))
    problems = []
    for layer, uses in sorted(layers.items()):
        root = os.path.join(repo, layer)
        if not os.path.isdir(root):
            problems.append(f"{layer}/: listed in docs/dev/architecture.md but missing")
            continue
        for unknown in sorted(uses - set(layers)):
            problems.append(f"docs/dev/architecture.md: layer {layer} may use '{unknown}', which is not a layer")
        for dirpath, _, files in os.walk(root):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, repo)
                if name.endswith((".cpp", ".hpp", ".h", ".c")):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for number, text in enumerate(f, 1):
                            m = re.match(r'\s*#\s*include\s+"([^"]+)"', text)
                            if not m:
                                continue
                            target = m.group(1).split("/")[0]
                            if target in layers and target != layer and target not in uses:
                                problems.append(f"{rel}:{number}: includes {m.group(1)}: {layer} may not use {target} "
                                                f"(it may use: {', '.join(sorted(uses)) or 'nothing'})")
                elif name == "CMakeLists.txt":
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                    for m in re.finditer(r"DEPENDS([^)]*)\)", text):
                        for dep in re.findall(r"spotsim_(\w+)", m.group(1)):
                            if dep in layers and dep != layer and dep not in uses:
                                problems.append(f"{rel}: DEPENDS spotsim_{dep}: {layer} may not use {dep}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} violation(s) of the dependency rule (docs/dev/architecture.md#layers)")
        return 1
    print(f"{len(layers)} layers, every include and every DEPENDS downward")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Rewrites the outputs of the ```python examples in docs/python.md by running them, so what the docs show is what
the code prints. tests/python/test_docs_examples.py runs the same examples and fails when they disagree.

    ./dev python python/render_docs_examples.py [docs/python.md]

Needs the shared data (SPOTSIM_SHARED_DIR, else ../shared) for the lifetime and step-time examples. Each block's
examples run in order in one namespace, with pandas' display width fixed (DISPLAY_WIDTH of the test).
"""
import doctest
import pathlib
import re
import sys
import traceback

import pandas as pd

# This script sits beside the package's sources (python/spotsim, without the compiled extension): import the
# built package from PYTHONPATH, not those.
sys.path = [p for p in sys.path if pathlib.Path(p or ".").resolve() != pathlib.Path(__file__).resolve().parent]

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
DISPLAY_WIDTH = 160  # the same as tests/python/test_docs_examples.py


class Recorder(doctest.DocTestRunner):
    """Keeps what each example printed (or the exception it raised), in order."""

    def __init__(self):
        super().__init__(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
        self.outputs = []

    def report_success(self, out, test, example, got):
        self.outputs.append(example.want)  # as written: keeps its '...' (paths that differ between machines)

    def report_failure(self, out, test, example, got):
        self.outputs.append(got)

    def report_unexpected_exception(self, out, test, example, exc_info):
        message = traceback.format_exception_only(*exc_info[:2])[-1]
        self.outputs.append("Traceback (most recent call last):\n    ...\n" + message)


def render_block(block, namespace):
    examples = doctest.DocTestParser().get_examples(block)
    test = doctest.DocTest(examples, namespace, "block", None, 0, block)
    runner = Recorder()
    runner.run(test, out=lambda text: None, clear_globs=False)
    namespace.update(test.globs)
    lines = []
    for example, got in zip(examples, runner.outputs):
        source = example.source.rstrip("\n").split("\n")
        lines += [">>> " + source[0]] + ["... " + line for line in source[1:]]
        lines += [line.rstrip() for line in got.rstrip("\n").split("\n") if got.strip()]
    return "\n".join(lines) + "\n"


def main():
    path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2] / "docs/python.md")
    text = path.read_text()
    namespace = {}
    with pd.option_context("display.width", DISPLAY_WIDTH, "display.max_columns", 20):
        rendered = BLOCK.sub(lambda m: "```python\n" + render_block(m.group(1), namespace) + "```", text)
    path.write_text(rendered)
    print(f"render_docs_examples: {path} rewritten ({len(BLOCK.findall(text))} blocks)")


if __name__ == "__main__":
    main()

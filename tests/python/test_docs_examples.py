"""docs/python.md's examples are run and their shown output compared (doctest): a docs example whose output the
code no longer produces fails here, so the docs cannot go stale silently.

Each ```python block is one doctest; the blocks run in order in one namespace (as a reader types them). Outputs are
compared with NORMALIZE_WHITESPACE and ELLIPSIS ('...' stands for a machine-specific path). pandas prints with a
fixed display width, the one the examples were rendered with. Blocks that read the shared data are skipped, saying
so, when it is absent.
"""
import doctest
import os
import re

import pandas as pd
import pytest

import spotsim
from conftest import REPO

DOC = REPO / "docs" / "python.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
DISPLAY_WIDTH = 160  # docs/python.md says so next to its first example


def python_blocks(text):
    return [m.group(1) for m in BLOCK.finditer(text)]


def run_blocks(blocks, have_shared):
    """(examples run, failure report) of the blocks, in order, in one namespace."""
    parser = doctest.DocTestParser()
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    runner = doctest.DocTestRunner(optionflags=flags)
    namespace = {}
    report = []
    for index, block in enumerate(blocks):
        if not have_shared and "shared_dir()" in block:
            report.append(f"block {index + 1} skipped: needs the shared data")
            continue
        test = parser.get_doctest(block, namespace, f"docs/python.md block {index + 1}", str(DOC), 0)
        runner.run(test, out=report.append, clear_globs=False)
        namespace.update(test.globs)  # DocTest works on a copy: carry the names to the next block
    return runner.tries, runner.failures, "".join(report)


@pytest.fixture()
def pandas_display():
    with pd.option_context("display.width", DISPLAY_WIDTH, "display.max_columns", 20):
        yield


def test_every_python_example_in_docs_prints_what_the_docs_show(pandas_display, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    shared = os.environ.get("SPOTSIM_SHARED_DIR")
    have_shared = bool(shared) and os.path.isdir(os.path.join(shared, "data"))
    blocks = python_blocks(DOC.read_text())
    assert len(blocks) >= 5, "docs/python.md lost its examples"
    tries, failures, report = run_blocks(blocks, have_shared)
    assert tries >= 10, report
    assert failures == 0, f"docs/python.md disagrees with the code:\n{report}"


def test_the_checker_notices_a_wrong_output(pandas_display):
    # Young's interval sqrt(2 * 0.5 * 4) is 2.0, not 3.0 (wrong); sqrt(2 * 0.5 * 9) is 3.0 (right).
    block = '>>> spotsim.young_interval(0.5, 4.0)\n3.0\n>>> spotsim.young_interval(0.5, 9.0)\n3.0\n'
    tries, failures, report = run_blocks([">>> import spotsim\n", block], have_shared=False)
    assert tries == 3 and failures == 1
    assert "Expected:\n    3.0" in report

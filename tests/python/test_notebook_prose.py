"""Numbers in a notebook's prose must come from its cells, so the prose cannot drift from what the cells compute.

The rule, per markdown cell of every notebook in notebooks/: outside headings, inline code and link targets, a
number may appear only if it is an *input* of the notebook, i.e. the same number is written in one of its code
cells (work="48h" makes "a 48-hour job" fine), or a citation (a year, a venue's 'YY). Every result (a cost, a
completion time, a share, a count read from data) must be rendered by a code cell, e.g. with
IPython.display.Markdown. This is what caught the checkpoint-tuning notebook saying 72.4 h while its cells said
51.1 h.
"""
import json
import re

import pytest

from conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
NUMBER = re.compile(r"(?<![\w.])(?<![A-Za-z]-)[0-9][0-9,]*(?:\.[0-9]+)?")
CITATION = re.compile(r"\b[A-Z][A-Za-z]*'[0-9]{2}\b|\b(?:19|20)[0-9]{2}\b")
IGNORED = [re.compile(r"^#.*$", re.M),               # headings
           re.compile(r"`[^`\n]*`"),                  # inline code: names and specs, not results
           re.compile(r"\]\([^)]*\)")]                # link targets


def numbers(text):
    """The numbers written in text, as floats (thousands separators dropped)."""
    found = set()
    for token in NUMBER.findall(text):
        token = token.rstrip(",")
        try:
            found.add(float(token.replace(",", "")))
        except ValueError:
            pass
    return found


def typed_numbers(notebook):
    """{markdown cell index: numbers in its prose that no code cell of the notebook writes}."""
    cells = json.loads(notebook.read_text())["cells"]
    inputs = set()
    for cell in cells:
        if cell["cell_type"] == "code":
            inputs |= numbers("".join(cell["source"]))
    offending = {}
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        prose = "".join(cell["source"])
        for pattern in IGNORED + [CITATION]:
            prose = pattern.sub(" ", prose)
        typed = sorted(numbers(prose) - inputs)
        if typed:
            offending[index] = typed
    return offending


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_prose_has_no_typed_results(notebook):
    offending = typed_numbers(notebook)
    assert not offending, (f"{notebook.name}: markdown cells {sorted(offending)} contain numbers that no code cell "
                           f"writes ({offending}); render results from a code cell (IPython.display.Markdown)")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_answers_in_words_from_its_results(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert any("Markdown(" in source for source in code[-2:]), f"{notebook.name}: its answer is not rendered"
    assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code"), (
        f"{notebook.name}: outputs are committed; clear them (the executed copies are build products)")


def test_the_rule_catches_a_typed_result(tmp_path):
    notebook = tmp_path / "n.ipynb"
    cells = [{"cell_type": "code", "source": ['JOB = dict(work="48h")\n', "REPLICATIONS = 400\n"]},
             {"cell_type": "markdown", "source": ["# Results for 2 traces\n",
                                                  "A 48-hour job, 400 replications (HPDC'20, 2019), `fixed:interval=3h`:\n",
                                                  "hazard gives 72.4 h, 36% worse than ResNet-50; n = 1,442.\n"]}]
    notebook.write_text(json.dumps({"cells": cells}))
    assert typed_numbers(notebook) == {1: [36.0, 72.4, 1442.0]}

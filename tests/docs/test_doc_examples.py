"""The checker of documented examples (tools/docs/doc_examples.py): it must catch a stale output, accept a current
one, honour `...`, `ignore=` and `mask=`, and rewrite a stale block in place, keeping its elisions."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "docs"))
import doc_examples  # noqa: E402

SCRIPT = ROOT / "tools" / "docs" / "doc_examples.py"


def check(path, mode="--check"):
    return subprocess.run([sys.executable, str(SCRIPT), mode, str(path)], capture_output=True, text=True)


def test_ellipsis_matches_any_run_of_lines():
    assert doc_examples.matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert doc_examples.matches(["a", "...", "d"], ["a", "d"])
    assert doc_examples.matches(["...", "c", "..."], ["a", "c", "e"])
    assert not doc_examples.matches(["a", "...", "d"], ["a", "b", "c"])
    assert not doc_examples.matches(["b", "..."], ["a", "b"])  # anchored at the start


def test_rewrite_keeps_elisions_and_finds_rows_by_label():
    expected = ["header v1", "...", "row x 1.0 2.0", "..."]
    actual = ["header v2", "noise", "row x 1.5 2.5", "tail"]
    assert doc_examples.rewrite_elided(expected, actual) == ["header v2", "...", "row x 1.5 2.5", "..."]
    assert doc_examples.rewrite_elided(["h", "...", "gone row 1"], ["h", "x"]) is not None  # anchored end: last line
    assert doc_examples.rewrite_elided(["h", "...", "gone row", "..."], ["h", "x"]) is None


def test_a_stale_example_fails_and_update_fixes_it(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("text\n\n<!-- example -->\n```\n$ printf 'one\\ntwo\\n'\none\nthree\n```\n")
    stale = check(doc)
    assert stale.returncode == 1 and "1 stale" in stale.stderr and "+two" in stale.stderr
    assert check(doc, "--update").returncode == 0
    assert "$ printf 'one\\ntwo\\n'\none\ntwo\n```" in doc.read_text()
    assert check(doc).returncode == 0


def test_command_in_the_marker_and_options(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- example: echo took 0.37 s; echo fixed | mask=\\d+\\.\\d+ s -->\n```\ntook 9.99 s\nfixed\n```\n"
                   "<!-- example: echo a; date | ignore=^[A-Z][a-z]{2} -->\n```\na\n```\n")
    result = check(doc)
    assert result.returncode == 0, result.stderr


def test_marker_without_a_block_is_refused(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- example: echo a -->\nnot a fence\n")
    result = check(doc)
    assert result.returncode != 0 and "fenced block" in (result.stderr + result.stdout)


def test_steps_share_one_shell_and_each_has_its_own_output(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("<!-- example -->\n```\n$ X=4; echo first\nfirst\n$ (exit 3)\n$ echo $?\n3\n$ echo $X\n5\n```\n")
    stale = check(doc)
    assert stale.returncode == 1 and "-5" in stale.stderr and "+4" in stale.stderr
    assert check(doc, "--update").returncode == 0
    assert "$ echo $X\n4\n```" in doc.read_text() and "$ echo $?\n3\n" in doc.read_text()
    assert check(doc).returncode == 0

#!/usr/bin/env python3
"""Docs that cannot go stale: run every marked example in the README and docs/ and compare its output.

An example is a fenced block preceded by a marker comment:

    <!-- example -->                 the block's `$ command` lines (with `\\` continuations) are run, each followed
                                     by its output
    <!-- example: COMMAND -->        COMMAND is run (the block then holds only output; the prose shows the command);
                                     COMMAND cannot hold `|` (it starts the options): pipes go in `$` lines

A line `...` in the documented output stands for any run of lines (zero or more), so a long output can be shown in
part; the lines around it must match in order. Options go after `|` in the marker, separated by `;`:
`ignore=REGEX` leaves lines matching it out of the comparison on both sides; `mask=REGEX` compares lines with the
matches replaced (timings, absolute paths); `timeout=SECONDS` (default 600).

`--update` keeps each `...` and rewrites the shown lines: a shown stretch is found again in the new output by its first
line's first two words (a table row's label), and an example whose stretch cannot be found is left for a person.

The commands run with build/tools first on PATH (so `spotsim` and `simulate` are this build's) and build/python on
PYTHONPATH (so is the Python module), in a scratch
directory whose entries link to the repository's top level and whose parent holds a link `shared` to ../shared, so
`traces/library/...`, `experiments/...` and `../shared/...` resolve as they do from the repository root, and files an
example writes do not land in the repository. Commands of one file run in order in the same directory (an example
may read what an earlier one wrote).

  doc_examples.py --check [FILES]    fail (exit 1) listing every example whose output differs, with a diff
  doc_examples.py --update [FILES]   rewrite the blocks with the outputs of this build
  doc_examples.py --list [FILES]     the examples found
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!--\s*example(?::\s*(?P<command>.*?))?\s*(?:\|\s*(?P<options>.*?))?\s*-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)")
DEFAULT_FILES = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))


class Step:
    """One command of an example and the output the docs show for it (`prompt` = the `$` lines, kept verbatim)."""

    def __init__(self, command, prompt, expected):
        self.command, self.prompt, self.expected = command, prompt, expected


class Example:
    def __init__(self, path, marker_line, fence_start, fence_end, steps, options):
        self.path, self.marker_line = path, marker_line
        self.fence_start, self.fence_end = fence_start, fence_end  # line indices of the fences
        self.steps, self.options = steps, options

    def where(self):
        return f"{self.path}:{self.marker_line + 1}"

    def commands(self):
        return [step.command for step in self.steps]


def parse_options(text):
    options = {}
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        key, _, value = part.partition("=")
        if key not in ("ignore", "mask", "timeout"):
            raise SystemExit(f"doc_examples: unknown marker option '{key}' (expected ignore=, mask= or timeout=)")
        options[key] = value
    return options


def prompt_steps(body):
    """The block's `$ ` commands (joined over `\\` continuations), each with the output lines shown after it."""
    steps, i = [], 0
    while i < len(body):
        if not body[i].startswith("$ "):
            return None  # output before the first command
        prompt = [body[i]]
        command = body[i][2:]
        while command.rstrip().endswith("\\") and i + 1 < len(body):
            i += 1
            prompt.append(body[i])
            command = command.rstrip()[:-1] + " " + body[i].strip()
        i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        steps.append(Step(command.strip(), prompt, expected))
    return steps


def find_examples(relative):
    lines = (ROOT / relative).read_text().split("\n")
    examples, i = [], 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        if start >= len(lines) or not FENCE.match(lines[start]):
            raise SystemExit(f"{relative}:{i + 1}: an example marker must be followed directly by a fenced block")
        fence = FENCE.match(lines[start]).group(1)
        end = start + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        if end == len(lines):
            raise SystemExit(f"{relative}:{start + 1}: the example's block is never closed")
        body = lines[start + 1:end]
        if m.group("command"):
            steps = [Step(m.group("command"), [], body)]
        else:
            steps = prompt_steps(body)
            if not steps:
                raise SystemExit(f"{relative}:{i + 1}: '<!-- example -->' needs a block starting with '$ command' "
                                 "lines, or the command in the marker ('<!-- example: COMMAND -->')")
        examples.append(Example(relative, i, start, end, steps, parse_options(m.group("options"))))
        i = end + 1
    return examples


def scratch_directory():
    parent = Path(tempfile.mkdtemp(prefix="spotsim-doc-examples-"))
    work = parent / "work"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (work / entry.name).symlink_to(entry)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (parent / "shared").symlink_to(shared)
    return parent, work


BOUNDARY = "@@spotsim-doc-example-step-done@@"


def module_interpreter(build):
    """The directory of a `python3` that is the interpreter the module was built for (CMake's Python3_EXECUTABLE),
    so examples run it whatever python3 comes first on the user's PATH; None when the cache does not say."""
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        return None
    found = re.search(r"^Python3_EXECUTABLE:FILEPATH=(.+)$", cache.read_text(), re.M)
    if not found:
        return None
    shim = Path(tempfile.mkdtemp(prefix="spotsim-doc-python-"))
    (shim / "python3").symlink_to(found.group(1).strip())
    return shim


def run(example, work, build):
    """The output of each step. One shell runs the whole block, so a later command sees an earlier one's variables
    and exit status (`echo $?`); a boundary line after each command splits the output."""
    env = dict(os.environ)
    env["PATH"] = f"{build / 'tools'}:{build / 'experiments'}:{env.get('PATH', '')}"
    python = module_interpreter(build)
    if python is not None:
        env["PATH"] = f"{python}:{env['PATH']}"
    # `python3 -c 'import spotsim'` and `python3 -m spotsim.score` use this build's module too.
    env["PYTHONPATH"] = f"{build / 'python'}:{env['PYTHONPATH']}" if env.get("PYTHONPATH") else str(build / "python")
    env.pop("COLUMNS", None)
    script = "".join(f"{step.command}\n__status=$?; echo {BOUNDARY}; (exit $__status)\n" for step in example.steps)
    done = subprocess.run(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=float(example.options.get("timeout", 600)), stdin=subprocess.DEVNULL)
    if python is not None:
        shutil.rmtree(python, ignore_errors=True)
    outputs, current = [], []
    for line in done.stdout.split("\n"):
        if line == BOUNDARY:
            outputs.append(current)
            current = []
        else:
            current.append(line)
    while len(outputs) < len(example.steps):  # the shell died early: the missing steps printed nothing
        outputs.append([])
    return [trim(o) for o in outputs]


def trim(lines):
    while lines and lines[-1] == "":
        lines = lines[:-1]
    return lines


ELLIPSIS = "..."


def comparable(lines, options):
    ignore = re.compile(options["ignore"]) if "ignore" in options else None
    mask = re.compile(options["mask"]) if "mask" in options else None
    kept = []
    for line in lines:
        if ignore and ignore.search(line):
            continue
        line = line.rstrip()
        kept.append(mask.sub("<masked>", line) if mask and line != ELLIPSIS else line)
    return kept


def matches(expected, actual):
    """Whether `actual` fits `expected`, where a line `...` in expected stands for any run of lines."""
    if ELLIPSIS not in expected:
        return expected == actual
    segments = split_segments(expected)
    position = 0
    for index, segment in enumerate(segments):
        if index == 0 and expected[0] != ELLIPSIS:  # anchored at the start
            if actual[:len(segment)] != segment:
                return False
            position = len(segment)
            continue
        if index == len(segments) - 1 and expected[-1] != ELLIPSIS:  # anchored at the end
            return len(actual) - len(segment) >= position and actual[len(actual) - len(segment):] == segment
        found = find_segment(actual, segment, position)
        if found < 0:
            return False
        position = found + len(segment)
    return True


def split_segments(expected):
    segments, current = [], []
    for line in expected:
        if line == ELLIPSIS:
            if current:
                segments.append(current)
            current = []
        else:
            current.append(line)
    if current:
        segments.append(current)
    return segments


def find_segment(actual, segment, start):
    for i in range(start, len(actual) - len(segment) + 1):
        if actual[i:i + len(segment)] == segment:
            return i
    return -1


def label(line):
    return line.split()[:2]


def rewrite_elided(expected, actual):
    """The documented lines with each shown stretch replaced by the new output's stretch of the same label (None when
    a stretch's first line cannot be found)."""
    result, position, i = [], 0, 0
    while i < len(expected):
        if expected[i] == ELLIPSIS:
            result.append(ELLIPSIS)
            i += 1
            continue
        j = i
        while j < len(expected) and expected[j] != ELLIPSIS:
            j += 1
        length = j - i
        if i == 0:
            start = 0  # anchored at the start
        elif j == len(expected):
            start = len(actual) - length  # anchored at the end
        else:
            start = next((k for k in range(position, len(actual)) if label(actual[k]) == label(expected[i])), -1)
        if start < 0 or start + length > len(actual):
            return None
        result.extend(actual[start:start + length])
        position = start + length
        i = j
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    mode.add_argument("--list", action="store_true")
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="the build whose tools/ runs the examples")
    parser.add_argument("files", nargs="*", help="markdown files relative to the repository (default: README.md, docs/*.md)")
    args = parser.parse_args()
    files = args.files or DEFAULT_FILES
    stale, count = [], 0
    for relative in files:
        examples = find_examples(relative)
        if not examples:
            continue
        if args.list:
            for e in examples:
                print(f"{e.where()}: {' ; '.join(e.commands())}")
            continue
        parent, work = scratch_directory()
        try:
            lines = (ROOT / relative).read_text().split("\n")
            replacements = []
            for e in examples:
                count += 1
                outputs = run(e, work, Path(args.build_dir).resolve())
                new_body, fresh = [], True
                for step, actual in zip(e.steps, outputs):
                    expected = comparable(step.expected, e.options)
                    if matches(expected, comparable(actual, e.options)):
                        new_body += step.prompt + step.expected
                        continue
                    fresh = False
                    diff = difflib.unified_diff(step.expected, actual, f"{e.where()} (documented)",
                                                f"this build: {step.command}", lineterm="", n=1)
                    print("\n".join(diff), file=sys.stderr)
                    new = rewrite_elided(step.expected, actual) if ELLIPSIS in step.expected else actual
                    if new is None:
                        print(f"doc_examples: {e.where()}: a shown stretch is gone from the output; edit it by hand",
                              file=sys.stderr)
                        new = step.expected
                    new_body += step.prompt + new
                if not fresh:
                    stale.append(e)
                    replacements.append((e, new_body))
            if args.update and replacements:
                for e, body in sorted(replacements, key=lambda r: -r[0].fence_start):
                    lines[e.fence_start + 1:e.fence_end] = body
                target = ROOT / relative
                temporary = target.with_name(target.name + ".tmp")
                temporary.write_text("\n".join(lines))
                os.replace(temporary, target)  # never a half-written doc
        finally:
            shutil.rmtree(parent, ignore_errors=True)
    if args.list:
        return 0
    verb = "rewrote" if args.update else "stale"
    print(f"doc_examples: {count} example(s) run, {len(stale)} {verb}" +
          ("".join(f"\n  {e.where()}" for e in stale)), file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""docs/options.md is `spotsim options`: written from the commands' option schemas, checked in the test suite.

  options_reference.py --check  [--build-dir build]   exit 1 with a diff when docs/options.md is not current
  options_reference.py --update [--build-dir build]   rewrite it
"""
import argparse
import difflib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "options.md"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--update", action="store_true")
    parser.add_argument("--build-dir", default=str(ROOT / "build"))
    args = parser.parse_args()
    spotsim = Path(args.build_dir) / "tools" / "spotsim"
    current = subprocess.run([str(spotsim), "options"], check=True, capture_output=True, text=True).stdout
    if args.update:
        PAGE.write_text(current)
        print(f"options_reference: wrote {PAGE.relative_to(ROOT)}")
        return 0
    shown = PAGE.read_text() if PAGE.exists() else ""
    if shown == current:
        return 0
    sys.stdout.writelines(difflib.unified_diff(shown.splitlines(True), current.splitlines(True),
                                               "docs/options.md", "spotsim options"))
    print("options_reference: docs/options.md is not what `spotsim options` prints; "
          "run python3 tools/docs/options_reference.py --update", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

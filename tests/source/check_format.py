#!/usr/bin/env python3
"""Every C++ source and header is as clang-format (the repository's .clang-format) writes it.

Run by ctest as source.format (docs/dev/architecture.md#style). Prints the files that differ, with the command that
fixes them. The formatter is the Debian package's clang-format (./dev setup installs it); other major versions
format some constructs differently, so the check names the version it expects and fails if another is found.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

EXPECTED_MAJOR = 14  # Debian 12's clang-format


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    parser.add_argument("--clang-format", default="clang-format")
    args = parser.parse_args()
    tool = shutil.which(args.clang_format)
    if tool is None:
        print(f"check_format: {args.clang_format} not found; ./dev setup installs it (Debian package clang-format)")
        return 1
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    major = re.search(r"version (\d+)", version)
    if not major or int(major.group(1)) != EXPECTED_MAJOR:
        print(f"check_format: expected clang-format {EXPECTED_MAJOR} (Debian 12), found: {version.strip()}")
        return 1
    repo = Path(args.repo)
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "*.cpp", "*.hpp", "*.h", "*.cc"],
                            capture_output=True, text=True, check=True).stdout.split()
    differ = []
    for name in listed:
        result = subprocess.run([tool, "--dry-run", "-Werror", "--style=file", str(repo / name)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            differ.append(name)
    if differ:
        print(f"check_format: {len(differ)} file(s) differ from clang-format's layout:")
        for name in differ:
            print(f"  {name}")
        print("fix: clang-format -i " + " ".join(differ))
        return 1
    print(f"check_format: {len(listed)} files formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main())

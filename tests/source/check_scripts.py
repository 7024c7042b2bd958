#!/usr/bin/env python3
"""Every script that names its interpreter (a first line "#!") is executable.

Run by ctest as source.scripts. The docs give such scripts as commands (`experiments/skynomad_region_scaling.py
--windows test ...`); one committed without its executable bit fails there with "Permission denied". Prints the
files that lack it, with the command that fixes them.
"""
import argparse
import os
import stat
import subprocess
import sys
from pathlib import Path

SKIPPED = {".git", "build", "node_modules", "__pycache__"}


def candidates(repo):
    """The repository's files: git's list where there is one (what a clone gets), else every file under it."""
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        return [repo / name for name in listed.stdout.decode().split("\0") if name]
    files = []
    for root, dirs, names in os.walk(repo):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith("build")]
        files += [Path(root) / n for n in names]
    return files


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", required=True)
    args = parser.parse_args()
    repo = Path(args.repo).resolve()
    missing = []
    for path in candidates(repo):
        if path.suffix not in (".py", ".sh", "") or not path.is_file() or path.is_symlink():
            continue
        with open(path, "rb") as f:
            if f.read(2) != b"#!":
                continue
        if not path.stat().st_mode & stat.S_IXUSR:
            missing.append(path.relative_to(repo))
    if missing:
        print("check_scripts: these scripts name an interpreter but are not executable:")
        for name in missing:
            print(f"  {name}")
        print("fix: chmod +x " + " ".join(str(m) for m in missing))
        return 1
    print("check_scripts: every script with a #! line is executable")
    return 0


if __name__ == "__main__":
    sys.exit(main())

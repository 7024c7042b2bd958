#!/usr/bin/env python3
"""Fails when two source files define a class or struct of the same name in the same (non-anonymous) namespace.

Two different `spotsim::ConfigurationResult`s once linked into one binary (an ODR violation): the build and the
release tests passed, and only AddressSanitizer saw a string moved out of the wrong layout. The compiler cannot
catch this without LTO, so this scans the sources: a type defined at namespace scope outside `namespace { }` must
have one definition. Definitions of members (`struct A::Impl`) and forward declarations are not counted.
"""
import argparse
import re
import subprocess
import sys

PRODUCT_AND_TEST_DIRS = ["base", "model", "optimum", "engine", "traces", "policies", "steptime", "app", "cli", "python",
                         "tests", "bench"]
DEFINITION = re.compile(r"^(?:struct|class)\s+(\w+)(\s+final)?\s*(?::[^:].*)?\{?\s*$")


def definitions(repo):
    import os
    missing = [d for d in PRODUCT_AND_TEST_DIRS if not os.path.isdir(os.path.join(repo, d))]
    if missing:  # a renamed folder would otherwise drop out of the check unseen
        sys.exit(f"check_unique_type_names.py: no folder {', '.join(missing)} in {repo}: update PRODUCT_AND_TEST_DIRS")
    files = subprocess.check_output(["git", "-C", repo, "ls-files", *PRODUCT_AND_TEST_DIRS], text=True).split()
    found = {}
    for path in files:
        if not path.endswith((".hpp", ".cpp", ".h")):
            continue
        anonymous = 0
        with open(f"{repo}/{path}", encoding="utf-8") as source:
            for number, line in enumerate(source, 1):
                if re.match(r"^namespace\s*\{", line):
                    anonymous += 1
                elif anonymous and re.match(r"^\}\s*//\s*namespace\s*$", line):
                    anonymous -= 1
                match = DEFINITION.match(line)
                if match and not anonymous:
                    found.setdefault(match.group(1), []).append(f"{path}:{number}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", required=True)
    args = parser.parse_args()
    duplicates = {name: places for name, places in definitions(args.repo).items() if len(places) > 1}
    for name, places in sorted(duplicates.items()):
        print(f"type '{name}' is defined more than once outside an anonymous namespace: {', '.join(places)}")
    if duplicates:
        print("rename one, or move a file-local type into `namespace {`")
        return 1
    print("every namespace-scope type name is defined once")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Regenerates the figures committed under docs/img/ (shown in README.md and docs/python.md) by executing the
# notebooks with SPOTSIM_FIGURE_DIR=docs/img. Needs the module built (cmake --build BUILD --target _spotsim) and
# the shared data in ../shared (or SPOTSIM_SHARED_DIR).
#
#   notebooks/render_figures.sh [BUILD_DIR]        (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
export PYTHONPATH="$build/python${PYTHONPATH:+:$PYTHONPATH}"
export SPOTSIM_FIGURE_DIR="$root/docs/img"
mkdir -p "$SPOTSIM_FIGURE_DIR"
"$root/notebooks/run_notebooks.sh" "$build/notebooks-rendered"
ls -l "$SPOTSIM_FIGURE_DIR"

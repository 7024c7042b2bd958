#!/usr/bin/env bash
# Executes notebooks top to bottom with Debian's nbconvert and fails if any cell fails (CTest label `notebooks`).
#
#   notebooks/run_notebooks.sh OUTPUT_DIR [NOTEBOOK.ipynb ...]     (default: every notebook in notebooks/)
#
# The executed copies go to OUTPUT_DIR; the committed notebooks keep their outputs cleared. The module must be
# importable: PYTHONPATH=<build>/python (ctest sets it; so does render_figures.sh). Figures are written only when
# SPOTSIM_FIGURE_DIR is set.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_notebooks.sh OUTPUT_DIR [NOTEBOOK.ipynb ...]}
shift
[ $# -gt 0 ] || set -- "$here"/*.ipynb
python=${SPOTSIM_PYTHON:-/usr/bin/python3}
mkdir -p "$out"
export SPOTSIM_SHARED_DIR=${SPOTSIM_SHARED_DIR:-$here/../../shared}
# matplotlib must not write its cache into a read-only home (the kernel draws inline, with no display).
# ipykernel 6 warns about frozen modules when its debugger is importable; the warning is noise here.
export PYDEVD_DISABLE_FILE_VALIDATION=1
export MPLCONFIGDIR=${MPLCONFIGDIR:-$out/.matplotlib}
failed=0
skipped=0
for notebook in "$@"; do
  start=$(date +%s)
  name=$(basename "$notebook")
  # Notebooks on the real data need the shared directory; without it they are skipped, not failed (exit 77,
  # which CTest reports as skipped), since the product itself never depends on it.
  if grep -q 'spotsim.shared_dir(' "$notebook" && [ ! -d "$SPOTSIM_SHARED_DIR/data" ]; then
    echo "run_notebooks: $name skipped: shared data not found at $SPOTSIM_SHARED_DIR (set SPOTSIM_SHARED_DIR)" >&2
    skipped=1
    continue
  fi
  rm -f "$out/$name"
  # Cells run in the notebook's own directory, as in Jupyter; nbconvert exits non-zero if any cell raises.
  if (cd "$(dirname "$notebook")" &&
      "$python" -m nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
        --ExecutePreprocessor.kernel_name=python3 --output-dir "$out" "$name"); then
    echo "run_notebooks: $name executed in $(( $(date +%s) - start )) s"
  else
    echo "run_notebooks: $name FAILED (see the cell error above)" >&2
    failed=1
  fi
done
[ $failed -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77

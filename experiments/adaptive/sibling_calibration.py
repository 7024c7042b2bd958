#!/usr/bin/python3
"""What the plan's model is worth on the paper's 8-GPU pairs: `adaptive` with its shipped calibration (the 2023 AWS
campaign, 1-GPU instances) against `adaptive` calibrated on the recording of the *other* zone's 8-GPU instance of the
same type (us-west-2a_v100_8 for us-west-2b_v100_8 and so on: another market, not a look-ahead for the pair it
plays), beside Uniform Progress, on pair_cells.py's windows (the Can't Be Late mode, d = 0.2 h).

A report, not a default: those recordings are the pairs of the public grids, so no shipped setting may come from
them (docs/validation.md#pair-cells). It shows where the one cell still at parity comes from: the shipped model's
spot lasts longer than the 8-GPU pairs' flickering spot.

usage: PYTHONPATH=build/python experiments/adaptive/sibling_calibration.py [--shared ../shared]
       [--spotsim build/tools/spotsim] [--out /tmp/pair-cells] [--windows 300] [--seed 2024]
"""
import argparse
import os
import statistics
import sys

from pair_cells import DEADLINES, ON_DEMAND, add_window_arguments, paper_windows
from regime_plan import regimes
from slack_plan import TICK_S, sampled, spells, stay_probabilities
from spotsim.score import run_windows

SIBLINGS = {"us-west-2a_v100_8": "us-west-2b_v100_8", "us-west-2b_v100_8": "us-west-2a_v100_8",
            "us-west-2a_k80_8": "us-west-2b_k80_8", "us-west-2b_k80_8": "us-west-2a_k80_8"}


def lasts_another_step(path):
    """stay_up[0] of a recording: the chance that a fresh spot spell lasts another 10-minute step (slack_plan.py's
    estimate, as the plan's model takes it)."""
    return stay_probabilities(spells(sampled(path, TICK_S))[0])[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_window_arguments(parser)
    args = parser.parse_args()
    traces, windows = paper_windows(args.shared, args.spotsim, args.out, args.windows, args.seed)
    print("Saving against on-demand: Uniform Progress / `adaptive` / `adaptive` calibrated on the sibling 8-GPU "
          f"recording ({args.windows} windows per cell)\n")
    print("| pair (calibrated on) | " + " | ".join(f"{d:.0f} h" for d in DEADLINES) + " |")
    print("|---|" + "---|" * len(DEADLINES))
    better = total = 0
    for pair, sibling in SIBLINGS.items():
        policies = ["uniform-progress", "adaptive", "adaptive:calibration=" + os.path.abspath(traces[sibling])]
        cells = []
        for deadline in DEADLINES:
            saving = [100 * (1 - statistics.mean(run_windows(traces[pair], windows[pair], p, deadline,
                                                             restart_overhead_hours=0.2)["cost_total"]) / ON_DEMAND)
                      for p in policies]
            better += saving[2] > saving[1]
            total += 1
            cells.append(" / ".join(f"{s:.1f}" for s in saving))
        print(f"| {pair} ({sibling}) | " + " | ".join(cells) + " |")
    print(f"\nThe sibling calibration saves more than the shipped one in {better} of {total} cells.")
    (scarce_up, _), (plentiful_up, _) = regimes()
    print("A fresh spot spell lasts another 10-minute step with probability " +
          ", ".join(f"{lasts_another_step(traces[pair]):.2f} on {pair}" for pair in SIBLINGS) +
          f"; {scarce_up[0]:.2f} in the shipped calibration's scarce zones and "
          f"{plentiful_up[0]:.2f} in its plentiful ones.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

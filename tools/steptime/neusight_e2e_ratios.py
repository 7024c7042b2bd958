#!/usr/bin/env python3
"""The cross-GPU step-time model against measured end-to-end training steps (docs/step-time.md#neusight-e2e): the
speed-up of a transformer training step from a V100-PCIE to an A100-80GB PCIe, an H100 SXM and an L4, as NeuSight
measured it (../shared/data/kernels/tables/neusight/e2e_labels/neusight_e2e_latency_ms.csv: BERT-large and
GPT-2-large training steps, single GPU, no parallelism variant) against the speed-up spotsim predicts for the GPU
compute of the shared transformer-like V100 trace (v100_transformerlike_ddp2_fp32_rank1.json.gz, FP32, matmuls
without TF32: PyTorch's default) on the same GPUs. Different models, so only the ratios are compared; nothing is
fitted to them. tests/python/test_steptime.py pins the printed numbers.

  PYTHONPATH=build/python python3 tools/steptime/neusight_e2e_ratios.py [--shared ../shared]
"""
import argparse
import csv
import pathlib
import statistics

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRACE = "data/kernels/kineto-traces/hta/v100_transformerlike_ddp2_fp32_rank1.json.gz"
E2E = "data/kernels/tables/neusight/e2e_labels/neusight_e2e_latency_ms.csv"
# NeuSight's device names and spotsim's spec-table rows for the same cards.
DEVICES = {"Tesla_V100-PCIE-32GB": "V100-PCIE", "NVIDIA_A100_80GB_PCIe": "A100-80GB-PCIE",
           "NVIDIA_H100_80GB_HBM3": "H100", "NVIDIA_L4": "L4"}
REFERENCE = "Tesla_V100-PCIE-32GB"


def measured_speedups(shared):
    """Per GPU: the speed-ups over the V100-PCIE of every training configuration both measured, and their mean."""
    steps = {}
    for r in csv.DictReader(open(shared / E2E)):
        if r["mode"] == "train" and not r["variant"] and r["device"] in DEVICES:
            steps[(r["device"], r["model"], r["seqlen"], r["batch"])] = float(r["e2e_ms"])
    out = {}
    for device in DEVICES:
        if device == REFERENCE:
            continue
        ratios = [steps[(REFERENCE,) + key[1:]] / ms for key, ms in steps.items()
                  if key[0] == device and (REFERENCE,) + key[1:] in steps]
        out[DEVICES[device]] = (statistics.mean(ratios), len(ratios))
    return out


def predicted_speedups(shared):
    import spotsim
    profile = spotsim.read_kineto(shared / TRACE)
    rows = profile.predict(list(DEVICES.values())).set_index("target")
    reference = rows.loc[DEVICES[REFERENCE], "predicted_compute_ms"]
    return {gpu: reference / rows.loc[gpu, "predicted_compute_ms"] for gpu in DEVICES.values() if gpu != "V100-PCIE"}


def table(shared):
    measured, predicted = measured_speedups(shared), predicted_speedups(shared)
    return [(gpu, predicted[gpu], measured[gpu][0], measured[gpu][1], predicted[gpu] / measured[gpu][0] - 1)
            for gpu in predicted]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    shared = pathlib.Path(parser.parse_args().shared)
    print("| GPU | predicted speed-up over V100-PCIE | measured (NeuSight e2e, mean of n) | n | error |")
    print("|---|---|---|---|---|")
    for gpu, predicted, measured, n, error in table(shared):
        print(f"| {gpu} | {predicted:.2f}x | {measured:.2f}x | {n} | {100 * error:+.0f}% |")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Model selection for the op-level step-time model (docs/step-time.md#op-model), reproducible.

5-fold cross-validation *inside the calibration half* of the NeuSight op tables (the half spotsim calibrates on;
the held-out half is never read here): for each feature set, ridge lambda and measurement weight alpha, fit one
log-efficiency model per (GPU, op family) on four folds and predict every (source, target) pair of the fifth.
Prints the mean over target GPUs of the per-GPU mean absolute percentage error.

This is the numpy prototype the choices were made with. It differs from the C++ model in one respect: it also
fits elementwise ops (by bytes and row length), which the product scales by rates instead.

    ./dev build && PYTHONPATH=build/python experiments/op_model_selection.py ../shared/data/kernels
"""
import csv
import sys
import zlib

import numpy as np
import pandas as pd

import spotsim

TABLES = ["linear", "bmm", "elem", "ln", "softmax"]
DEVICES = {"NVIDIA L4": "L4", "Tesla V100-PCIE-32GB": "V100-PCIE", "NVIDIA A100-PCIE-40GB": "A100-40GB-PCIE",
           "Tesla T4": "T4", "NVIDIA H100 80GB HBM3": "H100", "NVIDIA A100 80GB PCIe": "A100-80GB-PCIE"}


def calibration_half(shape):
    """The C++ split (efficiency_calibration.cpp): FNV-1a 64 of the shape key, bit 7."""
    h = 14695981039346656037
    for c in shape.encode():
        h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return (h >> 7) % 2 == 0


def read_calibration_half(kernels_dir):
    specs = spotsim.gpu_specs().set_index("gpu")
    rows = []
    for table in TABLES:
        gemm = table in ("linear", "bmm")
        dims = ["B", "M", "N", "K"] if gemm else ["B", "H"]
        with open(f"{kernels_dir}/tables/neusight/op_latency/test_{table}.csv") as f:
            for r in csv.DictReader(f):
                gpu = DEVICES.get(r["Device"])
                shape = table + ":" + r["OPName"] + "".join(f" {d}={r[d]}" for d in dims)
                if gpu is None or not calibration_half(shape):
                    continue
                v = {d: float(r[d]) for d in dims}
                if gemm:
                    work = 2 * v["B"] * v["M"] * v["N"] * v["K"]
                    byts = 4 * v["B"] * (v["M"] * v["K"] + v["K"] * v["N"] + v["M"] * v["N"])
                    peak = specs.loc[gpu, "peak_fp32_tflops"] * 1e12
                else:
                    inputs = 2 if table == "elem" and r["OPName"] in ("add", "mul", "div", "pow") else 1
                    work = byts = (inputs + 1) * v["B"] * v["H"] * 4
                    peak = specs.loc[gpu, "memory_bandwidth_gbps"] * 1e9
                rows.append(dict(table=table, family="gemm" if gemm else table, shape=shape, gpu=gpu,
                                 seconds=float(r["Latency"]) * 1e-3, work=work, bytes=byts, peak=peak,
                                 B=v["B"], M=v.get("M", 1), N=v.get("N", 1), K=v.get("K", 1), H=v.get("H", 1)))
    d = pd.DataFrame(rows)
    d["log_eff"] = np.log(d.work / d.seconds / d.peak)
    return d


def features(df, family, terms):
    if family == "gemm":
        f, k, m, n, b = (np.log(df[c]) for c in ("work", "K", "M", "N", "B"))
        a = f - np.log(df.bytes)
        cols = [np.ones(len(df)), f, f * f, a, a * a, k, f * a]
        if terms >= 11:
            cols += [k * k, m, n, b]
        if terms >= 16:
            cols += [m * m, n * n, b * b, m * n, k * b]
    else:
        x, h = np.log(df.bytes), np.log(df.H)
        cols = [np.ones(len(df)), x, x * x, h, h * h, x * h]
    return np.vstack(cols).T


def fit(train, terms, ridge):
    models = {}
    for (gpu, family), g in train.groupby(["gpu", "family"]):
        x = features(g, family, terms)
        models[(gpu, family)] = np.linalg.solve(x.T @ x + ridge * np.eye(x.shape[1]), x.T @ g.log_eff.values)
    return models


def cross_validate(d, terms, ridge, alphas):
    fold = d["shape"].map(lambda s: zlib.crc32(s.encode()) % 5)
    errors = {a: [] for a in alphas}
    for k in range(5):
        models, test = fit(d[fold != k], terms, ridge), d[fold == k]
        for family, g in test.groupby("family"):
            pred = {gpu: features(g, family, terms) @ models[(gpu, family)] for gpu in g.gpu.unique()}
            g = g.assign(model=[pred[gpu][i] for i, gpu in enumerate(g.gpu)])
            pairs = g.merge(g, on="shape", suffixes=("_s", "_t"))
            pairs = pairs[pairs.gpu_s != pairs.gpu_t]
            direct = np.log(pairs.work_s / pairs.peak_t) - pairs.model_t
            rescaled = np.log(pairs.seconds_s * pairs.peak_s / pairs.peak_t) + pairs.model_s - pairs.model_t
            for a in alphas:
                predicted = np.exp((1 - a) * direct + a * rescaled)
                ape = np.abs(predicted - pairs.seconds_t) / pairs.seconds_t
                errors[a].append(pd.DataFrame({"gpu": pairs.gpu_t, "ape": ape}))
    return {a: pd.concat(e).groupby("gpu").ape.mean().mean() for a, e in errors.items()}


def main():
    kernels_dir = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/kernels"
    d = read_calibration_half(kernels_dir)
    print(f"calibration half: {d['shape'].nunique()} op shapes, {len(d)} measurements")
    print("features  lambda  " + "  ".join(f"alpha={a:<4}" for a in (0, 0.3, 0.5, 1)))
    for terms, ridge in [(7, 1e-3), (11, 1e-3), (16, 1e-3), (16, 0.1), (16, 1.0)]:
        cv = cross_validate(d, terms, ridge, (0, 0.3, 0.5, 1))
        print(f"{terms:>8}  {ridge:<6}  " + "  ".join(f"{100 * v:9.2f}%" for v in cv.values()))


if __name__ == "__main__":
    main()

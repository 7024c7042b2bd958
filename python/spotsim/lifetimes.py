"""Spot instance lifetimes: recorded per-VM lifetimes, Kaplan-Meier, and exponential/Weibull/bathtub fits."""
import numpy as np
import pandas as pd

from . import _spotsim

FIT_METHODS = ("lsq-ecdf", "lsq-km", "mle")


def lifetime_records(path, format="auto", nodes=1):
    """One row per recorded lifetime: hours, preempted (False = right-censored, e.g. stopped by its user), zone,
    machine_type. Reads any format the trace importers know (GCP lifetimes CSV/JSON, node events, availability
    recordings: then each uptime is a record). DataFrame.attrs["format"] names the format detected."""
    columns = _spotsim.lifetime_records(str(path), format, nodes)
    detected = columns.pop("format")
    frame = pd.DataFrame(columns)
    frame.attrs["format"] = detected
    return frame


def _columns(records):
    return (np.asarray(records["hours"], dtype=float).tolist(),
            np.asarray(records["preempted"], dtype=bool).tolist())


def kaplan_meier(records):
    """Kaplan-Meier survival of a lifetime_records() frame: time_hours, at_risk, events, survival."""
    return pd.DataFrame(_spotsim.kaplan_meier(*_columns(records)))


def empirical_cdf(records, censoring_aware=True):
    """The empirical CDF fits are scored against: 1 - Kaplan-Meier (censoring_aware), or the plain ECDF of the
    preempted records only. Columns time_hours, cdf_before, cdf (the value just before and at each time)."""
    return pd.DataFrame(_spotsim.empirical_cdf(*_columns(records), censoring_aware))


def fit_lifetimes(records, method="mle"):
    """Exponential, Weibull and bathtub fits, as ``spotsim trace fit``: one row per (method, model) with
    parameters (dict), r_squared, ks_distance, log_likelihood, converged and lifetime (a LifetimeModel whose
    cdf/hazard take arrays). method: lsq-ecdf, lsq-km, mle, or all."""
    methods = FIT_METHODS if method == "all" else (method,)
    rows = []
    for m in methods:
        report = _spotsim.fit_lifetimes(*_columns(records), m)
        for fit in report["fits"]:
            rows.append({"method": report["method"], "records": report["records"],
                         "preempted": report["preempted"], **fit})
    return pd.DataFrame(rows)


def lifetime_model(document):
    """A LifetimeModel from its trace-format object, e.g. {"model": "weibull", "shape": 0.8, "scale_hours": 10}."""
    return _spotsim.lifetime_model(document)

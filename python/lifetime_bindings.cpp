// Spot lifetimes from Python: per-VM records read by the trace importers, the Kaplan-Meier estimate, the empirical
// CDFs fits are scored against, the exponential/Weibull/bathtub fits of `spotsim trace fit`, and the fitted models
// themselves as objects whose cdf/hazard take numpy arrays (for plotting a model over its data).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "model/market/kaplan_meier.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "python/json_to_python.hpp"
#include "python/python_bindings.hpp"
#include "traces/fit/goodness_of_fit.hpp"
#include "traces/fit/lifetime_model_fits.hpp"
#include "traces/fit/uptime_records.hpp"
#include "traces/importers/trace_importer.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

std::vector<LifetimeRecord> records_from(const std::vector<double>& hours, const std::vector<bool>& preempted) {
  if (hours.size() != preempted.size()) {
    throw InputError("lifetimes: expected as many preempted flags as lifetimes (" + std::to_string(hours.size()) +
                     "), got " + std::to_string(preempted.size()));
  }
  std::vector<LifetimeRecord> records;
  records.reserve(hours.size());
  for (std::size_t i = 0; i < hours.size(); ++i) {
    if (!(hours[i] >= 0.0) || !std::isfinite(hours[i])) {
      throw InputError("lifetimes[" + std::to_string(i) + "]: expected a lifetime in hours >= 0, got " +
                       std::to_string(hours[i]));
    }
    records.push_back({hours[i], preempted[i]});
  }
  return records;
}

// Every record of a source the importers read: per-VM records where the format has them (GCP lifetimes), else
// the uptimes hidden in an availability or preemption recording (traces/fit/uptime_records.hpp).
py::dict lifetime_record_columns(const std::string& path, const std::string& format, int nodes) {
  if (nodes < 1 || nodes > 100000) {
    throw InputError("--nodes: expected " + integer_range_text(1, 100000) + ", got '" + std::to_string(nodes) + "'");
  }
  const ImportedTrace imported = import_trace_file(path, format, ImportOptions{});
  std::vector<LabeledLifetime> labeled = imported.lifetimes;
  if (labeled.empty()) {
    for (const Zone& zone : imported.market.zones) {
      for (const auto& r : uptime_records(zone, imported.market.span, nodes))
        labeled.push_back({r, zone.name, zone.instance_type});
    }
  }
  std::vector<double> hours;
  std::vector<bool> preempted;
  std::vector<std::string> zones, machine_types;
  for (const auto& l : labeled) {
    hours.push_back(l.record.hours);
    preempted.push_back(l.record.preempted);
    zones.push_back(l.zone);
    machine_types.push_back(l.machine_type);
  }
  py::dict columns;
  columns["hours"] = py::array(py::cast(hours));
  columns["preempted"] = py::cast(preempted);
  columns["zone"] = py::cast(zones);
  columns["machine_type"] = py::cast(machine_types);
  columns["format"] = imported.format;
  return columns;
}

py::dict kaplan_meier_columns(const std::vector<double>& hours, const std::vector<bool>& preempted) {
  std::vector<double> time, survival;
  std::vector<std::size_t> at_risk, events;
  for (const KaplanMeierStep& step : kaplan_meier(records_from(hours, preempted))) {
    time.push_back(step.time);
    at_risk.push_back(step.at_risk);
    events.push_back(step.events);
    survival.push_back(step.survival);
  }
  return py::dict(py::arg("time_hours") = time, py::arg("at_risk") = at_risk, py::arg("events") = events,
                  py::arg("survival") = survival);
}

py::dict empirical_cdf_columns(const std::vector<double>& hours, const std::vector<bool>& preempted,
                               bool censoring_aware) {
  const EmpiricalCdf cdf = empirical_cdf(records_from(hours, preempted), censoring_aware);
  return py::dict(py::arg("time_hours") = cdf.times, py::arg("cdf_before") = cdf.before, py::arg("cdf") = cdf.after);
}

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// f applied to every element, keeping the shape (a scalar comes back as a 0-d array). pybind11's own vectorize
// does not compile for a const-reference first argument in the version Debian ships (2.10).
template <typename F>
DoubleArray elementwise(const DoubleArray& in, F f) {
  DoubleArray out(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
  const double* x = in.data();
  double* y = out.mutable_data();
  for (py::ssize_t i = 0; i < in.size(); ++i) y[i] = f(x[i]);
  return out;
}

double finite_or_nan(double v) { return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN(); }

py::dict fit_report(const std::vector<double>& hours, const std::vector<bool>& preempted, const std::string& method) {
  const auto m = parse_fit_method(method);
  if (!m) throw InputError("--method '" + method + "': expected lsq-ecdf, lsq-km, mle or all");
  const LifetimeFitReport report = fit_lifetime_models(records_from(hours, preempted), *m);
  py::list fits;
  for (const ModelFit& fit : report.fits) {
    py::dict parameters;
    for (const auto& [name, value] : fit.parameters) parameters[py::str(name)] = value;
    fits.append(py::dict(py::arg("model") = fit.model, py::arg("parameters") = parameters,
                         py::arg("r_squared") = finite_or_nan(fit.r_squared),
                         py::arg("ks_distance") = finite_or_nan(fit.ks_distance),
                         py::arg("log_likelihood") = finite_or_nan(fit.log_likelihood),
                         py::arg("converged") = fit.converged, py::arg("lifetime") = *fit.distribution));
  }
  return py::dict(py::arg("method") = fit_method_name(report.method), py::arg("records") = report.records,
                  py::arg("preempted") = report.preempted, py::arg("longest_hours") = report.longest_hours,
                  py::arg("fits") = fits);
}

}  // namespace

void bind_lifetimes(py::module_& m) {
  py::class_<LifetimeDistribution>(m, "LifetimeModel", "a spot instance lifetime distribution (times in hours)")
      .def_property_readonly("name", &LifetimeDistribution::name)
      .def(
          "cdf",
          [](const LifetimeDistribution& d, const DoubleArray& t) {
            return elementwise(t, [&](double x) { return d.cdf(x); });
          },
          py::arg("hours"), "P(lifetime <= t)")
      .def(
          "hazard",
          [](const LifetimeDistribution& d, const DoubleArray& t) {
            return elementwise(t, [&](double x) { return d.hazard(x); });
          },
          py::arg("hours"), "hazard rate per hour at an instance age")
      .def(
          "quantile",
          [](const LifetimeDistribution& d, const DoubleArray& u) {
            return elementwise(u, [&](double x) {
              if (!(x >= 0.0 && x < 1.0)) throw InputError("quantile: expected probabilities in [0, 1)");
              return d.quantile(x);
            });
          },
          py::arg("u"), "the lifetime (hours) with P(lifetime <= t) = u")
      .def("mean", &LifetimeDistribution::mean, "mean lifetime in hours")
      .def("mean_of_minimum", &LifetimeDistribution::mean_of_minimum, py::arg("nodes"),
           "mean time to the first preemption among `nodes` independent instances, hours")
      .def(
          "to_dict", [](const LifetimeDistribution& d) { return to_python(lifetime_to_json(d)); },
          "the model as a trace's zones[].spot.lifetime object")
      .def("__repr__",
           [](const LifetimeDistribution& d) { return "<LifetimeModel " + lifetime_to_json(d).dump() + ">"; });

  m.def(
      "lifetime_model",
      [](const py::dict& document) {
        return parse_lifetime(from_python(document, "lifetime"), "lifetime model", "lifetime");
      },
      py::arg("document"),
      "a LifetimeModel from its trace-format object, e.g. {'model': 'exponential', 'mean_hours': 5}");
  m.def("lifetime_records", &lifetime_record_columns, py::arg("path"), py::arg("format") = "auto", py::arg("nodes") = 1,
        "per-VM lifetimes (hours, preempted, zone, machine_type) of a recorded source");
  m.def("kaplan_meier", &kaplan_meier_columns, py::arg("hours"), py::arg("preempted"),
        "Kaplan-Meier survival at each distinct preemption time");
  m.def("empirical_cdf", &empirical_cdf_columns, py::arg("hours"), py::arg("preempted"),
        py::arg("censoring_aware") = true, "1 - Kaplan-Meier, or the ECDF of preempted records only");
  m.def("fit_lifetimes", &fit_report, py::arg("hours"), py::arg("preempted"), py::arg("method") = "mle",
        "exponential, Weibull and bathtub fits with R^2, KS distance and censored log-likelihood");
}

}  // namespace spotsim::python

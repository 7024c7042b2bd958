// The Python face of an Observation and a SelectionDecision (docs/plugins.md#python-policies). Times are seconds
// (floats; the engine's milliseconds / 1000), prices USD per instance-hour, as the observation's C++ fields mean.
#include <pybind11/stl.h>

#include <cmath>
#include <string>

#include "base/errors.hpp"
#include "model/policy_answers.hpp"
#include "python/observation_view.hpp"
#include "python/python_policy.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

py::object seconds_or_none(Millis t) { return t == kNever ? py::none() : py::object(py::float_(to_seconds(t))); }

// An absolute review time in seconds (None = on the next event) as the engine's milliseconds, rounded up so that
// the policy is never asked before the time it named.
Millis review_millis(const py::object& seconds) {
  if (seconds.is_none()) return kNever;
  const double s = seconds.cast<double>();
  // Beyond the horizon any policy may name (model/policy_answers.hpp) the time cannot be a Millis: refused here, the
  // rest of the rule (after now) where the decision is checked against the observation.
  if (!std::isfinite(s) || std::fabs(s * 1000.0) > 2 * kMaxPolicyHorizonMs) {
    throw PolicyReturnedBadValue(
        "review_at: expected a time in seconds within 1e12 s (about 31,700 years) of now, "
        "or None; got " +
        std::string(py::repr(seconds)));
  }
  return static_cast<Millis>(std::ceil(s * 1000.0));
}

SelectionDecision decision(Purchase purchase, int zone, const py::object& review_at, bool wake_on_spot) {
  return SelectionDecision{purchase, zone, review_millis(review_at), wake_on_spot};
}

template <typename Value>
py::list per_zone(const Observation& obs, Value (*value)(const ZoneView&)) {
  py::list out(obs.zones.size());
  for (std::size_t i = 0; i < obs.zones.size(); ++i) out[i] = py::cast(value(obs.zones[i]));
  return out;
}

template <typename Value>
void seconds_field(py::class_<ObservationView>& c, const char* name, Value (*read)(const Observation&),
                   const char* doc) {
  c.def_property_readonly(
      name, [read](const ObservationView& v) { return seconds_or_none(read(v.get())); }, doc);
}

}  // namespace

void bind_python_policy_types(py::module_& m) {
  py::enum_<Purchase>(m, "Purchase", "what an instance is bought as")
      .value("NONE", Purchase::kNone)
      .value("SPOT", Purchase::kSpot)
      .value("ON_DEMAND", Purchase::kOnDemand);
  py::enum_<Phase>(m, "Phase", "what the job is doing")
      .value("IDLE", Phase::kIdle)
      .value("STARTING", Phase::kStarting)
      .value("RESTORING", Phase::kRestoring)
      .value("COMPUTING", Phase::kComputing)
      .value("CHECKPOINTING", Phase::kCheckpointing)
      .value("DRAINING", Phase::kDraining)
      .value("DONE", Phase::kDone)
      .value("MIGRATING", Phase::kMigrating);

  py::class_<SelectionDecision>(m, "SelectionDecision", "what a selection policy returns (model/observation.hpp)")
      .def(py::init(&decision), py::arg("purchase"), py::arg("zone") = 0, py::arg("review_at") = py::none(),
           py::arg("wake_on_spot") = false)
      .def_static(
          "wait", [](const py::object& review_at) { return decision(Purchase::kNone, 0, review_at, true); },
          py::arg("review_at") = py::none(), "hold nothing; asked again when spot returns or at review_at (s)")
      .def_static(
          "spot",
          [](int zone, const py::object& review_at) { return decision(Purchase::kSpot, zone, review_at, false); },
          py::arg("zone") = 0, py::arg("review_at") = py::none(), "spot in `zone`")
      .def_static(
          "on_demand",
          [](int zone, const py::object& review_at, bool wake_on_spot) {
            return decision(Purchase::kOnDemand, zone, review_at, wake_on_spot);
          },
          py::arg("zone") = 0, py::arg("review_at") = py::none(), py::arg("wake_on_spot") = false,
          "on-demand in `zone`; wake_on_spot: ask again as soon as spot can be obtained")
      .def_readonly("purchase", &SelectionDecision::purchase)
      .def_readonly("zone", &SelectionDecision::zone)
      .def_property_readonly("review_at", [](const SelectionDecision& d) { return seconds_or_none(d.review_at); })
      .def_readonly("wake_on_spot", &SelectionDecision::wake_on_spot)
      .def("__repr__", [](const SelectionDecision& d) {
        const char* what = d.purchase == Purchase::kSpot       ? "SPOT"
                           : d.purchase == Purchase::kOnDemand ? "ON_DEMAND"
                                                               : "NONE";
        return std::string("SelectionDecision(") + what + ", zone=" + std::to_string(d.zone) + ")";
      });

  py::class_<ObservationView> c(m, "Observation",
                                "what a policy sees at a decision point; valid only during the call (times in s)");
  seconds_field(
      c, "now", +[](const Observation& o) { return o.now; }, "time in the trace's frame");
  seconds_field(
      c, "elapsed", +[](const Observation& o) { return o.elapsed; }, "since the job started");
  seconds_field(
      c, "progress", +[](const Observation& o) { return o.progress; }, "work done so far");
  seconds_field(
      c, "committed", +[](const Observation& o) { return o.committed; }, "work saved by the last checkpoint");
  seconds_field(
      c, "instance_age", +[](const Observation& o) { return o.instance_age; }, "since the instance was requested");
  seconds_field(
      c, "spot_time", +[](const Observation& o) { return o.spot_time; }, "spot held so far");
  seconds_field(
      c, "wait_time", +[](const Observation& o) { return o.wait_time; }, "no instance held so far");
  seconds_field(
      c, "decision_tick", +[](const Observation& o) { return o.decision_tick; },
      "> 0 in the Can't Be Late mode: asked every tick");
  seconds_field(
      c, "on_demand_checkpoint_interval", +[](const Observation& o) { return o.on_demand_checkpoint_interval; },
      "None = no periodic checkpoint on on-demand");
  seconds_field(
      c, "remaining_work", +[](const Observation& o) { return o.remaining_work(); }, "work - progress");
  seconds_field(
      c, "time_to_deadline", +[](const Observation& o) { return o.has_deadline() ? o.time_to_deadline() : kNever; },
      "None without a deadline");
  c.def_property_readonly("phase", [](const ObservationView& v) { return v.get().phase; })
      .def_property_readonly("purchase", [](const ObservationView& v) { return v.get().purchase; })
      .def_property_readonly(
          "zone", [](const ObservationView& v) { return v.get().zone; }, "-1: none held")
      .def_property_readonly("data_zone", [](const ObservationView& v) { return v.get().data_zone; })
      .def_property_readonly("preemptions", [](const ObservationView& v) { return v.get().preemptions; })
      .def_property_readonly(
          "recent_preemptions",
          [](const ObservationView& v) {
            py::list out;
            for (Millis t : v.get().recent_preemptions) out.append(to_seconds(t));
            return out;
          },
          "elapsed times (s) of the latest preemptions, oldest first")
      .def_property_readonly("lossless", [](const ObservationView& v) { return v.get().lossless; })
      .def_property_readonly("can_checkpoint", [](const ObservationView& v) { return v.get().can_checkpoint; })
      .def_property_readonly(
          "job",
          [](const ObservationView& v) {
            const JobSpec& j = *v.get().job;
            return py::dict(py::arg("work") = to_seconds(j.work), py::arg("deadline") = seconds_or_none(j.deadline),
                            py::arg("startup") = to_seconds(j.startup), py::arg("restore") = to_seconds(j.restore),
                            py::arg("checkpoint_write") = to_seconds(j.checkpoint_write), py::arg("nodes") = j.nodes);
          },
          "work, deadline (None: none), startup, restore, checkpoint_write (s), nodes")
      .def_property_readonly("zone_count", [](const ObservationView& v) { return v.get().zones.size(); })
      .def_property_readonly("spot_available",
                             [](const ObservationView& v) {
                               return per_zone<bool>(
                                   v.get(), +[](const ZoneView& z) { return z.spot_available; });
                             })
      .def_property_readonly(
          "spot_prices",
          [](const ObservationView& v) {
            return per_zone<double>(
                v.get(), +[](const ZoneView& z) { return z.spot_price_per_hour; });
          },
          "USD per instance-hour")
      .def_property_readonly("on_demand_prices",
                             [](const ObservationView& v) {
                               return per_zone<double>(
                                   v.get(), +[](const ZoneView& z) { return z.on_demand_price_per_hour; });
                             })
      .def_property_readonly(
          "spot_mtbf",
          [](const ObservationView& v) {
            py::list out;
            for (const ZoneView& z : v.get().zones) out.append(seconds_or_none(z.spot_mtbf));
            return out;
          },
          "s; None: no preemptions expected")
      .def_property_readonly("availability",
                             [](const ObservationView& v) {
                               return per_zone<double>(
                                   v.get(), +[](const ZoneView& z) { return z.spot_availability; });
                             })
      .def_property_readonly("region",
                             [](const ObservationView& v) {
                               return per_zone<int>(
                                   v.get(), +[](const ZoneView& z) { return z.region; });
                             })
      .def_property_readonly("notice",
                             [](const ObservationView& v) {
                               return per_zone<double>(
                                   v.get(), +[](const ZoneView& z) { return to_seconds(z.notice); });
                             })
      .def_property_readonly("migration_time",
                             [](const ObservationView& v) {
                               return per_zone<double>(
                                   v.get(), +[](const ZoneView& z) { return to_seconds(z.migration_time); });
                             })
      .def_property_readonly("migration_cost", [](const ObservationView& v) {
        return per_zone<double>(
            v.get(), +[](const ZoneView& z) { return z.migration_cost; });
      });
}

}  // namespace spotsim::python

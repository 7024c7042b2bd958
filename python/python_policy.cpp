#include "python/python_policy.hpp"

#include <cmath>
#include <sstream>

#include "model/policy_answers.hpp"
#include "model/policy_interfaces.hpp"
#include "python/observation_view.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

// The Python objects one adapter uses, released with the GIL held whichever thread drops the last reference
// (the engine destroys its policies on a worker thread, with the GIL released).
struct PythonHandles {
  py::object policy, method, reset;
  // The per-tick protocol of a selection policy (docs/plugins.md#per-tick-protocol): begin(observation) once per
  // run, then decide_tick(elapsed_s, progress_s, held, instance_age_s, spot_available) -> 0/1/2.
  py::object begin, decide_tick;
  std::string name;

  PythonHandles(const py::object& p, const char* method_name) : policy(p), name(python_policy_name(p)) {
    if (!py::hasattr(p, method_name)) {
      throw PolicyReturnedWrongType("policy '" + name + "': expected a method " + method_name + "(observation)");
    }
    method = p.attr(method_name);
    if (py::hasattr(p, "reset")) reset = p.attr("reset");
    if (py::hasattr(p, "decide_tick")) decide_tick = p.attr("decide_tick");
    if (decide_tick && py::hasattr(p, "begin")) begin = p.attr("begin");
  }
  ~PythonHandles() {
    py::gil_scoped_acquire gil;
    policy = method = reset = begin = decide_tick = py::object();
  }
};

// "policy 'Greedy' at t = 12.5 h of the job (trace time 700.5 h)": where the simulated failure happened.
std::string where(const PythonHandles& h, const Observation& obs) {
  std::ostringstream text;
  text << "policy '" << h.name << "' at t = " << to_hours(obs.elapsed) << " h of the job (trace time "
       << to_hours(obs.now) << " h)";
  return text.str();
}

void call_reset(PythonHandles& h) {
  if (!h.reset) return;
  py::gil_scoped_acquire gil;
  try {
    h.reset();
  } catch (py::error_already_set& e) {
    throw PolicyRaised("policy '" + h.name + "' raised in reset(): " + e.what());
  }
}

[[noreturn]] void rethrow_python(const PythonHandles& h, const Observation& obs, py::error_already_set& e) {
  // The kind of a TypeError or ValueError is kept (a strategy adapter reports bad returns with them).
  const std::string message = where(h, obs) + " raised " + e.what();
  if (e.matches(PyExc_TypeError)) throw PolicyReturnedWrongType(message);
  if (e.matches(PyExc_ValueError)) throw PolicyReturnedBadValue(message);
  throw PolicyRaised(message);
}

// Calls the policy's `method` on `obs`; what it raised becomes PolicyRaised naming the policy and the time. Each call
// gets its own view, cleared after the call: a policy that kept the view of an earlier call gets an error when it
// reads it, not the values of the current call (one shared view used to show those).
py::object call(PythonHandles& h, const py::object& method, const Observation& obs) {
  py::object view_object = py::cast(ObservationView{&obs});
  auto* view = view_object.cast<ObservationView*>();
  try {
    py::object result = method(view_object);
    view->observation = nullptr;
    return result;
  } catch (py::error_already_set& e) {
    view->observation = nullptr;
    rethrow_python(h, obs, e);
  }
}
py::object call(PythonHandles& h, const Observation& obs) { return call(h, h.method, obs); }

// The per-tick protocol's call: plain numbers in, a small int out, no Observation object and no decision object (a
// strategy asked every tick spent most of its time on those).
py::object call_tick(PythonHandles& h, const Observation& obs) {
  PyObject* args[] = {PyFloat_FromDouble(to_seconds(obs.elapsed)), PyFloat_FromDouble(to_seconds(obs.progress)),
                      PyLong_FromLong(static_cast<long>(obs.purchase)),
                      PyFloat_FromDouble(obs.purchase == Purchase::kNone ? 0.0 : to_seconds(obs.instance_age)),
                      PyBool_FromLong(obs.zones[0].spot_available ? 1 : 0)};
  PyObject* result = PyObject_Vectorcall(h.decide_tick.ptr(), args, 5, nullptr);
  for (PyObject* arg : args) Py_XDECREF(arg);
  if (result == nullptr) {
    py::error_already_set e;
    rethrow_python(h, obs, e);
  }
  return py::reinterpret_steal<py::object>(result);
}

class PythonSelectionPolicy final : public SelectionPolicy {
 public:
  explicit PythonSelectionPolicy(std::shared_ptr<PythonHandles> h) : h_(std::move(h)) {}
  void reset() override {
    call_reset(*h_);
    begun_ = false;
  }

  SelectionDecision decide(const Observation& obs) override {
    py::gil_scoped_acquire gil;
    if (h_->decide_tick && obs.decision_tick > 0 && obs.zones.size() == 1) return decide_tick(obs);
    const py::object result = call(*h_, obs);
    if (!py::isinstance<SelectionDecision>(result)) {
      throw PolicyReturnedWrongType(where(*h_, obs) + ": decide() returned " +
                                    std::string(py::str(py::type::of(result).attr("__name__"))) +
                                    ", expected a spotsim.SelectionDecision (e.g. SelectionDecision.spot(zone))");
    }
    const auto decision = result.cast<SelectionDecision>();
    if (decision.zone < 0 || decision.zone >= static_cast<int>(obs.zones.size())) {
      throw PolicyReturnedBadValue(where(*h_, obs) + ": decide() chose zone " + std::to_string(decision.zone) +
                                   ", expected a zone in [0, " + std::to_string(obs.zones.size()) + ")");
    }
    if (decision.review_at != kNever) {
      const std::string problem = review_problem(static_cast<double>(decision.review_at), obs.now);
      if (!problem.empty()) {
        throw PolicyReturnedBadValue(
            where(*h_, obs) + ": decide() asked for review_at = " + std::to_string(to_seconds(decision.review_at)) +
            " s (now " + std::to_string(to_seconds(obs.now)) + " s); " + problem + " (None)");
      }
    }
    return decision;
  }

 private:
  // The per-tick protocol (one zone, the Can't Be Late mode): 0 wait, 1 spot, 2 on-demand, in zone 0.
  SelectionDecision decide_tick(const Observation& obs) {
    if (!begun_) {
      if (h_->begin) call(*h_, h_->begin, obs);
      begun_ = true;
    }
    const py::object result = call_tick(*h_, obs);
    if (PyLong_CheckExact(result.ptr())) {
      switch (PyLong_AsLong(result.ptr())) {
        case 0: return SelectionDecision::wait();
        case 1: return SelectionDecision::spot(0);
        case 2: return SelectionDecision::on_demand(0);
        default: break;
      }
    }
    throw PolicyReturnedBadValue(where(*h_, obs) + ": decide_tick() returned " + std::string(py::repr(result)) +
                                 ", expected 0 (wait), 1 (spot) or 2 (on-demand)");
  }

  std::shared_ptr<PythonHandles> h_;
  bool begun_ = false;
};

bool flag(const py::object& policy, const char* name, bool fallback) {
  return py::hasattr(policy, name) ? static_cast<bool>(py::bool_(policy.attr(name))) : fallback;
}

// The checkpoint policy's optional attributes, read once with the GIL held.
struct CheckpointFlags {
  bool varies, on_notice, can_checkpoint, continuous;
  explicit CheckpointFlags(const py::object& p)
      : varies(flag(p, "varies_within_instance", true)),
        on_notice(flag(p, "checkpoint_on_notice", false)),
        can_checkpoint(flag(p, "can_checkpoint", true)),
        continuous(flag(p, "continuous", false)) {}
};

class PythonCheckpointPolicy final : public CheckpointPolicy {
 public:
  PythonCheckpointPolicy(std::shared_ptr<PythonHandles> h, const CheckpointFlags& f)
      : h_(std::move(h)),
        varies_(f.varies),
        on_notice_(f.on_notice),
        can_checkpoint_(f.can_checkpoint),
        continuous_(f.continuous) {}
  void reset() override { call_reset(*h_); }

  Millis next_interval(const Observation& obs) override {
    py::gil_scoped_acquire gil;
    const py::object result = call(*h_, obs);
    if (result.is_none()) return kNever;
    if (py::isinstance<py::bool_>(result) ||
        !(py::isinstance<py::int_>(result) || py::isinstance<py::float_>(result))) {
      throw PolicyReturnedWrongType(where(*h_, obs) + ": next_interval() returned " +
                                    std::string(py::str(py::type::of(result).attr("__name__"))) +
                                    ", expected seconds (a number) or None");
    }
    const double seconds = result.cast<double>();  // a Python int beyond a double's range raises OverflowError
    const std::string problem = interval_problem(seconds * 1000.0);
    if (!problem.empty()) {
      throw PolicyReturnedBadValue(where(*h_, obs) + ": next_interval() returned " + std::string(py::repr(result)) +
                                   " s; " + problem + " (None)");
    }
    return std::max<Millis>(1, static_cast<Millis>(std::llround(seconds * 1000.0)));
  }
  bool varies_within_instance() const override { return varies_; }
  bool checkpoint_on_notice() const override { return on_notice_; }
  bool can_checkpoint() const override { return can_checkpoint_; }
  bool continuous() const override { return continuous_; }

 private:
  std::shared_ptr<PythonHandles> h_;
  bool varies_, on_notice_, can_checkpoint_, continuous_;
};

}  // namespace

std::string python_policy_name(const py::handle& policy) {
  if (py::hasattr(policy, "name")) return py::str(policy.attr("name"));
  return py::str(py::type::of(policy).attr("__name__"));
}

PolicyFactories python_policy_factories(const py::object& selection, const py::object& checkpoint) {
  PolicyFactories factories;
  if (!selection.is_none()) {
    auto handles = std::make_shared<PythonHandles>(selection, "decide");
    factories.selection = [handles] { return std::make_unique<PythonSelectionPolicy>(handles); };
  }
  if (!checkpoint.is_none()) {
    auto handles = std::make_shared<PythonHandles>(checkpoint, "next_interval");
    const CheckpointFlags flags(checkpoint);
    factories.checkpoint = [handles, flags] { return std::make_unique<PythonCheckpointPolicy>(handles, flags); };
  }
  return factories;
}

}  // namespace spotsim::python

#include "experiments/run_metrics.hpp"

#include <array>

namespace spotsim {

namespace {
constexpr std::array kMetrics = {
    MetricDefinition{"cost_total", "USD", "cost, total", [](const RunResult& r) { return r.cost_total; }},
    MetricDefinition{"cost_spot", "USD", "cost, spot", [](const RunResult& r) { return r.cost_spot; }},
    MetricDefinition{"cost_on_demand", "USD", "cost, on-demand", [](const RunResult& r) { return r.cost_on_demand; }},
    MetricDefinition{"completion_hours", "h", "completion time", [](const RunResult& r) { return r.completion_hours; }},
    MetricDefinition{"completed", "fraction", "completed", [](const RunResult& r) { return r.completed ? 1.0 : 0.0; }},
    MetricDefinition{"deadline_met", "fraction", "deadline met",
                     [](const RunResult& r) { return r.deadline_met ? 1.0 : 0.0; }},
    MetricDefinition{"preemptions", "count", "preemptions", [](const RunResult& r) { return double(r.preemptions); }},
    MetricDefinition{"checkpoints", "count", "checkpoints", [](const RunResult& r) { return double(r.checkpoints); }},
    MetricDefinition{"lost_work_hours", "h", "lost work", [](const RunResult& r) { return r.lost_work_hours; }},
    MetricDefinition{"checkpoint_hours", "h", "checkpoint overhead", [](const RunResult& r) { return r.checkpoint_hours; }},
    MetricDefinition{"restore_hours", "h", "restore time", [](const RunResult& r) { return r.restore_hours; }},
    MetricDefinition{"startup_hours", "h", "start-up time", [](const RunResult& r) { return r.startup_hours; }},
    MetricDefinition{"wait_hours", "h", "time waiting", [](const RunResult& r) { return r.wait_hours; }},
    MetricDefinition{"spot_hours", "h", "time on spot", [](const RunResult& r) { return r.spot_hours; }},
    MetricDefinition{"on_demand_hours", "h", "time on on-demand", [](const RunResult& r) { return r.on_demand_hours; }},
    // NaN (left out of summaries) unless the offline optimum was computed (--regret).
    MetricDefinition{"optimum_cost", "USD", "offline optimum cost", [](const RunResult& r) { return r.optimum_cost; }},
    MetricDefinition{"regret", "fraction", "regret to optimum",
                     [](const RunResult& r) { return r.cost_total / r.optimum_cost - 1.0; }},
};
}  // namespace

std::span<const MetricDefinition> run_metrics() { return kMetrics; }

}  // namespace spotsim

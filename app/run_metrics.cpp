#include "app/run_metrics.hpp"

#include <array>

namespace spotsim {

namespace {
constexpr auto kLedger = MetricDefinition::TableRow::kLedger;
constexpr auto kWhenNonZero = MetricDefinition::TableRow::kWhenNonZero;
constexpr auto kMultiNode = MetricDefinition::TableRow::kMultiNode;
constexpr auto kLedgerWhenNonZero = MetricDefinition::TableRow::kLedgerWhenNonZero;
constexpr auto kIntervalLine = MetricDefinition::TableRow::kIntervalLine;
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
    MetricDefinition{"checkpoint_hours", "h", "checkpoint overhead",
                     [](const RunResult& r) { return r.checkpoint_hours; }},
    MetricDefinition{"restore_hours", "h", "restore time", [](const RunResult& r) { return r.restore_hours; }},
    MetricDefinition{"startup_hours", "h", "start-up time", [](const RunResult& r) { return r.startup_hours; }},
    MetricDefinition{"wait_hours", "h", "time waiting", [](const RunResult& r) { return r.wait_hours; }},
    MetricDefinition{"spot_hours", "h", "time on spot", [](const RunResult& r) { return r.spot_hours; }},
    MetricDefinition{"on_demand_hours", "h", "time on on-demand", [](const RunResult& r) { return r.on_demand_hours; }},
    // NaN (left out of summaries) unless the offline optimum was computed (--regret).
    MetricDefinition{"optimum_cost", "USD", "offline optimum cost", [](const RunResult& r) { return r.optimum_cost; }},
    MetricDefinition{"regret", "fraction", "regret to optimum",
                     [](const RunResult& r) { return r.cost_total / r.optimum_cost - 1.0; }},
    // Migration between regions (docs/migration.md); after the older metrics so their columns keep their place.
    MetricDefinition{"migrations", "count", "migrations", [](const RunResult& r) { return double(r.migrations); },
                     kWhenNonZero},
    MetricDefinition{"migration_hours", "h", "transfer time", [](const RunResult& r) { return r.migration_hours; },
                     kWhenNonZero},
    // The cost ledger (docs/outputs.md#cost-ledger): its entries sum to cost_total.
    MetricDefinition{"ledger_compute", "USD", "useful compute", [](const RunResult& r) { return r.ledger_compute; },
                     kLedger},
    MetricDefinition{"ledger_lost_work", "USD", "lost work", [](const RunResult& r) { return r.ledger_lost_work; },
                     kLedger},
    MetricDefinition{"ledger_startup", "USD", "start-up", [](const RunResult& r) { return r.ledger_startup; }, kLedger},
    MetricDefinition{"ledger_restore", "USD", "restore", [](const RunResult& r) { return r.ledger_restore; }, kLedger},
    MetricDefinition{"ledger_checkpoint", "USD", "checkpoint writes",
                     [](const RunResult& r) { return r.ledger_checkpoint; }, kLedger},
    MetricDefinition{"ledger_transfer", "USD", "migration transfer",
                     [](const RunResult& r) { return r.ledger_transfer; }, kLedger},
    MetricDefinition{"cost_egress", "USD", "egress", [](const RunResult& r) { return r.cost_egress; }, kLedger},
    MetricDefinition{"ledger_idle", "USD", "held but idle", [](const RunResult& r) { return r.ledger_idle; }, kLedger},
    MetricDefinition{"ledger_rounding", "USD", "billing rounding", [](const RunResult& r) { return r.ledger_rounding; },
                     kLedger},
    // Multi-node jobs (docs/elastic.md); after the others so their columns keep their place.
    MetricDefinition{"ledger_reconfigure", "USD", "reconfiguration",
                     [](const RunResult& r) { return r.ledger_reconfigure; }, kLedgerWhenNonZero},
    MetricDefinition{"nodes_lost", "count", "instances lost", [](const RunResult& r) { return double(r.nodes_lost); },
                     kMultiNode},
    MetricDefinition{"reconfigurations", "count", "reconfigurations",
                     [](const RunResult& r) { return double(r.reconfigurations); }, kWhenNonZero},
    MetricDefinition{"reconfigure_hours", "h", "reconfiguration time",
                     [](const RunResult& r) { return r.reconfigure_hours; }, kWhenNonZero},
    MetricDefinition{"spot_node_hours", "inst-h", "spot instance-hours",
                     [](const RunResult& r) { return r.spot_node_hours; }, kMultiNode},
    MetricDefinition{"on_demand_node_hours", "inst-h", "on-demand inst-hours",
                     [](const RunResult& r) { return r.on_demand_node_hours; }, kMultiNode},
    MetricDefinition{"work_done_hours", "inst-h", "work done (1 instance)",
                     [](const RunResult& r) { return r.work_done_hours; }, kMultiNode},
    // Training per dollar: the work kept, in hours one instance would need, per USD.
    MetricDefinition{"value", "inst-h/$", "value (work per USD)",
                     [](const RunResult& r) { return r.work_done_hours / r.cost_total; }, kMultiNode},
    // The periodic checkpoint interval the checkpoint policy set, mean over the times it was set in the run; NaN
    // (left out) for a run that never set one on that kind of instance. Last, so older columns keep their place.
    MetricDefinition{"checkpoint_interval_spot_hours", "h", "checkpoint interval, spot",
                     [](const RunResult& r) { return r.checkpoint_interval_spot.mean_hours(); }, kIntervalLine},
    MetricDefinition{"checkpoint_interval_on_demand_hours", "h", "checkpoint interval, on-demand",
                     [](const RunResult& r) { return r.checkpoint_interval_on_demand.mean_hours(); }, kIntervalLine},
};
}  // namespace

std::span<const MetricDefinition> run_metrics() { return kMetrics; }

}  // namespace spotsim

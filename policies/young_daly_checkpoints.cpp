// Periodic checkpoints at the interval that minimises expected completion time under exponential failures with
// the zone's mean time between preemptions M and the job's checkpoint write time delta.
#include <cmath>
#include <memory>

#include "policies/checkpoint_math.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

enum class Formula { kYoung, kDaly };

class YoungDalyCheckpointPolicy final : public CheckpointPolicy {
 public:
  YoungDalyCheckpointPolicy(Formula formula, Millis mtbf_override, bool on_notice)
      : formula_(formula), mtbf_override_(mtbf_override), on_notice_(on_notice) {}

  Millis next_interval(const Observation& obs) override {
    if (obs.purchase != Purchase::kSpot && mtbf_override_ == kNever) return kNever;  // on-demand is never preempted
    const Millis mtbf =
        mtbf_override_ != kNever ? mtbf_override_ : obs.zones[static_cast<std::size_t>(obs.zone)].spot_mtbf;
    if (mtbf == kNever) return kNever;
    const auto delta = static_cast<double>(std::max<Millis>(obs.job->checkpoint_write, 1));
    const auto m = static_cast<double>(mtbf);
    const double tau = formula_ == Formula::kYoung ? young_interval(delta, m) : daly_interval(delta, m);
    return std::max<Millis>(1, static_cast<Millis>(std::llround(tau)));
  }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  Formula formula_;
  Millis mtbf_override_;
  bool on_notice_;
};

}  // namespace

void register_young_daly_checkpoints(PolicyRegistry& registry) {
  const std::string params = "mtbf=<from the trace> (override M), on_notice=false";
  registry.add(PolicyEntry<CheckpointPolicy>{
      "young", "interval sqrt(2 delta M) (Young, CACM 1974)", params, [](const PolicyParams& p) {
        return std::make_unique<YoungDalyCheckpointPolicy>(Formula::kYoung, p.positive_duration("mtbf", kNever),
                                                           p.flag("on_notice", false));
      }});
  for (const char* name : {"daly", "young-daly"}) {
    registry.add(PolicyEntry<CheckpointPolicy>{
        name, "Daly's higher-order optimum interval from M and delta (Daly, FGCS 2006, eq. 37)", params,
        [](const PolicyParams& p) {
          return std::make_unique<YoungDalyCheckpointPolicy>(Formula::kDaly, p.positive_duration("mtbf", kNever),
                                                             p.flag("on_notice", false));
        }});
  }
}

}  // namespace spotsim

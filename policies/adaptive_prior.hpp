#pragma once
// Where the adaptive policy's prior about a recorded zone's spot availability comes from (docs/policies.md#adaptive).
// A policy may use only what is known when it decides, so the prior never comes from the recording the job is
// replayed on. It is, in order of precedence:
//  1. fitted parameters the user gives: prior_availability=<0..1>, prior_mtbf=<duration> (mean time spot stays
//     obtainable, i.e. between drops);
//  2. calibration=<trace file>: the long-run statistics of another recording (per zone, matched by position: the
//     file must have as many zones as the market), read once per process (CalibrationCache);
//  3. otherwise a weak, data-independent default (SpotPrior's defaults).
// The weight of the availability prior is prior_weight= in every case.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "model/market/spot_market.hpp"
#include "policies/policy_params.hpp"
#include "policies/spot_history.hpp"

namespace spotsim {

struct AdaptivePriorSettings {
  SpotPrior fallback;                             // the default prior, with prior_weight
  std::optional<double> availability;             // prior_availability=
  std::optional<Millis> mtbf;                     // prior_mtbf=
  std::shared_ptr<const SpotMarket> calibration;  // calibration=, shared read-only by every copy of the policy
  std::string calibration_path;
  std::string where;  // "--policy 'SPEC': parameter 'calibration'", for errors

  // One prior per zone for a job holding `nodes` instances in a market of `zones` zones. InputError when the
  // calibration trace has a different number of zones. Allocates (call once per run set-up, not per event).
  void priors_for(std::vector<SpotPrior>& out, std::size_t zones, int nodes) const;
};

// The value of a text parameter (a file name) of a policy spec, or "" when absent; the key counts as used.
std::string text_parameter(const PolicyParams& params, const std::string& key);

// Calibration traces read once per process, however many registries and policy objects use them (the sweep creates
// a policy object per thread and configuration group, and a Python caller a registry per call). A file rewritten
// since it was read (another modification time or size) is read again. Thread-safe.
class CalibrationCache {
 public:
  // The one cache of the process.
  static CalibrationCache& process_wide();
  // The trace at `path`, read on first use; InputError naming `where` and the file if it cannot be read.
  std::shared_ptr<const SpotMarket> get(const std::string& path, const std::string& where);

 private:
  struct Entry {
    std::shared_ptr<const SpotMarket> market;
    long long modified = 0;  // the file's modification time when read (ticks of its clock)
    long long bytes = -1;
  };
  std::mutex mutex_;
  std::map<std::string, Entry> traces_;
};

// A recording's long-run statistics for `nodes` instances in `zone`: the fraction of time spot can be obtained
// and the mean time it stays obtainable (mean available time between drops; the span if it never drops).
SpotPrior long_run_prior(const Zone& zone, int nodes, Millis weight);

}  // namespace spotsim

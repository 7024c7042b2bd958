#pragma once
// What is being trained: how much compute it needs and what interruptions cost it.
#include <string>

#include "base/time.hpp"
#include "model/elastic_job.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

struct JobSpec {
  Millis work = 0;  // compute time on the job's instance type
  int nodes = 1;    // instances; all are needed (multi-node DDP)
  // The job in GPUs instead (0 = counted in instances by `nodes`): it then needs ceil(gpus / gpus_per_instance)
  // instances of the trace, e.g. 8 GPUs as eight 1-GPU, two 4-GPU or one 8-GPU instance (resolve_job_instances).
  // `nodes` is 0 until resolved, or the count the user stated as well, which must agree.
  int gpus = 0;
  Millis checkpoint_write = kMillisPerMinute;  // training pauses while a checkpoint is written
  Millis restore = kMillisPerMinute;           // reading the last checkpoint after a restart
  Millis startup = 5 * kMillisPerMinute;       // instance request -> ready (real figures: 3-12 min)
  // Moving to another region moves the checkpoint: its size sets the transfer time and the egress bill
  // (docs/migration.md). 0 = nothing to move (migration is free). Bandwidth overrides of the trace's, in
  // Gbit/s; 0 = the trace's.
  double checkpoint_size_gb = 0.0;
  double same_continent_gbps = 0.0;
  double cross_continent_gbps = 0.0;
  Millis deadline = kNever;       // relative to the job's start; kNever = none
  Millis give_up_after = kNever;  // stop a hopeless run here; kNever = default_give_up()
  ElasticSpec elastic{};          // training on fewer than `nodes` (docs/elastic.md)

  // A run that has not finished by then is reported as not completed: long enough for any sensible policy,
  // short enough that a spot-only job on a trace with no availability still terminates.
  Millis effective_give_up() const;
};

// Throws InputError naming `where` (a file or "command line") and the offending field.
void validate_job(const JobSpec& job, const std::string& where);

// The job with `nodes` set from `gpus` on the market's instances (unchanged when gpus = 0). One instance shape per
// trace: the zones must agree on gpus_per_instance (select zones of one shape otherwise). InputError naming `where`
// and the market when they do not, or when a stated `nodes` disagrees with the GPU count.
JobSpec resolve_job_instances(const JobSpec& job, const SpotMarket& market, const std::string& where);

inline constexpr int kMaxJobGpus = 1'000'000;

}  // namespace spotsim

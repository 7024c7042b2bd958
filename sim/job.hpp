#pragma once
// What is being trained: how much compute it needs and what interruptions cost it.
#include <string>

#include "sim/elastic/elastic_job.hpp"
#include "sim/time.hpp"

namespace spotsim {

struct JobSpec {
  Millis work = 0;                                  // compute time on the job's instance type
  int nodes = 1;                                    // all nodes are needed (multi-node DDP)
  Millis checkpoint_write = kMillisPerMinute;       // training pauses while a checkpoint is written
  Millis restore = kMillisPerMinute;                // reading the last checkpoint after a restart
  Millis startup = 5 * kMillisPerMinute;            // instance request -> ready (real figures: 3-12 min)
  // Moving to another region moves the checkpoint: its size sets the transfer time and the egress bill
  // (docs/migration.md). 0 = nothing to move (migration is free). Bandwidth overrides of the trace's, in
  // Gbit/s; 0 = the trace's.
  double checkpoint_size_gb = 0.0;
  double same_continent_gbps = 0.0;
  double cross_continent_gbps = 0.0;
  Millis deadline = kNever;                         // relative to the job's start; kNever = none
  Millis give_up_after = kNever;                    // stop a hopeless run here; kNever = default_give_up()
  ElasticSpec elastic{};                            // training on fewer than `nodes` (docs/elastic.md)

  // A run that has not finished by then is reported as not completed: long enough for any sensible policy,
  // short enough that a spot-only job on a trace with no availability still terminates.
  Millis effective_give_up() const;
};

// Throws InputError naming `where` (a file or "command line") and the offending field.
void validate_job(const JobSpec& job, const std::string& where);

}  // namespace spotsim

#pragma once
// `simulate --timeline FILE`: the event log of chosen replications as JSON lines (docs/outputs.md#timeline), which
// `spotsim report --timeline` draws. The Monte Carlo run is left alone: the chosen replications are re-run
// afterwards, serially, with an observer attached. A replication's random streams are keyed by (seed, replication),
// so the re-run is the same run, event for event.
#include <cstdint>
#include <string>
#include <vector>

#include "app/simulation_request.hpp"
#include "engine/event_observer.hpp"
#include "model/run_result.hpp"

namespace spotsim {

inline constexpr int kTimelineFormatVersion = 1;
inline constexpr std::size_t kMaxTimelineReplications = 100;
// Beyond this many events a replication's log stops with a "truncated" line (a pathological run would otherwise
// write gigabytes; a week-long job has a few hundred).
inline constexpr std::uint64_t kMaxTimelineEvents = 100000;

// Appends each event of the current replication to `out` as one JSON line, times and work in hours.
class TimelineWriter final : public EventObserver {
 public:
  explicit TimelineWriter(std::string& out) : out_(out) {}
  void start(std::uint64_t replication);  // before each replication's run
  void on_event(const TimelineEvent& event) override;

 private:
  std::string& out_;
  std::uint64_t replication_ = 0;
  std::uint64_t events_ = 0;
};

// --timeline-replications "0,3,7": distinct replication indices below `replications`, at most
// kMaxTimelineReplications; InputError naming the option otherwise.
std::vector<std::uint64_t> parse_timeline_replications(const std::string& text, std::uint64_t replications);

// The default: the first three replications (fewer when the run has fewer).
std::vector<std::uint64_t> default_timeline_replications(std::uint64_t replications);

// Re-runs `replications` of `request` with a TimelineWriter attached and writes the log to `path` atomically.
// Returns their RunResults, in the order given (the tests compare them with the Monte Carlo run's).
std::vector<RunResult> write_timeline(const SimulationRequest& request, const std::vector<std::uint64_t>& replications,
                                      const std::string& path);
// The same log as text (JSON lines), from a request already prepared; `runs` receives the RunResults when given.
std::string timeline_text(const SimulationRequest& request, const PreparedSimulation& prepared,
                          const std::vector<std::uint64_t>& replications, std::vector<RunResult>* runs = nullptr);

}  // namespace spotsim

#include "app/timeline_writer.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "base/json_text.hpp"
#include "engine/engine_factory.hpp"
#include "model/interval_recording_checkpoint.hpp"

namespace spotsim {

void TimelineWriter::start(std::uint64_t replication) {
  replication_ = replication;
  events_ = 0;
}

void TimelineWriter::on_event(const TimelineEvent& event) {
  if (++events_ > kMaxTimelineEvents) {
    if (events_ == kMaxTimelineEvents + 1) {
      out_ += json_text(nlohmann::ordered_json{{"replication", replication_}, {"event", "truncated"}}) + '\n';
    }
    return;
  }
  nlohmann::ordered_json line = {
      {"replication", replication_},
      {"t_hours", to_hours(event.time)},
      {"event", timeline_event_name(event.kind)},
      {"phase", event.reconfiguring ? std::string_view("reconfiguring") : phase_name(event.phase)},
      {"purchase", purchase_name(event.purchase)},
      {"zone", event.zone},
      {"nodes", event.nodes},
      {"progress_hours", to_hours(event.progress)},
      {"committed_hours", to_hours(event.committed)},
      {"cost_usd", event.cost_booked}};
  if (event.spot_nodes >= 0) {  // a multi-node engine: several instances of both kinds at once
    line["spot_nodes"] = event.spot_nodes;
    line["on_demand_nodes"] = event.on_demand_nodes;
    line["training_nodes"] = event.training_nodes;
  }
  if (event.kind == TimelineEventKind::kFinished) line["completed"] = event.completed;
  out_ += json_text(line);
  out_ += '\n';
}

std::vector<std::uint64_t> parse_timeline_replications(const std::string& text, std::uint64_t replications) {
  const std::string what = "--timeline-replications";
  std::vector<std::uint64_t> chosen;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    const std::uint64_t r =
        parse_integer_in_range(item, 0, replications - 1, what + " (replication indices of this run)");
    if (std::find(chosen.begin(), chosen.end(), r) != chosen.end()) {
      throw InputError(what + ": replication " + item + " is listed twice");
    }
    chosen.push_back(r);
    if (chosen.size() > kMaxTimelineReplications) {
      throw InputError(what + ": at most " + std::to_string(kMaxTimelineReplications) + " replications");
    }
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return chosen;
}

std::vector<std::uint64_t> default_timeline_replications(std::uint64_t replications) {
  std::vector<std::uint64_t> chosen;
  for (std::uint64_t r = 0; r < std::min<std::uint64_t>(replications, 3); ++r) chosen.push_back(r);
  return chosen;
}

namespace {
nlohmann::ordered_json timeline_header(const SimulationRequest& request, const PreparedSimulation& prepared,
                                       const std::vector<std::uint64_t>& replications) {
  nlohmann::ordered_json zones = nlohmann::ordered_json::array();
  const auto& market_zones = prepared.scenario->market().zones;
  for (std::size_t z = 0; z < market_zones.size(); ++z) {
    zones.push_back({{"index", z}, {"name", market_zones[z].name}, {"region", market_zones[z].region}});
  }
  const nlohmann::json& manifest = prepared.manifest;
  nlohmann::ordered_json header = {{"format", "spotsim-timeline"},
                                   {"version", kTimelineFormatVersion},
                                   {"spotsim_version", manifest["version"]},
                                   {"git_revision", manifest["git_revision"]},
                                   {"trace", manifest["trace"]},
                                   {"policy", request.policy},
                                   {"checkpoint", request.checkpoint},
                                   {"seed", request.seed},
                                   {"replications", replications},
                                   {"zones", zones},
                                   {"job", manifest["job"]}};
  if (request.job.elastic.active()) header["engine"] = "elastic";  // lines carry spot, on-demand, training counts
  return header;
}

}  // namespace

std::string timeline_text(const SimulationRequest& request, const PreparedSimulation& prepared,
                          const std::vector<std::uint64_t>& replications, std::vector<RunResult>* runs) {
  std::string text = json_text(timeline_header(request, prepared, replications)) + '\n';
  // Each replication re-run as the replication runner runs it: the engine make_engine picks, the checkpoint policy
  // wrapped the same way (so the RunResult records the intervals used too).
  IntervalRecordingCheckpoint checkpoint(prepared.factories.checkpoint());
  TimelineWriter writer(text);
  const EngineInstance engine = make_engine(*prepared.scenario, prepared.factories, checkpoint);
  engine.engine->set_observer(&writer);
  for (const std::uint64_t r : replications) {
    writer.start(r);
    RunResult result = engine.engine->run(request.seed, r);
    checkpoint.record_into(result);
    if (runs) runs->push_back(result);
  }
  return text;
}

std::vector<RunResult> write_timeline(const SimulationRequest& request, const std::vector<std::uint64_t>& replications,
                                      const std::string& path) {
  std::vector<RunResult> runs;
  write_file_atomically(path, timeline_text(request, prepare_simulation(request), replications, &runs));
  return runs;
}

}  // namespace spotsim

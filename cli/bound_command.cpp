// `spotsim bound`: the exact offline optimum of one window of a recorded trace (optimum/offline_optimum.hpp) — what a
// policy that knew the future would hold, tick by tick, and what it would pay. The per-replication figure behind
// `simulate --regret`, shown in full for one window.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/simulation_request.hpp"
#include "base/duration.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "optimum/offline_optimum.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {

namespace po = boost::program_options;

po::options_description bound_options() {
  po::options_description options("Options (durations take a unit: 90s, 30m, 2h, 1.5d)");
  options.add_options()("help,h", "show this help and exit")(
      "trace,t", po::value<std::string>()->default_value("aws-us-west-2-v100"),
      "a recorded trace with a tick (tick_s), by path or shipped name")(
      "trace-start", po::value<std::string>()->default_value("0s"),
      "where the window starts in the recording (on a tick)")("work", po::value<std::string>()->default_value("48h"),
                                                              "compute the job needs")(
      "startup", po::value<std::string>()->default_value("12m"), "the changeover d of every launch")(
      "deadline", po::value<std::string>()->default_value("52h"), "deadline after the window's start")(
      "nodes", po::value<std::string>()->default_value("1"), "instances held together, 1 to 100000")(
      "mode", po::value<std::string>()->default_value("event"),
      "event (bill per second) | cant-be-late (bill whole ticks), as in simulate --mode")(
      "tick", po::value<std::string>(), "decision tick [default: the trace's tick_s]")(
      "format,f", po::value<std::string>(), "table | json [default: table, or from --output's extension]")(
      "output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout");
  return options;
}

// The schedule as runs a reader can follow, "spot 2.00 h, on-demand 7.00 h, wait 0.17 h, ...", from the time held in
// each tick (a partial stop holds part of a tick, then waits until the next boundary).
std::string schedule_runs(const OfflineOptimum& optimum, Millis tick) {
  std::vector<std::pair<char, Millis>> runs;
  const auto add = [&runs](char kind, Millis t) {
    if (t <= 0) return;
    if (!runs.empty() && runs.back().first == kind)
      runs.back().second += t;
    else
      runs.emplace_back(kind, t);
  };
  for (std::size_t i = 0; i < optimum.schedule.size(); ++i) {
    const Millis held = i < optimum.schedule_held.size() ? optimum.schedule_held[i] : tick;
    add(optimum.schedule[i], held);
    if (i + 1 < optimum.schedule.size()) add('.', tick - held);
  }
  std::ostringstream out;
  const auto name = [](char c) { return c == 's' ? "spot" : c == 'D' ? "on-demand" : "wait"; };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out << (i == 0 ? "" : ", ") << name(runs[i].first) << " " << format_fixed(to_hours(runs[i].second), 2) << " h";
  }
  return out.str();
}

std::vector<double> held_seconds(const OfflineOptimum& optimum) {
  std::vector<double> out;
  for (const Millis t : optimum.schedule_held) out.push_back(to_seconds(t));
  return out;
}

}  // namespace

boost::program_options::options_description bound_command_options() { return bound_options(); }

int bound_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "bound";
  try {
    const auto options = bound_options();
    const po::variables_map vm = parse_command_line(argc, argv, options);
    if (vm.count("help")) {
      std::cout << "Usage: " << program << " [options]\n\n"
                << "The least any policy knowing the future could pay for a job on one window of a recorded trace\n"
                << "(exact dynamic programme over the recording's ticks, lossless progress; docs/model.md#optimum),\n"
                << "and the schedule that pays it.\n\n"
                << "Example: " << program << " --trace aws-us-west-2-v100 --trace-start 100h --deadline 60h\n"
                << options << "\n";
      return 0;
    }
    const std::string format = output_format_option(vm);
    if (format == "csv") throw InputError("--format 'csv': expected table or json");
    const std::string path = locate_trace(vm["trace"].as<std::string>());
    const SpotMarket market = read_trace_file(path);
    const std::string mode = vm["mode"].as<std::string>();
    const bool per_tick_billing = is_cant_be_late_mode(mode);
    OfflineOptimumRequest request;
    request.market = &market;
    request.tick = vm.count("tick") ? parse_duration(vm["tick"].as<std::string>(), "--tick") : market.tick;
    if (vm.count("tick") && request.tick <= 0) throw InputError("--tick: expected a positive duration");
    if (request.tick <= 0) {
      throw InputError("trace '" + path + "': expected a recording with a tick (field 'tick_s'), or --tick");
    }
    request.start = parse_duration(vm["trace-start"].as<std::string>(), "--trace-start");
    if (request.start % request.tick != 0) {
      throw InputError("--trace-start: expected a multiple of the tick (" + format_duration(request.tick) + ")");
    }
    request.work = parse_duration(vm["work"].as<std::string>(), "--work");
    request.changeover = parse_duration(vm["startup"].as<std::string>(), "--startup");
    request.deadline = parse_duration(vm["deadline"].as<std::string>(), "--deadline");
    request.nodes = int_count_option(vm, "nodes", 1, static_cast<int>(kMaxNodes));
    request.per_tick_billing = per_tick_billing;
    request.want_schedule = true;
    const OfflineOptimum optimum = solve_offline_optimum(request);
    if (!optimum.feasible)
      throw InputError("--deadline: no schedule finishes the work by the deadline, not even on-demand");

    nlohmann::json doc = {{"trace", market.name},
                          {"trace_start_hours", to_hours(request.start)},
                          {"tick_s", to_seconds(request.tick)},
                          {"mode", mode},
                          {"work_hours", to_hours(request.work)},
                          {"changeover_s", to_seconds(request.changeover)},
                          {"deadline_hours", to_hours(request.deadline)},
                          {"nodes", request.nodes},
                          {"cost", optimum.cost},
                          {"cost_spot", optimum.spot_cost},
                          {"cost_on_demand", optimum.on_demand_cost},
                          {"finish_hours", to_hours(optimum.finish)},
                          {"schedule", optimum.schedule},
                          {"schedule_zones", optimum.schedule_zones},
                          {"schedule_held_s", held_seconds(optimum)}};
    std::string text;
    if (format == "json") {
      text = json_text(doc, 2) + "\n";
    } else {
      std::ostringstream out;
      out << "offline optimum on " << market.name << " from " << format_fixed(to_hours(request.start), 2) << " h ("
          << format_duration(request.tick) << " ticks, billed "
          << (request.per_tick_billing ? "per tick" : "per second") << "): " << format_fixed(to_hours(request.work), 2)
          << " h of work, changeover " << format_duration(request.changeover) << ", deadline "
          << format_fixed(to_hours(request.deadline), 2) << " h\n"
          << "cost " << format_fixed(optimum.cost, 2) << " USD (spot " << format_fixed(optimum.spot_cost, 2)
          << ", on-demand " << format_fixed(optimum.on_demand_cost, 2) << "), finished at "
          << format_fixed(to_hours(optimum.finish), 3) << " h\n"
          << "schedule: " << schedule_runs(optimum, request.tick) << "\n";
      text = out.str();
    }
    emit_output(vm, text, program);
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim

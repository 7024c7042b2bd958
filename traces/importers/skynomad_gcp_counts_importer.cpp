#include "traces/importers/skynomad_gcp_counts_importer.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "base/text_lines.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/skynomad_gcp_zone_file.hpp"
#include "traces/importers/timestamps.hpp"

namespace spotsim {

namespace {

constexpr Millis kRound = 600 * kMillisPerSecond;
// The probes are scheduled on the wall clock (2-15 ms late in the data); a tenth of a round off the grid means the
// file is not on a 10-minute clock at all.
constexpr Millis kRoundTolerance = 60 * kMillisPerSecond;
constexpr double kMaxSpanSeconds = 1e10;  // the trace format's limit on times (docs/trace-format.md#limits)
constexpr const char* kHeader = "scheduled_at,zone,requested,created,capacity_exhausted_detected,status";
constexpr const char* kPriceFolder = "gcp-h100-13-zones";

struct Probe {
  Millis time = 0;
  std::string scheduled_at;  // as written, for messages and notes
  std::string zone;
  std::optional<double> created;  // nullopt: the probe failed (status other than success)
  std::size_t line = 0;
};

struct ProbeFile {
  std::vector<Probe> probes;
  long long requested = 0;
  std::map<std::string, std::size_t> failed_statuses;  // status -> rows
};

bool has_utc_offset(const std::string& text) {
  if (!text.empty() && text.back() == 'Z') return true;
  return text.size() > 6 && (text[text.size() - 6] == '+' || text[text.size() - 6] == '-') &&
         text[text.size() - 3] == ':';
}

Probe read_probe(const TextLines& lines, const std::vector<std::string>& f, ProbeFile& file) {
  if (f.size() != 6) lines.fail("row", std::string("6 fields (") + kHeader + ")", std::to_string(f.size()) + " fields");
  const auto time = parse_timestamp(f[0]);
  if (!time || !has_utc_offset(f[0])) {
    lines.fail("scheduled_at", "a time with its UTC offset such as 2025-10-03T17:10:00.002281-07:00", f[0]);
  }
  try {
    continent_of_region(gcp_region_of_zone(f[1]));
  } catch (const InputError&) {
    lines.fail("zone", "a GCP zone name such as us-central1-a (region of a known continent, then -letter)", f[1]);
  }
  const long long requested = lines.integer(f[2], "requested", 1, 1'000'000);
  if (file.requested == 0) file.requested = requested;
  if (requested != file.requested) {
    // The counts are censored at `requested`: one trace must mean one thing by its top count.
    lines.fail("requested", "the first row's " + std::to_string(file.requested) + " in every row", f[2]);
  }
  const long long created = lines.integer(f[3], "created", 0, requested);
  const long long exhausted = lines.integer(f[4], "capacity_exhausted_detected", 0, requested);
  if (created + exhausted > requested) {
    lines.fail("capacity_exhausted_detected",
               "at most requested - created = " + std::to_string(requested - created) + " (instances not created)",
               f[4]);
  }
  if (f[5].empty()) lines.fail("status", "a probe status such as success", f[5]);
  Probe probe{*time, f[0], f[1], std::nullopt, lines.line_number()};
  if (f[5] == "success") {
    probe.created = static_cast<double>(created);
  } else {
    ++file.failed_statuses[f[5]];  // a failed probe measured nothing: treated as a missing round
  }
  return probe;
}

ProbeFile read_probes(const std::string& content, const std::string& file) {
  TextLines lines(content, file);
  std::vector<std::string> f;
  if (!lines.next(f)) throw InputError(file + ": empty file; expected the header " + kHeader);
  std::string header;
  for (const auto& name : f) header += (header.empty() ? "" : ",") + name;
  if (header != kHeader) lines.fail("header", std::string("the header ") + kHeader, header);
  ProbeFile out;
  while (lines.next(f)) out.probes.push_back(read_probe(lines, f, out));
  if (out.probes.empty()) lines.fail("rows", "at least one probe row", "none");
  return out;
}

// One zone's successful probes by round index.
using RoundCounts = std::map<std::size_t, const Probe*>;

struct Clock {
  const Probe* first = nullptr;  // the earliest row: the trace starts at its round
  const Probe* last = nullptr;
  std::size_t rounds = 0;
};

// Places every probe on the 600 s grid of the earliest one; refuses rows off the grid and repeated rounds.
Clock align_rounds(const ProbeFile& probes, const std::string& file, std::map<std::string, RoundCounts>& zones) {
  Clock clock;
  for (const Probe& p : probes.probes) {
    if (!clock.first || p.time < clock.first->time) clock.first = &p;
    if (!clock.last || p.time > clock.last->time) clock.last = &p;
  }
  if (static_cast<double>(clock.last->time - clock.first->time) / kMillisPerSecond > kMaxSpanSeconds) {
    throw InputError(file + ":" + std::to_string(clock.last->line) +
                     ": scheduled_at: expected at most 1e10 s after "
                     "the first round (" +
                     clock.first->scheduled_at + "), got '" + clock.last->scheduled_at + "'");
  }
  std::map<std::pair<std::string, std::size_t>, std::size_t> seen;  // (zone, round) -> line
  for (const Probe& p : probes.probes) {
    const Millis offset = p.time - clock.first->time;
    const Millis round = (offset + kRound / 2) / kRound;
    if (std::abs(offset - round * kRound) > kRoundTolerance) {
      throw InputError(file + ":" + std::to_string(p.line) +
                       ": scheduled_at: expected a round 600 s apart from the "
                       "first one (" +
                       clock.first->scheduled_at + ") within 60 s, got '" + p.scheduled_at + "'");
    }
    const auto index = static_cast<std::size_t>(round);
    const auto [it, inserted] = seen.emplace(std::make_pair(p.zone, index), p.line);
    if (!inserted) {
      throw InputError(file + ":" + std::to_string(p.line) + ": zone: expected one row per zone and round; " + p.zone +
                       " at " + p.scheduled_at + " was already probed at line " + std::to_string(it->second));
    }
    RoundCounts& zone = zones[p.zone];
    if (p.created) zone[index] = &p;
    clock.rounds = std::max(clock.rounds, index + 1);
  }
  return clock;
}

struct CarriedRounds {
  std::size_t total = 0;    // zone-rounds without a successful probe, over all zones
  std::size_t longest = 0;  // the longest run of them in one zone
  std::string longest_where;
};

// The zone's count per round as change points, each missing round carrying the previous count.
StepSeries count_series(const std::string& file, const std::string& zone, const RoundCounts& counts, std::size_t rounds,
                        CarriedRounds& carried) {
  if (counts.empty() || counts.begin()->first != 0) {
    throw InputError(
        file + ": zone " + zone + ": expected a successful probe in the first round, got " +
        (counts.empty() ? std::string("none at all") : "the first at " + counts.begin()->second->scheduled_at) +
        " (a missing round carries the previous count, and the first has none)");
  }
  std::vector<std::pair<Millis, double>> changes;
  const Probe* previous = nullptr;
  std::size_t next = 0;  // the round after the previous successful probe
  const auto note_gap = [&](std::size_t gap) {
    carried.total += gap;
    if (gap > carried.longest) {
      carried.longest = gap;
      carried.longest_where = zone + " after the round of " + previous->scheduled_at;
    }
  };
  for (const auto& [round, probe] : counts) {
    if (round > next) note_gap(round - next);
    changes.emplace_back(static_cast<Millis>(round) * kRound, *probe->created);
    previous = probe;
    next = round + 1;
  }
  if (rounds > next) note_gap(rounds - next);
  const Millis span = static_cast<Millis>(rounds) * kRound;
  return series_from_changes(changes, changes.front().second, span);
}

// The zone's place, instance and prices from the SkyNomad file beside the CSV; its availability from `counts`.
Zone priced_zone(const std::string& file, const std::string& zone, const Clock& clock, StepSeries counts) {
  const std::filesystem::path path =
      std::filesystem::path(file).parent_path() / kPriceFolder / (zone + kSkyNomadGcpSuffix);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError(file + ": zone " + zone + ": expected its prices in " + path.string() +
                     " (the SkyNomad gcp-h100-13-zones/ folder beside the CSV), but there is no such file");
  }
  SkyNomadGcpZoneFile priced = read_skynomad_gcp_zone_file(path.string());
  if (priced.zone.name != zone) {
    throw InputError(path.string() + ": field 'metadata.zone': expected " + zone + ", got '" + priced.zone.name + "'");
  }
  // A per-tick price only means something on the counts' clock; the data's prices are constant.
  if (!priced.zone.spot.price_per_hour.is_constant() &&
      (priced.tick != kRound || parse_timestamp(priced.start_time) != clock.first->time ||
       priced.ticks != clock.rounds)) {
    throw InputError(path.string() + ": expected a constant price, or per-tick prices on the clock of " + file +
                     " (600 s from " + clock.first->scheduled_at + ", " + std::to_string(clock.rounds) + " ticks)");
  }
  priced.zone.spot.available = std::move(counts);
  return std::move(priced.zone);
}

std::string carried_note(const CarriedRounds& carried, std::size_t zone_rounds, const ProbeFile& probes) {
  std::string note = std::to_string(carried.total) + " of " + std::to_string(zone_rounds) +
                     " zone-rounds had no successful probe and carry the zone's previous count";
  if (carried.longest > 0) {
    note += " (longest run: " + std::to_string(carried.longest) + " rounds, in " + carried.longest_where + ")";
  }
  note += ". Rows with a status other than success (counted as missing):";
  if (probes.failed_statuses.empty()) note += " none";
  for (const auto& [status, rows] : probes.failed_statuses) note += " " + status + " " + std::to_string(rows);
  return note + ".";
}

}  // namespace

ImportedTrace import_skynomad_gcp_counts(const std::string& content, const std::string& file,
                                         const ImportOptions& options) {
  const ProbeFile probes = read_probes(content, file);
  std::map<std::string, RoundCounts> zones;  // by name: the order of the gcp-h100-13-zones files
  const Clock clock = align_rounds(probes, file, zones);
  ImportedTrace out;
  out.format = "skynomad-gcp-counts";
  out.records_spot_prices = true;
  out.records_on_demand_prices = true;
  SpotMarket& market = out.market;
  CarriedRounds carried;
  for (const auto& [name, counts] : zones) {
    if (!options.only_zone.empty() && name != options.only_zone) continue;
    market.zones.push_back(priced_zone(file, name, clock, count_series(file, name, counts, clock.rounds, carried)));
    market.zones.back().spot.notice = options.notice.value_or(kGcpNotice);
  }
  if (market.zones.empty()) throw InputError(file + ": no zone named '" + options.only_zone + "'");
  const std::size_t n = market.zones.size();
  market.name = "gcp-h100-capacity-" + std::to_string(n) + (n == 1 ? "-zone" : "-zones");
  market.description = "GCP 1xH100 spot (a3-highgpu-1g) capacity: how many of " + std::to_string(probes.requested) +
                       " requested instances launched (" + std::to_string(probes.requested) +
                       " = at least that many), " + "probed every 600 s in " + std::to_string(n) + " zones of " +
                       std::to_string(market_regions(market).size()) + " regions from " + clock.first->scheduled_at;
  market.span = static_cast<Millis>(clock.rounds) * kRound;
  market.tick = kRound;
  market.migration.egress = shipped_egress_prices("gcp", market_regions(market));
  market.provenance.source = std::string(kSkyNomadSource) + "gcp-h100-probe-counts.csv (prices: gcp-h100-13-zones/)";
  market.provenance.date = clock.first->scheduled_at + " to " + clock.last->scheduled_at + " (" +
                           format_fixed(to_hours(market.span) / 24.0, 1) +
                           " days); prices from the GCP Billing Catalog";
  market.provenance.license = "Apache-2.0";
  market.provenance.notes =
      "Imported by: spotsim trace convert --from skynomad-gcp-counts ../shared/data/preemption/skynomad-multi-region/"
      "gcp-h100-probe-counts.csv -o traces/library/gcp-h100-capacity-13-zones.json. Availability is the COUNT of "
      "spot instances that launched out of " +
      std::to_string(probes.requested) + " requested per round (censored: " + std::to_string(probes.requested) +
      " means at least that many), held for the round; rounds aligned on "
      "scheduled_at in UTC. " +
      carried_note(carried, n * clock.rounds, probes) +
      " Spot and on-demand prices are the recorded a3-highgpu-8g prices divided by 8 (one H100), as in "
      "gcp-h100-13-zones. Region = zone without its last '-x'; egress from traces/library/catalogue/egress/gcp.csv "
      "(published inter-region tiers, see its README). Transfer bandwidths: SkyNomad's measured defaults.";
  return out;
}

}  // namespace spotsim

// `schedule:FILE` (or `schedule:file=FILE`): checkpoints at the instance ages a table lists, whatever the lifetime
// model: the table `spotsim simulate --checkpoint-schedule` (or spotsim.checkpoint_schedule()) exports from
// `optimal-dp`, `hazard` or any checkpoint policy, so that a schedule computed under one lifetime model can be
// replayed under another (docs/policies.md#schedules). Rules, the same on every instance (ages are per instance,
// from its request): the next write starts at the first listed age after the instance's current age; past the last
// row the last interval repeats; on on-demand no periodic checkpoints (as `optimal-dp` and `hazard`).
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "base/errors.hpp"
#include "base/text_lines.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

// The ages of a schedule file: the column instance_age_s (exact to the millisecond) or else instance_age_h; other
// columns are ignored. InputError naming the file, line and field for anything else.
std::vector<Millis> read_schedule_ages(const std::string& path, const std::string& where) {
  TextLines lines(read_text_file(path), where + ": " + path);
  std::vector<std::string> fields;
  if (!lines.next(fields)) lines.fail("header", "a CSV header with instance_age_s or instance_age_h", "an empty file");
  auto column = std::find(fields.begin(), fields.end(), "instance_age_s");
  const bool seconds = column != fields.end();
  if (!seconds) column = std::find(fields.begin(), fields.end(), "instance_age_h");
  if (column == fields.end()) {
    std::string header;
    for (const std::string& f : fields) header += (header.empty() ? "" : ",") + f;
    lines.fail("header", "a column instance_age_s or instance_age_h", header);
  }
  const auto index = static_cast<std::size_t>(column - fields.begin());
  const std::string name = *column;
  const std::size_t width = fields.size();
  std::vector<Millis> ages;
  while (lines.next(fields)) {
    if (fields.size() != width) {
      lines.fail("row", std::to_string(width) + " fields as in the header", std::to_string(fields.size()) + " fields");
    }
    const double value = lines.number(fields[index], name, 0.0, seconds ? 3.6e9 : 1e6);  // up to 1e6 h
    const Millis age = seconds ? static_cast<Millis>(std::llround(value * 1000.0)) : millis_from_hours(value);
    if (age <= 0 || (!ages.empty() && age <= ages.back())) {
      lines.fail(name, "ages that increase from row to row, above 0", fields[index]);
    }
    ages.push_back(age);
  }
  if (ages.empty()) lines.fail("rows", "at least one checkpoint age", "a header only");
  return ages;
}

class ScheduleCheckpointPolicy final : public CheckpointPolicy {
 public:
  ScheduleCheckpointPolicy(std::shared_ptr<const std::vector<Millis>> ages, bool on_notice)
      : ages_(std::move(ages)), on_notice_(on_notice) {}

  Millis next_interval(const Observation& obs) override {
    if (obs.purchase != Purchase::kSpot) return kNever;
    const std::vector<Millis>& ages = *ages_;
    const Millis age = obs.instance_age;
    const auto next = std::upper_bound(ages.begin(), ages.end(), age);
    if (next != ages.end()) return *next - age;
    const Millis last = ages.size() > 1 ? ages.back() - ages[ages.size() - 2] : ages.back();
    return std::max<Millis>(last, 1);  // past the table: its last interval, again and again
  }
  bool varies_within_instance() const override { return true; }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  std::shared_ptr<const std::vector<Millis>> ages_;
  bool on_notice_;
};

}  // namespace

void register_schedule_checkpoint(PolicyRegistry& registry) {
  registry.add(PolicyEntry<CheckpointPolicy>{
      "schedule",
      "checkpoints at the instance ages a CSV table lists (e.g. an optimal-dp or hazard schedule exported with "
      "simulate --checkpoint-schedule), to replay it under another lifetime model; past the table its last "
      "interval repeats",
      "FILE or file=FILE (CSV with a column instance_age_s or instance_age_h), on_notice=false",
      [](const PolicyParams& p) {
        const std::string file = p.text("file", p.text(PolicyParams::kPositional, ""));
        const std::string where = "--checkpoint '" + p.spec() + "'";
        if (file.empty()) throw InputError(where + ": expected the schedule's file, e.g. schedule:plan.csv");
        // Read once per policy object (once per thread): a replication never rereads it.
        auto ages = std::make_shared<const std::vector<Millis>>(read_schedule_ages(file, where));
        return std::make_unique<ScheduleCheckpointPolicy>(std::move(ages), p.flag("on_notice", false));
      }});
}

}  // namespace spotsim

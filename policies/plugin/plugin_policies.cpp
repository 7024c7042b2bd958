#include "policies/plugin/plugin_policies.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

#include "policies/plugin/plugin_observation.hpp"
#include "sim/errors.hpp"

namespace spotsim {

namespace {

constexpr std::size_t kErrorSize = 512;

struct PluginIdentity {
  std::string name;
  std::string file;

  std::string what() const { return "plugin policy '" + name + "' (" + file + ")"; }
  [[noreturn]] void fail_at(Millis now, const std::string& message) const {
    char when[64];
    std::snprintf(when, sizeof when, "%.4g h", static_cast<double>(now) / static_cast<double>(kMillisPerHour));
    throw InputError(what() + " at simulated time " + when + ": " + message);
  }
};

std::string message_or(const char* error, const char* fallback) {
  return error[0] != '\0' ? std::string(error) : std::string(fallback);
}

// The host side of spotsim_params: PolicyParams getters, remembering the first bad value's message.
struct ParamsContext {
  const PolicyParams* params;
  std::string error;

  template <typename Get>
  int32_t guard(Get&& get) {
    try {
      get();
      return 0;
    } catch (const InputError& e) {
      if (error.empty()) error = e.what();
      return 1;
    }
  }
};

spotsim_params params_table(ParamsContext& context) {
  spotsim_params table{};
  table.context = &context;
  table.duration_ms = [](void* c, const char* key, int64_t fallback, int64_t* value) -> int32_t {
    auto& ctx = *static_cast<ParamsContext*>(c);
    return ctx.guard([&] { *value = ctx.params->duration(key, fallback); });
  };
  table.number = [](void* c, const char* key, double fallback, double min, double max, double* value) -> int32_t {
    auto& ctx = *static_cast<ParamsContext*>(c);
    return ctx.guard([&] { *value = ctx.params->number(key, fallback, min, max); });
  };
  table.flag = [](void* c, const char* key, int32_t fallback, int32_t* value) -> int32_t {
    auto& ctx = *static_cast<ParamsContext*>(c);
    return ctx.guard([&] { *value = ctx.params->flag(key, fallback != 0) ? 1 : 0; });
  };
  return table;
}

// Calls the plugin's create(); InputError with the getter's or the plugin's message when it refuses.
template <typename Table>
void* create_state(const Table& table, const PluginIdentity& id, const PolicyParams& params) {
  ParamsContext context{&params, {}};
  const spotsim_params api = params_table(context);
  char error[kErrorSize] = {};
  void* state = table.create(&api, error, sizeof error);
  if (!context.error.empty()) {
    if (state != nullptr && table.destroy != nullptr) table.destroy(state);
    throw InputError(context.error);
  }
  if (state == nullptr) throw InputError(id.what() + ": refused its parameters: " + message_or(error, "(no message)"));
  return state;
}

struct SelectionTable {
  spotsim_selection_policy api;
  PluginIdentity id;
};

class PluginSelectionPolicy final : public SelectionPolicy {
 public:
  PluginSelectionPolicy(std::shared_ptr<const SelectionTable> table, void* state)
      : table_(std::move(table)), state_(state) {}
  ~PluginSelectionPolicy() override {
    if (table_->api.destroy != nullptr) table_->api.destroy(state_);
  }
  PluginSelectionPolicy(const PluginSelectionPolicy&) = delete;
  PluginSelectionPolicy& operator=(const PluginSelectionPolicy&) = delete;

  void reset() override {
    if (table_->api.reset != nullptr) table_->api.reset(state_);
  }

  SelectionDecision decide(const Observation& obs) override {
    const spotsim_observation view = plugin_observation(obs, zones_);
    spotsim_selection_decision out{SPOTSIM_PURCHASE_NONE, 0, SPOTSIM_NEVER, 1, 0};
    error_[0] = '\0';
    if (table_->api.decide(state_, &view, &out, error_, sizeof error_) != 0) {
      table_->id.fail_at(obs.elapsed, message_or(error_, "decide() failed (no message)"));
    }
    return checked(out, obs);
  }

 private:
  SelectionDecision checked(const spotsim_selection_decision& out, const Observation& obs) const {
    const PluginIdentity& id = table_->id;
    if (out.purchase < SPOTSIM_PURCHASE_NONE || out.purchase > SPOTSIM_PURCHASE_ON_DEMAND) {
      id.fail_at(obs.elapsed, "decide() returned purchase " + std::to_string(out.purchase) +
                                  "; expected SPOTSIM_PURCHASE_NONE (0), _SPOT (1) or _ON_DEMAND (2)");
    }
    const auto purchase = static_cast<Purchase>(out.purchase);
    const int zones = static_cast<int>(obs.zones.size());
    if (purchase != Purchase::kNone && (out.zone < 0 || out.zone >= zones)) {
      id.fail_at(obs.elapsed, "decide() returned zone " + std::to_string(out.zone) + "; expected 0 to " +
                                  std::to_string(zones - 1));
    }
    if (out.review_at_ms < obs.now) {
      id.fail_at(obs.elapsed, "decide() returned review_at_ms " + std::to_string(out.review_at_ms) +
                                  ", before now_ms " + std::to_string(obs.now) +
                                  "; expected a later time or SPOTSIM_NEVER");
    }
    const Millis review = out.review_at_ms >= kNever ? kNever : out.review_at_ms;
    return SelectionDecision{purchase, purchase == Purchase::kNone ? 0 : out.zone, review,
                             purchase == Purchase::kNone || out.wake_on_spot != 0};
  }

  std::shared_ptr<const SelectionTable> table_;
  void* state_;
  std::vector<spotsim_zone_view> zones_;
  char error_[kErrorSize] = {};
};

struct CheckpointTable {
  spotsim_checkpoint_policy api;
  PluginIdentity id;
};

class PluginCheckpointPolicy final : public CheckpointPolicy {
 public:
  PluginCheckpointPolicy(std::shared_ptr<const CheckpointTable> table, void* state)
      : table_(std::move(table)), state_(state),
        flags_(table_->api.flags != nullptr ? table_->api.flags(state) : 0u) {}
  ~PluginCheckpointPolicy() override {
    if (table_->api.destroy != nullptr) table_->api.destroy(state_);
  }
  PluginCheckpointPolicy(const PluginCheckpointPolicy&) = delete;
  PluginCheckpointPolicy& operator=(const PluginCheckpointPolicy&) = delete;

  void reset() override {
    if (table_->api.reset != nullptr) table_->api.reset(state_);
  }

  Millis next_interval(const Observation& obs) override {
    const spotsim_observation view = plugin_observation(obs, zones_);
    int64_t interval = SPOTSIM_NEVER;
    error_[0] = '\0';
    if (table_->api.next_interval(state_, &view, &interval, error_, sizeof error_) != 0) {
      table_->id.fail_at(obs.elapsed, message_or(error_, "next_interval() failed (no message)"));
    }
    if (interval <= 0) {
      table_->id.fail_at(obs.elapsed, "next_interval() returned " + std::to_string(interval) +
                                          " ms; expected a positive interval or SPOTSIM_NEVER");
    }
    return interval >= kNever ? kNever : interval;
  }

  bool varies_within_instance() const override { return (flags_ & SPOTSIM_CHECKPOINT_VARIES_WITHIN_INSTANCE) != 0; }
  bool checkpoint_on_notice() const override { return (flags_ & SPOTSIM_CHECKPOINT_ON_NOTICE) != 0; }
  bool can_checkpoint() const override { return (flags_ & SPOTSIM_CHECKPOINT_NEVER) == 0; }

 private:
  std::shared_ptr<const CheckpointTable> table_;
  void* state_;
  std::uint32_t flags_;
  std::vector<spotsim_zone_view> zones_;
  char error_[kErrorSize] = {};
};

std::string text_or_empty(const char* text) { return text == nullptr ? std::string() : std::string(text); }

}  // namespace

PolicyEntry<SelectionPolicy> plugin_selection_entry(const spotsim_selection_policy& table, const std::string& file) {
  auto shared = std::make_shared<SelectionTable>(SelectionTable{table, {text_or_empty(table.name), file}});
  return PolicyEntry<SelectionPolicy>{
      shared->id.name, text_or_empty(table.description) + " [plugin " + file + "]", text_or_empty(table.parameters),
      [shared](const PolicyParams& params) -> std::unique_ptr<SelectionPolicy> {
        return std::make_unique<PluginSelectionPolicy>(shared, create_state(shared->api, shared->id, params));
      }};
}

PolicyEntry<CheckpointPolicy> plugin_checkpoint_entry(const spotsim_checkpoint_policy& table, const std::string& file) {
  auto shared = std::make_shared<CheckpointTable>(CheckpointTable{table, {text_or_empty(table.name), file}});
  return PolicyEntry<CheckpointPolicy>{
      shared->id.name, text_or_empty(table.description) + " [plugin " + file + "]", text_or_empty(table.parameters),
      [shared](const PolicyParams& params) -> std::unique_ptr<CheckpointPolicy> {
        return std::make_unique<PluginCheckpointPolicy>(shared, create_state(shared->api, shared->id, params));
      }};
}

}  // namespace spotsim

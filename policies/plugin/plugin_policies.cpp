#include "policies/plugin/plugin_policies.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

#include "base/errors.hpp"
#include "model/policy_answers.hpp"
#include "policies/plugin/plugin_observation.hpp"

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

// One policy made by a plugin: its state (created by the table's create(), reset and destroyed through it) and the
// buffers each call reuses, so a decision allocates nothing.
template <typename Table>
class PluginInstance {
 public:
  PluginInstance(std::shared_ptr<const Table> table, void* state) : table_(std::move(table)), state_(state) {}
  ~PluginInstance() {
    if (table_->api.destroy != nullptr) table_->api.destroy(state_);
  }
  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;

  void reset() {
    if (table_->api.reset != nullptr) table_->api.reset(state_);
  }
  // The ABI's snapshot of `obs`, with the error buffer cleared for the call that follows.
  spotsim_observation observe(const Observation& obs) {
    error_[0] = '\0';
    return plugin_observation(obs, zones_);
  }
  const decltype(Table::api)& api() const { return table_->api; }
  const PluginIdentity& id() const { return table_->id; }
  void* state() const { return state_; }
  char* error() { return error_; }

 private:
  std::shared_ptr<const Table> table_;
  void* state_;
  std::vector<spotsim_zone_view> zones_;
  char error_[kErrorSize] = {};
};

struct SelectionTable {
  spotsim_selection_policy api;
  PluginIdentity id;
};

class PluginSelectionPolicy final : public SelectionPolicy {
 public:
  PluginSelectionPolicy(std::shared_ptr<const SelectionTable> table, void* state) : plugin_(std::move(table), state) {}

  void reset() override { plugin_.reset(); }

  SelectionDecision decide(const Observation& obs) override {
    const spotsim_observation view = plugin_.observe(obs);
    spotsim_selection_decision out{SPOTSIM_PURCHASE_NONE, 0, SPOTSIM_NEVER, 1, 0};
    if (plugin_.api().decide(plugin_.state(), &view, &out, plugin_.error(), kErrorSize) != 0) {
      plugin_.id().fail_at(obs.elapsed, message_or(plugin_.error(), "decide() failed (no message)"));
    }
    return checked(out, obs);
  }

 private:
  SelectionDecision checked(const spotsim_selection_decision& out, const Observation& obs) const {
    const PluginIdentity& id = plugin_.id();
    if (out.purchase < SPOTSIM_PURCHASE_NONE || out.purchase > SPOTSIM_PURCHASE_ON_DEMAND) {
      id.fail_at(obs.elapsed, "decide() returned purchase " + std::to_string(out.purchase) +
                                  "; expected SPOTSIM_PURCHASE_NONE (0), _SPOT (1) or _ON_DEMAND (2)");
    }
    const auto purchase = static_cast<Purchase>(out.purchase);
    const int zones = static_cast<int>(obs.zones.size());
    if (purchase != Purchase::kNone && (out.zone < 0 || out.zone >= zones)) {
      id.fail_at(obs.elapsed,
                 "decide() returned zone " + std::to_string(out.zone) + "; expected 0 to " + std::to_string(zones - 1));
    }
    if (out.review_at_ms < kNever) {
      const std::string problem = review_problem(static_cast<double>(out.review_at_ms), obs.now);
      if (!problem.empty()) {
        id.fail_at(obs.elapsed, "decide() returned review_at_ms " + std::to_string(out.review_at_ms) + " (now_ms " +
                                    std::to_string(obs.now) + "); " + problem + " (SPOTSIM_NEVER)");
      }
    }
    const Millis review = out.review_at_ms >= kNever ? kNever : out.review_at_ms;
    return SelectionDecision{purchase, purchase == Purchase::kNone ? 0 : out.zone, review,
                             purchase == Purchase::kNone || out.wake_on_spot != 0};
  }

  PluginInstance<SelectionTable> plugin_;
};

struct CheckpointTable {
  spotsim_checkpoint_policy api;
  PluginIdentity id;
};

class PluginCheckpointPolicy final : public CheckpointPolicy {
 public:
  PluginCheckpointPolicy(std::shared_ptr<const CheckpointTable> table, void* state)
      : plugin_(std::move(table), state), flags_(plugin_.api().flags != nullptr ? plugin_.api().flags(state) : 0u) {}

  void reset() override { plugin_.reset(); }

  Millis next_interval(const Observation& obs) override {
    const spotsim_observation view = plugin_.observe(obs);
    int64_t interval = SPOTSIM_NEVER;
    if (plugin_.api().next_interval(plugin_.state(), &view, &interval, plugin_.error(), kErrorSize) != 0) {
      plugin_.id().fail_at(obs.elapsed, message_or(plugin_.error(), "next_interval() failed (no message)"));
    }
    if (interval < kNever) {
      const std::string problem = interval_problem(static_cast<double>(interval));
      if (!problem.empty()) {
        plugin_.id().fail_at(obs.elapsed, "next_interval() returned " + std::to_string(interval) + " ms; " + problem +
                                              " (SPOTSIM_NEVER)");
      }
    }
    return interval >= kNever ? kNever : interval;
  }

  bool varies_within_instance() const override { return (flags_ & SPOTSIM_CHECKPOINT_VARIES_WITHIN_INSTANCE) != 0; }
  bool checkpoint_on_notice() const override { return (flags_ & SPOTSIM_CHECKPOINT_ON_NOTICE) != 0; }
  bool can_checkpoint() const override { return (flags_ & SPOTSIM_CHECKPOINT_NEVER) == 0; }

 private:
  PluginInstance<CheckpointTable> plugin_;
  std::uint32_t flags_;
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

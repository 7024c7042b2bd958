// spotsim's `planned` policy (docs/policies.md#planned): spends the slack as the cost-minimising plan on a
// semi-Markov model of spot availability says (slack_plan.hpp, spell_model.hpp).
//
// Why a plan: how much slack to keep for changeovers, when to fill a gap with on-demand and when to leave
// on-demand for a spell that may not last all follow from the changeover d, the slack, the prices and how long
// spot stays up and away; `adaptive` encodes them as rules with constants (a reserve, a confirmation), the plan
// derives them. The model is known at decision time: the spells of another recording (calibration=, by default
// the shipped 2023 AWS campaign `aws-v100-9-zones`, pooled over its zones), or a memoryless one (calibration=none,
// prior_up, prior_down). The decision uses what the run sees: whether spot is up now and for how long, and which
// kind of market it is in. Recordings differ by zone in how long spot stays and goes; with regimes=belief (the
// default) the calibration's zones form two regimes, those where spot is obtainable less often than on average
// (scarce) and the others (plentiful), and the plan's state carries the run's belief in each (slack_plan.hpp): the
// slack a run keeps is worth what it is worth in either regime, weighted by how likely each is given the spells seen
// so far. regimes=zones follows instead the one model (the pooled one or a zone's) under which those spells are most
// probable; regimes=pooled plans on the pooled model alone.
// In the Can't Be Late mode (ticks, lossless progress) the plan is exact about the deadline: its slack is rounded
// down, its changeover up, it never moves to a state on-demand could not finish from, and from a state it cannot
// finish from (its rounding can make one) it starts on-demand, so it meets every deadline on-demand could meet.
// Elsewhere the shared safety net (deadline_rules.hpp) comes first, and the plan knows where it takes over. Every
// model's stay probabilities lie strictly between 0 and 1, so each plan keeps the deadline in the worst case and
// switching plans keeps it too. A plan is solved for the state at the run's start, with the spot / on-demand price
// ratio of that moment (to 2%: runs that start alike share one solve, PlanCache), when the run first follows its
// model; each decision is a table lookup.
#include "policies/planned_policy.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "policies/adaptive_prior.hpp"
#include "policies/deadline_math.hpp"
#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/slack_plan.hpp"
#include "policies/spell_model.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

constexpr double kTableBudgetBytes = 256.0 * 1024 * 1024;

struct PlannedSettings {
  Millis step = 10 * kMillisPerMinute;            // decision step where the engine has no tick
  std::shared_ptr<const SpotMarket> calibration;  // null: the memoryless model
  Millis prior_up = 2 * kMillisPerHour;
  Millis prior_down = kMillisPerHour;
  int ages = 12;
  int max_bins = 10;
  Millis max_wait = 30 * kMillisPerMinute;  // without a deadline: how long to wait for spot before on-demand
  // How the calibration describes the market: two regimes and a belief over them in the plan (kBelief), the pooled
  // model and each zone's, followed by likelihood (kZones), or the pooled model (kPooled).
  enum class Regimes { kBelief, kZones, kPooled } regimes = Regimes::kBelief;
  int belief_points = 3;
  double pooled_weight = 0.5;  // prior probability of the pooled model; the zones share the rest
  // With regimes=belief: the run's belief in the plentiful regime when it starts. `adaptive` plays the plan with a
  // lower one in the Can't Be Late mode (adaptive_policy.cpp, where it was chosen); here it stays at even odds, as
  // 0.2 was dearer in the event mode (docs/policies.md#planned).
  double start_belief = 0.5;
};

// The models a run may follow: the pooled model first, then (with `regimes`) each zone's; with the logarithms of
// each model's probabilities of a spell lasting another step or ending, per age, which the run's Bayes update adds.
struct SpellLibrary {
  std::vector<SpellModel> models;
  std::vector<std::vector<double>> log_p;  // [model][4 a + k]: k = 0 up stays, 1 up ends, 2 down stays, 3 down ends

  explicit SpellLibrary(std::vector<SpellModel> m) : models(std::move(m)) {
    for (const SpellModel& model : models) {
      std::vector<double> logs;
      for (std::size_t a = 0; a < model.stay_up.size(); ++a) {
        for (const double stay : {model.stay_up[a], model.stay_down[a]}) {
          logs.push_back(std::log(std::max(stay, 1e-6)));
          logs.push_back(std::log(std::max(1.0 - stay, 1e-6)));
        }
      }
      log_p.push_back(std::move(logs));
    }
  }
};

// Solved plans shared by every policy object of the process (`planned` and the `adaptive` that plays it, in every
// registry): the engine creates a policy per run or thread, a Python caller a registry per call, and the runs of
// one scenario all start from the same state, so one solve serves them all. Up to kKept plans and
// kCacheBudgetBytes are kept, the least recently used dropped first; a plan a policy follows lives while the
// policy does, whether or not it is kept here. Thread-safe.
class PlanCache {
 public:
  static PlanCache& process_wide() {
    static PlanCache cache;
    return cache;
  }

  // The spell models of `s` for jobs of `nodes` instances and plan steps of `length`, computed once per process
  // and calibration (sampling a calibration recording costs far more than a run): the pooled model first, then,
  // with `regimes`, one per zone of the calibration. The key holds the calibration itself, so a calibration
  // read again (a rewritten file) gets its own models.
  const SpellLibrary& spell_models(const PlannedSettings& s, int nodes, Millis length) {
    const ModelKey key{s.calibration, nodes, length, s.ages, s.prior_up, s.prior_down, static_cast<int>(s.regimes)};
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = models_.find(key);
    if (it == models_.end()) {
      std::vector<SpellModel> models;
      if (!s.calibration) {
        models.push_back(geometric_spell_model(s.prior_up, s.prior_down, length, s.ages));
      } else if (s.regimes == PlannedSettings::Regimes::kBelief) {
        models = recorded_regime_models(*s.calibration, nodes, length, s.ages, s.prior_up);
      } else if (s.regimes == PlannedSettings::Regimes::kZones) {
        models = recorded_zone_spell_models(*s.calibration, nodes, length, s.ages, s.prior_up);
      } else {
        models.push_back(recorded_spell_model(*s.calibration, nodes, length, s.ages, s.prior_up));
      }
      // Models of calibrations no one holds any more (a file read again since: only the key keeps the old one) go;
      // a policy following a model holds its calibration in its settings, so none in use is dropped.
      std::erase_if(models_, [](const auto& entry) {
        const auto& calibration = std::get<0>(entry.first);
        return calibration && calibration.use_count() == 1;
      });
      it = models_.emplace(key, SpellLibrary(std::move(models))).first;
    }
    return it->second;
  }

  std::shared_ptr<const SlackPlan> get(const SlackPlanInput& in) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = plans_.begin(); it != plans_.end(); ++it) {
        if ((*it)->input() == in) {
          auto plan = *it;
          plans_.erase(it);  // the most recently used goes last
          plans_.push_back(plan);
          ++statistics_.reused;
          return plan;
        }
      }
    }
    auto plan = std::make_shared<SlackPlan>();
    plan->solve(in);  // outside the lock: other threads' lookups do not wait for it
    std::lock_guard<std::mutex> lock(mutex_);
    ++statistics_.solved;
    // The least recently used plans go first while the cache would exceed its budget (the newest always stays).
    double bytes = SlackPlan::table_bytes(in);
    for (const auto& kept : plans_) bytes += SlackPlan::table_bytes(kept->input());
    while (!plans_.empty() && (plans_.size() >= kKept || bytes > kCacheBudgetBytes)) {
      bytes -= SlackPlan::table_bytes(plans_.front()->input());
      plans_.erase(plans_.begin());
    }
    plans_.push_back(plan);
    return plan;
  }

  void drop_kept_plans() {
    std::lock_guard<std::mutex> lock(mutex_);
    plans_.clear();
  }

  PlanCacheStatistics statistics() {
    std::lock_guard<std::mutex> lock(mutex_);
    PlanCacheStatistics out = statistics_;
    out.kept = plans_.size();
    out.spell_models = models_.size();
    for (const auto& kept : plans_) out.kept_bytes += SlackPlan::table_bytes(kept->input());
    return out;
  }

 private:
  PlanCache() = default;
  static constexpr std::size_t kKept = 24;
  static constexpr double kCacheBudgetBytes = 512.0 * 1024 * 1024;
  using ModelKey = std::tuple<std::shared_ptr<const SpotMarket>, int, Millis, int, Millis, Millis, int>;
  std::mutex mutex_;
  std::vector<std::shared_ptr<const SlackPlan>> plans_;  // least recently used first
  std::map<ModelKey, SpellLibrary> models_;
  PlanCacheStatistics statistics_;
};

class PlannedPolicy final : public SelectionPolicy {
 public:
  explicit PlannedPolicy(PlannedSettings s) : s_(std::move(s)) {}

  void reset() override {
    committed_ = false;
    spell_up_ = false;
    spell_since_ = -1;
    planned_at_ = -1;
    seen_step_ = -1;
  }

  SelectionDecision decide(const Observation& obs) override {
    const int spot_zone = obs.purchase == Purchase::kSpot ? obs.zone : cheapest_obtainable_spot_zone(obs);
    const bool up = spot_zone >= 0;
    if (spell_since_ < 0 || up != spell_up_) spell_up_ = up, spell_since_ = obs.elapsed;
    const int od_zone = on_demand_zone_choice(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    const Millis g = obs.decision_tick > 0 ? obs.decision_tick : s_.step;
    if (!obs.has_deadline()) {  // nothing to plan against: spot when obtainable, else wait up to max_wait for it
      const Millis next = obs.now + s_.step;
      if (up) return SelectionDecision::spot(spot_zone, next);
      const Millis waited = obs.elapsed - spell_since_;
      if (obs.purchase == Purchase::kOnDemand || waited >= s_.max_wait) {
        return SelectionDecision::on_demand(od_zone, next, /*wake_on_spot=*/true);
      }
      return SelectionDecision::wait(std::min(next, obs.now + (s_.max_wait - waited)));
    }
    plan_once(obs, od_zone, g);
    Millis review = kNever;
    if (!exact_) {
      const SafetyNet net = safety_net(obs, spot_zone);
      if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_)) return *imposed;
      review = net.review_at;
    }
    const Millis step_length = g * multiple_;
    const Millis since_plan = obs.elapsed - planned_at_;
    const Millis next = std::min(review, obs.now + (step_length - since_plan % step_length));
    const PlanHeld held = obs.purchase == Purchase::kSpot       ? PlanHeld::kSpot
                          : obs.purchase == Purchase::kOnDemand ? PlanHeld::kOnDemand
                                                                : PlanHeld::kNone;
    const int step = static_cast<int>(since_plan / step_length);
    const int age = static_cast<int>((obs.elapsed - spell_since_) / step_length);
    const int slack = slack_bins(obs, step_length);
    if (belief_mode_) {
      track_belief(step, up);
    } else if (library_->models.size() > 1) {
      learn_regime(step, up);
    }
    const PlanAction action = plan_->action(step, held, up, age, slack, belief_);
    if (action == PlanAction::kSpot && up) return SelectionDecision::spot(spot_zone, next);
    if (action == PlanAction::kWait && slack >= bins_) return SelectionDecision::wait(next);
    return SelectionDecision::on_demand(od_zone, next, /*wake_on_spot=*/true);
  }

 private:
  // Slack (time left - work left) in bins of a step / K, rounded down: the plan never counts on slack it lacks.
  int slack_bins(const Observation& obs, Millis step_length) const {
    const double slack = static_cast<double>(obs.time_to_deadline() - obs.remaining_work());
    return std::max(0, static_cast<int>(std::floor(slack * bins_ / static_cast<double>(step_length))));
  }

  void plan_once(const Observation& obs, int od_zone, Millis g) {
    if (planned_at_ >= 0) return;
    // Only the ratio of the prices matters to the plan (costs in units of an on-demand step); rounded to 2%, so
    // that runs starting at nearly the same prices share a solve.
    const double spot_price = cheapest_spot_price(obs);
    const double od_price = obs.zones[static_cast<std::size_t>(od_zone)].on_demand_price_per_hour;
    const double ratio =
        od_price > 0.0
            ? std::exp(std::round(std::log(std::max(spot_price / od_price, 1e-6)) / std::log(1.02)) * std::log(1.02))
            : 1.0;
    const Millis d = changeover(obs);
    const Millis slack = std::max<Millis>(obs.time_to_deadline() - obs.remaining_work(), 0);
    SlackPlanInput in;
    in.stay_up.assign(static_cast<std::size_t>(s_.ages), 0.0);
    // The table must fit the budget, its belief grid included: with regimes=belief it is sized for two regimes
    // (undone below if the calibration has only one). A plan whose step spans several decision steps no longer
    // sees every tick, so it is not exact: the safety net then comes first.
    if (s_.regimes == PlannedSettings::Regimes::kBelief && s_.calibration) {
      in.stay_up_2.assign(static_cast<std::size_t>(s_.ages), 0.0);
      in.belief_points = s_.belief_points;
    }
    multiple_ = fit_plan_table(in, obs.time_to_deadline(), slack, g, s_.max_bins, kTableBudgetBytes);
    bins_ = in.bins_per_step;
    exact_ = obs.decision_tick > 0 && obs.lossless && multiple_ == 1;
    const Millis length = g * multiple_;
    in.changeover_bins =
        static_cast<int>(std::ceil(static_cast<double>(d) * bins_ / static_cast<double>(length) - 1e-9));
    if (!exact_) {  // below the net's margin over the plain slack it commits to on-demand
      const double margin = static_cast<double>(obs.time_to_deadline() - obs.remaining_work() - spare_off_spot(obs));
      in.commit_bins = std::max(0, static_cast<int>(std::ceil(margin * bins_ / static_cast<double>(length) - 1e-9)));
    }
    in.spot_cost_per_step = ratio;
    in.on_demand_cost_per_step = 1.0;
    in.on_demand_until_spot = true;
    library_ = &plans_.spell_models(s_, obs.job->nodes, length);
    const std::size_t n = library_->models.size();
    log_posterior_.assign(n, std::log((1.0 - s_.pooled_weight) / std::max(static_cast<double>(n) - 1.0, 1.0)));
    log_posterior_[0] = std::log(n > 1 ? s_.pooled_weight : 1.0);
    belief_mode_ = s_.regimes == PlannedSettings::Regimes::kBelief && n == 2;
    belief_ = s_.start_belief;
    if (belief_mode_) {  // one plan over both regimes
      in.stay_up_2 = library_->models[1].stay_up;
      in.stay_down_2 = library_->models[1].stay_down;
    } else {
      in.stay_up_2.clear();
      in.belief_points = 1;
    }
    // The plans this object has followed serve its next runs too while they start alike (the engine reuses it).
    if (!(base_ == in) || followed_.size() != n) followed_.assign(n, nullptr);
    base_ = std::move(in);
    use_model(0);
    planned_at_ = obs.elapsed;
  }

  void use_model(std::size_t m) {
    if (!followed_[m]) {
      SlackPlanInput in = base_;
      in.stay_up = library_->models[m].stay_up;
      in.stay_down = library_->models[m].stay_down;
      followed_[m] = plans_.get(in);
    }
    plan_ = followed_[m];
    chosen_ = m;
  }

  // What spot did at each plan step since the last one seen (spot up at `step` or not; between decisions the state
  // seen last holds): on_step(up then, age of that spell then, whether it stayed). False when no step passed.
  template <class OnStep>
  bool walk_steps(int step, bool up, OnStep on_step) {
    if (seen_step_ < 0) {
      seen_step_ = step, seen_up_ = up, seen_age_ = 0;
      return false;
    }
    if (step <= seen_step_) return false;
    const int last_age = static_cast<int>(library_->models[0].stay_up.size()) - 1;
    for (; seen_step_ < step; ++seen_step_) {
      const bool next = seen_step_ + 1 == step ? up : seen_up_;
      on_step(seen_up_, std::min(seen_age_, last_age), next == seen_up_);
      seen_age_ = next == seen_up_ ? seen_age_ + 1 : 0;
      seen_up_ = next;
    }
    return true;
  }

  // The belief in the plentiful regime, moved by what spot did each plan step (as the plan moves it).
  void track_belief(int step, bool up) {
    walk_steps(step, up,
               [&](bool was_up, int age, bool stayed) { belief_ = plan_->next_belief(belief_, was_up, age, stayed); });
  }

  // Bayes over the library: each plan step, every model's probability of what spot did (stayed up or down another
  // step, or changed) at the age its spell had; the plan of the most probable model is followed.
  void learn_regime(int step, bool up) {
    const bool moved = walk_steps(step, up, [&](bool was_up, int age, bool stayed) {
      const auto k = static_cast<std::size_t>(4 * age + (was_up ? 0 : 2) + (stayed ? 0 : 1));
      for (std::size_t m = 0; m < log_posterior_.size(); ++m) log_posterior_[m] += library_->log_p[m][k];
    });
    if (!moved) return;
    const auto best = static_cast<std::size_t>(std::max_element(log_posterior_.begin(), log_posterior_.end()) -
                                               log_posterior_.begin());
    if (best != chosen_) use_model(best);
  }

  PlannedSettings s_;
  PlanCache& plans_ = PlanCache::process_wide();
  std::shared_ptr<const SlackPlan> plan_;
  bool committed_ = false;
  bool spell_up_ = false;
  Millis spell_since_ = -1;
  Millis planned_at_ = -1;  // elapsed time the plan's step 0 starts at; -1: none this run
  Millis multiple_ = 1;     // plan step = multiple_ x the decision step
  bool exact_ = false;      // the plan alone keeps the deadline (the Can't Be Late mode, one plan step per tick)
  int bins_ = 1;
  const SpellLibrary* library_ = nullptr;  // owned by the cache
  std::vector<double> log_posterior_;
  std::size_t chosen_ = 0;
  SlackPlanInput base_;                                     // the plan's input but for the model
  std::vector<std::shared_ptr<const SlackPlan>> followed_;  // [model]: its plan for base_, once followed
  int seen_step_ = -1;                                      // the plan step spot was last seen at, -1: none yet
  bool seen_up_ = false;
  int seen_age_ = 0;
  bool belief_mode_ = false;
  double belief_ = 0.0;  // P(the plentiful regime), with belief_mode_
};

}  // namespace

PlanCacheStatistics plan_cache_statistics() { return PlanCache::process_wide().statistics(); }

void clear_plan_cache() { PlanCache::process_wide().drop_kept_plans(); }

std::function<std::unique_ptr<SelectionPolicy>(const PolicyParams&)> planned_policy_maker() {
  return [](const PolicyParams& p) {
    PlannedSettings s;
    s.step = p.positive_duration("step", s.step);
    s.prior_up = p.positive_duration("prior_up", s.prior_up);
    s.prior_down = p.positive_duration("prior_down", s.prior_down);
    s.ages = p.integer("ages", s.ages, 1, 1000);
    s.max_bins = p.integer("max_bins", s.max_bins, 1, 1000);
    s.max_wait = p.duration("max_wait", s.max_wait);
    const std::string regimes = text_parameter(p, "regimes");
    if (regimes.empty() || regimes == "belief") {
      s.regimes = PlannedSettings::Regimes::kBelief;
    } else if (regimes == "zones") {
      s.regimes = PlannedSettings::Regimes::kZones;
    } else if (regimes == "pooled") {
      s.regimes = PlannedSettings::Regimes::kPooled;
    } else {
      throw InputError("--policy '" + p.spec() + "': parameter 'regimes' must be 'belief', 'zones' or 'pooled', not '" +
                       regimes + "'");
    }
    s.belief_points = p.integer("beliefs", s.belief_points, 2, 101);
    s.pooled_weight = p.number("pooled_weight", s.pooled_weight, 0.0, 1.0);
    s.start_belief = p.number("start_belief", s.start_belief, 0.0, 1.0);
    std::string trace = text_parameter(p, "calibration");
    if (trace.empty()) trace = "aws-v100-9-zones";
    if (trace != "none") {
      const std::string where = "--policy '" + p.spec() + "': parameter 'calibration'";
      s.calibration = CalibrationCache::process_wide().get(locate_trace(trace, where), where);
    }
    return std::make_unique<PlannedPolicy>(s);
  };
}

void register_planned(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "planned",
      "spends the slack as the cost-minimising plan says: backward induction over decision steps (wait, spot, "
      "on-demand, which is left only for spot; a changeover costs d of slack) on a semi-Markov model of how long spot "
      "stays up and away, taken from another recording (no look-ahead); in the Can't Be Late mode the plan keeps the "
      "deadline itself, elsewhere behind the shared safety net",
      "calibration=aws-v100-9-zones (recording whose spells, pooled over its zones, make the model; 'none': "
      "memoryless spells of prior_up=2h and gaps of prior_down=1h), ages=12 (spell ages the model tells apart, in "
      "steps), step=10m (decision step where the engine has no tick), max_bins=10 (slack bins per step), "
      "max_wait=30m (without a deadline: wait this long for spot, then on-demand until it returns), "
      "regimes=belief (the calibration's zones in two regimes, scarce and plentiful spot, and the run's belief "
      "in each part of the plan's state; 'zones': follow the model, pooled or one zone's, that makes what the run "
      "has seen most probable; 'pooled': the pooled model only), beliefs=3 (belief grid points), pooled_weight=0.5 "
      "(with regimes=zones: prior probability of the pooled model; the zones share the rest), start_belief=0.5 (with "
      "regimes=belief: the run's belief in the plentiful regime at its start)",
      planned_policy_maker()});
}

}  // namespace spotsim

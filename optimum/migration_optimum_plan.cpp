#include "optimum/migration_optimum_plan.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

#include "base/errors.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/optimum_kernels.hpp"

namespace spotsim {
namespace {

using namespace optimum_kernels;  // Span, the array kernels, kInfinity

// The state space is bounded (kMaxTicks in optimum_kernels.hpp; cells here) so that a fine grid fails clearly.
constexpr std::int64_t kMaxCells = std::int64_t{1} << 27;  // doubles kept (1 GiB)

[[noreturn]] void reject_migration(const std::string& what) { throw InputError("migration optimum: " + what); }

int region_count(const MigrationOptimumRequest& r) {
  return r.zone_region.empty() ? 1 : *std::max_element(r.zone_region.begin(), r.zone_region.end()) + 1;
}
int region_of_zone(const MigrationOptimumRequest& r, std::size_t z) {
  return r.zone_region.empty() ? 0 : r.zone_region[z];
}
Millis transfer_ms(const MigrationOptimumRequest& r, int regions, int a, int b) {
  const std::size_t at = static_cast<std::size_t>(a) * static_cast<std::size_t>(regions) + static_cast<std::size_t>(b);
  return r.transfer.empty() ? Millis{0} : r.transfer[at];
}

// The grid: exact when every transfer is a multiple of q.
Millis choose_grid(const MigrationOptimumRequest& request, int regions) {
  const Millis base = progress_grid(request.tick, request.changeover, request.work, request.deadline);
  if (request.grid != 0) {
    if (base % request.grid != 0) {
      reject_migration("grid " + std::to_string(request.grid) +
                       " ms must divide gcd(tick, changeover, work, deadline) = " + std::to_string(base) + " ms");
    }
    return request.grid;
  }
  Millis exact_q = base;
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) exact_q = std::gcd(exact_q, transfer_ms(request, regions, a, b));
  }
  // The DP's work grows with ticks x progress steps x (kinds + regions), and so does its budget: the exact grid if
  // ticks x steps stays within kGridBudgetPerRow (and steps within kGridMaxSteps), else the finest divisor of base
  // that does (base itself if none). The grid does not depend on the number of zones, so more zones never buy a
  // coarser grid: time grows with zones, and a bound never loosens as zones are added.
  const std::int64_t ticks = ceil_div(request.deadline, request.tick);
  auto affordable = [&](Millis step) {
    return request.work / step <= std::min(kGridBudgetPerRow / ticks, kGridMaxSteps);
  };
  if (affordable(exact_q)) return exact_q;
  for (Millis divisor = 1; divisor <= base; ++divisor) {
    if (base % divisor == 0 && affordable(divisor)) return divisor;
  }
  return base;
}

bool transfers_on_grid(const MigrationOptimumRequest& request, int regions, Millis q) {
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) {
      if (a != b && transfer_ms(request, regions, a, b) % q != 0) return false;
    }
  }
  return true;
}

}  // namespace

MigrationOptimumGrid migration_optimum_grid(const MigrationOptimumRequest& request) {
  validate_migration(request);
  const int regions = region_count(request);
  const Millis q = choose_grid(request, regions);
  return {q, transfers_on_grid(request, regions, q)};
}

void validate_migration(const MigrationOptimumRequest& r) {
  validate_optimum_basics("migration optimum", r.market, r.start, r.tick, r.work, r.changeover, r.deadline, r.nodes);
  if (r.grid < 0) reject_migration("grid must be >= 0");
  const std::size_t zones = r.market->zones.size();
  if (r.zone_region.empty()) {
    if (!r.transfer.empty() || !r.egress_usd.empty()) reject_migration("transfer and egress need zone_region");
    return;
  }
  if (r.zone_region.size() != zones) reject_migration("zone_region must have one entry per zone");
  const int regions = region_count(r);
  for (int region : r.zone_region) {
    if (region < 0) reject_migration("zone_region entries must be >= 0");
  }
  const std::size_t pairs = static_cast<std::size_t>(regions) * static_cast<std::size_t>(regions);
  if (r.transfer.size() != pairs || r.egress_usd.size() != pairs) {
    reject_migration("transfer and egress_usd must have regions x regions entries");
  }
  for (std::size_t i = 0; i < pairs; ++i) {
    if (r.transfer[i] < 0 || r.transfer[i] >= kNever) reject_migration("transfer times must be >= 0 and finite");
    if (!(r.egress_usd[i] >= 0.0) || !std::isfinite(r.egress_usd[i]))
      reject_migration("egress must be >= 0 and finite");
  }
}

MigrationOptimumSolver::Plan::Plan(const MigrationOptimumRequest& request, MigrationOptimum& result) {
  per_tick = request.per_tick_billing;
  schedule = request.want_schedule;
  regions = region_count(request);
  set_grid(request, choose_grid(request, regions));
  result.grid = q;
  add_kinds(request);
  result.exact = add_transfers(request);
  add_classes();
}

void MigrationOptimumSolver::Plan::set_grid(const MigrationOptimumRequest& request, Millis step) {
  q = step;
  g = request.tick / q;
  d = request.changeover / q;
  w = request.work / q;
  t = request.deadline / q;
  const std::int64_t tick_count = ceil_div(t, g);
  if (tick_count > kMaxTicks) reject_migration("deadline / tick is too large");
  ticks = static_cast<int>(tick_count);
}

// Kinds: on-demand per region in its cheapest zone, then spot per zone.
void MigrationOptimumSolver::Plan::add_kinds(const MigrationOptimumRequest& request) {
  const std::vector<Zone>& zones = request.market->zones;
  region_kinds.assign(static_cast<std::size_t>(regions), {});
  for (int b = 0; b < regions; ++b) {
    int cheapest = -1;
    for (std::size_t z = 0; z < zones.size(); ++z) {
      if (region_of_zone(request, z) != b) continue;
      if (cheapest < 0 ||
          zones[z].on_demand_price_per_hour < zones[static_cast<std::size_t>(cheapest)].on_demand_price_per_hour) {
        cheapest = static_cast<int>(z);
      }
    }
    if (cheapest < 0) reject_migration("region " + std::to_string(b) + " has no zone");
    region_kinds[static_cast<std::size_t>(b)].push_back(static_cast<int>(kind_region.size()));
    kind_region.push_back(b);
    kind_zone.push_back(cheapest);
    kind_spot.push_back(false);
  }
  for (std::size_t z = 0; z < zones.size(); ++z) {
    region_kinds[static_cast<std::size_t>(region_of_zone(request, z))].push_back(static_cast<int>(kind_region.size()));
    kind_region.push_back(region_of_zone(request, z));
    kind_zone.push_back(static_cast<int>(z));
    kind_spot.push_back(true);
  }
  kinds = static_cast<int>(kind_region.size());
}

// Transfers in steps (rounded down) and egress per pair of regions; false if any transfer was rounded.
bool MigrationOptimumSolver::Plan::add_transfers(const MigrationOptimumRequest& request) {
  const std::size_t NR = static_cast<std::size_t>(regions);
  tau.assign(NR * NR, 0);
  egress.assign(NR * NR, 0.0);
  bool exact = true;
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) {
      const Millis ms = a == b ? 0 : transfer_ms(request, regions, a, b);
      if (ms % q != 0) exact = false;
      tau[pair(a, b)] = ms / q;
      egress[pair(a, b)] = a == b || request.egress_usd.empty() ? 0.0 : request.egress_usd[pair(a, b)];
    }
  }
  return exact;
}

// The changeover classes into each region, their shared rows, and the layers kept.
void MigrationOptimumSolver::Plan::add_classes() {
  rows = regions + 2 * kinds;
  classes.assign(static_cast<std::size_t>(regions), {});
  std::int64_t longest = d;
  for (int b = 0; b < regions; ++b) {
    std::vector<Class>& list = classes[static_cast<std::size_t>(b)];
    list.push_back(Class{d, {}, -1});
    for (int a = 0; a < regions; ++a) {
      if (a == b) continue;
      const std::int64_t c = d + tau[pair(a, b)];
      auto same = std::find_if(list.begin(), list.end(), [&](const Class& cl) { return cl.changeover == c; });
      if (same == list.end()) {
        list.push_back(Class{c, {a}, rows++});
      } else {
        same->from.push_back(a);
      }
      longest = std::max(longest, c);
    }
  }
  layers = schedule ? ticks + 1 : static_cast<int>(last_tick(longest)) + 2;
  if (static_cast<std::int64_t>(layers) * rows > kMaxCells / w) {
    throw MigrationStateSpaceTooLarge("migration optimum: the state space is too large (" + std::to_string(w) +
                                      " progress steps of " + std::to_string(q) + " ms" +
                                      (schedule ? ", with the schedule" : "") + "); use a coarser grid");
  }
}

}  // namespace spotsim

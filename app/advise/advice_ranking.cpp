#include "app/advise/advice_ranking.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string fraction_text(double f) { return format_fixed(f, 3); }

// Lower is better in every component; higher-is-better metrics enter negated.
auto sort_key(const AdviceMetrics& m) {
  return std::make_tuple(m.mean_cost, m.mean_hours, m.p95_cost, m.p95_hours, -m.deadline_probability,
                         -m.completed_fraction, m.mean_preemptions);
}

}  // namespace

bool dominates(const AdviceMetrics& a, const AdviceMetrics& b) {
  const auto ka = sort_key(a);
  const auto kb = sort_key(b);
  const bool no_worse = std::get<0>(ka) <= std::get<0>(kb) && std::get<1>(ka) <= std::get<1>(kb) &&
                        std::get<2>(ka) <= std::get<2>(kb) && std::get<3>(ka) <= std::get<3>(kb) &&
                        std::get<4>(ka) <= std::get<4>(kb) && std::get<5>(ka) <= std::get<5>(kb) &&
                        std::get<6>(ka) <= std::get<6>(kb);
  return no_worse && ka != kb;
}

std::string exclusion_reason(const AdviceMetrics& m, const RankingCriteria& criteria) {
  if (m.completed_fraction < 1.0) return "not every run completed (" + fraction_text(m.completed_fraction) + ")";
  if (criteria.min_deadline_probability && m.deadline_probability < *criteria.min_deadline_probability) {
    return "P(deadline) " + fraction_text(m.deadline_probability) + " < " +
           fraction_text(*criteria.min_deadline_probability);
  }
  if (criteria.budget && m.p95_cost > *criteria.budget) return "p95 cost over --budget";
  if (criteria.max_hours && m.p95_hours > *criteria.max_hours) return "p95 time over --max-hours";
  return "";
}

Ranking rank_rows(const std::vector<AdviceMetrics>& rows, const RankingCriteria& criteria) {
  Ranking ranking;
  ranking.entries.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    ranking.entries[i].excluded_because = exclusion_reason(rows[i], criteria);
  const auto eligible = [&](std::size_t i) { return ranking.entries[i].excluded_because.empty(); };

  ranking.order.resize(rows.size());
  std::iota(ranking.order.begin(), ranking.order.end(), std::size_t{0});
  // Stable, with the input index as the last key: equal rows keep the catalogue's order.
  std::stable_sort(ranking.order.begin(), ranking.order.end(), [&](std::size_t a, std::size_t b) {
    if (eligible(a) != eligible(b)) return eligible(a);
    return sort_key(rows[a]) < sort_key(rows[b]);
  });
  int rank = 0;
  for (std::size_t i : ranking.order) {
    if (eligible(i)) ranking.entries[i].rank = ++rank;
  }
  // Pareto front on (mean cost, mean completion) among ranked rows: no other ranked row is at least as good on
  // both and better on one.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!eligible(i)) continue;
    bool beaten = false;
    for (std::size_t j = 0; j < rows.size() && !beaten; ++j) {
      if (j == i || !eligible(j)) continue;
      const AdviceMetrics& a = rows[j];
      const AdviceMetrics& b = rows[i];
      beaten = a.mean_cost <= b.mean_cost && a.mean_hours <= b.mean_hours &&
               (a.mean_cost < b.mean_cost || a.mean_hours < b.mean_hours);
    }
    ranking.entries[i].pareto = !beaten;
  }
  return ranking;
}

}  // namespace spotsim

#include "policies/spell_model.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

void spell_lengths(const std::vector<bool>& up, std::vector<int>& ups, std::vector<int>& downs) {
  const std::size_t n = up.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i;
    while (j < n && up[j] == up[i]) ++j;
    if (i > 0 && j < n) (up[i] ? ups : downs).push_back(static_cast<int>(j - i));
    i = j;
  }
}

std::vector<double> stay_probabilities(const std::vector<int>& lengths, int ages, double prior_mean) {
  const double m0 = std::max(prior_mean, 1.0);
  std::vector<double> stay(static_cast<std::size_t>(std::max(ages, 1)));
  for (int a = 0; a < static_cast<int>(stay.size()); ++a) {
    double at_risk = 0.0, lasted = 0.0, residual = 0.0;
    for (const int l : lengths) {
      if (l > a) at_risk += 1.0, residual += l - a;
      if (l > a + 1) lasted += 1.0;
    }
    double p = 0.0;
    if (a + 1 < static_cast<int>(stay.size())) {
      p = (lasted + 1.0 - 1.0 / m0) / (at_risk + 1.0);
    } else {  // every older spell: geometric with the mean residual of those that reached this age
      p = 1.0 - 1.0 / std::max((residual + m0) / (at_risk + 1.0), 1.0);
    }
    stay[static_cast<std::size_t>(a)] = std::clamp(p, 0.0, 0.9999);
  }
  return stay;
}

namespace {

// Each zone's spells at steps of g from the recording's start (zones with no span left out), and the share of the
// steps spot was up.
struct ZoneSpells {
  double availability = 0.0;
  std::vector<int> ups, downs;
};

std::vector<ZoneSpells> zone_spells(const SpotMarket& market, int nodes, Millis g) {
  std::vector<ZoneSpells> zones;
  std::vector<bool> sampled;
  for (const Zone& zone : market.zones) {
    const auto& available = zone.spot.available;
    const Millis span = available && available->span() != kNever ? available->span() : market.span;
    if (span == kNever || span <= 0) continue;
    sampled.clear();
    for (Millis t = 0; t < span; t += g) sampled.push_back(!available || available->at(t) >= nodes);
    ZoneSpells z;
    z.availability =
        static_cast<double>(std::count(sampled.begin(), sampled.end(), true)) / static_cast<double>(sampled.size());
    spell_lengths(sampled, z.ups, z.downs);
    zones.push_back(std::move(z));
  }
  return zones;
}

}  // namespace

std::vector<SpellModel> recorded_zone_spell_models(const SpotMarket& market, int nodes, Millis g, int ages,
                                                   Millis prior_mean) {
  std::vector<SpellModel> models;
  std::vector<int> all_ups, all_downs;
  const double m0 = static_cast<double>(prior_mean) / static_cast<double>(g);
  for (const ZoneSpells& z : zone_spells(market, nodes, g)) {
    all_ups.insert(all_ups.end(), z.ups.begin(), z.ups.end());
    all_downs.insert(all_downs.end(), z.downs.begin(), z.downs.end());
    models.push_back({stay_probabilities(z.ups, ages, m0), stay_probabilities(z.downs, ages, m0)});
  }
  models.insert(models.begin(), {stay_probabilities(all_ups, ages, m0), stay_probabilities(all_downs, ages, m0)});
  return models;
}

std::vector<SpellModel> recorded_regime_models(const SpotMarket& market, int nodes, Millis g, int ages,
                                               Millis prior_mean) {
  const std::vector<ZoneSpells> zones = zone_spells(market, nodes, g);
  double mean = 0.0;
  for (const ZoneSpells& z : zones) mean += z.availability / static_cast<double>(zones.size());
  const double m0 = static_cast<double>(prior_mean) / static_cast<double>(g);
  std::vector<SpellModel> regimes;
  for (const bool plentiful : {false, true}) {
    std::vector<int> ups, downs;
    for (const ZoneSpells& z : zones) {
      if ((z.availability >= mean) != plentiful) continue;
      ups.insert(ups.end(), z.ups.begin(), z.ups.end());
      downs.insert(downs.end(), z.downs.begin(), z.downs.end());
    }
    if (!ups.empty() || !downs.empty()) {
      regimes.push_back({stay_probabilities(ups, ages, m0), stay_probabilities(downs, ages, m0)});
    }
  }
  return regimes;
}

SpellModel recorded_spell_model(const SpotMarket& market, int nodes, Millis g, int ages, Millis prior_mean) {
  return recorded_zone_spell_models(market, nodes, g, ages, prior_mean).front();
}

SpellModel geometric_spell_model(Millis up, Millis down, Millis g, int ages) {
  const auto n = static_cast<std::size_t>(std::max(ages, 1));
  const double stay_up = std::exp(-static_cast<double>(g) / static_cast<double>(std::max<Millis>(up, 1)));
  const double stay_down = std::exp(-static_cast<double>(g) / static_cast<double>(std::max<Millis>(down, 1)));
  return {std::vector<double>(n, std::min(stay_up, 0.9999)), std::vector<double>(n, std::min(stay_down, 0.9999))};
}

}  // namespace spotsim

#pragma once
// Synthetic recorded traces from a lifetime model and a seed (`spotsim trace generate`): the same form as an
// imported recording, so policies can be tested on many sample paths of a model, or on a model fitted to data.
//
// Each of `instances` spot instances alternates up and down: an up period is a lifetime drawn from the model
// (by inversion, Boost.Random mt19937_64 keyed by seed and instance), a down period an exponential outage with
// mean `outage_mean` (the time until capacity returns). The trace's availability is the number of instances up.
// With outage_mean = 0 and one instance, capacity returns at once, so the trace records the preemption times
// instead (a renewal process with the model's lifetimes).
#include <cstdint>

#include "model/market/lifetime_distribution.hpp"
#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

struct GeneratorSettings {
  LifetimeDistribution lifetime;
  Millis span = 14 * kMillisPerDay;
  int instances = 1;
  Millis outage_mean = 30 * kMillisPerMinute;
  std::uint64_t seed = 1;
};

ImportedTrace generate_synthetic_trace(const GeneratorSettings& settings, const ImportOptions& options);

}  // namespace spotsim

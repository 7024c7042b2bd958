// `spotsim trace fit` speed: all three methods (lsq-ecdf, lsq-km, mle) fitted together, as the command does by
// default, at 10^4 and 10^5 lifetimes. Each fit is a bounded number of optimizer steps, each linear in the records
// (or in their distinct durations), after an O(n log n) sort: the time per lifetime (items_per_second) should stay
// about the same from 10^4 to 10^5, and the reported complexity should be N.
//
// The records mimic the GCP preemptible dataset: a bathtub lifetime (the shipped us-west1 fit), every third VM
// stopped by its user at a uniform time in [0, 30 h] (right-censored when that comes first), durations recorded
// to the second (so some repeat, as in real logs).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

#include "model/random_streams.hpp"
#include "traces/fit/lifetime_model_fits.hpp"

namespace spotsim {
namespace {

std::vector<LifetimeRecord> gcp_like_records(std::size_t n) {
  BathtubParameters p;
  p.A = 0.42;
  p.tau1_hours = 0.975;
  p.tau2_hours = 0.372;
  p.b_hours = 24.33;
  p.cap_hours = 25.0;
  const LifetimeDistribution model{BathtubLifetime(p)};
  RandomStream stream(7, 0, StreamPurpose::kGenerator, 0);
  std::vector<LifetimeRecord> records;
  records.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    double hours = model.sample(stream.uniform_open01());
    bool preempted = true;
    if (i % 3 == 0) {
      const double stop = 30.0 * stream.uniform01();
      if (stop < hours) hours = stop, preempted = false;
    }
    records.push_back({std::round(hours * 3600.0) / 3600.0, preempted});
  }
  return records;
}

void BM_TraceFitAllMethods(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto records = gcp_like_records(n);
  const std::vector<FitMethod> methods = {FitMethod::kLeastSquaresEcdf, FitMethod::kLeastSquaresKaplanMeier,
                                          FitMethod::kMaximumLikelihood};
  for (auto _ : state) benchmark::DoNotOptimize(fit_lifetime_models(records, methods));
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_TraceFitAllMethods)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);

}  // namespace
}  // namespace spotsim

#pragma once
// Two runs are the same run: the same events (count and fingerprint) and every reported metric equal, bit for bit
// (NaN where both are undefined). For tests that re-run a replication (timelines, observers) and compare.
#include <gtest/gtest.h>

#include <cmath>

#include "app/run_metrics.hpp"
#include "model/run_result.hpp"

namespace spotsim::test {

inline void expect_same_run(const RunResult& a, const RunResult& b) {
  EXPECT_EQ(a.replication, b.replication);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  for (const MetricDefinition& m : run_metrics()) {
    const double x = m.value(a), y = m.value(b);
    if (std::isnan(x) && std::isnan(y)) continue;
    EXPECT_EQ(x, y) << m.name << " of replication " << a.replication;
  }
}

}  // namespace spotsim::test

// The progress line's text and its pace (at most one line per second, plus the last); whether it is shown at all
// depends on stderr being a terminal, decided by the command (isatty), not here.
#include "base/progress_line.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

TEST(SweepProgress, FormatsDoneTotalRateAndEta) {
  EXPECT_EQ(format_progress(1234, 5000, 3456.4, 65.0), "1,234/5,000 runs (24.7%), 3,456 runs/s, ETA 1m05s");
  EXPECT_EQ(format_progress(0, 1000000, 0.0, -1.0), "0/1,000,000 runs (0.0%), 0 runs/s, ETA ?");
  EXPECT_EQ(format_eta(45.2), "45s");
  EXPECT_EQ(format_eta(7620), "2h07m");
  EXPECT_EQ(group_thousands(999), "999");
  EXPECT_EQ(group_thousands(1000), "1,000");
}

TEST(SweepProgress, AtMostOneLinePerSecondAndAlwaysTheLast) {
  ProgressMeter meter;
  ASSERT_TRUE(meter.update(200, 1000, 10.0));  // the first call shows where we start (resumed runs count as done)
  EXPECT_FALSE(meter.update(300, 1000, 10.5));
  EXPECT_FALSE(meter.update(400, 1000, 10.99));
  const auto line = meter.update(500, 1000, 11.0);
  ASSERT_TRUE(line);
  // The rate counts runs done since the start of this invocation: 300 in 1 s; 500 left take 1.7 s.
  EXPECT_EQ(*line, "500/1,000 runs (50.0%), 300 runs/s, ETA 2s");
  EXPECT_FALSE(meter.update(600, 1000, 11.5));
  const auto last = meter.update(1000, 1000, 11.6);  // the final line is never throttled
  ASSERT_TRUE(last);
  EXPECT_NE(last->find("1,000/1,000 runs (100.0%)"), std::string::npos);
  EXPECT_FALSE(meter.update(1000, 1000, 13.0));  // and comes once
}

}  // namespace
}  // namespace spotsim

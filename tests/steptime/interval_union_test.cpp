// Busy time as the union of intervals, against hand-computed cases.
#include "steptime/interval_union.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

double union_of(std::vector<Interval> intervals) { return union_length(intervals); }

TEST(IntervalUnion, EmptyIsZero) { EXPECT_DOUBLE_EQ(union_of({}), 0.0); }

TEST(IntervalUnion, DisjointIntervalsAdd) { EXPECT_DOUBLE_EQ(union_of({{0, 10}, {20, 25}}), 15.0); }

TEST(IntervalUnion, OverlappingStreamsCountOnce) {
  // Two streams: [0,10) and [5,15) overlap for 5 units -> 15, not 20.
  EXPECT_DOUBLE_EQ(union_of({{0, 10}, {5, 15}}), 15.0);
}

TEST(IntervalUnion, NestedIntervalAddsNothing) { EXPECT_DOUBLE_EQ(union_of({{0, 100}, {10, 20}, {30, 40}}), 100.0); }

TEST(IntervalUnion, UnsortedInputAndTouchingEnds) {
  // [30,40) + [0,10) + [10,20) (touches) + [15,35) -> [0,40) = 40.
  EXPECT_DOUBLE_EQ(union_of({{30, 40}, {0, 10}, {10, 20}, {15, 35}}), 40.0);
}

TEST(IntervalUnion, ZeroLengthIntervalsIgnored) { EXPECT_DOUBLE_EQ(union_of({{5, 5}, {7, 6}, {1, 2}}), 1.0); }

TEST(IntervalUnion, ChainOfOverlapsAfterAGap) {
  // [0,2) then gap, then [3,6) [5,9) [8,12) chained -> 2 + 9 = 11.
  EXPECT_DOUBLE_EQ(union_of({{8, 12}, {0, 2}, {5, 9}, {3, 6}}), 11.0);
}

}  // namespace
}  // namespace spotsim

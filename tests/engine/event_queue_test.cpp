#include "engine/event_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/random_streams.hpp"

namespace spotsim {
namespace {

TEST(EventQueue, PopsInTimeOrderAndBreaksTiesByInsertion) {
  EventQueue<int> q;
  q.push(50, 1);
  q.push(10, 2);
  q.push(50, 3);
  q.push(10, 4);
  q.push(30, 5);
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  EXPECT_EQ(order, (std::vector<int>{2, 4, 5, 1, 3}));
}

TEST(EventQueue, MatchesASortOnRandomKeys) {
  EventQueue<int> q;
  RandomStream rng(3, 0, StreamPurpose::kPolicy, 0);
  std::vector<std::pair<Millis, int>> expected;
  for (int i = 0; i < 5000; ++i) {
    const Millis t = static_cast<Millis>(rng.next_u64() % 100);  // many ties
    q.push(t, i);
    expected.emplace_back(t, i);
  }
  std::stable_sort(expected.begin(), expected.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (const auto& [t, id] : expected) {
    const auto e = q.pop();
    ASSERT_EQ(e.time, t);
    ASSERT_EQ(e.payload, id);
  }
  EXPECT_TRUE(q.empty());
}

TEST(EventQueue, ClearResetsSequenceNumbers) {
  EventQueue<int> q;
  q.push(1, 1);
  q.clear();
  q.push(7, 2);
  EXPECT_EQ(q.top().sequence, 0u);
}

}  // namespace
}  // namespace spotsim

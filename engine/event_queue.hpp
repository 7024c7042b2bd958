#pragma once
// The pending-event set: a binary min-heap of small POD events ordered by (time, insertion sequence), so that
// simultaneous events fire in the order they were scheduled (deterministic tie-breaking, as in ns-3 and OMNeT++).
// Storage is reserved once and reused across replications: no allocation per event.
#include <cassert>
#include <cstdint>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

template <typename Payload>
class EventQueue {
 public:
  struct Entry {
    Millis time;
    std::uint64_t sequence;
    Payload payload;
  };

  explicit EventQueue(std::size_t capacity = 64) { heap_.reserve(capacity); }

  void clear() {
    heap_.clear();
    next_sequence_ = 0;
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Entry& top() const {
    assert(!heap_.empty());
    return heap_.front();
  }

  void push(Millis time, const Payload& payload) {
    heap_.push_back(Entry{time, next_sequence_++, payload});
    sift_up(heap_.size() - 1);
  }
  // A sequence number for an event kept outside the heap (see JobSimulation's timeline slot), so that it still
  // orders against queued events exactly as if it had been pushed.
  std::uint64_t take_sequence() { return next_sequence_++; }
  static bool earlier(const Entry& a, const Entry& b) {
    return a.time < b.time || (a.time == b.time && a.sequence < b.sequence);
  }

  Entry pop() {
    assert(!heap_.empty());
    Entry result = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    return result;
  }

 private:
  void sift_up(std::size_t i) {
    Entry moving = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / 2;
      if (!earlier(moving, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = moving;
  }

  void sift_down(std::size_t i) {
    const std::size_t n = heap_.size();
    Entry moving = heap_[i];
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && earlier(heap_[child + 1], heap_[child])) ++child;
      if (!earlier(heap_[child], moving)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = moving;
  }

  std::vector<Entry> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace spotsim

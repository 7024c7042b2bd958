#pragma once
// A fixed pool of worker threads for the replication runners: each runs `work()` (which takes its share of the
// replications from a shared counter), inline when there is one thread. The first exception a worker throws is kept,
// `stop_others()` is called so the other workers run out of work early, and it is rethrown once all have joined.
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace spotsim {

template <typename Work, typename StopOthers>
void run_workers(std::size_t threads, Work work, StopOthers stop_others) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto guarded = [&]() {
    try {
      work();
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      stop_others();
    }
  };
  if (threads <= 1) {
    guarded();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(guarded);
    for (auto& th : pool) th.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace spotsim

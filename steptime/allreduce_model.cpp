#include "steptime/allreduce_model.hpp"

#include <cassert>
#include <cmath>

#include "base/errors.hpp"

namespace spotsim {

double ring_allreduce_seconds(double bytes, int ranks, double bus_gbps, double hop_latency_us) {
  assert(ranks >= 1 && bytes >= 0.0);
  if (ranks == 1) return 0.0;
  assert(bus_gbps > 0.0);
  const double p = ranks;
  return 2.0 * (p - 1.0) / p * bytes / (bus_gbps * 1e9) + 2.0 * (p - 1.0) * hop_latency_us * 1e-6;
}

AllReduceTime allreduce_time(double bytes, int instances, const InstanceLinks& links, AllReduceAlgorithm algorithm,
                             double collectives) {
  assert(instances >= 1 && links.gpus_per_instance >= 1 && collectives >= 1.0);
  AllReduceTime t;
  // Reduce-scatter then all-gather inside each instance: together one ring's cost over g GPUs; the bytes once,
  // the latency per collective.
  const int g = links.gpus_per_instance;
  t.intra_s = ring_allreduce_seconds(bytes, g, links.intra_gbps, 0.0) +
              collectives * ring_allreduce_seconds(0.0, g, links.intra_gbps, links.intra_latency_us);
  if (instances == 1) return t;
  // g rings of m ranks on S/g bytes each share the network of B_net: each ring gets B_net/g, so the g factors
  // cancel and the term is the ring over m instances on all S bytes at B_net.
  if (algorithm == AllReduceAlgorithm::Ring) {
    t.inter_s = ring_allreduce_seconds(bytes, instances, links.inter_gbps, 0.0) +
                collectives * ring_allreduce_seconds(0.0, instances, links.inter_gbps, links.latency_us);
  } else {
    assert(links.inter_gbps > 0.0);
    t.inter_s = 2.0 * bytes / (links.inter_gbps * 1e9) +
                collectives * 2.0 * std::ceil(std::log2(instances)) * links.latency_us * 1e-6;
  }
  return t;
}

double ddp_bucket_count(double bytes) {
  constexpr double kMiB = 1024.0 * 1024.0;
  constexpr double kFirstBucket = 1.0 * kMiB;
  constexpr double kBucket = 25.0 * kMiB;
  if (bytes <= kFirstBucket) return 1.0;
  return 1.0 + std::ceil((bytes - kFirstBucket) / kBucket);
}

AllReduceAlgorithm allreduce_algorithm(const std::string& name) {
  if (name == "ring") return AllReduceAlgorithm::Ring;
  if (name == "tree") return AllReduceAlgorithm::Tree;
  throw InputError("--allreduce: expected ring or tree, got '" + name + "'");
}

}  // namespace spotsim

#pragma once
// Time of one all-reduce of the gradients (docs/step-time.md#data-parallel), the alpha-beta cost model of
// Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in MPICH", IJHPCA 19(1),
// 2005, §4 (reduce-scatter + all-gather): a ring of p ranks moves 2(p-1)/p x S bytes per rank in 2(p-1) steps,
//
//   T_ring(p, S) = 2(p-1)/p x S / B + 2(p-1) x alpha,
//
// which is bandwidth-optimal (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations", JPDC 69(2), 2009). B is the bus bandwidth in the sense of nccl-tests (doc/PERFORMANCE.md:
// busBw = algBw x 2(n-1)/n for all-reduce): the per-rank, per-direction link rate.
//
// Across instances (m instances of g GPUs) the all-reduce is hierarchical (Jia et al., "Highly Scalable Deep
// Learning Training System with Mixed-Precision", arXiv:1807.11205, 2018, §3.3; Horovod's hierarchical
// all-reduce): reduce-scatter inside each instance over NVLink/PCIe, g concurrent rings of m ranks between
// instances each on S/g bytes and sharing the instance's network (B_net / g each), then all-gather inside:
//
//   T(m, g, S) = 2(g-1)/g x S / B_intra + 2(m-1)/m x S / B_net + 2(g-1) x alpha_intra + 2(m-1) x alpha_net.
//
// With m = 1 it is the ring inside one instance, with g = 1 the ring over the network. The tree option replaces
// the ring between instances by NCCL's double binary tree (Sanders, Speck & Träff, "Two-tree algorithms for full
// bandwidth broadcast, reduction and scan", Parallel Computing 35(12), 2009): 2 x S / B_net and
// 2 x ceil(log2 m) x alpha_net; inside an instance NCCL's trees are chains, kept as the ring here.
//
// The gradients of a step are not one collective: DDP sends them in buckets (one all-reduce each) and a compiled
// or unbucketed model may send one per parameter (the shared transformer trace: 404 per step). The bandwidth terms
// cover all the bytes once; the latency terms are paid by every collective, so they are multiplied by the number
// of collectives per step (NCCL's own model charges its base and per-hop latency per call: src/graph/tuning.cc).
#include <string>

#include "steptime/instance_links.hpp"

namespace spotsim {

enum class AllReduceAlgorithm { Ring, Tree };

struct AllReduceTime {
  double intra_s = 0.0;  // reduce-scatter + all-gather inside the instances (bandwidth and latency)
  double inter_s = 0.0;  // the all-reduce between instances
  double total_s() const { return intra_s + inter_s; }
};

// One ring of `ranks` ranks on `bytes` at `bus_gbps` GB/s per rank with `hop_latency_us` per step: 0 for one rank.
double ring_allreduce_seconds(double bytes, int ranks, double bus_gbps, double hop_latency_us);

// The all-reduce of `bytes` (per GPU, the whole gradient) when `instances` instances of `links` train together,
// sent as `collectives` all-reduces (each pays the latency terms). Programmer errors (assert): instances < 1,
// bytes < 0, collectives < 1, a multi-GPU instance without intra bandwidth, several instances without a network
// bandwidth.
AllReduceTime allreduce_time(double bytes, int instances, const InstanceLinks& links,
                             AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring, double collectives = 1.0);

// How many all-reduces PyTorch DDP sends for `bytes` of gradients with its default buckets
// (torch/nn/parallel/distributed.py: bucket_cap_mb = 25, and a first bucket of 1 MiB,
// dist._DEFAULT_FIRST_BUCKET_BYTES): 1 + ceil((bytes - 1 MiB) / 25 MiB), at least 1. ResNet-50's 102.2 MB of fp32
// gradients make 5, as the shared 2 x A100 DDP trace shows.
double ddp_bucket_count(double bytes);

AllReduceAlgorithm allreduce_algorithm(const std::string& name);  // "ring" or "tree"; InputError otherwise

}  // namespace spotsim

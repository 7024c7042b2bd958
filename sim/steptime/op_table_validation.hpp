#pragma once
// Validation of the scaling model on the held-out half of the NeuSight op tables: every op measured on two
// GPUs is predicted on one from the other's latency and launch geometry (exactly what a trace provides),
// and the absolute percentage error against the measured latency is averaged per target GPU.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sim/steptime/efficiency_calibration.hpp"
#include "sim/steptime/step_time_predictor.hpp"

namespace spotsim {

struct TargetError {
  std::string target;
  std::size_t predictions = 0;
  double mape = 0;          // mean |predicted - measured| / measured, over all source GPUs
  double median_ape = 0;
  std::map<std::string, double> mape_by_table;  // "linear", "bmm", "elem", "ln", "softmax"
};

struct OpValidation {
  std::vector<TargetError> targets;
  double mean_mape = 0;  // unweighted mean over target GPUs
  std::size_t held_out_shapes = 0;
};

OpValidation validate_on_op_tables(const std::vector<OpMeasurement>& ops, const PredictionOptions& options);

}  // namespace spotsim

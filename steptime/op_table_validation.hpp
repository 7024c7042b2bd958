#pragma once
// Validation of the scaling model on the held-out half of the NeuSight op tables: every op measured on two
// GPUs is predicted on one from the other's latency, and the absolute percentage error against the measured
// latency is averaged per target GPU. Two paths, as in a trace: with the op's dimensions (a trace recorded with
// `record_shapes=True`), GEMM, layer-norm and softmax ops use the op-level efficiency model; kernel-only uses the
// latency and launch geometry alone (calibrated rates and wave correction).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "steptime/efficiency_calibration.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {

struct TargetError {
  std::string target;
  std::size_t predictions = 0;
  double mape = 0;  // mean |predicted - measured| / measured, over all source GPUs
  double median_ape = 0;
  std::map<std::string, double> mape_by_table;  // "linear", "bmm", "elem", "ln", "softmax"
};

struct OpValidation {
  std::vector<TargetError> targets;
  double mean_mape = 0;  // unweighted mean over target GPUs
  std::size_t held_out_shapes = 0;
};

enum class ValidationPath { WithOpDimensions, KernelOnly };

OpValidation validate_on_op_tables(const std::vector<OpMeasurement>& ops, const PredictionOptions& options,
                                   ValidationPath path = ValidationPath::WithOpDimensions,
                                   const std::vector<OpEfficiencyModel>& models = committed_op_efficiency_models());

}  // namespace spotsim

#pragma once
// Validation of the precision and batch model against NVIDIA's published ResNet-50 training throughput
// (shared/data/kernels/tables/published_step_throughput.csv, docs/step-time.md#precision-validation): every row
// (FP32, TF32, AMP; V100 and A100) is predicted from one FP32 single-GPU trace with --precision set to the row's
// precision and the batch scaled to the row's per-GPU batch. Nothing is fitted to the table.
#include <string>
#include <vector>

#include "steptime/execution_recipe.hpp"
#include "steptime/precision_model.hpp"

namespace spotsim {

struct PublishedThroughputRow {
  std::string gpu_label;        // as the table writes it: "V100 16GB (DGX-1)"
  std::string gpu;              // spec-table name
  std::string precision_label;  // FP32, TF32, AMP
  TrainingPrecision precision = TrainingPrecision::Fp32;
  MemoryLayout layout = MemoryLayout::AsRecorded;  // channels-last for AMP rows (the published runs' setting)
  double batch = 0.0;
  double published_samples_per_s = 0.0;
  double predicted_step_us = 0.0;
  double predicted_samples_per_s = 0.0;
  double error = 0.0;  // predicted / published - 1
};

struct PublishedThroughputValidation {
  std::string trace;
  double trace_batch = 0.0;
  std::vector<PublishedThroughputRow> rows;
  double mean_absolute_error = 0.0;
  double max_absolute_error = 0.0;
};

// The table's precision column: FP32 -> fp32, TF32 -> tf32, AMP -> amp-fp16 (NVIDIA's AMP runs on V100 and A100
// are FP16 autocast); BF16 -> amp-bf16. Throws InputError naming `what` otherwise.
TrainingPrecision published_precision(const std::string& text, const std::string& what);

// Throws InputError naming the file for a missing table or trace, an unknown GPU or precision.
PublishedThroughputValidation validate_published_throughput(const std::string& table_path,
                                                            const std::string& trace_path, double trace_batch);
std::string format_published_throughput(const PublishedThroughputValidation& v);

}  // namespace spotsim

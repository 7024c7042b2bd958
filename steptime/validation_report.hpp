#pragma once
// `spotsim steptime --validate DIR`: recomputes the calibration and every validation number of
// docs/step-time.md from the measured data in DIR (shared/data/kernels), so the documented errors can be
// reproduced with one command.
#include <string>

namespace spotsim {

// Per-GPU batch of the shared single-GPU ResNet-50 traces (V100, HTA and legacy schema).
inline constexpr double kResNet50TraceBatch = 32.0;

// Throws InputError naming the missing file if DIR lacks one of the tables or traces.
std::string validation_report(const std::string& kernels_dir);

}  // namespace spotsim

#pragma once
// How a trace's step is predicted on other GPUs (docs/step-time.md#model, #precision, #recipe, #host-time): the
// options `spotsim steptime` reads and `spotsim.KinetoProfile.predict(**options)` takes as keyword arguments,
// declared once here with their ranges and messages, so that the CLI and Python cannot drift apart.
#include <boost/program_options.hpp>
#include <string>

#include "steptime/step_time_predictor.hpp"

namespace spotsim {

// --tf32, --measured-link-gbps, --target-link-gbps, --precision, --layout, --fuse-norm-activation, --batch,
// --target-batch, --host-scaling.
boost::program_options::options_description prediction_option_schema();

// The options parsed from a command line (or keyword arguments) read through prediction_option_schema(); InputError
// naming the option for a value out of range or options that need each other.
PredictionOptions prediction_options(const boost::program_options::variables_map& vm);

Tf32Policy tf32_policy(const std::string& text);  // conv, all or off; InputError otherwise

}  // namespace spotsim

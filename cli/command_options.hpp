#pragma once
// Each command's option schema, as its parser reads it: for `spotsim options` (the reference in docs/options.md) and
// anything else that must show the options as they are.
#include <boost/program_options.hpp>

namespace spotsim {

boost::program_options::options_description simulate_command_options();        // spotsim simulate
boost::program_options::options_description campaign_command_options();        // spotsim campaign
boost::program_options::options_description advise_command_options();          // spotsim advise
boost::program_options::options_description bound_command_options();           // spotsim bound
boost::program_options::options_description regress_command_options();         // spotsim regress
boost::program_options::options_description steptime_command_options();        // spotsim steptime
boost::program_options::options_description trace_convert_command_options();   // spotsim trace convert
boost::program_options::options_description trace_fit_command_options();       // spotsim trace fit
boost::program_options::options_description trace_generate_command_options();  // spotsim trace generate
boost::program_options::options_description trace_reshape_command_options();   // spotsim trace reshape
boost::program_options::options_description trace_inspect_command_options();   // spotsim trace inspect

}  // namespace spotsim

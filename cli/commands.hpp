#pragma once
// The subcommands of the `spotsim` executable. Each takes the arguments after its name (argv[0] = the command's
// display name) and returns the process exit code; user errors are reported on stderr with a non-zero code.
namespace spotsim {

int simulate_command(int argc, const char* const* argv);
int steptime_command(int argc, const char* const* argv);
int trace_command(int argc, const char* const* argv);
int advise_command(int argc, const char* const* argv);
int sweep_command(int argc, const char* const* argv);
int regress_command(int argc, const char* const* argv);
int bound_command(int argc, const char* const* argv);
int report_command(int argc, const char* const* argv);
int campaign_command(int argc, const char* const* argv);
int options_command(int argc, const char* const* argv);
int score_command(int argc, const char* const* argv);

}  // namespace spotsim

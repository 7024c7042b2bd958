#pragma once
// Running a command's work in the Python module (one mechanism for every command that needs Python): `spotsim
// score` runs `python3 -m spotsim.harness`, and `sweep` and `regress` re-run themselves in
// `python3 -m spotsim.command_host` when a spec names a Python class (docs/plugins.md#python-in-specs). exec, not a
// shell: no argument is ever parsed by a shell.
#include <string>
#include <vector>

#include "policies/plugin/python_policy_source.hpp"

namespace spotsim {

// Whether a spotsim module may be found: the build tree's, an installed one, or a PYTHONPATH of the user's
// (which may hold one: then Python decides).
bool python_module_reachable();

// Replaces this process with `python -m MODULE ARGS...`; PYTHONPATH is the build tree's module directory (when there
// is one), then `search_path`, then the user's PYTHONPATH. Returns only when the exec failed (errno says why).
void exec_python_module(const std::string& module, const std::vector<std::string>& args,
                        const std::vector<std::string>& search_path);

// The interpreter the module is built for.
std::string python_interpreter();

// `spotsim COMMAND` again, inside Python (spotsim.command_host), because `why` names a Python policy: the same
// arguments, with `search_path` (the directories of the spec or baseline files) before the user's PYTHONPATH.
// Returns the exit code of a failure to do so (2, with the reason on stderr).
int rerun_command_in_python(const std::string& command, int argc, const char* const* argv,
                            const std::vector<std::string>& search_path, const PythonHostNeeded& why);

// The directory of each file, absolute, each once: where a spec's Python modules are looked for first.
std::vector<std::string> directories_of(const std::vector<std::string>& files);

}  // namespace spotsim

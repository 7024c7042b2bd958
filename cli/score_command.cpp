// `spotsim score FILE --harness PROFILE [...]`: a sky_spot strategy file (or, with `--policy NAME`, a built-in
// policy) scored as a public Can't Be Late harness scores it (docs/plugins.md#harness-profiles). Strategy files are
// Python and the harness profiles live in the Python module (spotsim.harness), so this command runs `python3 -m
// spotsim.harness` with its own arguments, unchanged: one implementation, two doors (cli/python_exec.hpp).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/python_exec.hpp"

namespace spotsim {

int score_command(int argc, const char* const* argv) {
  // A build without the module (-DSPOTSIM_BUILD_PYTHON=OFF, the sanitizer builds) and no installed one: say so
  // rather than let Python fail to find it. A PYTHONPATH of the user's own may still hold it: then Python decides.
  if (!python_module_reachable()) {
    bool help = false;
    for (int i = 1; i < argc; ++i) help = help || std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h";
    std::ostream& out = help ? std::cout : std::cerr;
    out << (help ? "Usage: " : "") << argv[0]
        << (help ? " FILE|--policy NAME --harness PROFILE [options]: a sky_spot strategy file, or a built-in policy, "
                   "scored as a public harness scores it (docs/plugins.md#harness-profiles).\n"
                 : ": error: ")
        << "this spotsim has no Python module (built with -DSPOTSIM_BUILD_PYTHON=OFF and not installed); "
           "`./dev build` builds it, and `spotsim score` runs it\n";
    return help ? 0 : 2;
  }
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  ::setenv("SPOTSIM_HARNESS_PROG", argv[0], 1);  // usage and errors name `spotsim score`
  exec_python_module("spotsim.harness", args, {});
  std::cerr << argv[0] << ": error: cannot run " << python_interpreter() << " (" << std::strerror(errno)
            << "); spotsim score needs Python 3 and the spotsim module (./dev build builds it)\n";
  return 2;
}

}  // namespace spotsim

// `spotsim score FILE --harness PROFILE [...]`: a sky_spot strategy file scored as a public Can't Be Late harness
// scores it (docs/plugins.md#harness-profiles). Strategy files are Python and the harness profiles live in the
// Python module (spotsim.harness), so this command runs `python3 -m spotsim.harness` with its own arguments,
// unchanged: one implementation, two doors. exec, not a shell: no argument is ever parsed by a shell.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace spotsim {

namespace {

// The module as the build tree holds it; an installed spotsim finds it on Python's own path (dist-packages).
std::string python_path_with_module() {
  std::string path;
  if (std::filesystem::exists(std::filesystem::path(SPOTSIM_BUILD_PYTHON_DIR) / "spotsim" / "__init__.py")) {
    path = SPOTSIM_BUILD_PYTHON_DIR;
  }
  if (const char* existing = std::getenv("PYTHONPATH"); existing != nullptr && *existing != '\0') {
    if (!path.empty()) path.push_back(':');
    path.append(existing);
  }
  return path;
}

}  // namespace

int score_command(int argc, const char* const* argv) {
  const std::string python = SPOTSIM_PYTHON;
  std::vector<std::string> args = {python, "-m", "spotsim.harness"};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> exec_args;
  for (std::string& a : args) exec_args.push_back(a.data());
  exec_args.push_back(nullptr);
  const std::string python_path = python_path_with_module();
  if (!python_path.empty()) ::setenv("PYTHONPATH", python_path.c_str(), 1);
  ::setenv("SPOTSIM_HARNESS_PROG", argv[0], 1);  // usage and errors name `spotsim score`
  ::execvp(python.c_str(), exec_args.data());
  std::cerr << argv[0] << ": error: cannot run " << python << " (" << std::strerror(errno)
            << "); spotsim score needs Python 3 and the spotsim module (./dev build builds it)\n";
  return 2;
}

}  // namespace spotsim

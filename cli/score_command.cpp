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

bool build_tree_module() {
  return std::filesystem::exists(std::filesystem::path(SPOTSIM_BUILD_PYTHON_DIR) / "spotsim" / "__init__.py");
}

// Where an installed module lies (python/CMakeLists.txt: SPOTSIM_PYTHON_INSTALL_DIR under the install prefix).
bool installed_module() {
  return std::filesystem::exists(std::filesystem::path(SPOTSIM_INSTALL_PYTHON_DIR) / "__init__.py");
}

// The module as the build tree holds it; an installed spotsim finds it on Python's own path (dist-packages).
std::string python_path_with_module() {
  std::string path;
  if (build_tree_module()) path = SPOTSIM_BUILD_PYTHON_DIR;
  if (const char* existing = std::getenv("PYTHONPATH"); existing != nullptr && *existing != '\0') {
    if (!path.empty()) path.push_back(':');
    path.append(existing);
  }
  return path;
}

}  // namespace

int score_command(int argc, const char* const* argv) {
  // A build without the module (-DSPOTSIM_BUILD_PYTHON=OFF, the sanitizer builds) and no installed one: say so
  // rather than let Python fail to find it. A PYTHONPATH of the user's own may still hold it: then Python decides.
  const char* user_path = std::getenv("PYTHONPATH");
  if (!build_tree_module() && !installed_module() && (user_path == nullptr || *user_path == '\0')) {
    bool help = false;
    for (int i = 1; i < argc; ++i) help = help || std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h";
    std::ostream& out = help ? std::cout : std::cerr;
    out << (help ? "Usage: " : "") << argv[0]
        << (help ? " FILE --harness PROFILE [options]: a sky_spot strategy file scored as a public harness scores it "
                   "(docs/plugins.md#harness-profiles).\n"
                 : ": error: ")
        << "this spotsim has no Python module (built with -DSPOTSIM_BUILD_PYTHON=OFF and not installed); "
           "`./dev build` builds it, and `spotsim score` runs it\n";
    return help ? 0 : 2;
  }
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

#include "cli/python_exec.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "base/text_escape.hpp"

namespace spotsim {

namespace {

bool build_tree_module() {
  return std::filesystem::exists(std::filesystem::path(SPOTSIM_BUILD_PYTHON_DIR) / "spotsim" / "__init__.py");
}

// Where an installed module lies (python/CMakeLists.txt: SPOTSIM_PYTHON_INSTALL_DIR under the install prefix).
bool installed_module() {
  return std::filesystem::exists(std::filesystem::path(SPOTSIM_INSTALL_PYTHON_DIR) / "__init__.py");
}

const char* user_python_path() {
  const char* existing = std::getenv("PYTHONPATH");
  return existing != nullptr && *existing != '\0' ? existing : nullptr;
}

}  // namespace

bool python_module_reachable() { return build_tree_module() || installed_module() || user_python_path() != nullptr; }

std::string python_interpreter() { return SPOTSIM_PYTHON; }

void exec_python_module(const std::string& module, const std::vector<std::string>& args,
                        const std::vector<std::string>& search_path) {
  const std::string python = python_interpreter();
  std::vector<std::string> all = {python, "-m", module};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> exec_args;
  for (std::string& a : all) exec_args.push_back(a.data());
  exec_args.push_back(nullptr);
  // The module first, so that `import spotsim` is this build's whatever a spec's directory holds.
  std::vector<std::string> path;
  if (build_tree_module()) path.emplace_back(SPOTSIM_BUILD_PYTHON_DIR);
  path.insert(path.end(), search_path.begin(), search_path.end());
  if (const char* user = user_python_path()) path.emplace_back(user);
  std::string joined;
  for (const std::string& p : path) joined += (joined.empty() ? "" : ":") + p;
  if (!joined.empty()) ::setenv("PYTHONPATH", joined.c_str(), 1);
  ::execvp(python.c_str(), exec_args.data());
}

int rerun_command_in_python(const std::string& command, int argc, const char* const* argv,
                            const std::vector<std::string>& search_path, const PythonHostNeeded& why) {
  const std::string program = argc > 0 ? argv[0] : "spotsim " + command;
  if (!python_module_reachable()) {
    std::cerr << program << ": error: " << escape_control_characters(why.what())
              << "; this spotsim has no Python module (built with -DSPOTSIM_BUILD_PYTHON=OFF and not installed)\n";
    return 2;
  }
  std::vector<std::string> args = {command};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::cout.flush();
  exec_python_module("spotsim.command_host", args, search_path);
  std::cerr << program << ": error: " << escape_control_characters(why.what()) << "; cannot run "
            << python_interpreter() << " (" << std::strerror(errno) << ")\n";
  return 2;
}

std::vector<std::string> directories_of(const std::vector<std::string>& files) {
  std::vector<std::string> dirs;
  for (const std::string& file : files) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(file, error);
    if (error) continue;
    const std::string dir = absolute.parent_path().lexically_normal().string();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

}  // namespace spotsim

// load_plugin(path): a compiled policy plugin's policies become available by name to simulate(), sweep() and
// policies(), as `--plugin` does for the command line (docs/plugins.md).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "policies/plugin/plugin_loader.hpp"
#include "python/python_bindings.hpp"

namespace spotsim::python {

void bind_plugins(pybind11::module_& m) {
  m.def(
      "load_plugin", [](const std::string& path) { load_policy_plugin(path); }, pybind11::arg("path"),
      "Load a shared library built against policies/plugin/spotsim_plugin.h; its policies join the built-in ones. "
      "Raises InputError (a ValueError) naming the file and the reason when it is refused.");
  m.def(
      "loaded_plugins", [] { return loaded_policy_plugins(); }, "The plugin files loaded so far, in order.");
}

}  // namespace spotsim::python

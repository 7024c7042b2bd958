#include "python/keyword_options.hpp"

#include <algorithm>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/options/option_reference.hpp"
#include "base/errors.hpp"

namespace py = pybind11;
namespace po = boost::program_options;

namespace spotsim::python {

namespace {

// A keyword argument as the command line would carry it: text as is, numbers as Python prints them (the shortest
// text that reads back as the same value), so the CLI's parser and messages apply unchanged.
std::string argument_text(const py::handle& value) {
  if (py::isinstance<py::float_>(value)) return std::string(py::repr(value));
  return std::string(py::str(value));
}

}  // namespace

std::string cli_name(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return "--" + key;
}

po::variables_map parse_keyword_options(const py::dict& options, const po::options_description& schema) {
  std::vector<std::string> args{"python"};
  for (const auto& [key, value] : options) {
    if (value.is_none()) continue;
    const std::string name = cli_name(py::str(key));
    const po::option_description* option = schema.find_nothrow(name.substr(2), false);
    if (option == nullptr) throw InputError("unrecognised option '" + name + "'");
    if (option->semantic()->max_tokens() == 0) {  // a flag: True gives it, False leaves it out
      if (!py::isinstance<py::bool_>(value)) {
        throw InputError("the argument for option '" + name + "' is invalid: expected True or False");
      }
      if (value.cast<bool>()) args.push_back(name);
      continue;
    }
    args.push_back(name);
    args.push_back(argument_text(value));
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data(), schema);
}

py::list option_schema_rows(const po::options_description& schema) {
  py::list rows;
  for (const OptionRow& row : option_rows(schema)) {
    rows.append(py::dict(py::arg("name") = row.name,
                         py::arg("default") = row.default_text ? py::object(py::str(*row.default_text)) : py::none(),
                         py::arg("flag") = row.flag, py::arg("help") = row.help));
  }
  return rows;
}

}  // namespace spotsim::python

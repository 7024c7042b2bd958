#include "python/keyword_options.hpp"

#include <algorithm>
#include <boost/any.hpp>
#include <vector>

#include "app/options/command_line.hpp"
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

// The schema's default as the CLI shows it; None for an option without one. Every defaulted option of the
// commands' schemas is text (counts and durations are read by their own rules) or a number.
py::object default_of(const po::option_description& option) {
  boost::any value;
  if (!option.semantic()->apply_default(value)) return py::none();
  if (const auto* text = boost::any_cast<std::string>(&value)) return py::str(*text);
  if (const auto* number = boost::any_cast<double>(&value)) return py::float_(*number);
  throw std::logic_error("option --" + option.long_name() + ": a default of a type the schema rows do not show");
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
  for (const auto& option : schema.options()) {
    rows.append(py::dict(py::arg("name") = option->long_name(), py::arg("default") = default_of(*option),
                         py::arg("flag") = option->semantic()->max_tokens() == 0,
                         py::arg("help") = option->description()));
  }
  return rows;
}

}  // namespace spotsim::python

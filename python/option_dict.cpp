#include "python/option_dict.hpp"

#include <algorithm>

#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"

namespace py = pybind11;

namespace spotsim::python {

std::string cli_name(std::string key) {
  std::replace(key.begin(), key.end(), '_', '-');
  return "--" + key;
}

OptionDict::OptionDict(const py::dict& options, std::span<const char* const> known) {
  for (const auto& [key, value] : options) {
    const std::string name = py::str(key);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      // boost::program_options' wording, as the CLI prints it for an unknown option.
      throw InputError("unrecognised option '" + cli_name(name) + "'");
    }
    if (!value.is_none()) values_[py::str(key)] = value;
  }
}

std::string OptionDict::text(const char* key, const char* fallback) const {
  return has(key) ? std::string(py::str(values_[key])) : std::string(fallback);
}

Millis OptionDict::duration(const char* key) const { return parse_duration(text(key, ""), cli_name(key)); }

std::uint64_t OptionDict::count(const char* key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) const {
  if (!has(key)) return fallback;
  const py::object value = values_[key];
  const std::string text = py::str(value);
  if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value)) {
    throw InputError(cli_name(key) + ": expected " + integer_range_text(min, max) + ", got '" + text + "'");
  }
  return parse_integer_in_range(text, min, max, cli_name(key));
}

double OptionDict::number(const char* key) const {
  const py::object value = values_[key];
  if (py::isinstance<py::bool_>(value) || !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value))) {
    throw InputError("the argument ('" + std::string(py::str(value)) + "') for option '" + cli_name(key) +
                     "' is invalid");
  }
  return value.cast<double>();
}

}  // namespace spotsim::python

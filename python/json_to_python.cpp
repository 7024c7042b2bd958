#include "python/json_to_python.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "base/errors.hpp"

namespace py = pybind11;

namespace spotsim::python {

py::object to_python(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [key, item] : value.items()) d[py::str(key)] = to_python(item);
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& item : value) l.append(to_python(item));
      return l;
    }
    case nlohmann::json::value_t::string: return py::str(value.get<std::string>());
    case nlohmann::json::value_t::boolean: return py::bool_(value.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(value.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(value.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(value.get<double>());
    default: return py::none();
  }
}

nlohmann::json from_python(const py::handle& value, const std::string& what) {
  if (value.is_none()) return nullptr;
  // bool before int: Python's bool is an int subclass.
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return value.cast<std::int64_t>();
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      const std::string name = py::str(key);
      object[name] = from_python(item, what + "." + name);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::json array = nlohmann::json::array();
    std::size_t i = 0;
    for (const auto& item : value) array.push_back(from_python(item, what + "[" + std::to_string(i++) + "]"));
    return array;
  }
  throw InputError(what + ": expected a JSON-like value (dict, list, str, number, bool, None), got " +
                   std::string(py::str(py::type::of(value).attr("__name__"))));
}

}  // namespace spotsim::python

#pragma once
// nlohmann::json -> Python objects (dict, list, str, int, float, bool, None), for manifests and trace documents.
#include <pybind11/pybind11.h>

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace spotsim::python {

pybind11::object to_python(const nlohmann::json& value);
// The reverse, for documents a user builds in Python (a lifetime model, a job): dict, list, str, int, float,
// bool, None. InputError naming `what` for anything else.
nlohmann::json from_python(const pybind11::handle& value, const std::string& what);

}  // namespace spotsim::python

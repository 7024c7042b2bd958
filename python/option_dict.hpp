#pragma once
// A Python function's keyword arguments read by a CLI command's rules: keys are the command's long option names
// with '-' written '_', None counts as absent, and every message names the option as the CLI spells it
// (checkpoint_write -> --checkpoint-write), so it reads the same in a notebook and in a terminal.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <span>
#include <string>

#include "base/time.hpp"

namespace spotsim::python {

// The option as the CLI writes it: give_up_after -> --give-up-after.
std::string cli_name(std::string key);

class OptionDict {
 public:
  // InputError in boost::program_options' wording for a key not in `known`.
  OptionDict(const pybind11::dict& options, std::span<const char* const> known);

  bool has(const char* key) const { return values_.contains(key); }
  pybind11::object value(const char* key) const { return values_[key]; }
  std::string text(const char* key, const char* fallback) const;
  Millis duration(const char* key) const;
  // Seeds and counts follow the CLI's rule and message (base/integer_text.hpp): a Python int in [min, max].
  std::uint64_t count(const char* key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) const;
  double number(const char* key) const;

 private:
  pybind11::dict values_;
};

}  // namespace spotsim::python

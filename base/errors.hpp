#pragma once
// User-facing errors. Anything a user can get wrong (a file, a field, an option) raises InputError with a message
// that names the place, the field and what was expected; the command line prints it and exits non-zero.
// Programmer errors use assert instead.
#include <stdexcept>
#include <string>

namespace spotsim {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace spotsim

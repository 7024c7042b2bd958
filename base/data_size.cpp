#include "base/data_size.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>
#include <utility>

#include "base/errors.hpp"

namespace spotsim {

namespace {

// GB per unit; compared case-insensitively ("gb", "GiB"). "B" is bytes.
constexpr std::array<std::pair<std::string_view, double>, 9> kUnits = {{{"", 1.0},
                                                                        {"B", 1e-9},
                                                                        {"MB", 1e-3},
                                                                        {"GB", 1.0},
                                                                        {"TB", 1e3},
                                                                        {"MIB", 1048576.0 / 1e9},
                                                                        {"GIB", 1073741824.0 / 1e9},
                                                                        {"TIB", 1099511627776.0 / 1e9},
                                                                        {"PB", 1e6}}};

std::string upper(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (!std::isspace(c)) out.push_back(static_cast<char>(std::toupper(c)));
  }
  return out;
}

}  // namespace

double parse_data_size_gb(const std::string& text, const std::string& what) {
  const auto fail = [&]() -> double {
    throw InputError(what +
                     ": expected a size such as 20GB, 18.6GiB or 1.5TB (units B, MB, GB, TB, MiB, GiB, TiB; a "
                     "bare number is in GB) between 0 and 1e9 GB, got '" +
                     text + "'");
  };
  const std::string_view view(text);
  std::size_t begin = 0;
  while (begin < view.size() && std::isspace(static_cast<unsigned char>(view[begin]))) ++begin;
  double number = 0.0;
  const auto parsed = std::from_chars(view.data() + begin, view.data() + view.size(), number);
  if (parsed.ec != std::errc() || parsed.ptr == view.data() + begin) return fail();
  const std::string unit = upper(view.substr(static_cast<std::size_t>(parsed.ptr - view.data())));
  for (const auto& [name, gb] : kUnits) {
    if (unit != name) continue;
    const double size = number * gb;
    if (!std::isfinite(size) || size < 0.0 || size > kMaxDataSizeGb) return fail();
    return size;
  }
  return fail();
}

}  // namespace spotsim

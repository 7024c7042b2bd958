#pragma once
// Matching CUDA kernel names by the substrings of their library's naming conventions (cuBLAS, cuDNN, CUTLASS,
// ATen), case-insensitively: shared by the kernel classifier, the precision model and the execution recipes.
#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>

namespace spotsim::kernel_names {

inline std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

inline bool contains_any(const std::string& text, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return text.find(n) != std::string::npos; });
}

}  // namespace spotsim::kernel_names

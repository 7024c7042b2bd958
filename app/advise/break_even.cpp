#include "app/advise/break_even.hpp"

#include <cassert>
#include <cmath>
#include <sstream>

#include "base/errors.hpp"

namespace spotsim {

double parse_engineering_cost(const std::string& text) {
  const std::string suffix = "/month";
  std::string amount = text;
  if (amount.size() > suffix.size() && amount.ends_with(suffix)) amount.resize(amount.size() - suffix.size());
  const auto refuse = [&]() {
    return InputError(
        "--engineering-cost: expected a monthly amount in USD such as 8000/month or 8000 (per month), got '" + text +
        "'");
  };
  if (amount.empty() || amount.find_first_not_of("0123456789.") != std::string::npos) throw refuse();
  std::istringstream in(amount);
  double value = 0.0;
  if (!(in >> value) || !in.eof() || !(value > 0.0) || !std::isfinite(value) || value > 1e12) throw refuse();
  return value;
}

BreakEven break_even(double engineering_per_month, double diy_cost, double managed_cost) {
  assert(managed_cost > 0.0 && engineering_per_month >= 0.0);
  BreakEven b;
  b.saving_fraction = 1.0 - diy_cost / managed_cost;
  if (b.saving_fraction > 0.0) b.monthly_spend = engineering_per_month / b.saving_fraction;
  return b;
}

}  // namespace spotsim

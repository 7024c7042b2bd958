#pragma once
// When does running it yourself (DIY spot/on-demand with spotsim's policies) pay for the engineering it takes,
// against a managed training service (docs/managed.md#break-even)? With the managed cost M and the DIY cost D of
// the same job, DIY saves the fraction s = 1 - D/M of any monthly spend S on this workload (S counted at managed
// prices), so it pays off once s * S >= E, the monthly engineering cost of running DIY: S* = E / s. Never when
// D >= M.
#include <optional>
#include <string>

namespace spotsim {

// --engineering-cost: "8000/month" or "8000" (per month), a positive amount in USD. InputError for anything else
// ("8000/year", "8k", "-1", "", ...), naming the option.
double parse_engineering_cost(const std::string& text);

struct BreakEven {
  double saving_fraction = 0.0;         // s = 1 - D/M (negative when DIY costs more)
  std::optional<double> monthly_spend;  // S* = E / s; nullopt when s <= 0 (DIY never pays off)
};

// `diy_cost` D and `managed_cost` M of the same job (M > 0), `engineering_per_month` E >= 0.
BreakEven break_even(double engineering_per_month, double diy_cost, double managed_cost);

}  // namespace spotsim

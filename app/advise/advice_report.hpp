#pragma once
// Renders an AdviceReport (columns documented in docs/advise.md#output): a ranked table for people, JSON
// (manifest, recommendation, rows, skipped offers) and CSV (one row per offer x policy) for programs.
#include <string>

#include "app/advise/advisor.hpp"

namespace spotsim {

std::string advice_table(const AdviceReport& report);
std::string advice_json(const AdviceReport& report);
std::string advice_csv(const AdviceReport& report);

}  // namespace spotsim

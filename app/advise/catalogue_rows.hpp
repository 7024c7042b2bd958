#pragma once
// The `offers` array of a price catalogue (gpu_offers.json, managed_training.json): at least one row, each an
// object read by `read`, no two with the same label(). InputError naming the file and the row otherwise.
// (A template over the rows: it needs the whole json header, and only the catalogue readers include it.)
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "base/json_fields.hpp"

namespace spotsim {

template <class Offer, class ReadOffer>
std::vector<Offer> read_catalogue_rows(const JsonFields& top, const std::string& unique_what, ReadOffer read) {
  const nlohmann::json& rows = top.array("offers");
  if (rows.empty()) top.fail("offers", "at least one offer");
  std::vector<Offer> offers;
  std::set<std::string> labels;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = "offers[" + std::to_string(i) + "]";
    if (!rows[i].is_object()) top.fail_value(where, "an offer object", rows[i]);
    const JsonFields f(rows[i], top.file(), where);
    Offer offer = read(f);
    if (!labels.insert(offer.label()).second) {
      f.fail("instance_type", "a unique " + unique_what + ": '" + offer.label() + "' appears twice");
    }
    offers.push_back(std::move(offer));
  }
  return offers;
}

}  // namespace spotsim

#include "app/advise/gpu_offer_catalogue_writer.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/json_text.hpp"

namespace spotsim {

namespace {

nlohmann::ordered_json offer_json(const GpuOffer& offer) {
  nlohmann::ordered_json j = {{"cloud", offer.cloud}, {"region", offer.region}};
  if (!offer.zone.empty()) j["zone"] = offer.zone;
  j["instance_type"] = offer.instance_type;
  j["gpu"] = offer.gpu;
  j["gpus_per_instance"] = offer.gpus_per_instance;
  j["on_demand_per_hour"] = offer.on_demand_per_hour;
  j["spot_per_hour"] = offer.spot_per_hour;
  if (offer.spot_price_estimated) j["spot_price_estimated"] = true;
  j["date"] = offer.date;
  j["source"] = offer.source;
  if (!offer.preemption.empty()) j["preemption"] = offer.preemption;
  if (!offer.on_demand_only.empty()) j["on_demand_only"] = offer.on_demand_only;
  if (!offer.unranked.empty()) j["unranked"] = offer.unranked;
  if (!offer.notes.empty()) j["notes"] = offer.notes;
  return j;
}

}  // namespace

std::string gpu_offer_catalogue_text(const GpuOfferCatalogue& catalogue, const std::string& sources_file) {
  const nlohmann::json defined = read_json_file(sources_file).value("preemption_sources", nlohmann::json::object());
  std::set<std::string> used;
  for (const GpuOffer& offer : catalogue.offers) {
    if (!offer.preemption.empty()) used.insert(offer.preemption);
  }
  nlohmann::ordered_json sources = nlohmann::ordered_json::object();
  for (const std::string& name : used) {
    if (!defined.contains(name)) throw InputError(sources_file + ": no preemption source '" + name + "'");
    sources[name] = nlohmann::ordered_json::parse(defined[name].dump());
  }
  nlohmann::ordered_json head = {{"format", "spotsim-gpu-offers"},
                                 {"version", kGpuOfferCatalogueVersion},
                                 {"description", catalogue.description},
                                 {"preemption_sources", sources}};
  std::string text = json_text(head, 2);
  text.erase(text.rfind('}'));  // reopened to add the offers, one per line
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text += ",\n  \"offers\": [\n";
  for (std::size_t i = 0; i < catalogue.offers.size(); ++i) {
    text += "    " + json_text(offer_json(catalogue.offers[i]));
    text += i + 1 < catalogue.offers.size() ? ",\n" : "\n";
  }
  return text + "  ]\n}\n";
}

}  // namespace spotsim

#include "app/advise/spot_price_history.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/shipped_library.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

SpotPriceHistory read_history(const JsonFields& h) {
  h.reject_unknown(
      {"cloud", "region", "zone", "instance_type", "date", "source", "span_hours", "times_hours", "prices"});
  SpotPriceHistory out;
  out.cloud = h.string("cloud");
  out.region = h.string("region");
  out.zone = h.optional_string("zone");
  out.instance_type = h.string("instance_type");
  out.date = h.string("date");
  out.source = h.string("source");
  const double span_hours = h.number("span_hours", 1e-3, 1e6);
  const std::vector<double> times = h.numbers("times_hours", 0.0, 1e6);
  const std::vector<double> prices = h.numbers("prices", 0.0, 1e6);
  if (times.empty() || times.front() != 0.0) h.fail("times_hours", "a list of hours starting at 0");
  if (prices.size() != times.size())
    h.fail("prices", "one price per entry of times_hours (" + std::to_string(times.size()) + ")");
  std::vector<Millis> at;
  for (const double t : times) {
    const Millis ms = millis_from_hours(t);
    if ((!at.empty() && ms <= at.back()) || t >= span_hours) h.fail("times_hours", "increasing hours below span_hours");
    at.push_back(ms);
  }
  out.prices = StepSeries(std::move(at), prices, millis_from_hours(span_hours));
  return out;
}

}  // namespace

std::string SpotPriceHistory::label() const {
  return "history " + date + ", $" + format_fixed(prices.min_value(), 2) + ".." + format_fixed(prices.max_value(), 2) +
         "/h";
}

const SpotPriceHistory* SpotPriceHistories::find(const GpuOffer& offer) const {
  for (const SpotPriceHistory& h : histories) {
    if (h.cloud != offer.cloud || h.instance_type != offer.instance_type || h.region != offer.region) continue;
    if (h.zone.empty() || h.zone == offer.zone) return &h;
  }
  return nullptr;
}

SpotPriceHistories read_spot_price_histories(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonFields top(document, path, "");
  top.reject_unknown({"format", "version", "description", "histories"});
  if (top.string("format") != "spotsim-spot-price-history") {
    top.fail_value("format", "\"spotsim-spot-price-history\"", top.raw("format"));
  }
  if (top.integer("version", 1, 1000) != 1) top.fail_value("version", "1", top.raw("version"));
  SpotPriceHistories out;
  out.path = path;
  const nlohmann::json& list = top.array("histories");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "histories[" + std::to_string(i) + "]";
    if (!list[i].is_object()) top.fail_value(where, "an object", list[i]);
    out.histories.push_back(read_history(JsonFields(list[i], path, where)));
  }
  return out;
}

SpotPriceHistories spot_price_histories_for(const std::string& choice) {
  if (choice == "catalogue") return {};
  if (choice != "history") {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(choice, ec)) {
      throw InputError("--spot-prices '" + choice + "': expected history, catalogue or a price history file");
    }
    return read_spot_price_histories(choice);
  }
  return read_spot_price_histories(
      (std::filesystem::path(shipped_trace_directory()) / "catalogue" / "spot_price_history.json").string());
}

}  // namespace spotsim

#pragma once
// Recorded spot price paths for catalogue offers (docs/advise.md#price-history): `spotsim advise` replays the one
// matching an offer instead of the catalogue's single spot price, so a job pays what the price did over the
// recording. Committed in traces/library/catalogue/spot_price_history.json, regenerated from ../shared by
// experiments/advise/spot_price_history.py.
#include <string>
#include <vector>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "model/market/step_series.hpp"

namespace spotsim {

struct SpotPriceHistory {
  std::string cloud;
  std::string region;
  std::string zone;  // empty: the history applies to every zone of the region
  std::string instance_type;
  std::string date;  // "2025-07-30 to 2026-07-30"
  std::string source;
  StepSeries prices;  // USD per instance-hour from the recording's start, repeating with its span

  // "history 2025-07-30 to 2026-07-30, $1.44..1.93/h": what advise prints as the offer's price source.
  std::string label() const;
};

struct SpotPriceHistories {
  std::string path;  // empty: none (every offer keeps its catalogue price)
  std::vector<SpotPriceHistory> histories;

  // The history of `offer`: same cloud and instance type, and the offer's zone (a zone history) or region (a region
  // history); nullptr when none was recorded.
  const SpotPriceHistory* find(const GpuOffer& offer) const;
};

// InputError naming the file and the field for anything invalid (unknown fields, times not increasing from 0 and
// below span_hours, negative prices, one price per time).
SpotPriceHistories read_spot_price_histories(const std::string& path);
// --spot-prices: "history" (the shipped file), "catalogue" (none: constant catalogue prices) or a file path.
SpotPriceHistories spot_price_histories_for(const std::string& choice);

}  // namespace spotsim

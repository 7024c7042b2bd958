#include "traces/importers/skynomad_gcp_importer.hpp"

#include "base/errors.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/directory_files.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/skynomad_gcp_zone_file.hpp"

namespace spotsim {

ImportedTrace import_skynomad_gcp(const std::string& dir, const ImportOptions& options) {
  const auto paths = files_with_suffix(dir, kSkyNomadGcpSuffix, "the SkyNomad GCP H100 traces (<zone>_h100_16.json)");
  ImportedTrace out;
  out.format = "skynomad-gcp";
  out.records_spot_prices = true;
  out.records_on_demand_prices = true;
  SpotMarket& market = out.market;
  SkyNomadGcpZoneFile first;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    SkyNomadGcpZoneFile z = read_skynomad_gcp_zone_file(paths[i]);
    if (i == 0) first = z;
    // One aligned clock: the simulator moves a job between zones at the same instant of the recording.
    if (z.tick != first.tick || z.start_time != first.start_time || z.ticks != first.ticks) {
      throw InputError(paths[i] + ": expected the clock of " + paths.front() +
                       " (same gap_seconds, start_time and "
                       "number of ticks: the zones must be recorded on one aligned clock)");
    }
    if (!options.only_zone.empty() && z.zone.name != options.only_zone) continue;
    z.zone.spot.notice = options.notice.value_or(kGcpNotice);
    market.zones.push_back(std::move(z.zone));
  }
  if (market.zones.empty()) throw InputError(dir + ": no zone named '" + options.only_zone + "'");
  market.name = "gcp-h100-13-zones";
  market.description = "GCP 1xH100 spot (a3-highgpu-1g) in " + std::to_string(market.zones.size()) + " zones of " +
                       std::to_string(market_regions(market).size()) + " regions, probed every " +
                       std::to_string(first.tick / kMillisPerSecond) + " s from " + first.start_time;
  market.span = static_cast<Millis>(first.ticks) * first.tick;
  market.tick = first.tick;
  market.migration.egress = shipped_egress_prices("gcp", market_regions(market));
  market.provenance.source = std::string(kSkyNomadSource) + "gcp-h100-13-zones/";
  market.provenance.date = first.start_time.substr(0, 10) + " onwards, 14 days; prices from the GCP Billing Catalog";
  market.provenance.license = "Apache-2.0";
  market.provenance.notes =
      "Imported by: spotsim trace convert --from skynomad-gcp ../shared/data/preemption/skynomad-multi-region/"
      "gcp-h100-13-zones -o traces/library/gcp-h100-13-zones.json. The data's 1 = unavailable was inverted. "
      "Spot and on-demand prices are the recorded a3-highgpu-8g prices divided by 8 (one H100). Region = zone "
      "without its last '-x'; egress from traces/library/catalogue/egress/gcp.csv (published inter-region tiers, "
      "see its README). Transfer bandwidths: SkyNomad's measured defaults.";
  return out;
}

}  // namespace spotsim

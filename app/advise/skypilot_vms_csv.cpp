#include "app/advise/skypilot_vms_csv.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/errors.hpp"
#include "base/input_file.hpp"
#include "base/text_escape.hpp"
#include "base/text_lines.hpp"

namespace spotsim {

namespace {

// The same bound as a spotsim-gpu-offers catalogue's prices (app/advise/gpu_offer_catalogue.cpp).
constexpr double kMaxPricePerHour = 1e5;
// The most GPUs one instance has in any catalogue (GCP's a2-megagpu-16g has 16); 64 is read_offer's bound too.
constexpr double kMaxGpusPerInstance = 64;

// Column positions by header name. AvailabilityZone is absent on Lambda and Azure.
struct Columns {
  std::size_t count = 0;  // fields in the header
  std::size_t instance_type, accelerator, accelerator_count, price, spot_price, region;
  std::optional<std::size_t> zone;
};

Columns columns_of(const std::vector<std::string>& header, const TextLines& lines) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < header.size(); ++i) index.emplace(header[i], i);
  const auto required = [&](const std::string& name) {
    const auto it = index.find(name);
    if (it == index.end()) {
      throw InputError(lines.file() + ":" + std::to_string(lines.line_number()) + ": missing column '" + name +
                       "' (a SkyPilot vms.csv has InstanceType, AcceleratorName, AcceleratorCount, Price, SpotPrice "
                       "and Region)");
    }
    return it->second;
  };
  Columns c;
  c.count = header.size();
  c.instance_type = required("InstanceType");
  c.accelerator = required("AcceleratorName");
  c.accelerator_count = required("AcceleratorCount");
  c.price = required("Price");
  c.spot_price = required("SpotPrice");
  c.region = required("Region");
  if (const auto it = index.find("AvailabilityZone"); it != index.end()) c.zone = it->second;
  return c;
}

std::optional<double> price_of(const std::string& text, const char* column, const TextLines& lines) {
  if (text.empty()) return std::nullopt;
  return lines.number(text, std::string("column '") + column + "'", 0.0, kMaxPricePerHour);
}

double count_of(const std::string& text, const TextLines& lines) {
  const std::string column = "column 'AcceleratorCount'";
  const double count = lines.number(text, column, 0.0, kMaxGpusPerInstance);
  // A share of one GPU (Azure's NV*_v4 and NV*ads_A10_v5 rent a fraction) is kept for the offers to drop; above one
  // a count must be whole.
  if (count <= 0.0 || (count > 1.0 && count != std::floor(count))) {
    lines.fail(column, "a GPU count in (0, 64], whole above 1", text);
  }
  return count;
}

}  // namespace

SkyPilotVmFile read_skypilot_vms_csv(const std::string& path, const std::string& name, const std::string& cloud) {
  std::string text = read_input_file(path);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // a byte-order mark from a spreadsheet's export
  TextLines lines(std::move(text), path);
  std::vector<std::string> fields;
  if (!lines.next(fields)) throw InputError(path + ": empty file (expected a SkyPilot vms.csv with a header line)");
  for (const std::string& f : fields) require_utf8(f, path + ":" + std::to_string(lines.line_number()) + ": header");
  const Columns c = columns_of(fields, lines);

  SkyPilotVmFile file{path, name, cloud, {}};
  while (lines.next(fields)) {
    const std::string where = path + ":" + std::to_string(lines.line_number());
    if (fields.size() != c.count) {
      throw InputError(where + ": expected " + std::to_string(c.count) + " fields as in the header, got " +
                       std::to_string(fields.size()));
    }
    SkyPilotVmRow row;
    row.line = lines.line_number();
    row.accelerator = fields[c.accelerator];
    row.instance_type = fields[c.instance_type];
    // A CPU-only row is no offer; on GCP it may be the host VM a GPU row is attached to (skypilot_offers.cpp).
    if (row.accelerator.empty() && (cloud != "gcp" || row.instance_type.empty())) continue;
    for (const auto& [column, index] : {std::pair{"InstanceType", c.instance_type},
                                        std::pair{"AcceleratorName", c.accelerator}, std::pair{"Region", c.region}}) {
      require_utf8(fields[index], where + ": column '" + column + "'");
    }
    if (c.zone) require_utf8(fields[*c.zone], where + ": column 'AvailabilityZone'");
    if (!row.accelerator.empty()) row.accelerator_count = count_of(fields[c.accelerator_count], lines);
    row.price = price_of(fields[c.price], "Price", lines);
    row.spot_price = price_of(fields[c.spot_price], "SpotPrice", lines);
    row.region = fields[c.region];
    if (row.region.empty()) lines.fail("column 'Region'", "a region", "");
    if (c.zone) row.zone = fields[*c.zone];
    file.rows.push_back(std::move(row));
  }
  return file;
}

}  // namespace spotsim

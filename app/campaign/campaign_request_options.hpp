#pragma once
// The options of `spotsim campaign` that describe the campaign (market, jobs, rules, policies, Monte Carlo, managed
// rows, break-even), declared once and read by one function: the CLI (cli/campaign_command.cpp) and Python's
// spotsim.campaign() (python/campaign_bindings.cpp) both parse them here, so names, defaults, ranges and messages
// cannot drift apart (tests/python/test_cli_parity.py reads this schema through _spotsim.option_schema()).
// The CLI adds only what concerns its own output: --help, --quiet, --plugin, --format, --output.
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/campaign/campaign_options.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {

boost::program_options::options_description campaign_request_options();

// A campaign as its options describe it, every value checked, before any work.
struct CampaignRequest {
  SpotMarket market;
  std::string capacity;  // --capacity: recorded | unbounded
  CampaignSpec spec;
  std::string halving;                // --halving as given (the table's header)
  std::vector<std::string> policies;  // --policy, split at commas
  std::string checkpoint;
  ReplicationPlan plan;
  std::string managed_catalogue;           // "none": no managed rows
  std::optional<double> engineering_cost;  // USD per month
  std::optional<double> current_spend;     // --current-spend: USD per month on the baseline
  std::optional<std::string> baseline;     // --baseline: a row's label (resolved); none: the cheapest managed row
  bool job_stream = false;                 // --jobs (or rows): results by job size too
  InstanceLinkTable links;                 // --links, read when a job states its training (else empty)
};

// The request the parsed options describe (InputError naming the option for any bad value). `job_rows`, when not
// null, is the job stream's CSV text given in place of --jobs FILE (Python's jobs=[rows]; its lines are named
// "jobs:N").
CampaignRequest campaign_request_from(const boost::program_options::variables_map& vm,
                                      const std::string* job_rows = nullptr);

}  // namespace spotsim

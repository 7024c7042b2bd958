#pragma once
// AWS Spot Instance Advisor interruption band -> default mean spot lifetime, for AWS offers that have no recording
// (docs/advise.md#aws-default). The catalogue's "aws-advisor-band-*" sources carry these means; a test checks that
// they do, and recomputes the calibration below from the shared recordings.
#include <string>

namespace spotsim {

// Mean hours between preemptions of a p3.2xlarge (V100) spot instance, an instance the advisor puts in the ">20%"
// band in every region recorded: pooled exponential maximum-likelihood estimate over the eleven 1-node V100
// availability recordings of Wu et al., NSDI'24 (us-west-2a/2b, 2022-10/11; us-east-1a/c/d/f, us-east-2a/b,
// us-west-2a/b/c, 2023-02/03): 7,303.94 spot-available hours / 2,184 drops from available to unavailable.
// Per zone the figure ranges from 0.72 h (us-east-1a, 2023) to 10.5 h (us-west-2b, 2023).
inline constexpr double kRecordedP3MeanHours = 7303.9375 / 2184.0;

// Midpoint of an advisor band as a monthly interruption fraction: 0.025, 0.075, 0.125, 0.175, and 0.25 for the
// open ">20%" band (its lower edge plus half a band width). Band keys as in the catalogue: "lt5", "5-10",
// "10-15", "15-20", "gt20". InputError for any other key.
double aws_band_midpoint(const std::string& band);

// Default mean spot lifetime (hours, exponential) for an offer in `band`: kRecordedP3MeanHours scaled by
// midpoint(">20%") / midpoint(band), i.e. the preemption rate is taken as proportional to the advisor's
// interruption frequency, and its level is set by the one instance we have recordings of. The advisor's own
// figure read literally (a fraction p of instances interrupted per 730 h month, mean -730 h / ln(1 - p)) gives
// 2,538 h for ">20%", about 760 times the recorded 3.3 h, so only its ratios are used.
double aws_band_mean_lifetime_hours(const std::string& band);

}  // namespace spotsim

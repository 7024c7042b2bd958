#pragma once
// Text of the report's HTML and SVG: every string that comes from a user (policy specs, trace and zone names, job
// labels, the manifest) goes through html_escape, so a name such as "<script>" is shown, never run.
#include <string>
#include <string_view>

namespace spotsim {

// escape_markup() (base/text_escape.hpp) with ' as &#39;.
std::string html_escape(std::string_view text);

// A number for SVG coordinates: fixed, two decimals, no "-0.00".
std::string svg_number(double value);

// A number for people: `decimals` after the point, thousands not grouped; "–" for NaN.
std::string display_number(double value, int decimals);

// Whole US dollars for people: "$" and display_number(value, 0).
std::string display_usd(double value);

// "mean [low, high]" with the interval in a span of class "ci"; "–" when the mean is NaN.
std::string display_with_interval(double mean, double low, double high, int decimals);

}  // namespace spotsim

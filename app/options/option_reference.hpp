#pragma once
// A command's option schema (the boost::program_options::options_description the CLI parses with) as rows and as a
// Markdown reference, so that docs/options.md is written from the schema itself and cannot drift from it
// (`spotsim options`, checked by the docs.options_reference test).
#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace spotsim {

struct OptionRow {
  std::string name;                         // long name, without "--"
  std::string short_name;                   // "-r", or ""
  bool flag = false;                        // takes no value
  std::optional<std::string> default_text;  // as --help shows it; nullopt without a default
  std::string help;
};

// Every option in declaration order.
std::vector<OptionRow> option_rows(const boost::program_options::options_description& schema);

// One table: option, default, meaning.
std::string option_reference_markdown(const std::vector<OptionRow>& rows);

}  // namespace spotsim

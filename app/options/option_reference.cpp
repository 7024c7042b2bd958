#include "app/options/option_reference.hpp"

#include <boost/any.hpp>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace spotsim {

namespace po = boost::program_options;

namespace {

// Every defaulted option of the commands' schemas is text (counts and durations are read by their own rules) or a
// number: shown as the shortest text that reads back as the same value.
std::optional<std::string> default_text(const po::option_description& option) {
  boost::any value;
  if (!option.semantic()->apply_default(value)) return std::nullopt;
  if (const auto* text = boost::any_cast<std::string>(&value)) return *text;
  if (const auto* number = boost::any_cast<double>(&value)) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, *number).ptr;
    return std::string(buffer, end);
  }
  if (const auto* flag = boost::any_cast<bool>(&value)) return *flag ? "true" : "false";
  // Any other type: the text boost shows in --help, "arg (=TEXT)".
  const std::string shown = option.format_parameter();
  const std::size_t open = shown.find("(=");
  if (open == std::string::npos || shown.back() != ')') {
    throw std::logic_error("option --" + option.long_name() + ": a default the reference cannot show");
  }
  return shown.substr(open + 2, shown.size() - open - 3);
}

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::vector<OptionRow> option_rows(const po::options_description& schema) {
  std::vector<OptionRow> rows;
  for (const auto& option : schema.options()) {
    OptionRow row;
    row.name = option->long_name();
    const std::string shown = option->format_name();  // "-r [ --replications ]" or "--replications"
    if (shown.size() > 1 && shown[0] == '-' && shown[1] != '-') row.short_name = shown.substr(0, 2);
    row.flag = option->semantic()->max_tokens() == 0;
    row.default_text = default_text(*option);
    row.help = option->description();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string option_reference_markdown(const std::vector<OptionRow>& rows) {
  std::ostringstream out;
  out << "| option | default | meaning |\n|---|---|---|\n";
  for (const OptionRow& row : rows) {
    out << "| `--" << row.name << (row.flag ? "" : " VALUE") << "`";
    if (!row.short_name.empty()) out << " (`" << row.short_name << "`)";
    out << " | ";
    if (row.default_text) out << '`' << escaped(*row.default_text) << '`';
    out << " | " << escaped(row.help) << " |\n";
  }
  return out.str();
}

}  // namespace spotsim

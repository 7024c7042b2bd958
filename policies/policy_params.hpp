#pragma once
// Parameters of a policy, written "name:key=value,key=value" on the command line (e.g.
// "adaptive:window=6h,cluster=3" or "fixed:interval=30m"). Each getter records the key as used, so a misspelt
// key is reported instead of silently ignored.
#include <map>
#include <set>
#include <string>

#include "base/time.hpp"

namespace spotsim {

class PolicyParams {
 public:
  // Splits "name:k=v,k=v" into the name and its parameters; InputError on malformed text.
  static PolicyParams parse(const std::string& spec, const std::string& option);

  const std::string& name() const { return name_; }
  const std::string& spec() const { return spec_; }
  Millis duration(const std::string& key, Millis fallback) const;
  // A duration that must be > 0 (an interval, a window, a mean time): "0s" is refused, not run as a degenerate policy.
  Millis positive_duration(const std::string& key, Millis fallback) const;
  double number(const std::string& key, double fallback, double min, double max) const;
  int integer(const std::string& key, int fallback, int min, int max) const;
  bool flag(const std::string& key, bool fallback) const;
  // Text as given (a file name, e.g. "schedule:file=plan.csv"); `fallback` when absent.
  std::string text(const std::string& key, const std::string& fallback) const;
  // "name:VALUE" with no '=' anywhere after the colon: the policy's one unnamed argument (a path, which may hold
  // commas), read with text(kPositional, ...); empty when absent.
  static constexpr const char* kPositional = "";
  // Throws InputError naming every key no getter asked for.
  void reject_unused() const;

 private:
  std::string where(const std::string& key) const;
  const std::string* find(const std::string& key) const;

  std::string option_;
  std::string spec_;
  std::string name_;
  std::map<std::string, std::string> values_;
  mutable std::set<std::string> used_;
};

}  // namespace spotsim

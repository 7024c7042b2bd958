#include "steptime/kineto_trace_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/errors.hpp"
#include "steptime/bounded_json_input.hpp"
#include "steptime/compressed_text_source.hpp"
#include "steptime/op_shape_from_trace.hpp"

namespace spotsim {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

GpuVendor vendor_from_name(const std::string& device_name) {
  const std::string n = lower(device_name);
  if (n.find("amd") != std::string::npos || n.find("radeon") != std::string::npos ||
      n.find("instinct") != std::string::npos) {
    return GpuVendor::Amd;
  }
  if (n.find("nvidia") != std::string::npos || n.find("tesla") != std::string::npos ||
      n.find("geforce") != std::string::npos || n.find("quadro") != std::string::npos) {
    return GpuVendor::Nvidia;
  }
  return GpuVendor::Unknown;
}

// A JSON number the reader stores as an integer: anything outside T's range (a corrupt or hostile file) is an
// input error naming the field, never an out-of-range conversion.
template <typename T>
T integer_field(double v, const char* field) {
  const double bound = std::ldexp(1.0, std::numeric_limits<T>::digits);  // 2^31 for int32, 2^63 for int64
  if (!(v >= -bound && v < bound)) {
    std::ostringstream message;
    message << "field '" << field << "' is " << v << ": expected an integer of at most "
            << std::numeric_limits<T>::digits << " bits";
    throw InputError(message.str());
  }
  return static_cast<T>(v);
}

enum class FieldState { Missing, Number, NotNumber };

// The fields of one trace event that matter; reset (without freeing capacity) before each event.
struct EventScratch {
  std::string ph, cat, name, tid_text;
  // ts as written: integer microseconds plus a fraction (exact for epoch-based values), or a double ("1.7e15").
  FieldState ts_state = FieldState::Missing, dur_state = FieldState::Missing;
  bool ts_is_integer = false;
  std::int64_t ts_whole = 0;
  double ts_fraction = 0.0, ts_double = 0.0;
  double dur = 0.0, pid = -1.0, tid = -1.0;
  const char* non_string_field = nullptr;  // "ph", "cat" or "name" given another type
  double correlation = -1.0, device = -1.0, stream = -1.0, registers = 0.0, shared_memory = 0.0;
  double external_id = -1.0;  // args "External id" (current) / "external id" (2021): links kernels to CPU ops
  std::array<double, 3> grid{}, block{};
  int grid_n = 0, block_n = 0;
  // "Input Dims" / "Input type" of CPU operators (record_shapes=True); capacity is reused across events.
  std::vector<std::vector<double>> input_dims;
  std::vector<std::string> input_types;
  std::size_t input_dims_n = 0, input_types_bytes = 0;
  void reset() {
    ph.clear();
    cat.clear();
    name.clear();
    tid_text.clear();
    ts_state = dur_state = FieldState::Missing;
    ts_is_integer = false;
    ts_whole = 0;
    ts_fraction = ts_double = dur = 0.0;
    non_string_field = nullptr;
    pid = tid = correlation = device = stream = external_id = -1.0;
    registers = shared_memory = 0.0;
    grid_n = block_n = 0;
    input_dims_n = input_types_bytes = 0;
    input_types.clear();
  }
};

// Bounds on what one operator event's recorded inputs may hold: scratch capacity is reused across events, so
// these keep it below kMaxOperatorInputs x kMaxDimsPerInput doubles (32 MB). Real traces record tensors of fewer
// than 10 dimensions, and operators with a few dozen inputs.
constexpr std::size_t kMaxOperatorInputs = 4096;
constexpr std::size_t kMaxDimsPerInput = 1024;
constexpr std::size_t kMaxInputTypeBytes = 1u << 20;

// SAX handler: follows the nesting depth and remembers the key that introduced each level, so a value is
// recognised by (depth, key) without building a DOM. Level 1 is the top-level object.
class TraceSaxHandler {
 public:
  TraceSaxHandler(KinetoTrace& trace, const KinetoReadLimits& limits, BoundedJsonInput& input)
      : trace_(trace), limits_(limits), input_(input) {}

  bool null() { return other_value(); }
  bool boolean(bool) { return other_value(); }
  bool number_integer(std::int64_t v) {
    input_.value_read();
    if (is_event_timestamp()) return timestamp(v, 0.0);
    return number(static_cast<double>(v));
  }
  bool number_unsigned(std::uint64_t v) {
    input_.value_read();
    if (is_event_timestamp() && v <= static_cast<std::uint64_t>(INT64_MAX))
      return timestamp(static_cast<std::int64_t>(v), 0.0);
    return number(static_cast<double>(v));
  }
  bool number_float(double v, const std::string& text) {
    input_.value_read();
    if (is_event_timestamp()) {
      // "1712195495505583.250": a double holds this to 0.25 us only, and interval ends (ts + dur) would then
      // not add up; keep the integer microseconds exact and the fraction separately.
      const auto dot = text.find('.');
      if (dot != std::string::npos && text.find_first_of("eE") == std::string::npos && dot > 0 && dot < 19) {
        const double fraction = std::strtod(text.c_str() + dot, nullptr);
        return timestamp(std::strtoll(text.c_str(), nullptr, 10), text[0] == '-' ? -fraction : fraction);
      }
    }
    return number(v);
  }
  bool binary(nlohmann::json::binary_t&) { return true; }

  bool string(std::string& v) {
    input_.value_read();
    if (in_event_field()) {
      const std::string& k = key_at(event_depth_);
      if (k == "ph")
        event_.ph = v;
      else if (k == "cat")
        event_.cat = v;
      else if (k == "name")
        event_.name = v;
      else if (k == "tid")
        event_.tid_text = v;
      else
        not_a_number(k);
    } else if (event_depth_ > 0 && depth_ == event_depth_ + 2 && key_at(event_depth_) == "args" &&
               key_at(event_depth_ + 1) == "Input type") {
      event_.input_types_bytes += v.size();
      if (event_.input_types.size() >= kMaxOperatorInputs || event_.input_types_bytes > kMaxInputTypeBytes) {
        throw InputError(event_label() + ": args.Input type holds more than " + std::to_string(kMaxOperatorInputs) +
                         " entries or " + std::to_string(kMaxInputTypeBytes >> 20) +
                         " MiB; expected one type per operator input");
      }
      event_.input_types.push_back(v);
    } else if (in_device_field()) {
      if (key_at(device_depth_) == "name") device_.name = v;
    }
    return true;
  }

  bool key(std::string& k) {
    input_.value_read();
    if (depth_ < kMaxKeyDepth) keys_[static_cast<std::size_t>(depth_)] = k;
    return true;
  }

  bool start_object(std::size_t) {
    if (!enter()) return false;
    if (depth_ == 1) top_is_object_ = true;
    if (events_array_depth_ > 0 && depth_ == events_array_depth_ + 1) {
      event_depth_ = depth_;
      event_.reset();
    } else if (devices_array_depth_ > 0 && depth_ == devices_array_depth_ + 1) {
      device_depth_ = depth_;
      device_ = TraceDevice{};
    }
    return true;
  }

  bool end_object() {
    if (event_depth_ > 0 && depth_ == event_depth_) {
      finish_event();
      event_depth_ = 0;
    } else if (device_depth_ > 0 && depth_ == device_depth_) {
      device_.vendor = vendor_from_name(device_.name);
      keep_text(device_.name.size());
      trace_.devices.push_back(device_);
      device_depth_ = 0;
    }
    --depth_;
    return true;
  }

  bool start_array(std::size_t) {
    if (!enter()) return false;
    if (event_depth_ > 0 && depth_ == event_depth_ + 3 && key_at(event_depth_) == "args" &&
        key_at(event_depth_ + 1) == "Input Dims") {
      if (event_.input_dims_n >= kMaxOperatorInputs) {
        throw InputError(event_label() + ": args.Input Dims holds more than " + std::to_string(kMaxOperatorInputs) +
                         " inputs; expected one list of dimensions per operator input");
      }
      if (event_.input_dims.size() <= event_.input_dims_n) event_.input_dims.emplace_back();
      event_.input_dims[event_.input_dims_n++].clear();
      return true;
    }
    if (depth_ == 1) {  // Chrome's "JSON Array Format": the document is the event array itself
      events_array_depth_ = 1;
      saw_events_ = true;
    } else if (depth_ == 2 && top_is_object_ && key_at(1) == "traceEvents") {
      events_array_depth_ = 2;
      saw_events_ = true;
    } else if (depth_ == 2 && top_is_object_ && key_at(1) == "deviceProperties") {
      devices_array_depth_ = 2;
    }
    return true;
  }

  bool end_array() {
    if (depth_ == events_array_depth_) events_array_depth_ = 0;
    if (depth_ == devices_array_depth_) devices_array_depth_ = 0;
    --depth_;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) {
    error_ = "not valid JSON (byte " + std::to_string(position) + "): " + e.what();
    return false;
  }

  const std::string& error() const { return error_; }
  bool saw_events() const { return saw_events_; }
  bool top_is_object() const { return top_is_object_; }
  bool legacy_schema() const { return legacy_schema_; }

  // Sets GpuActivity::on_gradients for activities whose launch (CPU thread and time) lies inside a DDP reducer
  // scope. The launching operator's External id names only the innermost op (aten::copy_, aten::mul), so the
  // enclosing scope is found by time on the launching thread.
  void mark_gradient_reducer_work() {
    if (reducer_scopes_.empty()) return;
    std::sort(reducer_scopes_.begin(), reducer_scopes_.end(), [](const CpuScope& a, const CpuScope& b) {
      return a.thread != b.thread ? a.thread < b.thread : a.start_us < b.start_us;
    });
    for (GpuActivity& a : trace_.activities) {
      const auto launch = trace_.launch_time_us.find(a.correlation);
      const auto thread = trace_.launch_thread.find(a.correlation);
      if (a.correlation < 0 || launch == trace_.launch_time_us.end() || thread == trace_.launch_thread.end()) continue;
      const CpuScope probe{thread->second, launch->second, launch->second};
      auto after = std::upper_bound(reducer_scopes_.begin(), reducer_scopes_.end(), probe,
                                    [](const CpuScope& x, const CpuScope& y) {
                                      return x.thread != y.thread ? x.thread < y.thread : x.start_us < y.start_us;
                                    });
      if (after == reducer_scopes_.begin()) continue;
      const CpuScope& scope = *std::prev(after);  // the latest scope starting at or before the launch
      a.on_gradients = scope.thread == probe.thread && probe.start_us <= scope.end_us;
    }
  }

  // Relabels kernels by their launching operator, drops activities and steps longer than the rest of the trace,
  // and sorts them, once the whole file has been read.
  void finish() {
    for (const auto& [index, external_id] : kernel_external_ids_) {
      const auto op = refining_ops_.find(external_id);
      GpuActivity& a = trace_.activities[index];
      if (op != refining_ops_.end()) a.kind = refine_by_launching_op(a.kind, op->second);
      const auto shaped = shaped_ops_.find(external_id);
      if (shaped != shaped_ops_.end()) a.op = shaped->second;
    }
    mark_gradient_reducer_work();
    std::erase_if(trace_.activities, [&](const GpuActivity& a) {
      return skip_if_longer_than_trace(a.start_us, a.duration_us, TimedEventGroup::GpuActivity);
    });
    std::erase_if(trace_.steps, [&](const StepAnnotation& s) {
      return skip_if_longer_than_trace(s.start_us, s.duration_us, TimedEventGroup::StepAnnotation);
    });
    std::sort(trace_.activities.begin(), trace_.activities.end(),
              [](const GpuActivity& a, const GpuActivity& b) { return a.start_us < b.start_us; });
    std::sort(trace_.steps.begin(), trace_.steps.end(),
              [](const StepAnnotation& a, const StepAnnotation& b) { return a.start_us < b.start_us; });
  }

 private:
  static constexpr int kMaxKeyDepth = 16;  // keys deeper than any field the reader uses are not remembered

  const std::string& key_at(int depth) const {
    return keys_[static_cast<std::size_t>(std::min(depth, kMaxKeyDepth - 1))];
  }
  bool in_event_field() const { return event_depth_ > 0 && depth_ == event_depth_; }
  bool is_event_timestamp() const { return in_event_field() && key_at(depth_) == "ts"; }
  bool in_device_field() const { return device_depth_ > 0 && depth_ == device_depth_; }
  std::string event_label() const { return "event " + std::to_string(trace_.events_read); }  // 0-based

  // Opens a nesting level; its key slot is cleared so a value inside an array never matches a stale key.
  bool enter() {
    if (in_event_field()) not_a_number(key_at(depth_));  // an object or array where ts/dur/ph/cat/name belongs
    if (depth_ >= kMaxTraceJsonDepth) {
      error_ = "JSON nested more than " + std::to_string(kMaxTraceJsonDepth) +
               " levels deep; a PyTorch profiler trace nests at most 8 (is the file a trace?)";
      return false;
    }
    ++depth_;
    if (depth_ < kMaxKeyDepth) keys_[static_cast<std::size_t>(depth_)].clear();
    return true;
  }

  bool other_value() {  // null, true, false
    if (in_event_field()) not_a_number(key_at(depth_));
    return true;
  }

  // A value of the wrong type for an event field the reader uses.
  void not_a_number(const std::string& k) {
    if (k == "ts")
      event_.ts_state = FieldState::NotNumber;
    else if (k == "dur")
      event_.dur_state = FieldState::NotNumber;
    else if (k == "ph" || k == "cat" || k == "name")
      not_a_string(k);
  }
  void not_a_string(const std::string& k) {
    if (event_.non_string_field == nullptr) event_.non_string_field = k == "ph" ? "ph" : k == "cat" ? "cat" : "name";
  }

  bool timestamp(std::int64_t whole_us, double fraction_us) {
    event_.ts_state = FieldState::Number;
    event_.ts_is_integer = true;
    event_.ts_whole = whole_us;
    event_.ts_fraction = fraction_us;
    return true;
  }

  bool number(double v) {
    if (event_depth_ > 0) {
      if (depth_ == event_depth_) {
        const std::string& k = key_at(depth_);
        if (k == "ts") {
          event_.ts_state = FieldState::Number;
          event_.ts_is_integer = false;
          event_.ts_double = v;
        } else if (k == "dur") {
          event_.dur_state = FieldState::Number;
          event_.dur = v;
        } else if (k == "pid")
          event_.pid = v;
        else if (k == "tid")
          event_.tid = v;
        else if (k == "ph" || k == "cat" || k == "name")
          not_a_string(k);
      } else if (depth_ == event_depth_ + 1 && key_at(event_depth_) == "args") {
        const std::string& k = key_at(depth_);
        if (k == "correlation")
          event_.correlation = v;
        else if (k == "device")
          event_.device = v;
        else if (k == "stream")
          event_.stream = v;
        else if (k == "registers per thread")
          event_.registers = v;
        else if (k == "shared memory")
          event_.shared_memory = v;
        else if (k == "External id" || k == "external id")
          event_.external_id = v;
      } else if (depth_ == event_depth_ + 2 && key_at(event_depth_) == "args") {
        const std::string& k = key_at(event_depth_ + 1);
        if (k == "grid" && event_.grid_n < 3)
          event_.grid[static_cast<std::size_t>(event_.grid_n++)] = v;
        else if (k == "block" && event_.block_n < 3)
          event_.block[static_cast<std::size_t>(event_.block_n++)] = v;
      } else if (depth_ == event_depth_ + 3 && key_at(event_depth_) == "args" &&
                 key_at(event_depth_ + 1) == "Input Dims" && event_.input_dims_n > 0) {
        auto& dims = event_.input_dims[event_.input_dims_n - 1];
        if (dims.size() >= kMaxDimsPerInput) {
          throw InputError(event_label() + ": an args.Input Dims entry has more than " +
                           std::to_string(kMaxDimsPerInput) + " dimensions; expected a tensor's shape");
        }
        dims.push_back(v);
      }
    } else if (in_device_field()) {
      const std::string& k = key_at(depth_);
      if (k == "id")
        device_.id = integer_field<int>(v, "deviceProperties.id");
      else if (k == "numSms")
        device_.num_sms = integer_field<int>(v, "deviceProperties.numSms");
      else if (k == "totalGlobalMem")
        device_.total_memory_bytes = v;
      else if (k == "computeMajor")
        device_.compute_major = integer_field<int>(v, "deviceProperties.computeMajor");
      else if (k == "computeMinor")
        device_.compute_minor = integer_field<int>(v, "deviceProperties.computeMinor");
    }
    return true;
  }

  // Every record the trace keeps goes through here, so a hostile file cannot grow memory past the limits.
  void keep_record() {
    if (++kept_records_ > limits_.max_kept_events) {
      throw InputError("more than " + std::to_string(limits_.max_kept_events) +
                       " events kept (GPU activities, kernel launches, steps, operators, devices), the reader's limit "
                       "(60 times the largest real trace in the shared data); profile fewer steps "
                       "(torch.profiler.schedule active=) or split the trace");
    }
  }
  void keep_text(std::size_t bytes) {
    keep_record();
    kept_text_bytes_ += bytes;
    if (kept_text_bytes_ > limits_.max_kept_text_bytes) {
      throw InputError("more than " + std::to_string(limits_.max_kept_text_bytes >> 20) +
                       " MiB of distinct kernel, step and operator names, the reader's limit; expected a PyTorch "
                       "profiler trace (its names repeat), is the file corrupt?");
    }
  }

  std::uint32_t intern(const std::string& name) {
    const auto [it, inserted] = name_ids_.try_emplace(name, static_cast<std::uint32_t>(trace_.names.size()));
    if (inserted) {
      keep_text(name.size());
      trace_.names.push_back(name);
    }
    return it->second;
  }

  static std::int32_t stream_of(const EventScratch& e) {
    if (e.stream >= 0) return integer_field<std::int32_t>(e.stream, "args.stream");
    if (e.tid >= 0) return integer_field<std::int32_t>(e.tid, "tid");
    // Legacy schema: tid "stream 7".
    const auto digits = e.tid_text.find_first_of("0123456789");
    return digits == std::string::npos
               ? 0
               : integer_field<std::int32_t>(std::strtod(e.tid_text.c_str() + digits, nullptr), "tid");
  }

  // The CPU thread of a launch or step annotation: numeric `tid`, or the digits of a string tid (2021 schema); -1
  // when absent or not a number of at most 63 bits.
  static std::int64_t thread_of(const EventScratch& e) {
    if (e.tid >= 0) return e.tid <= 9e18 ? static_cast<std::int64_t>(e.tid) : -1;
    const auto digits = e.tid_text.find_first_of("0123456789");
    if (digits == std::string::npos) return -1;
    const double value = std::strtod(e.tid_text.c_str() + digits, nullptr);
    return value <= 9e18 ? static_cast<std::int64_t>(value) : -1;
  }

  // The event's start relative to the first complete event's (doubles then hold it to well under a nanosecond;
  // Kineto writes epoch-based microseconds, ~1.7e15), or why it cannot be used.
  std::optional<SkipReason> start_of(double& start_us) {
    if (event_.ts_state == FieldState::Missing) return SkipReason::MissingTs;
    if (event_.ts_state == FieldState::NotNumber) return SkipReason::NonNumericTs;
    const double absolute = event_.ts_is_integer ? static_cast<double>(event_.ts_whole) : event_.ts_double;
    if (!(std::abs(absolute) <= kMaxTimestampUs)) return SkipReason::AbsurdTs;  // also NaN and inf
    const std::int64_t whole = event_.ts_is_integer ? event_.ts_whole : static_cast<std::int64_t>(event_.ts_double);
    if (!origin_set_) {
      origin_us_ = whole;
      origin_set_ = true;
    }
    // Both within ±1e17, so the difference cannot overflow.
    start_us = event_.ts_is_integer ? static_cast<double>(whole - origin_us_) + event_.ts_fraction
                                    : event_.ts_double - static_cast<double>(origin_us_);
    if (!(std::abs(start_us) <= kMaxTraceSpanUs)) return SkipReason::AbsurdTs;
    return std::nullopt;
  }
  std::optional<SkipReason> duration_problem() const {
    if (event_.dur_state == FieldState::Missing) return SkipReason::MissingDur;
    if (event_.dur_state == FieldState::NotNumber) return SkipReason::NonNumericDur;
    if (event_.dur < 0.0) return SkipReason::NegativeDur;
    if (!(event_.dur <= kMaxTraceSpanUs)) return SkipReason::AbsurdDur;
    return std::nullopt;
  }

  // The trace's extent over complete events, with the two latest ends so an event can be compared with the
  // span of the others.
  void extend_trace(double start_us, double end_us) {
    earliest_start_ = std::min(earliest_start_, start_us);
    if (end_us >= latest_end_) {
      second_end_ = latest_end_;
      latest_end_ = end_us;
    } else {
      second_end_ = std::max(second_end_, end_us);
    }
  }
  bool skip_if_longer_than_trace(double start_us, double duration_us, TimedEventGroup group) {
    const double others_end = start_us + duration_us >= latest_end_ ? second_end_ : latest_end_;
    if (!(duration_us > std::max(kMinSpanForDurCheckUs, others_end - earliest_start_))) return false;
    trace_.skipped.add(group, SkipReason::LongerThanTrace);
    return true;
  }

  // Counts an event of `group`; returns false (and counts why) when its time fields make it unusable.
  bool usable(TimedEventGroup group, std::optional<SkipReason> problem) {
    ++trace_.skipped.seen[static_cast<std::size_t>(group)];
    if (problem) trace_.skipped.add(group, *problem);
    return !problem;
  }

  void finish_event() {
    if (event_.non_string_field != nullptr) {
      throw InputError(event_label() + " of traceEvents: field '" + event_.non_string_field +
                       "' is not a string; expected a Chrome trace event (ph, cat and name are strings)");
    }
    ++trace_.events_read;
    const bool complete = event_.ph == "X";
    double start = 0.0;
    const std::optional<SkipReason> ts_problem = complete ? start_of(start) : SkipReason::NotComplete;
    const std::optional<SkipReason> dur_problem = complete ? duration_problem() : SkipReason::NotComplete;
    if (!ts_problem) extend_trace(start, start + (dur_problem ? 0.0 : event_.dur));
    const std::optional<SkipReason> time_problem = ts_problem ? ts_problem : dur_problem;

    const std::string cat = lower(event_.cat);
    const bool is_kernel = cat == "kernel";
    const bool is_memcpy = cat == "gpu_memcpy" || cat == "memcpy";
    const bool is_memset = cat == "gpu_memset" || cat == "memset";
    if (is_kernel || is_memcpy || is_memset) {
      if (!usable(TimedEventGroup::GpuActivity, time_problem)) return;
      if (event_.cat == "Kernel") legacy_schema_ = true;
      GpuActivity a;
      a.start_us = start;
      a.duration_us = event_.dur;
      a.correlation =
          event_.correlation >= 0 ? integer_field<std::int64_t>(event_.correlation, "args.correlation") : -1;
      a.device =
          integer_field<std::int32_t>(event_.device >= 0 ? event_.device : std::max(event_.pid, 0.0), "args.device");
      a.stream = stream_of(event_);
      a.name_id = intern(event_.name);
      a.kind = is_kernel ? classify_kernel(event_.name) : is_memcpy ? memcpy_kind() : memset_kind();
      if (event_.grid_n == 3)
        a.grid_blocks = integer_field<std::int64_t>(event_.grid[0] * event_.grid[1] * event_.grid[2], "args.grid");
      if (event_.block_n == 3)
        a.block_threads =
            integer_field<std::int32_t>(event_.block[0] * event_.block[1] * event_.block[2], "args.block");
      a.registers_per_thread = integer_field<std::int32_t>(event_.registers, "args.registers per thread");
      a.shared_memory_bytes = integer_field<std::int32_t>(event_.shared_memory, "args.shared memory");
      a.host_transfer = is_memcpy && event_.name.find("DtoD") == std::string::npos;
      if (is_kernel && event_.external_id >= 0) {
        keep_record();
        kernel_external_ids_.emplace_back(trace_.activities.size(),
                                          integer_field<std::int64_t>(event_.external_id, "args.External id"));
      }
      keep_record();
      trace_.activities.push_back(a);
      return;
    }
    // A launch's dur is not used: only its ts (which step launched the kernel).
    if ((cat == "cuda_runtime" || cat == "runtime" || cat == "cuda_driver") && event_.correlation >= 0) {
      if (!usable(TimedEventGroup::KernelLaunch, ts_problem)) return;
      keep_record();
      const auto correlation = integer_field<std::int64_t>(event_.correlation, "args.correlation");
      trace_.launch_time_us[correlation] = start;
      if (const std::int64_t thread = thread_of(event_); thread >= 0) trace_.launch_thread[correlation] = thread;
      return;
    }
    // CPU-side step markers: `user_annotation` (current) or `Operator` (legacy); the GPU-side copy
    // (`gpu_user_annotation`) repeats them and is ignored.
    if ((cat == "user_annotation" || cat == "operator" || cat == "cpu_op") &&
        event_.name.rfind("ProfilerStep#", 0) == 0) {
      if (!usable(TimedEventGroup::StepAnnotation, time_problem)) return;
      keep_text(event_.name.size());
      trace_.steps.push_back({event_.name, start, event_.dur, thread_of(event_)});
      return;
    }
    // DistributedDataParallel's reducer scopes (record_function "torch.distributed.ddp.reducer::copy_bucket_to_grad",
    // "torch::distributed::reducer::mul_out"): kernels launched inside them work on gradients
    // (mark_gradient_reducer_work).
    if (complete && !time_problem && (cat == "cpu_op" || cat == "user_annotation" || cat == "operator") &&
        lower(event_.name).find("reducer::") != std::string::npos) {
      if (const std::int64_t thread = thread_of(event_); thread >= 0) {
        keep_record();
        reducer_scopes_.push_back({thread, start, start + event_.dur});
      }
    }
    // The operator a kernel was launched from (its "External id"); only the ones that change a kernel's
    // class are kept (kernel_classifier.hpp, refine_by_launching_op). Their times are not used.
    if (complete && (cat == "cpu_op" || cat == "operator") && event_.external_id >= 0) {
      const auto external_id = integer_field<std::int64_t>(event_.external_id, "args.External id");
      if (launching_op_refines(event_.name) && refining_ops_.emplace(external_id, event_.name).second) {
        keep_text(event_.name.size());
      }
      if (is_shaped_operator(event_.name)) {
        const std::span<const std::vector<double>> dims(event_.input_dims.data(), event_.input_dims_n);
        const OpShape shape = op_shape_from_inputs(event_.name, dims, event_.input_types);
        if (shape.kind != OpKind::None) {
          keep_record();
          shaped_ops_.emplace(external_id, static_cast<std::int32_t>(trace_.ops.size()));
          trace_.ops.push_back(shape);
        }
      }
    }
  }

  KinetoTrace& trace_;
  const KinetoReadLimits& limits_;
  BoundedJsonInput& input_;
  int depth_ = 0;
  std::array<std::string, kMaxKeyDepth> keys_;
  int events_array_depth_ = 0, devices_array_depth_ = 0, event_depth_ = 0, device_depth_ = 0;
  bool top_is_object_ = false, saw_events_ = false, legacy_schema_ = false, origin_set_ = false;
  std::int64_t origin_us_ = 0;
  double earliest_start_ = std::numeric_limits<double>::infinity();
  double latest_end_ = -std::numeric_limits<double>::infinity(), second_end_ = -std::numeric_limits<double>::infinity();
  std::size_t kept_records_ = 0;
  std::uint64_t kept_text_bytes_ = 0;
  EventScratch event_;
  TraceDevice device_;
  std::map<std::string, std::uint32_t, std::less<>> name_ids_;
  std::vector<std::pair<std::size_t, std::int64_t>> kernel_external_ids_;  // activity index, External id
  std::unordered_map<std::int64_t, std::string> refining_ops_;             // External id -> operator name
  std::unordered_map<std::int64_t, std::int32_t> shaped_ops_;              // External id -> index in trace_.ops
  struct CpuScope {
    std::int64_t thread = -1;
    double start_us = 0.0, end_us = 0.0;
  };
  std::vector<CpuScope> reducer_scopes_;  // DDP reducer record_function scopes
  std::string error_;
};

}  // namespace

const TraceDevice* KinetoTrace::main_device() const {
  const int id = main_device_id();
  for (const auto& d : devices) {
    if (d.id == id) return &d;
  }
  // ROCm traces list device 0 only while kernels run on the GPU the rank used: on a homogeneous node any
  // entry describes it.
  if (!devices.empty() && std::all_of(devices.begin(), devices.end(),
                                      [&](const TraceDevice& d) { return d.name == devices.front().name; })) {
    return &devices.front();
  }
  return nullptr;
}

int KinetoTrace::main_device_id() const {
  std::map<int, double> busy;
  for (const auto& a : activities) busy[a.device] += a.duration_us;
  int best = 0;
  double best_time = -1.0;
  for (const auto& [device, time] : busy) {
    if (time > best_time) {
      best = device;
      best_time = time;
    }
  }
  return best;
}

KinetoTrace read_kineto_trace(const std::string& path, const KinetoReadLimits& limits,
                              const CompressedTextSource::Progress& progress) {
  KinetoTrace trace;
  trace.path = path;
  CompressedTextSource source(path);
  if (progress) source.on_progress(progress);
  BoundedJsonInput bounded(source, limits.max_json_bytes, limits.max_token_bytes);
  std::istream stream(&bounded);
  TraceSaxHandler handler(trace, limits, bounded);
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(stream, &handler);
  } catch (const InputError& e) {  // a field the handler rejected, or a limit of the bounded input
    throw InputError(path + ": " + e.what());
  }
  if (!source.read_error().empty()) {
    throw InputError(path + ": the file is truncated or corrupt (zlib: " + source.read_error() +
                     "); expected a complete gzip'd or plain Chrome-trace JSON file");
  }
  if (!ok) throw InputError(path + ": " + handler.error());
  if (!handler.saw_events()) {
    throw InputError(path +
                     ": not a Chrome trace: expected a JSON object with a 'traceEvents' array (PyTorch "
                     "profiler export_chrome_trace output)");
  }
  handler.finish();
  check_skipped_events(trace.skipped, path);
  const bool any_kernel = std::any_of(trace.activities.begin(), trace.activities.end(), [](const GpuActivity& a) {
    return a.kind.family != KernelFamily::Memcpy && a.kind.family != KernelFamily::Memset;
  });
  if (!any_kernel) {
    throw InputError(path +
                     ": no GPU kernel events: expected events with cat 'kernel' (or 'Kernel' in the 2021 "
                     "schema); was the profiler run with ProfilerActivity.CUDA?");
  }
  trace.schema = handler.legacy_schema() ? TraceSchema::Legacy : TraceSchema::Current;
  return trace;
}

}  // namespace spotsim

#include "sim/steptime/kineto_trace_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <istream>
#include <limits>
#include <map>
#include <span>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/errors.hpp"
#include "sim/steptime/compressed_text_source.hpp"
#include "sim/steptime/op_shape_from_trace.hpp"

namespace spotsim {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
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
    message << "field '" << field << "' is " << v << ": expected an integer of at most " << std::numeric_limits<T>::digits
            << " bits";
    throw InputError(message.str());
  }
  return static_cast<T>(v);
}

// The fields of one trace event that matter; reset (without freeing capacity) before each event.
struct EventScratch {
  std::string ph, cat, name, tid_text;
  double ts = 0.0, dur = -1.0, pid = -1.0, tid = -1.0;
  bool has_ts = false;
  double correlation = -1.0, device = -1.0, stream = -1.0, registers = 0.0, shared_memory = 0.0;
  double external_id = -1.0;  // args "External id" (current) / "external id" (2021): links kernels to CPU ops
  std::array<double, 3> grid{}, block{};
  int grid_n = 0, block_n = 0;
  // "Input Dims" / "Input type" of CPU operators (record_shapes=True); capacity is reused across events.
  std::vector<std::vector<double>> input_dims;
  std::vector<std::string> input_types;
  std::size_t input_dims_n = 0;
  void reset() {
    ph.clear(); cat.clear(); name.clear(); tid_text.clear();
    ts = 0.0;
    has_ts = false;
    dur = pid = tid = correlation = device = stream = external_id = -1.0;
    registers = shared_memory = 0.0;
    grid_n = block_n = 0;
    input_dims_n = 0;
    input_types.clear();
  }
};

// SAX handler: follows the nesting depth and remembers the key that introduced each level, so a value is
// recognised by (depth, key) without building a DOM. Level 1 is the top-level object.
class TraceSaxHandler {
 public:
  explicit TraceSaxHandler(KinetoTrace& trace) : trace_(trace) {}

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(std::int64_t v) {
    if (is_event_timestamp()) return timestamp(v, 0.0);
    return number(static_cast<double>(v));
  }
  bool number_unsigned(std::uint64_t v) {
    if (is_event_timestamp() && v <= static_cast<std::uint64_t>(INT64_MAX)) return timestamp(static_cast<std::int64_t>(v), 0.0);
    return number(static_cast<double>(v));
  }
  bool number_float(double v, const std::string& text) {
    if (is_event_timestamp()) {
      // "1712195495505583.250": a double holds this to 0.25 us only, and interval ends (ts + dur) would then
      // not add up; keep the integer microseconds exact and the fraction separately.
      const auto dot = text.find('.');
      if (dot != std::string::npos && text.find_first_of("eE") == std::string::npos && dot > 0 && dot < 19) {
        return timestamp(std::strtoll(text.c_str(), nullptr, 10), std::strtod(text.c_str() + dot, nullptr));
      }
    }
    return number(v);
  }
  bool binary(nlohmann::json::binary_t&) { return true; }

  bool string(std::string& v) {
    if (in_event_field()) {
      const std::string& k = key_at(event_depth_);
      if (k == "ph") event_.ph = v;
      else if (k == "cat") event_.cat = v;
      else if (k == "name") event_.name = v;
      else if (k == "tid") event_.tid_text = v;
    } else if (event_depth_ > 0 && depth_ == event_depth_ + 2 && key_at(event_depth_) == "args" &&
               key_at(event_depth_ + 1) == "Input type") {
      event_.input_types.push_back(v);
    } else if (in_device_field()) {
      if (key_at(device_depth_) == "name") device_.name = v;
    }
    return true;
  }

  bool key(std::string& k) {
    if (depth_ < kMaxDepth) keys_[depth_] = k;
    return true;
  }

  bool start_object(std::size_t) {
    ++depth_;
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
      trace_.devices.push_back(device_);
      device_depth_ = 0;
    }
    --depth_;
    return true;
  }

  bool start_array(std::size_t) {
    ++depth_;
    if (event_depth_ > 0 && depth_ == event_depth_ + 3 && key_at(event_depth_) == "args" &&
        key_at(event_depth_ + 1) == "Input Dims") {
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

  // Relabels kernels by their launching operator and sorts activities once the whole file has been read.
  void finish() {
    for (const auto& [index, external_id] : kernel_external_ids_) {
      const auto op = refining_ops_.find(external_id);
      GpuActivity& a = trace_.activities[index];
      if (op != refining_ops_.end()) a.kind = refine_by_launching_op(a.kind, op->second);
      const auto shaped = shaped_ops_.find(external_id);
      if (shaped != shaped_ops_.end()) a.op = shaped->second;
    }
    std::sort(trace_.activities.begin(), trace_.activities.end(),
              [](const GpuActivity& a, const GpuActivity& b) { return a.start_us < b.start_us; });
    std::sort(trace_.steps.begin(), trace_.steps.end(),
              [](const StepAnnotation& a, const StepAnnotation& b) { return a.start_us < b.start_us; });
  }

 private:
  static constexpr int kMaxDepth = 16;

  const std::string& key_at(int depth) const { return keys_[static_cast<std::size_t>(std::min(depth, kMaxDepth - 1))]; }
  bool in_event_field() const { return event_depth_ > 0 && depth_ == event_depth_; }
  bool is_event_timestamp() const { return in_event_field() && key_at(depth_) == "ts"; }

  // Timestamps are kept relative to the first one seen, so doubles hold them to well under a nanosecond.
  bool timestamp(std::int64_t whole_us, double fraction_us) {
    if (!origin_set_) {
      origin_us_ = whole_us;
      origin_set_ = true;
    }
    std::int64_t relative_us = 0;
    if (__builtin_sub_overflow(whole_us, origin_us_, &relative_us)) {
      throw InputError("field 'ts' is " + std::to_string(whole_us) + " us, too far from the first timestamp (" +
                       std::to_string(origin_us_) + " us) to be the same trace");
    }
    event_.ts = static_cast<double>(relative_us) + (whole_us < 0 ? -fraction_us : fraction_us);
    event_.has_ts = true;
    return true;
  }
  bool in_device_field() const { return device_depth_ > 0 && depth_ == device_depth_; }

  bool number(double v) {
    if (event_depth_ > 0) {
      if (depth_ == event_depth_) {
        const std::string& k = key_at(depth_);
        if (k == "ts") {
          event_.ts = v - static_cast<double>(origin_us_);
          event_.has_ts = true;
        }
        else if (k == "dur") event_.dur = v;
        else if (k == "pid") event_.pid = v;
        else if (k == "tid") event_.tid = v;
      } else if (depth_ == event_depth_ + 1 && key_at(event_depth_) == "args") {
        const std::string& k = key_at(depth_);
        if (k == "correlation") event_.correlation = v;
        else if (k == "device") event_.device = v;
        else if (k == "stream") event_.stream = v;
        else if (k == "registers per thread") event_.registers = v;
        else if (k == "shared memory") event_.shared_memory = v;
        else if (k == "External id" || k == "external id") event_.external_id = v;
      } else if (depth_ == event_depth_ + 2 && key_at(event_depth_) == "args") {
        const std::string& k = key_at(event_depth_ + 1);
        if (k == "grid" && event_.grid_n < 3) event_.grid[static_cast<std::size_t>(event_.grid_n++)] = v;
        else if (k == "block" && event_.block_n < 3) event_.block[static_cast<std::size_t>(event_.block_n++)] = v;
      } else if (depth_ == event_depth_ + 3 && key_at(event_depth_) == "args" &&
                 key_at(event_depth_ + 1) == "Input Dims" && event_.input_dims_n > 0) {
        event_.input_dims[event_.input_dims_n - 1].push_back(v);
      }
    } else if (in_device_field()) {
      const std::string& k = key_at(depth_);
      if (k == "id") device_.id = integer_field<int>(v, "deviceProperties.id");
      else if (k == "numSms") device_.num_sms = integer_field<int>(v, "deviceProperties.numSms");
      else if (k == "totalGlobalMem") device_.total_memory_bytes = v;
      else if (k == "computeMajor") device_.compute_major = integer_field<int>(v, "deviceProperties.computeMajor");
      else if (k == "computeMinor") device_.compute_minor = integer_field<int>(v, "deviceProperties.computeMinor");
    }
    return true;
  }

  std::uint32_t intern(const std::string& name) {
    const auto [it, inserted] = name_ids_.try_emplace(name, static_cast<std::uint32_t>(trace_.names.size()));
    if (inserted) trace_.names.push_back(name);
    return it->second;
  }

  static std::int32_t stream_of(const EventScratch& e) {
    if (e.stream >= 0) return integer_field<std::int32_t>(e.stream, "args.stream");
    if (e.tid >= 0) return integer_field<std::int32_t>(e.tid, "tid");
    // Legacy schema: tid "stream 7".
    const auto digits = e.tid_text.find_first_of("0123456789");
    return digits == std::string::npos ? 0 : integer_field<std::int32_t>(std::strtod(e.tid_text.c_str() + digits, nullptr), "tid");
  }

  void finish_event() {
    ++trace_.events_read;
    if (event_.ph != "X" || !event_.has_ts || event_.dur < 0.0) return;
    const std::string cat = lower(event_.cat);
    const bool is_kernel = cat == "kernel";
    const bool is_memcpy = cat == "gpu_memcpy" || cat == "memcpy";
    const bool is_memset = cat == "gpu_memset" || cat == "memset";
    if (is_kernel || is_memcpy || is_memset) {
      if (event_.cat == "Kernel") legacy_schema_ = true;
      GpuActivity a;
      a.start_us = event_.ts;
      a.duration_us = event_.dur;
      a.correlation = event_.correlation >= 0 ? integer_field<std::int64_t>(event_.correlation, "args.correlation") : -1;
      a.device = integer_field<std::int32_t>(event_.device >= 0 ? event_.device : std::max(event_.pid, 0.0), "args.device");
      a.stream = stream_of(event_);
      a.name_id = intern(event_.name);
      a.kind = is_kernel ? classify_kernel(event_.name) : is_memcpy ? memcpy_kind() : memset_kind();
      if (event_.grid_n == 3) a.grid_blocks = integer_field<std::int64_t>(event_.grid[0] * event_.grid[1] * event_.grid[2], "args.grid");
      if (event_.block_n == 3) a.block_threads = integer_field<std::int32_t>(event_.block[0] * event_.block[1] * event_.block[2], "args.block");
      a.registers_per_thread = integer_field<std::int32_t>(event_.registers, "args.registers per thread");
      a.shared_memory_bytes = integer_field<std::int32_t>(event_.shared_memory, "args.shared memory");
      a.host_transfer = is_memcpy && event_.name.find("DtoD") == std::string::npos;
      if (is_kernel && event_.external_id >= 0) {
        kernel_external_ids_.emplace_back(trace_.activities.size(), integer_field<std::int64_t>(event_.external_id, "args.External id"));
      }
      trace_.activities.push_back(a);
      return;
    }
    if ((cat == "cuda_runtime" || cat == "runtime" || cat == "cuda_driver") && event_.correlation >= 0) {
      trace_.launch_time_us[integer_field<std::int64_t>(event_.correlation, "args.correlation")] = event_.ts;
      return;
    }
    // CPU-side step markers: `user_annotation` (current) or `Operator` (legacy); the GPU-side copy
    // (`gpu_user_annotation`) repeats them and is ignored.
    if ((cat == "user_annotation" || cat == "operator" || cat == "cpu_op") &&
        event_.name.rfind("ProfilerStep#", 0) == 0) {
      trace_.steps.push_back({event_.name, event_.ts, event_.dur});
      return;
    }
    // The operator a kernel was launched from (its "External id"); only the ones that change a kernel's
    // class are kept (kernel_classifier.hpp, refine_by_launching_op).
    if ((cat == "cpu_op" || cat == "operator") && event_.external_id >= 0) {
      const auto external_id = integer_field<std::int64_t>(event_.external_id, "args.External id");
      if (launching_op_refines(event_.name)) refining_ops_.emplace(external_id, event_.name);
      if (is_shaped_operator(event_.name)) {
        const std::span<const std::vector<double>> dims(event_.input_dims.data(), event_.input_dims_n);
        const OpShape shape = op_shape_from_inputs(event_.name, dims, event_.input_types);
        if (shape.kind != OpKind::None) {
          shaped_ops_.emplace(external_id, static_cast<std::int32_t>(trace_.ops.size()));
          trace_.ops.push_back(shape);
        }
      }
    }
  }

  KinetoTrace& trace_;
  int depth_ = 0;
  std::array<std::string, kMaxDepth> keys_;
  int events_array_depth_ = 0, devices_array_depth_ = 0, event_depth_ = 0, device_depth_ = 0;
  bool top_is_object_ = false, saw_events_ = false, legacy_schema_ = false, origin_set_ = false;
  std::int64_t origin_us_ = 0;
  EventScratch event_;
  TraceDevice device_;
  std::map<std::string, std::uint32_t, std::less<>> name_ids_;
  std::vector<std::pair<std::size_t, std::int64_t>> kernel_external_ids_;  // activity index, External id
  std::unordered_map<std::int64_t, std::string> refining_ops_;          // External id -> operator name
  std::unordered_map<std::int64_t, std::int32_t> shaped_ops_;          // External id -> index in trace_.ops
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
  if (!devices.empty() && std::all_of(devices.begin(), devices.end(), [&](const TraceDevice& d) { return d.name == devices.front().name; })) {
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

KinetoTrace read_kineto_trace(const std::string& path) {
  KinetoTrace trace;
  trace.path = path;
  CompressedTextSource source(path);
  std::istream stream(&source);
  TraceSaxHandler handler(trace);
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(stream, &handler);
  } catch (const InputError& e) {  // a field the handler rejected
    throw InputError(path + ": " + e.what());
  }
  if (!source.read_error().empty()) {
    throw InputError(path + ": the file is truncated or corrupt (zlib: " + source.read_error() +
                     "); expected a complete gzip'd or plain Chrome-trace JSON file");
  }
  if (!ok) throw InputError(path + ": " + handler.error());
  if (!handler.saw_events()) {
    throw InputError(path + ": not a Chrome trace: expected a JSON object with a 'traceEvents' array (PyTorch "
                     "profiler export_chrome_trace output)");
  }
  handler.finish();
  const bool any_kernel = std::any_of(trace.activities.begin(), trace.activities.end(), [](const GpuActivity& a) {
    return a.kind.family != KernelFamily::Memcpy && a.kind.family != KernelFamily::Memset;
  });
  if (!any_kernel) {
    throw InputError(path + ": no GPU kernel events: expected events with cat 'kernel' (or 'Kernel' in the 2021 "
                     "schema); was the profiler run with ProfilerActivity.CUDA?");
  }
  trace.schema = handler.legacy_schema() ? TraceSchema::Legacy : TraceSchema::Current;
  return trace;
}

}  // namespace spotsim

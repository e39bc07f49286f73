// The Chrome trace-event format (the "JSON Object Format" of the Trace Event Format document,
// read by Perfetto and chrome://tracing): host events are complete events ("ph": "X") with ts and
// dur in microseconds, memory events are thread-scoped instant events ("i") plus a counter
// ("C") of allocated and reserved bytes per place. Times are written as exact decimals of the
// nanosecond clock (us with 3 decimals), so a loaded trace has the recorded nanoseconds and
// nesting survives the round trip. Our own facts (session span, CPU utilization) go in
// "otherData", which viewers ignore.

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "skiff/base/atomic_file.h"
#include "skiff/base/error.h"
#include "skiff/base/str.h"
#include "skiff/profiler/json.h"
#include "skiff/profiler/profiler.h"

namespace skiff::profiler {

namespace {

constexpr const char* kMemoryCat = "Memory";

std::string us_text(int64_t ns) {
  const char* sign = ns < 0 ? "-" : "";
  const uint64_t a = ns < 0 ? static_cast<uint64_t>(-ns) : static_cast<uint64_t>(ns);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%s%llu.%03llu", sign, static_cast<unsigned long long>(a / 1000),
                static_cast<unsigned long long>(a % 1000));
  return buf;
}

// "12.345" (microseconds) -> 12345 ns, exactly for up to 3 decimals.
int64_t ns_of_us_text(const std::string& t, const std::string& origin) {
  size_t i = 0;
  const bool neg = !t.empty() && t[0] == '-';
  if (neg) ++i;
  int64_t whole = 0, frac = 0;
  int digits = 0;
  bool ok = i < t.size();
  for (; i < t.size() && t[i] != '.'; ++i) {
    ok = ok && t[i] >= '0' && t[i] <= '9';
    whole = whole * 10 + (t[i] - '0');
  }
  if (i < t.size()) {
    for (++i; i < t.size(); ++i, ++digits) {
      if (t[i] < '0' || t[i] > '9') {
        ok = false;
        break;
      }
      if (digits < 3) frac = frac * 10 + (t[i] - '0');
    }
  }
  SKIFF_ENFORCE(ok, kIOError, "load_profiler_result", origin, "times as decimal numbers", t);
  for (; digits < 3; ++digits) frac *= 10;
  const int64_t ns = whole * 1000 + frac;
  return neg ? -ns : ns;
}

int64_t int_of(const json::Value* v) {
  if (v == nullptr) return 0;
  if (v->kind == json::Value::kString || v->kind == json::Value::kNumber) {
    return std::strtoll(v->text.c_str(), nullptr, 0);
  }
  return 0;
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string ProfilerResult::to_chrome_trace() const {
  std::ostringstream os;
  const std::string pid_s = std::to_string(pid);
  os << "{\n\"displayTimeUnit\": \"ms\",\n\"traceEvents\": [\n";
  bool first = true;
  auto sep = [&] {
    if (!first) os << ",\n";
    first = false;
  };
  sep();
  os << "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " << pid_s
     << ", \"tid\": 0, \"args\": {\"name\": \"skiff (pid " << pid_s << ")\"}}";
  std::set<uint64_t> tids;
  for (const HostEvent& e : events) tids.insert(e.tid);
  for (const MemEvent& m : mem_events) tids.insert(m.tid);
  for (uint64_t tid : tids) {
    auto it = thread_names.find(tid);
    const std::string name =
        it != thread_names.end() && !it->second.empty() ? it->second : str("thread ", tid);
    sep();
    os << "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " << pid_s << ", \"tid\": " << tid
       << ", \"args\": {\"name\": " << json::quote(name) << "}}";
  }
  for (const HostEvent& e : events) {
    sep();
    os << "{\"name\": " << json::quote(e.name) << ", \"cat\": \"" << event_type_name(e.type)
       << "\", \"ph\": \"X\", \"ts\": " << us_text(e.start_ns)
       << ", \"dur\": " << us_text(e.end_ns - e.start_ns) << ", \"pid\": " << pid_s
       << ", \"tid\": " << e.tid << ", \"args\": {";
    for (size_t i = 0; i < e.args.size(); ++i) {
      os << (i ? ", " : "") << json::quote(e.args[i].first) << ": "
         << json::quote(e.args[i].second);
    }
    os << "}}";
  }
  for (const MemEvent& m : mem_events) {
    sep();
    os << "{\"name\": \"" << mem_event_type_name(m.type) << "\", \"cat\": \"" << kMemoryCat
       << "\", \"ph\": \"i\", \"s\": \"t\", \"ts\": " << us_text(m.ts_ns) << ", \"pid\": " << pid_s
       << ", \"tid\": " << m.tid << ", \"args\": {\"place\": " << json::quote(m.place)
       << ", \"addr\": \"0x" << std::hex << m.addr << std::dec << "\", \"bytes\": " << m.bytes
       << ", \"allocated\": " << m.allocated << ", \"reserved\": " << m.reserved
       << ", \"peak_allocated\": " << m.peak_allocated << ", \"peak_reserved\": " << m.peak_reserved
       << "}}";
    sep();
    os << "{\"name\": " << json::quote("Memory " + m.place)
       << ", \"ph\": \"C\", \"ts\": " << us_text(m.ts_ns) << ", \"pid\": " << pid_s
       << ", \"args\": {\"allocated\": " << m.allocated << ", \"reserved\": " << m.reserved << "}}";
  }
  os << "\n],\n\"otherData\": {\"producer\": \"skiff.profiler\", \"version\": \"1\", "
     << "\"start_ns\": \"" << start_ns << "\", \"end_ns\": \"" << end_ns << "\", \"pid\": \"" << pid
     << "\"";
  for (const auto& [k, v] : extra_info) os << ", " << json::quote(k) << ": " << json::quote(v);
  os << "}\n}\n";
  return os.str();
}

void ProfilerResult::save(const std::string& path, const std::string& format) const {
  SKIFF_ENFORCE(format == "json", kUnimplemented, "profiler export", "format",
                "'json' (the Chrome trace; protobuf export is not built)", format);
  write_file_atomically(path, to_chrome_trace(), str("profiler export '", path, "'"));
}

ProfilerResult ProfilerResult::from_chrome_trace(const std::string& text,
                                                 const std::string& origin) {
  const json::Value doc = json::parse(text, origin);
  const json::Value* trace = doc.find("traceEvents");
  SKIFF_ENFORCE(
      doc.kind == json::Value::kObject && trace != nullptr && trace->kind == json::Value::kArray,
      kIOError, "load_profiler_result", origin, "a Chrome trace object with a traceEvents array",
      "no traceEvents array");
  ProfilerResult r;
  if (const json::Value* other = doc.find("otherData")) {
    for (const auto& [k, v] : other->members) {
      if (k == "start_ns") {
        r.start_ns = int_of(&v);
      } else if (k == "end_ns") {
        r.end_ns = int_of(&v);
      } else if (k == "pid") {
        r.pid = int_of(&v);
      } else if (k != "producer" && k != "version" && v.kind == json::Value::kString) {
        r.extra_info[k] = v.text;
      }
    }
  }
  for (const json::Value& e : trace->items) {
    const json::Value* ph = e.find("ph");
    const json::Value* name = e.find("name");
    if (ph == nullptr || name == nullptr || ph->kind != json::Value::kString) continue;
    const json::Value* args = e.find("args");
    const json::Value* cat = e.find("cat");
    const uint64_t tid = static_cast<uint64_t>(int_of(e.find("tid")));
    if (r.pid == 0) r.pid = int_of(e.find("pid"));
    if (ph->text == "M") {
      if (name->text == "thread_name" && args != nullptr) {
        if (const json::Value* n = args->find("name")) {
          if (n->text != str("thread ", tid)) r.thread_names[tid] = n->text;
        }
      }
    } else if (ph->text == "X") {
      const json::Value* ts = e.find("ts");
      const json::Value* dur = e.find("dur");
      SKIFF_ENFORCE(ts != nullptr && dur != nullptr && ts->kind == json::Value::kNumber &&
                        dur->kind == json::Value::kNumber,
                    kIOError, "load_profiler_result", origin,
                    "numeric ts and dur in every complete event", str("event '", name->text, "'"));
      HostEvent h;
      h.name = name->text;
      if (cat == nullptr || !parse_event_type(cat->text, &h.type)) h.type = EventType::kUserDefined;
      h.start_ns = ns_of_us_text(ts->text, origin);
      h.end_ns = h.start_ns + ns_of_us_text(dur->text, origin);
      h.tid = tid;
      if (args != nullptr) {
        for (const auto& [k, v] : args->members) h.args.emplace_back(k, v.text);
      }
      r.events.push_back(std::move(h));
    } else if (ph->text == "i" && cat != nullptr && cat->text == kMemoryCat && args != nullptr) {
      MemEvent m;
      SKIFF_ENFORCE(parse_mem_event_type(name->text, &m.type), kIOError, "load_profiler_result",
                    origin, "a memory event named Allocate, Free, ReservedAllocate or ReservedFree",
                    name->text);
      const json::Value* ts = e.find("ts");
      SKIFF_ENFORCE(ts != nullptr && ts->kind == json::Value::kNumber, kIOError,
                    "load_profiler_result", origin, "a numeric ts in every memory event", "none");
      m.ts_ns = ns_of_us_text(ts->text, origin);
      m.tid = tid;
      if (const json::Value* p = args->find("place")) m.place = p->text;
      m.addr = static_cast<uint64_t>(int_of(args->find("addr")));
      m.bytes = int_of(args->find("bytes"));
      m.allocated = int_of(args->find("allocated"));
      m.reserved = int_of(args->find("reserved"));
      m.peak_allocated = int_of(args->find("peak_allocated"));
      m.peak_reserved = int_of(args->find("peak_reserved"));
      r.mem_events.push_back(std::move(m));
    }
  }
  r.sort();
  return r;
}

ProfilerResult ProfilerResult::load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  SKIFF_ENFORCE(f.good(), kIOError, "load_profiler_result", path, "a readable file", errno_text());
  std::ostringstream ss;
  ss << f.rdbuf();
  return from_chrome_trace(ss.str(), path);
}

}  // namespace skiff::profiler

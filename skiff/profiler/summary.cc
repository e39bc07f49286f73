// Paddle's profiler summary tables (paddle.profiler.Profiler.summary), from a ProfilerResult:
// Device, Overview, Model, Operator, Kernel, UserDefined and Memory summaries with Paddle's
// titles, columns, widths and notes. Skiff runs kernels on the host, so kernel times are CPU
// times (the Kernel Summary's time column says CPU) and GPU columns read zero.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "skiff/base/error.h"
#include "skiff/base/str.h"
#include "skiff/profiler/profiler.h"

namespace skiff::profiler {

namespace {

using Range = std::pair<int64_t, int64_t>;

int64_t merged_sum(std::vector<Range> rs) {
  std::sort(rs.begin(), rs.end());
  int64_t total = 0, cur_s = 0, cur_e = -1;
  bool open = false;
  for (const auto& [s, e] : rs) {
    if (open && s <= cur_e) {
      cur_e = std::max(cur_e, e);
      continue;
    }
    if (open) total += cur_e - cur_s;
    cur_s = s;
    cur_e = e;
    open = true;
  }
  if (open) total += cur_e - cur_s;
  return total;
}

// The index of each event's parent (the innermost event of the same thread containing it), or
// -1. `events` are sorted as ProfilerResult::sort leaves them.
std::vector<int> parents_of(const std::vector<HostEvent>& events) {
  std::vector<int> parent(events.size(), -1);
  std::vector<int> stack;
  for (size_t i = 0; i < events.size(); ++i) {
    const HostEvent& e = events[i];
    while (!stack.empty()) {
      const HostEvent& top = events[stack.back()];
      if (top.tid == e.tid && e.start_ns >= top.start_ns && e.end_ns <= top.end_ns) break;
      stack.pop_back();
    }
    parent[i] = stack.empty() ? -1 : stack.back();
    stack.push_back(static_cast<int>(i));
  }
  return parent;
}

struct Stat {
  int64_t calls = 0;
  int64_t total = 0;
  int64_t max = 0;
  int64_t min = std::numeric_limits<int64_t>::max();
  void add(int64_t d) {
    ++calls;
    total += d;
    max = std::max(max, d);
    min = std::min(min, d);
  }
  double avg() const { return calls ? static_cast<double>(total) / calls : 0.0; }
};

class Table {
 public:
  static constexpr int kSpacing = 2;
  void add_column(int width) { widths_.push_back(width); }
  int line_length() const {
    int n = -kSpacing;
    for (int w : widths_) n += w + kSpacing;
    return n;
  }
  std::string row(const std::vector<std::string>& cells) const {
    std::string out;
    for (size_t i = 0; i < widths_.size(); ++i) {
      std::string c = i < cells.size() ? cells[i] : "";
      if (static_cast<int>(c.size()) < widths_[i]) c.append(widths_[i] - c.size(), ' ');
      out += c;
      out.append(kSpacing, ' ');
    }
    return out;
  }
  std::string sep() const {
    std::string out;
    for (int w : widths_) {
      out.append(w, '-');
      out.append(kSpacing, ' ');
    }
    return out;
  }
  std::string title(const std::string& text) const {
    const int left = line_length() - static_cast<int>(text.size());
    const int half = std::max(left, 0) / 2;
    return std::string(half, '-') + text + std::string(std::max(left - half, 0), '-');
  }

 private:
  std::vector<int> widths_;
};

class Builder {
 public:
  Builder(const ProfilerResult& r, const SummaryOptions& o) : r_(r), o_(o) {
    const std::set<std::string> units = {"s", "ms", "us", "ns"};
    SKIFF_ENFORCE(units.count(o.time_unit), kInvalidArgument, "Profiler.summary", "time_unit",
                  "one of 's', 'ms', 'us', 'ns'", o.time_unit);
    parent_ = parents_of(r.events);
  }

  std::string build() {
    std::vector<Range> steps;
    for (const HostEvent& e : r_.events) {
      if (e.type == EventType::kProfileStep) steps.emplace_back(e.start_ns, e.end_ns);
    }
    total_ = merged_sum(steps);
    device();
    if (total_ == 0) return out_;
    overview();
    model();
    operators();
    kernels();
    user_defined();
    memory();
    return out_;
  }

 private:
  void line(const std::string& s) { out_ += s + "\n"; }
  // Every time table opens the same way: title, unit, the column names between rules.
  void table_head(const Table& t, const std::string& title,
                  const std::vector<std::string>& columns) {
    line(t.title(title));
    line("Time unit: " + o_.time_unit);
    line(t.sep());
    line(t.row(columns));
    line(t.sep());
  }

  std::string time(double ns) const {
    double v = ns;
    if (o_.time_unit == "s") v /= 1e9;
    if (o_.time_unit == "ms") v /= 1e6;
    if (o_.time_unit == "us") v /= 1e3;
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.2f", v);
    return buf;
  }
  static std::string ratio(double r) {
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.2f", r * 100);
    return buf;
  }
  std::string five(const Stat& s, double of) const {
    return str(time(s.total), " / ", time(s.avg()), " / ", time(s.max), " / ",
               s.calls ? time(s.min) : "-", " / ", ratio(of > 0 ? s.total / of : 0.0));
  }
  static std::string no_gpu() { return "0.00 / 0.00 / 0.00 / 0.00 / 0.00"; }

  void device() {
    Table t;
    t.add_column(30);
    t.add_column(20);
    line(t.title("Device Summary"));
    line(t.sep());
    line(t.row({"Device", "Utilization (%)"}));
    line(t.sep());
    for (const char* key : {"Process Cpu Utilization", "System Cpu Utilization"}) {
      auto it = r_.extra_info.find(key);
      const double v = it == r_.extra_info.end() ? 0.0 : std::strtod(it->second.c_str(), nullptr);
      line(t.row({key[0] == 'P' ? "CPU(Process)" : "CPU(System)", ratio(v)}));
    }
    line(t.sep());
    line(
        "Note:\nCPU(Process) Utilization = Current process CPU time over all cpu cores / elapsed "
        "time, so max utilization can be reached 100% * number of cpu cores.\n"
        "CPU(System) Utilization = All processes CPU time over all cpu cores(busy time) / (busy "
        "time + idle time).");
    line(std::string(t.line_length(), '-'));
    line("");
    line("");
  }

  void overview() {
    std::map<EventType, std::vector<Range>> ranges;
    std::map<EventType, int64_t> calls;
    for (const HostEvent& e : r_.events) {
      ranges[e.type].emplace_back(e.start_ns, e.end_ns);
      ++calls[e.type];
    }
    std::vector<std::pair<int64_t, EventType>> rows;
    for (auto& [type, rs] : ranges) rows.emplace_back(merged_sum(rs), type);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    Table t;
    for (int i = 0; i < 4; ++i) t.add_column(25);
    table_head(t, "Overview Summary", {"Event Type", "Calls", "CPU Time", "Ratio (%)"});
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& [ns, type] = rows[i];
      line(t.row({str(i ? "  " : "", event_type_name(type)), std::to_string(calls[type]), time(ns),
                  ratio(static_cast<double>(ns) / total_)}));
    }
    line(t.sep());
    line(t.row({"", "Calls", "GPU Time", "Ratio (%)"}));
    line(t.sep());
    line(t.sep());
    line(
        "Note:\nIn this table, We sum up all collected events in terms of event type.\n"
        "The time of events collected on host are presented as CPU Time, and as GPU Time if on "
        "device.\n"
        "Events with different types may overlap or inclusion, e.g. Operator includes "
        "OperatorInner, so the sum of ratios is not 100%.\n"
        "The time of events in the same type with overlap will not calculate twice, and all "
        "time is summed after merged.\n"
        "Example:\nThread 1:\n  Operator: |___________|     |__________|\nThread 2:\n"
        "  Operator:   |____________|     |___|\nAfter merged:\n"
        "  Result:   |______________|  |__________|\n");
    line(std::string(t.line_length(), '-'));
    line("");
    line("");
  }

  // Events of `type` not nested in another event of the same type.
  bool outermost_of_type(size_t i) const {
    for (int p = parent_[i]; p >= 0; p = parent_[p]) {
      if (r_.events[p].type == r_.events[i].type) return false;
    }
    return true;
  }

  void model() {
    const std::vector<std::pair<const char*, EventType>> phases = {
        {"ProfileStep", EventType::kProfileStep},
        {"Dataloader", EventType::kDataloader},
        {"Forward", EventType::kForward},
        {"Backward", EventType::kBackward},
        {"Optimization", EventType::kOptimization}};
    std::map<EventType, Stat> stats;
    for (size_t i = 0; i < r_.events.size(); ++i) {
      const HostEvent& e = r_.events[i];
      for (const auto& ph : phases) {
        if (e.type == ph.second && outermost_of_type(i)) stats[e.type].add(e.end_ns - e.start_ns);
      }
    }
    if (stats.size() <= 1) return;
    std::vector<std::vector<std::string>> rows;
    int64_t accumulated = 0;
    for (const auto& [name, type] : phases) {
      auto it = stats.find(type);
      if (it == stats.end()) continue;
      const Stat& s = it->second;
      rows.push_back({str(type == EventType::kProfileStep ? "" : "  ", name),
                      std::to_string(s.calls), five(s, static_cast<double>(total_)), no_gpu()});
      if (type != EventType::kProfileStep) accumulated += s.total;
    }
    const int64_t other = total_ - accumulated;
    rows.push_back({"  Others", "-",
                    str(time(other), " / - / - / - / ", ratio(static_cast<double>(other) / total_)),
                    "0.00 / - / - / - / 0.00"});
    Table t;
    t.add_column(15);
    t.add_column(width(rows, 1, 6));
    t.add_column(width(rows, 2, 40));
    t.add_column(width(rows, 3, 40));
    table_head(t, "Model Summary",
               {"Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                "GPU Total / Avg / Max / Min / Ratio(%)"});
    for (const auto& r : rows) line(t.row(r));
    line(t.sep());
    line(
        "Note:\nIn this table, GPU time is the sum of all device(GPU) events called in the "
        "phase.\nUnlike overview summary, if two device(GPU) events execute on different "
        "streams with overlap time, we sum them directly here.\n");
    line(std::string(t.line_length(), '-'));
    line("");
    line("");
  }

  static int width(const std::vector<std::vector<std::string>>& rows, size_t col, int least) {
    int w = least;
    for (const auto& r : rows) {
      if (r.size() > col) w = std::max(w, static_cast<int>(r[col].size()));
    }
    return w;
  }

  template <class Item>
  void sort_items(std::vector<std::pair<std::string, Item>>& items) const {
    auto key = [&](const Item& it) -> double {
      switch (o_.sorted_by) {
        case SortedBy::kCPUAvg:
          return it.stat.avg();
        case SortedBy::kCPUMax:
          return static_cast<double>(it.stat.max);
        case SortedBy::kCPUMin:
          return -static_cast<double>(it.stat.min);
        default:
          return static_cast<double>(it.stat.total);  // GPU keys: no device time here
      }
    };
    std::stable_sort(items.begin(), items.end(),
                     [&](const auto& a, const auto& b) { return key(a.second) > key(b.second); });
  }

  struct OpItem {
    Stat stat;
    std::map<std::string, Stat> inner;  // kernels and inner phases, by name
  };

  // Items of the given types grouped by name, per thread ("All threads merged" unless
  // thread_sep), in thread order.
  std::vector<std::pair<std::string, std::map<std::string, OpItem>>> group(
      std::initializer_list<EventType> types, bool with_inner) const {
    std::map<std::string, std::map<std::string, OpItem>> by_thread;
    for (size_t i = 0; i < r_.events.size(); ++i) {
      const HostEvent& e = r_.events[i];
      if (std::find(types.begin(), types.end(), e.type) == types.end()) continue;
      const std::string thread = o_.thread_sep ? std::to_string(e.tid) : "All threads merged";
      by_thread[thread][e.name].stat.add(e.end_ns - e.start_ns);
    }
    if (with_inner) {
      for (size_t i = 0; i < r_.events.size(); ++i) {
        const HostEvent& e = r_.events[i];
        const int p = parent_[i];
        if ((e.type != EventType::kKernel && e.type != EventType::kOperatorInner) || p < 0 ||
            r_.events[p].type != EventType::kOperator) {
          continue;
        }
        const std::string thread = o_.thread_sep ? std::to_string(e.tid) : "All threads merged";
        by_thread[thread][r_.events[p].name].inner[e.name].add(e.end_ns - e.start_ns);
      }
    }
    return {by_thread.begin(), by_thread.end()};
  }

  void operators() {
    auto threads = group({EventType::kOperator}, true);
    if (threads.empty()) return;
    std::vector<std::vector<std::string>> rows;  // a single cell: a thread title
    const int name_width = 52;
    for (auto& [thread, map] : threads) {
      rows.push_back({"Thread: " + thread});
      std::vector<std::pair<std::string, OpItem>> items(map.begin(), map.end());
      sort_items(items);
      double all = 0;
      for (const auto& [n, it] : items) all += static_cast<double>(it.stat.total);
      for (const auto& [n, it] : items) {
        rows.push_back({n, std::to_string(it.stat.calls), five(it.stat, all), no_gpu(), "-"});
        if (!o_.op_detail) continue;
        for (const auto& [inner_name, s] : it.inner) {
          std::string nm = inner_name;
          if (static_cast<int>(nm.size()) + 2 > name_width)
            nm = nm.substr(0, name_width - 5) + "...";
          rows.push_back({"  " + nm, std::to_string(s.calls),
                          five(s, static_cast<double>(it.stat.total)), no_gpu(), "-"});
        }
      }
    }
    Table t;
    t.add_column(name_width);
    t.add_column(width(rows, 1, 6));
    t.add_column(width(rows, 2, 40));
    t.add_column(width(rows, 3, 40));
    t.add_column(10);
    table_head(t, "Operator Summary",
               {"Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                "GPU Total / Avg / Max / Min / Ratio(%)", "FLOPs"});
    for (const auto& r : rows) line(r.size() == 1 ? t.title(r[0]) : t.row(r));
    line(t.sep());
    line("");
    line("");
  }

  void kernels() {
    std::map<std::string, OpItem> map;
    for (const HostEvent& e : r_.events) {
      if (e.type == EventType::kKernel) map[e.name].stat.add(e.end_ns - e.start_ns);
    }
    if (map.empty()) return;
    std::vector<std::pair<std::string, OpItem>> items(map.begin(), map.end());
    sort_items(items);
    double all = 0;
    for (const auto& [n, it] : items) all += static_cast<double>(it.stat.total);
    const int name_width = 90;
    std::vector<std::vector<std::string>> rows;
    for (const auto& [n, it] : items) {
      std::string nm =
          static_cast<int>(n.size()) > name_width ? n.substr(0, name_width - 3) + "..." : n;
      rows.push_back({nm, std::to_string(it.stat.calls), five(it.stat, all)});
    }
    Table t;
    t.add_column(name_width);
    t.add_column(width(rows, 1, 6));
    t.add_column(width(rows, 2, 40));
    table_head(t, "Kernel Summary", {"Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)"});
    for (const auto& r : rows) line(t.row(r));
    line(t.sep());
    line("");
    line("");
  }

  void user_defined() {
    auto threads = group({EventType::kUserDefined, EventType::kPythonUserDefined}, false);
    if (threads.empty()) return;
    std::vector<std::vector<std::string>> rows;
    for (auto& [thread, map] : threads) {
      rows.push_back({"Thread: " + thread});
      std::vector<std::pair<std::string, OpItem>> items(map.begin(), map.end());
      sort_items(items);
      for (const auto& [n, it] : items) {
        rows.push_back({n, std::to_string(it.stat.calls),
                        five(it.stat, static_cast<double>(total_)), no_gpu()});
      }
    }
    int name_width = 0;
    for (const auto& r : rows) {
      if (r.size() > 1) name_width = std::max(name_width, static_cast<int>(r[0].size()));
    }
    Table t;
    t.add_column(name_width);
    t.add_column(width(rows, 1, 6));
    t.add_column(width(rows, 2, 40));
    t.add_column(width(rows, 3, 40));
    table_head(t, "UserDefined Summary",
               {"Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                "GPU Total / Avg / Max / Min / Ratio(%)"});
    for (const auto& r : rows) line(r.size() == 1 ? t.title(r[0]) : t.row(r));
    line("");
    line("");
  }

  // The name memory events are charged to: the innermost host event around them on their
  // thread, or the op around a kernel (as Paddle charges an op's inner phases to the op).
  std::vector<std::string> memory_owners() const {
    std::vector<std::string> owner(r_.mem_events.size(), "-");
    std::map<uint64_t, std::vector<size_t>> by_tid;
    for (size_t i = 0; i < r_.events.size(); ++i) by_tid[r_.events[i].tid].push_back(i);
    for (size_t m = 0; m < r_.mem_events.size(); ++m) {
      const MemEvent& me = r_.mem_events[m];
      auto it = by_tid.find(me.tid);
      if (it == by_tid.end()) continue;
      const auto& idx = it->second;
      // The last event starting at or before ts, then up its parents to one containing ts.
      auto pos = std::upper_bound(idx.begin(), idx.end(), me.ts_ns,
                                  [&](int64_t ts, size_t i) { return ts < r_.events[i].start_ns; });
      if (pos == idx.begin()) continue;
      int e = static_cast<int>(*(pos - 1));
      while (e >= 0 && r_.events[e].end_ns < me.ts_ns) e = parent_[e];
      while (e >= 0 &&
             (r_.events[e].type == EventType::kKernel ||
              r_.events[e].type == EventType::kOperatorInner) &&
             parent_[e] >= 0) {
        e = parent_[e];
      }
      if (e >= 0) owner[m] = r_.events[e].name;
    }
    return owner;
  }

  void memory() {
    if (r_.mem_events.empty()) return;
    struct MemItem {
      int64_t alloc_count = 0, free_count = 0, alloc_size = 0, free_size = 0;
    };
    const std::vector<std::string> owner = memory_owners();
    std::map<std::string, std::map<std::string, MemItem>> allocated, reserved;
    std::map<std::string, int64_t> peak_alloc, peak_reserved;
    for (size_t i = 0; i < r_.mem_events.size(); ++i) {
      const MemEvent& m = r_.mem_events[i];
      const bool is_reserved =
          m.type == MemEventType::kReservedAllocate || m.type == MemEventType::kReservedFree;
      MemItem& it = (is_reserved ? reserved : allocated)[m.place][owner[i]];
      if (m.type == MemEventType::kAllocate || m.type == MemEventType::kReservedAllocate) {
        ++it.alloc_count;
        it.alloc_size += m.bytes;
      } else {
        ++it.free_count;
        it.free_size += m.bytes;
      }
      peak_alloc[m.place] = std::max(peak_alloc[m.place], m.peak_allocated);
      peak_reserved[m.place] = std::max(peak_reserved[m.place], m.peak_reserved);
      allocated[m.place];  // every place gets a table
    }
    for (const auto& [place, items] : allocated) {
      std::vector<std::vector<std::string>> rows;
      using Group = std::map<std::string, MemItem>;
      const Group* groups[] = {&items, &reserved[place]};
      for (const Group* group : groups) {
        std::vector<std::pair<std::string, MemItem>> sorted(group->begin(), group->end());
        std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
          return a.second.alloc_size - a.second.free_size >
                 b.second.alloc_size - b.second.free_size;
        });
        for (const auto& [name, it] : sorted) {
          rows.push_back({name, group == &items ? "Allocated" : "Reserved",
                          std::to_string(it.alloc_count), std::to_string(it.free_count),
                          std::to_string(it.alloc_size), std::to_string(it.free_size),
                          std::to_string(it.alloc_size - it.free_size)});
        }
      }
      Table t;
      t.add_column(50);
      t.add_column(12);
      for (int i = 0; i < 5; ++i) t.add_column(15);
      line(t.title("Memory Summary - " + place));
      line(str("Peak Allocated Memory: ", peak_alloc[place]));
      line(str("Peak Reserved Memory: ", peak_reserved[place]));
      line(t.sep());
      line(t.row({"Name", "Type", "Allocation Count", "Free Count", "Allocation Size", "Free Size",
                  "Increased Size"}));
      line(t.sep());
      for (const auto& r : rows) line(t.row(r));
      line("");
      line("");
    }
  }

  const ProfilerResult& r_;
  const SummaryOptions& o_;
  std::vector<int> parent_;
  int64_t total_ = 0;
  std::string out_;
};

}  // namespace

std::string ProfilerResult::summary(const SummaryOptions& options) const {
  return Builder(*this, options).build();
}

}  // namespace skiff::profiler

#include "skiff/profiler/profiler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "skiff/base/error.h"
#include "skiff/profiler/json.h"

namespace skiff::profiler {
namespace {

void spin_us(int us) {
  const int64_t until = now_ns() + us * 1000;
  while (now_ns() < until) {
  }
}

const HostEvent* find(const ProfilerResult& r, const std::string& name) {
  for (const HostEvent& e : r.events) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// Checks a parsed trace against the trace-event format and returns its complete events
// per thread, sorted; every event nests within the enclosing one (or starts after it ends).
void check_trace(const json::Value& doc) {
  ASSERT_EQ(doc.kind, json::Value::kObject);
  const json::Value* events = doc.find("traceEvents");
  ASSERT_NE(events, nullptr);
  ASSERT_EQ(events->kind, json::Value::kArray);
  std::map<int64_t, std::vector<std::pair<double, double>>> by_tid;
  for (const json::Value& e : events->items) {
    const json::Value* ph = e.find("ph");
    ASSERT_NE(ph, nullptr);
    ASSERT_NE(e.find("name"), nullptr);
    ASSERT_NE(e.find("pid"), nullptr);
    if (ph->text == "X") {
      for (const char* k : {"ts", "dur", "tid"}) {
        ASSERT_NE(e.find(k), nullptr) << k;
        EXPECT_EQ(e.find(k)->kind, json::Value::kNumber) << k;
      }
      EXPECT_GE(e.find("dur")->number(), 0);
      by_tid[static_cast<int64_t>(e.find("tid")->number())].emplace_back(
          e.find("ts")->number(), e.find("ts")->number() + e.find("dur")->number());
    }
  }
  for (auto& [tid, ranges] : by_tid) {
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<std::pair<double, double>> stack;
    for (const auto& r : ranges) {
      while (!stack.empty() && stack.back().second <= r.first + 1e-6) stack.pop_back();
      if (!stack.empty()) {
        EXPECT_LE(r.second, stack.back().second + 1e-6) << "tid " << tid;
      }
      stack.push_back(r);
    }
  }
}

TEST(RecordEvent, DisabledRecordsNothing) {
  EXPECT_FALSE(is_enabled());
  {
    RecordEvent ev("before");
    EXPECT_FALSE(ev.active());
  }
  start_session({});
  {
    RecordEvent ev("during");
    EXPECT_TRUE(ev.active());
  }
  ProfilerResult r = stop_session();
  EXPECT_EQ(find(r, "before"), nullptr);
  EXPECT_NE(find(r, "during"), nullptr);
  EXPECT_FALSE(is_enabled());
}

TEST(Profiler, NestedEventsOnTwoThreadsExportAValidTrace) {
  Profiler p({.record_shapes = true});
  p.start();
  auto work = [](const std::string& tag) {
    RecordEvent outer(tag + "/outer", EventType::kOperator);
    spin_us(30);
    {
      RecordEvent inner(tag + "/inner", EventType::kUserDefined);
      inner.add_arg("k", "v \"quoted\"");
      spin_us(20);
    }
    spin_us(10);
  };
  std::thread t(work, "worker");
  work("main");
  t.join();
  p.step();
  { RecordEvent ev("second step"); }
  ProfilerResult r = p.stop();
  const HostEvent* outer = find(r, "main/outer");
  const HostEvent* inner = find(r, "main/inner");
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(outer->type, EventType::kOperator);
  EXPECT_LE(outer->start_ns, inner->start_ns);
  EXPECT_GE(outer->end_ns, inner->end_ns);
  EXPECT_NE(find(r, "worker/outer")->tid, outer->tid);
  ASSERT_NE(find(r, "ProfileStep#0"), nullptr);
  ASSERT_NE(find(r, "ProfileStep#1"), nullptr);
  EXPECT_EQ(find(r, "ProfileStep#1")->type, EventType::kProfileStep);

  const std::string text = r.to_chrome_trace();
  check_trace(json::parse(text, "trace"));
  // The round trip keeps every event, its nanoseconds and arguments.
  ProfilerResult back = ProfilerResult::from_chrome_trace(text, "trace");
  ASSERT_EQ(back.events.size(), r.events.size());
  for (size_t i = 0; i < r.events.size(); ++i) {
    EXPECT_EQ(back.events[i].name, r.events[i].name);
    EXPECT_EQ(back.events[i].start_ns, r.events[i].start_ns);
    EXPECT_EQ(back.events[i].end_ns, r.events[i].end_ns);
    EXPECT_EQ(back.events[i].tid, r.events[i].tid);
    EXPECT_EQ(back.events[i].type, r.events[i].type);
  }
  EXPECT_EQ(find(back, "main/inner")->args.at(0).second, "v \"quoted\"");
  EXPECT_EQ(back.start_ns, r.start_ns);
}

TEST(Profiler, SummaryTablesCountCallsAndKernels) {
  Profiler p;
  p.start();
  for (int i = 0; i < 3; ++i) {
    RecordEvent op("matmul", EventType::kOperator);
    op.set_op_id(7);
    spin_us(20);
    note_kernel(7, "matmul_cpu<float32>");
    note_kernel(8, "cast_cpu<float32>");  // another op's selection is not this op's kernel
    spin_us(20);
  }
  {
    RecordEvent ev("my range");
    spin_us(5);
  }
  ProfilerResult r = p.stop();
  const HostEvent* k = find(r, "matmul_cpu<float32>");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->type, EventType::kKernel);
  EXPECT_EQ(find(r, "cast_cpu<float32>"), nullptr);
  const std::string s = r.summary();
  for (const char* title :
       {"Device Summary", "Overview Summary", "Operator Summary", "Kernel Summary",
        "UserDefined Summary", "Thread: All threads merged"}) {
    EXPECT_NE(s.find(title), std::string::npos) << title << "\n" << s;
  }
  // "matmul", 3 calls, with its kernel under it (op_detail).
  const size_t row = s.find("\nmatmul ");
  ASSERT_NE(row, std::string::npos) << s;
  EXPECT_EQ(s.substr(row + 1 + 54, 1), "3") << s.substr(row, 80);
  EXPECT_NE(s.find("\n  matmul_cpu<float32>"), std::string::npos);
  EXPECT_EQ(r.summary({.op_detail = false}).find("\n  matmul_cpu<float32>"), std::string::npos);
  EXPECT_NE(r.summary({.time_unit = "us"}).find("Time unit: us"), std::string::npos);
  try {
    r.summary({.time_unit = "hours"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("time_unit"), std::string::npos);
  }
}

TEST(Profiler, MemoryEventsAreChargedToTheEnclosingOp) {
  Profiler p({.profile_memory = true});
  p.start();
  int a = 0, b = 0;
  {
    RecordEvent op("relu", EventType::kOperator);
    record_memory(MemEventType::kAllocate, "cpu", &a, 256, 256, 4096, 256, 4096);
    record_memory(MemEventType::kAllocate, "cpu", &b, 512, 768, 4096, 768, 4096);
    record_memory(MemEventType::kFree, "cpu", &a, 256, 512, 4096, 768, 4096);
  }
  ProfilerResult r = p.stop();
  ASSERT_EQ(r.mem_events.size(), 3u);
  const std::string s = r.summary();
  const size_t title = s.find("Memory Summary - cpu");
  ASSERT_NE(title, std::string::npos) << s;
  EXPECT_NE(s.find("Peak Allocated Memory: 768"), std::string::npos);
  const size_t row = s.find("\nrelu ", title);
  ASSERT_NE(row, std::string::npos) << s;
  std::istringstream cells(s.substr(row + 1, s.find('\n', row + 1) - row - 1));
  std::string name, type;
  int64_t allocs, frees, alloc_size, free_size, increase;
  cells >> name >> type >> allocs >> frees >> alloc_size >> free_size >> increase;
  EXPECT_EQ(type, "Allocated");
  EXPECT_EQ(allocs, 2);
  EXPECT_EQ(frees, 1);
  EXPECT_EQ(alloc_size, 768);
  EXPECT_EQ(free_size, 256);
  EXPECT_EQ(increase, 512);
  ProfilerResult back = ProfilerResult::from_chrome_trace(r.to_chrome_trace(), "t");
  ASSERT_EQ(back.mem_events.size(), 3u);
  EXPECT_EQ(back.mem_events[1].allocated, 768);
  EXPECT_EQ(back.mem_events[1].addr, reinterpret_cast<uint64_t>(&b));
}

TEST(Profiler, SaveIsAtomicAndLoadNamesTheFile) {
  Profiler p;
  p.start();
  { RecordEvent ev("x"); }
  ProfilerResult r = p.stop();
  const std::string path =
      testing::TempDir() + "/skiff_profiler_test_" + std::to_string(::getpid()) + ".json";
  r.save(path);
  EXPECT_EQ(ProfilerResult::load(path).events.size(), r.events.size());
  {
    std::ofstream f(path);
    f << "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1";  // cut short
  }
  try {
    ProfilerResult::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIOError);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
  try {
    ProfilerResult::load(path);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a readable file"), std::string::npos);
  }
  EXPECT_THROW(r.save(path, "pb"), Error);
}

TEST(Profiler, OneSessionAtATime) {
  start_session({});
  try {
    start_session({});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("one already running"), std::string::npos) << e.what();
  }
  stop_session();
  EXPECT_THROW(stop_session(), Error);
  Profiler p;
  EXPECT_THROW(p.step(), Error);
}

int g_observed = 0;
TEST(Profiler, ObserversSeeStartAndStop) {
  add_session_observer([](bool starting) { g_observed += starting ? 1 : 10; });
  start_session({});
  EXPECT_EQ(g_observed, 1);
  stop_session();
  EXPECT_EQ(g_observed, 11);
}

}  // namespace
}  // namespace skiff::profiler

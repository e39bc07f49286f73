// The TCP store: values, counters, waits that wake on a later set, and timeouts that name the
// missing keys instead of hanging.
#include "skiff/comm/tcp_store.h"

#include <gtest/gtest.h>

#include <thread>

#include "skiff/base/error.h"

namespace skiff::comm {
namespace {

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST(TCPStore, SetGetAddCheckDelete) {
  TCPStore master("127.0.0.1", 0, true, Millis(2000));
  ASSERT_GT(master.port(), 0);
  TCPStore client("127.0.0.1", master.port(), false, Millis(2000));
  client.set("a", bytes("hello"));
  EXPECT_EQ(master.get("a"), bytes("hello"));
  EXPECT_EQ(master.add("n", 3), 3);
  EXPECT_EQ(client.add("n", -1), 2);
  EXPECT_TRUE(client.check({"a", "n"}));
  EXPECT_FALSE(client.check({"a", "zz"}));
  EXPECT_TRUE(client.delete_key("a"));
  EXPECT_FALSE(client.delete_key("a"));
  client.set("empty", {});
  EXPECT_TRUE(master.get("empty").empty());
}

TEST(TCPStore, WaitWakesOnSet) {
  TCPStore master("127.0.0.1", 0, true, Millis(5000));
  std::thread t([&] {
    TCPStore c("127.0.0.1", master.port(), false, Millis(5000));
    std::this_thread::sleep_for(Millis(50));
    c.set("late", bytes("x"));
  });
  master.wait({"late"});
  EXPECT_EQ(master.get("late"), bytes("x"));
  t.join();
}

TEST(TCPStore, WaitTimesOutNamingMissingKeys) {
  TCPStore master("127.0.0.1", 0, true, Millis(2000));
  master.set("here", bytes("1"));
  auto start = std::chrono::steady_clock::now();
  try {
    master.wait({"here", "absent"}, Millis(200));
    FAIL() << "expected a timeout";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("timed out"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'absent'"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("'here'"), std::string::npos) << msg;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, Millis(1500));
  // The stream stays in step after a timeout.
  EXPECT_EQ(master.add("n", 1), 1);
}

TEST(TCPStore, ClientGivesUpWhenNoServer) {
  int port = 0;
  {
    TCPStore gone("127.0.0.1", 0, true, Millis(500));
    port = gone.port();
  }
  try {
    TCPStore c("127.0.0.1", port, false, Millis(300));
    FAIL() << "expected a connection error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("within 0.3 s"), std::string::npos) << e.what();
  }
}

TEST(TCPStore, UnannouncedExitIsRecorded) {
  TCPStore master("127.0.0.1", 0, true, Millis(2000));
  {
    TCPStore c("127.0.0.1", master.port(), false, Millis(2000));
    c.register_rank(3);
  }
  {
    TCPStore c("127.0.0.1", master.port(), false, Millis(2000));
    c.register_rank(4);
    c.leave();
  }
  master.wait({"__exited__/3"}, Millis(1000));
  std::this_thread::sleep_for(Millis(50));
  EXPECT_FALSE(master.check({"__exited__/4"}));
}

}  // namespace
}  // namespace skiff::comm

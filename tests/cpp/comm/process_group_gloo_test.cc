// ProcessGroupGloo with threads as ranks (each its own store client and Gloo context): every
// collective against the arithmetic it must do, a sub-group over non-contiguous ranks, and a
// rank that never arrives named in the error within the timeout.
#include "skiff/comm/gloo/process_group_gloo.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "skiff/base/error.h"
#include "skiff/comm/tcp_store.h"
#include "skiff/core/float16.h"

namespace skiff::comm {
namespace {

DenseTensor filled(std::vector<float> v) {
  auto t = DenseTensor::empty(Dims({static_cast<int64_t>(v.size())}), DType::kFloat32);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

std::vector<float> values(const DenseTensor& t) {
  return {t.data<float>(), t.data<float>() + t.numel()};
}

// Runs fn(rank, group) on `n` threads, each with its own group over a shared master store.
void run_ranks(int n, Millis timeout, const std::function<void(int, ProcessGroupGloo&)>& fn) {
  TCPStore master("127.0.0.1", 0, true, timeout);
  std::vector<std::thread> threads;
  std::vector<std::string> errors(n);
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        auto store = std::make_shared<TCPStore>("127.0.0.1", master.port(), false, timeout);
        std::vector<int> ranks;
        for (int i = 0; i < n; ++i) ranks.push_back(i);
        ProcessGroupGloo pg(store, r, ranks, 0, "test", GlooOptions{"127.0.0.1", timeout});
        fn(r, pg);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
}

TEST(ProcessGroupGloo, Collectives) {
  run_ranks(3, Millis(10000), [](int r, ProcessGroupGloo& pg) {
    float f = static_cast<float>(r + 1);
    auto t = filled({f, -f});
    pg.all_reduce(t, ReduceOp::kSum, true);
    EXPECT_EQ(values(t), (std::vector<float>{6, -6}));
    t = filled({f, -f});
    pg.all_reduce(t, ReduceOp::kMax, true);
    EXPECT_EQ(values(t), (std::vector<float>{3, -1}));
    t = filled({f, f});
    pg.all_reduce(t, ReduceOp::kAvg, true);
    EXPECT_EQ(values(t), (std::vector<float>{2, 2}));
    t = filled({f});
    pg.all_reduce(t, ReduceOp::kProd, true);
    EXPECT_EQ(values(t), (std::vector<float>{6}));

    auto out = filled(std::vector<float>(6, 0));
    pg.all_gather(out, filled({f, 10 * f}), true);
    EXPECT_EQ(values(out), (std::vector<float>{1, 10, 2, 20, 3, 30}));

    auto rs = filled({0});
    pg.reduce_scatter(rs, filled({f, 2 * f, 3 * f}), ReduceOp::kSum, true);
    EXPECT_EQ(values(rs)[0], 6.0f * static_cast<float>(r + 1));

    auto b = filled({f});
    pg.broadcast(b, 2, true);
    EXPECT_EQ(values(b)[0], 3.0f);

    auto red = filled({f});
    pg.reduce(red, 1, ReduceOp::kSum, true);
    EXPECT_EQ(values(red)[0], r == 1 ? 6.0f : f);

    auto sc = filled({0});
    pg.scatter(sc, filled({7, 8, 9}), 0, true);
    EXPECT_EQ(values(sc)[0], 7.0f + static_cast<float>(r));

    auto g = filled({0, 0, 0});
    pg.gather(g, filled({f}), 0, true);
    if (r == 0) {
      EXPECT_EQ(values(g), (std::vector<float>{1, 2, 3}));
    }

    auto a2a = filled({0, 0, 0});
    pg.all_to_all(a2a, filled({10 * f, 10 * f + 1, 10 * f + 2}), {}, {}, true);
    EXPECT_EQ(values(a2a), (std::vector<float>{10.0f + r, 20.0f + r, 30.0f + r}));

    // Unequal splits: rank i sends i+1 elements to everyone.
    std::vector<int64_t> in_counts(3, r + 1), out_counts{1, 2, 3};
    auto uneq = filled(std::vector<float>(6, 0));
    pg.all_to_all(uneq, filled(std::vector<float>(3 * (r + 1), f)), out_counts, in_counts, true);
    EXPECT_EQ(values(uneq), (std::vector<float>{1, 2, 2, 3, 3, 3}));

    // Point to point, posted out of order: both irecvs before the sends.
    if (r < 2) {
      int peer = 1 - r;
      auto in = filled({0, 0});
      auto rt = pg.recv(in, peer, false);
      auto st = pg.send(filled({f, f}), peer, false);
      st->wait();
      rt->wait();
      EXPECT_EQ(values(in), (std::vector<float>{float(peer + 1), float(peer + 1)}));
    }
    auto tasks = std::vector<std::shared_ptr<Task>>{pg.barrier(false)};
    tasks[0]->wait();
    EXPECT_GT(pg.op_count(), 10);
  });
}

TEST(ProcessGroupGloo, SixteenBitFloatsReduceInFloat) {
  run_ranks(2, Millis(10000), [](int r, ProcessGroupGloo& pg) {
    auto t = DenseTensor::empty(Dims({2}), DType::kBFloat16);
    t.data<bfloat16>()[0] = bfloat16(1.5f + r);
    t.data<bfloat16>()[1] = bfloat16(-2.0f);
    pg.all_reduce(t, ReduceOp::kSum, true);
    EXPECT_EQ(static_cast<float>(t.data<bfloat16>()[0]), 4.0f);
    EXPECT_EQ(static_cast<float>(t.data<bfloat16>()[1]), -4.0f);
    auto h = DenseTensor::empty(Dims({1}), DType::kFloat16);
    h.data<float16>()[0] = float16(0.25f * (r + 1));
    pg.all_reduce(h, ReduceOp::kMin, true);
    EXPECT_EQ(static_cast<float>(h.data<float16>()[0]), 0.25f);
  });
}

TEST(ProcessGroupGloo, BadArgumentsNameTheArgument) {
  run_ranks(2, Millis(10000), [](int, ProcessGroupGloo& pg) {
    try {
      pg.all_gather(filled({0, 0, 0}), filled({1}), true);
      FAIL() << "expected an error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("all_gather: argument 'out' expected 2 x 1 elements"),
                std::string::npos)
          << e.what();
    }
    EXPECT_THROW(pg.broadcast(filled({1}), 5, true), Error);
    EXPECT_THROW(pg.send(filled({1}), pg.rank(), true), Error);
  });
}

TEST(ProcessGroupGloo, MissingRankIsNamedWithinTimeout) {
  TCPStore master("127.0.0.1", 0, true, Millis(5000));
  std::string error;
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; ++r) {
    threads.emplace_back([&, r] {
      auto store = std::make_shared<TCPStore>("127.0.0.1", master.port(), false, Millis(5000));
      ProcessGroupGloo pg(store, r, {0, 1, 2}, 0, "default", GlooOptions{"127.0.0.1", Millis(800)});
      if (r == 2) {
        // Rank 2 is stuck elsewhere and never joins the all_reduce.
        std::this_thread::sleep_for(Millis(2500));
        return;
      }
      try {
        pg.all_reduce(filled({1}), ReduceOp::kSum, true);
      } catch (const Error& e) {
        if (r == 0) error = e.what();
      }
    });
  }
  threads[0].join();
  auto took = std::chrono::steady_clock::now() - start;
  threads[1].join();
  threads[2].join();
  EXPECT_NE(error.find("group 'default'"), std::string::npos) << error;
  EXPECT_NE(error.find("all_reduce #0"), std::string::npos) << error;
  EXPECT_NE(error.find("missing ranks [2]"), std::string::npos) << error;
  EXPECT_LT(took, Millis(2400));
}

}  // namespace
}  // namespace skiff::comm

// The key-value store ranks meet through (Paddle's phi Store, torch's c10d Store): set, get, add,
// wait, check, each with a timeout. TCPStore (tcp_store.h) is the implementation; process groups
// reach each other through it (Gloo's rendezvous reads addresses from it).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skiff::comm {

using Millis = std::chrono::milliseconds;

class Store {
 public:
  virtual ~Store() = default;
  virtual void set(const std::string& key, const std::vector<uint8_t>& value) = 0;
  /// Waits up to the store's timeout for `key`, then returns its value.
  virtual std::vector<uint8_t> get(const std::string& key) = 0;
  /// Adds `delta` to the integer stored at `key` (0 when absent) and returns the new value.
  virtual int64_t add(const std::string& key, int64_t delta) = 0;
  /// True when every key exists (no waiting).
  virtual bool check(const std::vector<std::string>& keys) = 0;
  /// Blocks until every key exists; a timeout error names the keys still missing.
  virtual void wait(const std::vector<std::string>& keys, Millis timeout) = 0;
  void wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }
  /// Removes `key`; false when it did not exist.
  virtual bool delete_key(const std::string& key) = 0;

  Millis timeout() const { return timeout_; }
  void set_timeout(Millis timeout) { timeout_ = timeout; }

 protected:
  Millis timeout_{std::chrono::seconds(900)};
};

/// Every key of `inner` under "prefix/" (one store serves many groups).
class PrefixStore : public Store {
 public:
  PrefixStore(std::string prefix, std::shared_ptr<Store> inner)
      : prefix_(std::move(prefix) + "/"), inner_(std::move(inner)) {
    timeout_ = inner_->timeout();
  }
  void set(const std::string& key, const std::vector<uint8_t>& value) override {
    inner_->set(prefix_ + key, value);
  }
  std::vector<uint8_t> get(const std::string& key) override { return inner_->get(prefix_ + key); }
  int64_t add(const std::string& key, int64_t delta) override {
    return inner_->add(prefix_ + key, delta);
  }
  bool check(const std::vector<std::string>& keys) override { return inner_->check(join(keys)); }
  void wait(const std::vector<std::string>& keys, Millis timeout) override {
    inner_->wait(join(keys), timeout);
  }
  bool delete_key(const std::string& key) override { return inner_->delete_key(prefix_ + key); }

 private:
  std::vector<std::string> join(const std::vector<std::string>& keys) const {
    std::vector<std::string> out;
    out.reserve(keys.size());
    for (const auto& k : keys) out.push_back(prefix_ + k);
    return out;
  }
  std::string prefix_;
  std::shared_ptr<Store> inner_;
};

}  // namespace skiff::comm

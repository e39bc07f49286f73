// TCPStore: one process (the master, normally rank 0) runs a small server thread; every rank,
// the master included, talks to it through a client socket. Requests are framed byte strings
// ([cmd][n][len bytes]...), answered in order. WAIT carries its timeout to the server, which
// answers with the keys still missing when it passes, so a timed-out call leaves the stream in
// step. A client that said `register_rank` and whose socket closes without `leave` is recorded
// under "__exited__/<rank>": process groups name dead ranks in their errors from it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "skiff/comm/store.h"

namespace skiff::comm {

class TCPStoreServer;

class TCPStore : public Store {
 public:
  /// `port` 0 with is_master picks a free port (see port()). Clients retry connecting until
  /// `timeout` passes, so the master may start after them.
  TCPStore(std::string host, int port, bool is_master, Millis timeout);
  ~TCPStore() override;

  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t delta) override;
  bool check(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, Millis timeout) override;
  using Store::wait;
  bool delete_key(const std::string& key) override;

  /// Tells the server which rank this client is, so an unannounced exit is recorded.
  void register_rank(int rank);
  /// A clean goodbye: after it the rank's exit is not reported as a failure.
  void leave();

  const std::string& host() const { return host_; }
  int port() const { return port_; }
  bool is_master() const { return server_ != nullptr; }

 private:
  std::vector<std::string> request(uint8_t cmd, const std::vector<std::string>& args,
                                   Millis timeout, const char* op, uint8_t* status = nullptr);
  std::string host_;
  int port_;
  std::unique_ptr<TCPStoreServer> server_;
  int fd_ = -1;
  std::mutex mu_;
};

}  // namespace skiff::comm

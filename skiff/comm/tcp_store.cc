#include "skiff/comm/tcp_store.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <thread>
#include <unordered_map>

#include "skiff/base/error.h"

namespace skiff::comm {

namespace {

using Clock = std::chrono::steady_clock;

enum Cmd : uint8_t { kSet = 1, kGet, kAdd, kCheck, kWait, kDelete, kHello, kBye };
enum Status : uint8_t { kOk = 0, kMissing = 1 };

// Extra time a client allows beyond a WAIT's own timeout before it calls the server dead.
constexpr Millis kReplySlack{5000};

std::string seconds(Millis ms) { return str(static_cast<double>(ms.count()) / 1000.0, " s"); }

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint32_t get_u32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

std::string frame(uint8_t head, const std::vector<std::string>& args) {
  std::string out;
  out.push_back(static_cast<char>(head));
  put_u32(out, static_cast<uint32_t>(args.size()));
  for (const auto& a : args) {
    put_u32(out, static_cast<uint32_t>(a.size()));
    out += a;
  }
  return out;
}

// Parses one frame from buf[0..n); returns its length, or 0 when incomplete.
size_t parse_frame(const std::string& buf, uint8_t* head, std::vector<std::string>* args) {
  if (buf.size() < 5) return 0;
  uint32_t n = get_u32(buf.data() + 1);
  size_t pos = 5;
  args->clear();
  for (uint32_t i = 0; i < n; ++i) {
    if (buf.size() < pos + 4) return 0;
    uint32_t len = get_u32(buf.data() + pos);
    pos += 4;
    if (buf.size() < pos + len) return 0;
    args->emplace_back(buf.data() + pos, len);
    pos += len;
  }
  *head = static_cast<uint8_t>(buf[0]);
  return pos;
}

bool send_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t r = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    done += static_cast<size_t>(r);
  }
  return true;
}

sockaddr_in resolve(const std::string& host, int port, const char* op) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
  SKIFF_ENFORCE(rc == 0 && res != nullptr, kInvalidArgument, op, "host",
                "a resolvable IPv4 host name or address", str(host, " (", gai_strerror(rc), ")"));
  sockaddr_in addr = *reinterpret_cast<sockaddr_in*>(res->ai_addr);
  ::freeaddrinfo(res);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  return addr;
}

}  // namespace

// The server: one thread polling the listening socket and every client.
class TCPStoreServer {
 public:
  TCPStoreServer(const std::string& host, int port) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    SKIFF_ENFORCE(listen_fd_ >= 0, kIOError, "TCPStore", "", "a socket", std::strerror(errno));
    int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    // A host name that is not local (the master seen from elsewhere) listens on every address.
    sockaddr_in addr = resolve(host, port, "TCPStore");
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      addr.sin_addr.s_addr = htonl(INADDR_ANY);
      if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
        int err = errno;
        ::close(listen_fd_);
        SKIFF_THROW(kIOError, "TCPStore", "port", str("a free port on ", host),
                    str(port, " (", std::strerror(err), ")"));
      }
    }
    SKIFF_ENFORCE(::listen(listen_fd_, 1024) == 0, kIOError, "TCPStore", "", "listen()",
                  std::strerror(errno));
    socklen_t len = sizeof(addr);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    SKIFF_ENFORCE(::pipe2(wake_, O_CLOEXEC) == 0, kIOError, "TCPStore", "", "a pipe",
                  std::strerror(errno));
    thread_ = std::thread([this] { loop(); });
  }

  ~TCPStoreServer() {
    char c = 'x';
    (void)!::write(wake_[1], &c, 1);
    thread_.join();
    for (auto& [fd, client] : clients_) ::close(fd);
    ::close(listen_fd_);
    ::close(wake_[0]);
    ::close(wake_[1]);
  }

  int port() const { return port_; }

 private:
  struct Client {
    std::string in;
    int rank = -1;
    bool left = false;
  };
  struct Waiter {
    int fd;
    std::vector<std::string> keys;
    Clock::time_point deadline;
  };

  void loop() {
    std::vector<pollfd> fds;
    while (true) {
      fds.clear();
      fds.push_back({wake_[0], POLLIN, 0});
      fds.push_back({listen_fd_, POLLIN, 0});
      for (auto& [fd, c] : clients_) fds.push_back({fd, POLLIN, 0});
      int timeout_ms = -1;
      auto now = Clock::now();
      for (auto& w : waiters_) {
        auto ms = std::chrono::duration_cast<Millis>(w.deadline - now).count() + 1;
        timeout_ms = timeout_ms < 0
                         ? static_cast<int>(std::max<int64_t>(ms, 0))
                         : std::min(timeout_ms, static_cast<int>(std::max<int64_t>(ms, 0)));
      }
      int r = ::poll(fds.data(), fds.size(), timeout_ms);
      if (r < 0 && errno != EINTR) return;
      if (fds[0].revents) return;
      if (fds[1].revents & POLLIN) accept_client();
      for (size_t i = 2; i < fds.size(); ++i) {
        if (fds[i].revents) read_client(fds[i].fd);
      }
      expire_waiters();
    }
  }

  void accept_client() {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    clients_[fd] = Client{};
  }

  void read_client(int fd) {
    char buf[65536];
    ssize_t r = ::recv(fd, buf, sizeof(buf), 0);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (r <= 0) {
      drop_client(fd);
      return;
    }
    Client& c = clients_[fd];
    c.in.append(buf, static_cast<size_t>(r));
    uint8_t cmd = 0;
    std::vector<std::string> args;
    while (size_t n = parse_frame(c.in, &cmd, &args)) {
      c.in.erase(0, n);
      handle(fd, cmd, args);
      if (!clients_.count(fd)) return;
    }
  }

  void drop_client(int fd) {
    Client& c = clients_[fd];
    if (c.rank >= 0 && !c.left) data_[str("__exited__/", c.rank)] = "1";
    ::close(fd);
    clients_.erase(fd);
    std::erase_if(waiters_, [fd](const Waiter& w) { return w.fd == fd; });
    wake_waiters();
  }

  void reply(int fd, uint8_t status, const std::vector<std::string>& args) {
    if (!send_all(fd, frame(status, args))) {
      // The client is gone; its socket is dropped on the next poll.
    }
  }

  void handle(int fd, uint8_t cmd, const std::vector<std::string>& args) {
    switch (cmd) {
      case kSet:
        data_[args.at(0)] = args.at(1);
        reply(fd, kOk, {});
        wake_waiters();
        return;
      case kGet: {
        auto it = data_.find(args.at(0));
        if (it == data_.end()) return reply(fd, kMissing, {});
        return reply(fd, kOk, {it->second});
      }
      case kAdd: {
        int64_t v = 0;
        auto it = data_.find(args.at(0));
        if (it != data_.end()) v = std::stoll(it->second);
        v += std::stoll(args.at(1));
        data_[args.at(0)] = std::to_string(v);
        reply(fd, kOk, {std::to_string(v)});
        wake_waiters();
        return;
      }
      case kCheck: {
        bool all = std::all_of(args.begin(), args.end(),
                               [&](const std::string& k) { return data_.count(k) > 0; });
        return reply(fd, kOk, {all ? "1" : "0"});
      }
      case kWait: {
        Waiter w{fd, {args.begin() + 1, args.end()}, Clock::now() + Millis(std::stoll(args.at(0)))};
        if (missing(w).empty()) return reply(fd, kOk, {});
        waiters_.push_back(std::move(w));
        return;
      }
      case kDelete:
        return reply(fd, kOk, {data_.erase(args.at(0)) ? "1" : "0"});
      case kHello:
        clients_[fd].rank = std::stoi(args.at(0));
        data_.erase(str("__exited__/", clients_[fd].rank));
        return reply(fd, kOk, {});
      case kBye:
        clients_[fd].left = true;
        return reply(fd, kOk, {});
      default:
        drop_client(fd);
    }
  }

  std::vector<std::string> missing(const Waiter& w) const {
    std::vector<std::string> out;
    for (const auto& k : w.keys) {
      if (!data_.count(k)) out.push_back(k);
    }
    return out;
  }

  void wake_waiters() {
    std::erase_if(waiters_, [this](const Waiter& w) {
      if (!missing(w).empty()) return false;
      reply(w.fd, kOk, {});
      return true;
    });
  }

  void expire_waiters() {
    auto now = Clock::now();
    std::erase_if(waiters_, [&](const Waiter& w) {
      if (w.deadline > now) return false;
      reply(w.fd, kMissing, missing(w));
      return true;
    });
  }

  int listen_fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};
  std::thread thread_;
  std::map<int, Client> clients_;
  std::vector<Waiter> waiters_;
  std::unordered_map<std::string, std::string> data_;
};

TCPStore::TCPStore(std::string host, int port, bool is_master, Millis timeout)
    : host_(std::move(host)), port_(port) {
  timeout_ = timeout;
  SKIFF_ENFORCE(port >= 0 && port < 65536, kInvalidArgument, "TCPStore", "port", "0..65535", port);
  SKIFF_ENFORCE(port > 0 || is_master, kInvalidArgument, "TCPStore", "port",
                "a port > 0 for a client (0 picks a free port only on the master)", port);
  if (is_master) {
    server_ = std::make_unique<TCPStoreServer>(host_, port_);
    port_ = server_->port();
  }
  sockaddr_in addr = resolve(is_master ? "127.0.0.1" : host_, port_, "TCPStore");
  auto deadline = Clock::now() + timeout;
  int last_err = 0;
  while (true) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    SKIFF_ENFORCE(fd_ >= 0, kIOError, "TCPStore", "", "a socket", std::strerror(errno));
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) break;
    last_err = errno;
    ::close(fd_);
    fd_ = -1;
    SKIFF_ENFORCE(Clock::now() < deadline, kPrecondition, "TCPStore", "",
                  str("a store server at ", host_, ":", port_, " within ", seconds(timeout)),
                  str("no connection (", std::strerror(last_err), ")"));
    std::this_thread::sleep_for(Millis(20));
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

TCPStore::~TCPStore() {
  if (fd_ >= 0) ::close(fd_);
  server_.reset();
}

std::vector<std::string> TCPStore::request(uint8_t cmd, const std::vector<std::string>& args,
                                           Millis timeout, const char* op, uint8_t* status) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string where = str("TCPStore.", op, " (server ", host_, ":", port_, ")");
  SKIFF_ENFORCE(fd_ >= 0, kPrecondition, where, "", "a live connection to the store server",
                "a connection lost earlier");
  auto fail = [&](const std::string& why) {
    ::close(fd_);
    fd_ = -1;
    SKIFF_THROW(kPrecondition, where, "", "an answer from the store server", why);
  };
  if (!send_all(fd_, frame(cmd, args))) fail(str("a send error (", std::strerror(errno), ")"));
  std::string in;
  auto deadline = Clock::now() + timeout + kReplySlack;
  uint8_t head = 0;
  std::vector<std::string> out;
  char buf[65536];
  while (!parse_frame(in, &head, &out)) {
    auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now()).count();
    if (left <= 0) fail(str("no answer within ", seconds(timeout + kReplySlack)));
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(left));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("the connection closed (the store's host process exited?)");
    in.append(buf, static_cast<size_t>(n));
  }
  if (status) *status = head;
  return out;
}

void TCPStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  request(kSet, {key, std::string(value.begin(), value.end())}, timeout_, "set");
}

std::vector<uint8_t> TCPStore::get(const std::string& key) {
  wait({key}, timeout_);
  uint8_t status = 0;
  auto out = request(kGet, {key}, timeout_, "get", &status);
  SKIFF_ENFORCE(status == kOk, kNotFound, "TCPStore.get", "key", "an existing key",
                str("'", key, "' (deleted while waiting)"));
  return {out.at(0).begin(), out.at(0).end()};
}

int64_t TCPStore::add(const std::string& key, int64_t delta) {
  return std::stoll(request(kAdd, {key, std::to_string(delta)}, timeout_, "add").at(0));
}

bool TCPStore::check(const std::vector<std::string>& keys) {
  return request(kCheck, keys, timeout_, "check").at(0) == "1";
}

void TCPStore::wait(const std::vector<std::string>& keys, Millis timeout) {
  std::vector<std::string> args{std::to_string(timeout.count())};
  args.insert(args.end(), keys.begin(), keys.end());
  uint8_t status = 0;
  auto missing = request(kWait, args, timeout, "wait", &status);
  if (status == kOk) return;
  std::string names;
  for (const auto& k : missing) names += (names.empty() ? "'" : ", '") + k + "'";
  SKIFF_THROW(kPrecondition, str("TCPStore.wait (server ", host_, ":", port_, ")"), "keys",
              str("every key set within ", seconds(timeout)),
              str("timed out; missing [", names, "]"));
}

bool TCPStore::delete_key(const std::string& key) {
  return request(kDelete, {key}, timeout_, "delete_key").at(0) == "1";
}

void TCPStore::register_rank(int rank) {
  request(kHello, {std::to_string(rank)}, timeout_, "register_rank");
}

void TCPStore::leave() {
  if (fd_ >= 0) request(kBye, {}, timeout_, "leave");
}

}  // namespace skiff::comm

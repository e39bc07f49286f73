// skiff._C.comm: the TCP store, process groups and their tasks (skiff/comm) for
// python/skiff/distributed. Calls release the GIL while they talk to peers, so a rank's other
// Python threads (and the autograd hooks of DataParallel) keep running. Ranks are group-local
// here; the Python layer maps Paddle's global ranks.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/base/error.h"
#include "skiff/comm/gloo/process_group_gloo.h"
#include "skiff/comm/tcp_store.h"
#include "skiff/python/bind.h"

namespace skiff::python {

namespace {

using comm::Millis;

Millis millis(double seconds) { return Millis(static_cast<int64_t>(seconds * 1000.0)); }

DenseTensor dense_of(const Tensor& t, const char* op, const char* arg) {
  SKIFF_ENFORCE(t.is_dense(), kInvalidArgument, op, arg, "a dense eager tensor",
                t.defined() ? "a symbolic or distributed tensor" : "an undefined tensor");
  return t.dense();
}

std::vector<uint8_t> to_bytes(const py::object& v) {
  std::string s =
      py::isinstance<py::str>(v) ? v.cast<std::string>() : std::string(v.cast<py::bytes>());
  return {s.begin(), s.end()};
}

comm::ReduceOp reduce_op(int op) {
  SKIFF_ENFORCE(op >= 0 && op <= 4, kInvalidArgument, "all_reduce", "op",
                "ReduceOp.SUM, AVG, MAX, MIN or PROD", op);
  return static_cast<comm::ReduceOp>(op);
}

template <typename Fn>
std::shared_ptr<comm::Task> released(Fn&& fn) {
  py::gil_scoped_release release;
  return fn();
}

}  // namespace

void bind_comm(py::module_& m) {
  py::class_<comm::TCPStore, std::shared_ptr<comm::TCPStore>>(m, "TCPStore")
      .def(py::init([](const std::string& host, int port, bool is_master, double timeout) {
             py::gil_scoped_release release;
             return std::make_shared<comm::TCPStore>(host, port, is_master, millis(timeout));
           }),
           py::arg("hostname"), py::arg("port"), py::arg("is_master") = false,
           py::arg("timeout") = 900.0)
      .def(
          "set",
          [](comm::TCPStore& s, const std::string& key, const py::object& value) {
            auto v = to_bytes(value);
            py::gil_scoped_release release;
            s.set(key, v);
          },
          py::arg("key"), py::arg("value"))
      .def(
          "get",
          [](comm::TCPStore& s, const std::string& key) {
            std::vector<uint8_t> v;
            {
              py::gil_scoped_release release;
              v = s.get(key);
            }
            return py::bytes(reinterpret_cast<const char*>(v.data()), v.size());
          },
          py::arg("key"))
      .def(
          "add",
          [](comm::TCPStore& s, const std::string& key, int64_t value) {
            py::gil_scoped_release release;
            return s.add(key, value);
          },
          py::arg("key"), py::arg("value"))
      .def(
          "check",
          [](comm::TCPStore& s, const std::vector<std::string>& keys) {
            py::gil_scoped_release release;
            return s.check(keys);
          },
          py::arg("keys"))
      .def(
          "wait",
          [](comm::TCPStore& s, const std::vector<std::string>& keys, std::optional<double> t) {
            py::gil_scoped_release release;
            s.wait(keys, t ? millis(*t) : s.timeout());
          },
          py::arg("keys"), py::arg("timeout") = py::none())
      .def(
          "delete_key",
          [](comm::TCPStore& s, const std::string& key) {
            py::gil_scoped_release release;
            return s.delete_key(key);
          },
          py::arg("key"))
      .def("register_rank", &comm::TCPStore::register_rank, py::arg("rank"),
           py::call_guard<py::gil_scoped_release>())
      .def("leave", &comm::TCPStore::leave, py::call_guard<py::gil_scoped_release>())
      .def_property(
          "timeout", [](const comm::TCPStore& s) { return s.timeout().count() / 1000.0; },
          [](comm::TCPStore& s, double t) { s.set_timeout(millis(t)); })
      .def_property_readonly("host", &comm::TCPStore::host)
      .def_property_readonly("port", &comm::TCPStore::port)
      .def_property_readonly("is_master", &comm::TCPStore::is_master);

  py::class_<comm::Task, std::shared_ptr<comm::Task>>(m, "Task")
      .def("wait",
           [](comm::Task& t) {
             py::gil_scoped_release release;
             t.wait();
             return true;
           })
      .def("is_completed", &comm::Task::is_completed)
      .def_property_readonly("op", &comm::Task::op);

  using PG = comm::ProcessGroupGloo;
  py::class_<PG, std::shared_ptr<PG>>(m, "ProcessGroupGloo")
      .def(py::init([](std::shared_ptr<comm::TCPStore> store, int rank, std::vector<int> ranks,
                       int gid, const std::string& name, const std::string& hostname,
                       double timeout) {
             py::gil_scoped_release release;
             return std::make_shared<PG>(store, rank, std::move(ranks), gid, name,
                                         comm::GlooOptions{hostname, millis(timeout)});
           }),
           py::arg("store"), py::arg("rank"), py::arg("ranks"), py::arg("gid"), py::arg("name"),
           py::arg("hostname") = "127.0.0.1", py::arg("timeout") = 1800.0)
      .def_property_readonly("rank", &PG::rank)
      .def_property_readonly("size", &PG::size)
      .def_property_readonly("ranks", &PG::ranks)
      .def_property_readonly("name", &PG::name)
      .def_property_readonly("op_count", &PG::op_count)
      .def_property_readonly("timeout", [](const PG& g) { return g.timeout().count() / 1000.0; })
      .def("backend", &PG::backend)
      .def(
          "all_reduce",
          [](PG& g, const Tensor& t, int op, bool sync_op) {
            auto d = dense_of(t, "all_reduce", "tensor");
            auto r = reduce_op(op);
            return released([&] { return g.all_reduce(d, r, sync_op); });
          },
          py::arg("tensor"), py::arg("op"), py::arg("sync_op") = true)
      .def(
          "all_gather",
          [](PG& g, const Tensor& out, const Tensor& in, bool sync_op) {
            auto o = dense_of(out, "all_gather", "out"), i = dense_of(in, "all_gather", "tensor");
            return released([&] { return g.all_gather(o, i, sync_op); });
          },
          py::arg("out"), py::arg("tensor"), py::arg("sync_op") = true)
      .def(
          "reduce_scatter",
          [](PG& g, const Tensor& out, const Tensor& in, int op, bool sync_op) {
            auto o = dense_of(out, "reduce_scatter", "tensor");
            auto i = dense_of(in, "reduce_scatter", "tensor_list");
            auto r = reduce_op(op);
            return released([&] { return g.reduce_scatter(o, i, r, sync_op); });
          },
          py::arg("out"), py::arg("tensor"), py::arg("op"), py::arg("sync_op") = true)
      .def(
          "broadcast",
          [](PG& g, const Tensor& t, int root, bool sync_op) {
            auto d = dense_of(t, "broadcast", "tensor");
            return released([&] { return g.broadcast(d, root, sync_op); });
          },
          py::arg("tensor"), py::arg("root"), py::arg("sync_op") = true)
      .def(
          "reduce",
          [](PG& g, const Tensor& t, int root, int op, bool sync_op) {
            auto d = dense_of(t, "reduce", "tensor");
            auto r = reduce_op(op);
            return released([&] { return g.reduce(d, root, r, sync_op); });
          },
          py::arg("tensor"), py::arg("root"), py::arg("op"), py::arg("sync_op") = true)
      .def(
          "scatter",
          [](PG& g, const Tensor& out, std::optional<Tensor> in, int root, bool sync_op) {
            auto o = dense_of(out, "scatter", "tensor");
            DenseTensor i;
            if (in) i = dense_of(*in, "scatter", "tensor_list");
            return released([&] { return g.scatter(o, i, root, sync_op); });
          },
          py::arg("out"), py::arg("tensor"), py::arg("root"), py::arg("sync_op") = true)
      .def(
          "gather",
          [](PG& g, std::optional<Tensor> out, const Tensor& in, int root, bool sync_op) {
            DenseTensor o;
            if (out) o = dense_of(*out, "gather", "gather_list");
            auto i = dense_of(in, "gather", "tensor");
            return released([&] { return g.gather(o, i, root, sync_op); });
          },
          py::arg("out"), py::arg("tensor"), py::arg("root"), py::arg("sync_op") = true)
      .def(
          "all_to_all",
          [](PG& g, const Tensor& out, const Tensor& in, std::vector<int64_t> out_counts,
             std::vector<int64_t> in_counts, bool sync_op) {
            auto o = dense_of(out, "alltoall", "out_tensor");
            auto i = dense_of(in, "alltoall", "in_tensor");
            return released([&] { return g.all_to_all(o, i, out_counts, in_counts, sync_op); });
          },
          py::arg("out"), py::arg("tensor"), py::arg("out_counts") = std::vector<int64_t>{},
          py::arg("in_counts") = std::vector<int64_t>{}, py::arg("sync_op") = true)
      .def(
          "send",
          [](PG& g, const Tensor& t, int dst, bool sync_op) {
            auto d = dense_of(t, "send", "tensor");
            return released([&] { return g.send(d, dst, sync_op); });
          },
          py::arg("tensor"), py::arg("dst"), py::arg("sync_op") = true)
      .def(
          "recv",
          [](PG& g, const Tensor& t, int src, bool sync_op) {
            auto d = dense_of(t, "recv", "tensor");
            return released([&] { return g.recv(d, src, sync_op); });
          },
          py::arg("tensor"), py::arg("src"), py::arg("sync_op") = true)
      .def(
          "barrier",
          [](PG& g, bool sync_op) { return released([&] { return g.barrier(sync_op); }); },
          py::arg("sync_op") = true);
}

}  // namespace skiff::python

// skiff._C.dist: distributed tensors (skiff/dist) for python/skiff/distributed/auto_parallel.
// Meshes and placements cross the boundary as plain values (shape, process ids, dim names; one
// (kind, dim, reduce type name) tuple per placement) so the Python classes stay Paddle's own
// Python types. Reshards release the GIL while they communicate.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "skiff/base/error.h"
#include "skiff/comm/tcp_store.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/eager/dist_mode.h"
#include "skiff/dist/eager/grad_buckets.h"
#include "skiff/dist/reshard/reshard.h"
#include "skiff/dist/shard_layout.h"
#include "skiff/python/bind.h"

namespace skiff::python {

namespace {

using MeshArgs = std::tuple<std::vector<int64_t>, std::vector<int64_t>, std::vector<std::string>>;
using PlacementArg = std::tuple<std::string, int64_t, std::string>;

dist::ProcessMesh mesh_of(const MeshArgs& m) {
  return dist::ProcessMesh(std::get<0>(m), std::get<1>(m), std::get<2>(m));
}

std::vector<dist::Placement> placements_of(const std::vector<PlacementArg>& ps) {
  std::vector<dist::Placement> out;
  for (const auto& [kind, dim, reduce] : ps) {
    if (kind == "shard") {
      out.push_back(dist::Placement::shard(dim));
    } else if (kind == "partial") {
      out.push_back(dist::Placement::partial(dist::parse_reduce_type(reduce)));
    } else {
      out.push_back(dist::Placement::replicate());
    }
  }
  return out;
}

std::vector<PlacementArg> placements_to_py(const std::vector<dist::Placement>& ps) {
  std::vector<PlacementArg> out;
  for (const auto& p : ps) {
    std::string kind = p.is_shard() ? "shard" : p.is_partial() ? "partial" : "replicate";
    out.emplace_back(kind, p.shard_dim(), std::string(dist::reduce_type_name(p.reduce_type())));
  }
  return out;
}

const DenseTensor& dense_arg(const Tensor& t, const char* op, const char* arg) {
  SKIFF_ENFORCE(t.is_dense(), kInvalidArgument, op, arg, "a dense (local) tensor",
                t.defined() && t.kind() == TensorKind::kDist ? "a distributed tensor"
                                                             : "a symbolic or undefined tensor");
  return t.dense();
}

const dist::DistTensor& dist_arg(const Tensor& t, const char* op, const char* arg) {
  const dist::DistTensor* d = dist::as_dist(t);
  SKIFF_ENFORCE(d != nullptr, kInvalidArgument, op, arg, "a distributed tensor", "a dense tensor");
  return *d;
}

int64_t this_rank() {
  auto ctx = dist::CommContext::global();
  return ctx ? ctx->rank() : 0;
}

int64_t world_size() {
  auto ctx = dist::CommContext::global();
  return ctx ? ctx->world_size() : 1;
}

}  // namespace

void bind_dist(py::module_& m) {
  m.def(
      "set_comm_context",
      [](std::shared_ptr<comm::TCPStore> store, int rank, int world, const std::string& host,
         double timeout) {
        comm::GlooOptions o{host, comm::Millis(static_cast<int64_t>(timeout * 1000.0))};
        dist::CommContext::set_global(std::make_shared<dist::CommContext>(store, rank, world, o));
      },
      py::arg("store"), py::arg("rank"), py::arg("world_size"), py::arg("hostname"),
      py::arg("timeout"));
  m.def("clear_comm_context", [] { dist::CommContext::set_global(nullptr); });
  m.def("op_count", [] {
    auto ctx = dist::CommContext::global();
    return ctx ? ctx->op_count() : int64_t{0};
  });
  m.def("shard_tensor", [](const Tensor& t, const MeshArgs& mesh,
                           const std::vector<PlacementArg>& ps) {
    auto pm = mesh_of(mesh);
    dist::check_mesh_in_world("shard_tensor", pm, world_size());
    dist::enable_dist_mode();
    return dist::shard_dense("shard_tensor", dense_arg(t, "shard_tensor", "data").contiguous(), pm,
                             placements_of(ps), this_rank());
  });
  m.def("dtensor_from_local",
        [](const Tensor& t, const MeshArgs& mesh, const std::vector<PlacementArg>& ps) {
          auto pm = mesh_of(mesh);
          dist::check_mesh_in_world("dtensor_from_local", pm, world_size());
          dist::enable_dist_mode();
          return dist::dist_from_local("dtensor_from_local",
                                       dense_arg(t, "dtensor_from_local", "local_tensor"), pm,
                                       placements_of(ps), this_rank());
        });
  m.def("reshard", [](const Tensor& t, const MeshArgs& mesh, const std::vector<PlacementArg>& ps) {
    const auto& d = dist_arg(t, "reshard", "dist_tensor");
    auto attr = dist::dist_attr_for("reshard", mesh_of(mesh), placements_of(ps), d.dims().size());
    auto ctx = dist::CommContext::global();
    py::gil_scoped_release release;
    return dist::reshard(t, attr, ctx.get());
  });
  m.def("set_grad_placements", [](const Tensor& t, const std::vector<PlacementArg>& ps) {
    const auto& d = dist_arg(t, "set_grad_placements", "tensor");
    auto attr = dist::dist_attr_for("set_grad_placements", d.process_mesh(), placements_of(ps),
                                    d.dims().size());
    // The leaf's gradient layout is metadata beside the value, set once by the sharding stage.
    const_cast<dist::DistTensor&>(d).set_grad_dist_attr(std::move(attr));
  });
  m.def("local_value",
        [](const Tensor& t) { return Tensor(dist_arg(t, "_local_value", "self").local_value()); });
  m.def("dist_info", [](const Tensor& t) -> py::object {
    const dist::DistTensor* d = dist::as_dist(t);
    if (d == nullptr) return py::none();
    const auto& pm = d->process_mesh();
    return py::make_tuple(py::make_tuple(pm.shape(), pm.process_ids(), pm.dim_names()),
                          placements_to_py(d->placements()));
  });
  m.def("rule_cache_size", &dist::dist_mode_cache_size);
  m.def("reshard_counts", [] {
    auto c = dist::reshard_counts();
    py::dict d;
    d["all_reduce"] = c.all_reduce;
    d["reduce_scatter"] = c.reduce_scatter;
    d["all_to_all"] = c.all_to_all;
    d["all_gather"] = c.all_gather;
    // Note [Leaf gradients are reduced in buckets]: the all-reduces of the end-of-backward
    // buckets, counted beside reshard's.
    d["grad_bucket_all_reduce"] = dist::bucketed_all_reduce_count();
    return d;
  });
  // Note [Leaf gradients are reduced in buckets]: buckets launched while backward still ran.
  m.def("grad_buckets_overlapped", &dist::overlapped_bucket_launches);
  m.def("is_dist", [](const Tensor& t) { return dist::as_dist(t) != nullptr; });
}

}  // namespace skiff::python

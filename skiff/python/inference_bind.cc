// skiff._C.inference: the C++ predictor (include/skiff/inference.h) for paddle.inference
// (python/skiff/inference). Names are Paddle's Python names: Config.switch_ir_optim,
// Predictor.get_input_handle, Tensor.copy_from_cpu, ... Tensor handles move data as numpy
// arrays; Predictor.run(list of paddle.Tensor) is Paddle 3's tensor form. Errors stay the
// predictor's skiff::Error (ValueError, TypeError, RuntimeError, skiff.UnavailableError).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <memory>
#include <set>

#include "skiff/base/error.h"
#include "skiff/core/float16.h"
#include "skiff/inference.h"
#include "skiff/inference/pass_pipeline.h"
#include "skiff/inference/saved_model.h"
#include "skiff/python/bind.h"
#include "skiff/python/convert.h"

namespace skiff::python {

namespace {

namespace inf = skiff::inference;

DType dtype_of(inf::DataType t) {
  switch (t) {
    case inf::FLOAT32:
      return DType::kFloat32;
    case inf::INT64:
      return DType::kInt64;
    case inf::INT32:
      return DType::kInt32;
    case inf::UINT8:
      return DType::kUInt8;
    case inf::INT8:
      return DType::kInt8;
    case inf::FLOAT16:
      return DType::kFloat16;
    case inf::BOOL:
      return DType::kBool;
    case inf::FLOAT64:
      return DType::kFloat64;
    case inf::BFLOAT16:
      return DType::kBFloat16;
  }
  return DType::kUndefined;
}

// "(InvalidType) op: argument 'arg' expected ..., got <Python type>".
[[noreturn]] void type_error(const char* op, const char* arg, const char* expected,
                             py::handle got) {
  SKIFF_THROW(kTypeError, op, arg, expected, Py_TYPE(got.ptr())->tp_name);
}

// Calls fn(T{}) for the element type of `d`; numpy has no bfloat16, so a bfloat16 handle is
// refused by name.
template <typename Fn>
void visit_numpy_type(DType d, const char* op, const std::string& name, Fn&& fn) {
  switch (d) {
    case DType::kFloat32:
      return fn(float{});
    case DType::kFloat64:
      return fn(double{});
    case DType::kFloat16:
      return fn(float16{});
    case DType::kInt64:
      return fn(int64_t{});
    case DType::kInt32:
      return fn(int32_t{});
    case DType::kUInt8:
      return fn(uint8_t{});
    case DType::kInt8:
      return fn(int8_t{});
    case DType::kBool:
      return fn(bool{});
    default:
      SKIFF_THROW(kUnimplemented, op, name,
                  "a tensor of a dtype numpy has (bool, int8, uint8, int32, int64, float16, "
                  "float32, float64)",
                  dtype_name(d));
  }
}

// Paddle's Tensor.copy_from_cpu: the handle takes the array's shape, then its data. The dtype
// is checked by the handle (the model's input dtype), so a float64 array for a float32 input is
// a TypeError naming both, not a silent cast.
void copy_from_cpu(inf::Tensor& t, py::handle data) {
  if (!py::isinstance<py::array>(data)) {
    type_error("Tensor.copy_from_cpu", "data", "a numpy.ndarray", data);
  }
  py::array arr = py::array::ensure(data, py::array::c_style);
  const DType dtype = from_numpy_dtype(arr.dtype(), "Tensor.copy_from_cpu", "data");
  std::vector<int> shape;
  for (py::ssize_t i = 0; i < arr.ndim(); ++i) {
    SKIFF_ENFORCE(arr.shape(i) <= INT_MAX, kInvalidArgument, "Tensor.copy_from_cpu", t.name(),
                  str("dims of at most ", INT_MAX), arr.shape(i));
    shape.push_back(static_cast<int>(arr.shape(i)));
  }
  const DType want = dtype_of(t.type());
  SKIFF_ENFORCE(dtype == want, kTypeError, "Tensor.copy_from_cpu", t.name(),
                str("a numpy array of the model's input dtype ", dtype_name(want)),
                str("an array of ", dtype_name(dtype)));
  t.Reshape(shape);
  visit_numpy_type(dtype, "Tensor.copy_from_cpu", t.name(), [&](auto v) {
    using T = decltype(v);
    t.CopyFromCpu(static_cast<const T*>(arr.data()));
  });
}

py::array copy_to_cpu(const inf::Tensor& t) {
  const DType dtype = dtype_of(t.type());
  std::vector<py::ssize_t> shape;
  for (int d : t.shape()) {
    SKIFF_ENFORCE(d >= 0, kPrecondition, "Tensor.copy_to_cpu", t.name(),
                  "data (run the predictor first)", str("only the declared shape ", t.shape()));
    shape.push_back(d);
  }
  py::array out;
  visit_numpy_type(dtype, "Tensor.copy_to_cpu", t.name(), [&](auto v) {
    using T = decltype(v);
    out = py::array(numpy_dtype(dtype), shape);
    t.CopyToCpu(static_cast<T*>(out.mutable_data()));
  });
  return out;
}

py::list run_tensors(inf::Predictor& p, const py::handle& inputs) {
  if (!py::isinstance<py::list>(inputs) && !py::isinstance<py::tuple>(inputs)) {
    type_error("Predictor.run", "inputs", "a list of paddle.Tensor", inputs);
  }
  std::vector<Tensor> in;
  for (py::handle h : inputs) {
    const Tensor* t = as_tensor_ptr(h);
    if (t == nullptr) type_error("Predictor.run", "inputs", "a list of paddle.Tensor", h);
    in.push_back(*t);
  }
  std::vector<Tensor> out;
  {
    py::gil_scoped_release release;
    p.Run(in, &out);
  }
  py::list result;
  for (const Tensor& t : out) result.append(py::cast(t));
  return result;
}

void bind_enums(py::module_& m) {
  py::enum_<inf::PrecisionType>(m, "PrecisionType")
      .value("Float32", inf::PrecisionType::kFloat32)
      .value("Int8", inf::PrecisionType::kInt8)
      .value("Half", inf::PrecisionType::kHalf)
      .value("Bfloat16", inf::PrecisionType::kBf16);
  py::enum_<inf::PlaceType>(m, "PlaceType")
      .value("UNK", inf::PlaceType::kUNK)
      .value("CPU", inf::PlaceType::kCPU)
      .value("GPU", inf::PlaceType::kGPU)
      .value("XPU", inf::PlaceType::kXPU)
      .value("NPU", inf::PlaceType::kNPU)
      .value("IPU", inf::PlaceType::kIPU)
      .value("CUSTOM", inf::PlaceType::kCUSTOM);
  py::enum_<inf::DataType>(m, "DataType")
      .value("FLOAT32", inf::FLOAT32)
      .value("INT64", inf::INT64)
      .value("INT32", inf::INT32)
      .value("UINT8", inf::UINT8)
      .value("INT8", inf::INT8)
      .value("FLOAT16", inf::FLOAT16)
      .value("BOOL", inf::BOOL)
      .value("FLOAT64", inf::FLOAT64)
      .value("BFLOAT16", inf::BFLOAT16);
}

void bind_config(py::module_& m) {
  py::class_<inf::PassBuilder>(m, "PassBuilder")
      .def("append_pass", &inf::PassBuilder::AppendPass, py::arg("pass_type"))
      .def("insert_pass", &inf::PassBuilder::InsertPass, py::arg("idx"), py::arg("pass_type"))
      .def("delete_pass", py::overload_cast<const std::string&>(&inf::PassBuilder::DeletePass),
           py::arg("pass_type"))
      .def("delete_pass", py::overload_cast<size_t>(&inf::PassBuilder::DeletePass), py::arg("idx"))
      .def("clear_passes", &inf::PassBuilder::ClearPasses)
      .def("all_passes", &inf::PassBuilder::AllPasses)
      .def("turn_on_debug", &inf::PassBuilder::TurnOnDebug)
      .def("debug_string", &inf::PassBuilder::DebugString);

  using C = inf::Config;
  py::class_<C>(m, "Config")
      .def(py::init<>())
      .def(py::init<const std::string&>(), py::arg("model_dir"))
      .def(py::init<const std::string&, const std::string&>(), py::arg("prog_file"),
           py::arg("params_file"))
      .def("set_model", py::overload_cast<const std::string&>(&C::SetModel), py::arg("model_dir"))
      .def("set_model", py::overload_cast<const std::string&, const std::string&>(&C::SetModel),
           py::arg("prog_file"), py::arg("params_file"))
      .def("set_prog_file", &C::SetProgFile, py::arg("prog_file"))
      .def("set_params_file", &C::SetParamsFile, py::arg("params_file"))
      .def("model_dir", &C::model_dir)
      .def("prog_file", &C::prog_file)
      .def("params_file", &C::params_file)
      .def("enable_mkldnn", &C::EnableMKLDNN)
      .def("disable_mkldnn", &C::DisableMKLDNN)
      .def("mkldnn_enabled", &C::mkldnn_enabled)
      .def("set_mkldnn_cache_capacity", &C::SetMkldnnCacheCapacity, py::arg("capacity"))
      .def("enable_mkldnn_bfloat16", &C::EnableMkldnnBfloat16)
      .def("mkldnn_bfloat16_enabled", &C::mkldnn_bfloat16_enabled)
      .def(
          "enable_mkldnn_int8",
          [](C& c, const std::unordered_set<std::string>& ops) { c.EnableMkldnnInt8(ops); },
          py::arg("mkldnn_int8_enabled_op_types") = std::unordered_set<std::string>{})
      .def("mkldnn_int8_enabled", &C::mkldnn_int8_enabled)
      .def("enable_weight_only_int8", &C::EnableWeightOnlyInt8, py::arg("x") = true)
      .def("weight_only_int8_enabled", &C::weight_only_int8_enabled)
      .def("set_cpu_math_library_num_threads", &C::SetCpuMathLibraryNumThreads,
           py::arg("cpu_math_library_num_threads"))
      .def("cpu_math_library_num_threads", &C::cpu_math_library_num_threads)
      .def("enable_use_gpu", &C::EnableUseGpu, py::arg("memory_pool_init_size_mb"),
           py::arg("device_id") = 0, py::arg("precision_mode") = inf::PrecisionType::kFloat32)
      .def("disable_gpu", &C::DisableGpu)
      .def("use_gpu", &C::use_gpu)
      .def("gpu_device_id", [](const C&) { return 0; })
      .def("enable_custom_device", &C::EnableCustomDevice, py::arg("device_type"),
           py::arg("device_id") = 0, py::arg("precision") = inf::PrecisionType::kFloat32)
      .def("use_custom_device", &C::use_custom_device)
      .def("enable_xpu", &C::EnableXpu, py::arg("l3_size") = 0xfffc00)
      .def("use_xpu", &C::use_xpu)
      .def("enable_onnxruntime", &C::EnableONNXRuntime)
      .def("disable_onnxruntime", &C::DisableONNXRuntime)
      .def("use_onnxruntime", &C::use_onnxruntime)
      .def("onnxruntime_enabled", &C::use_onnxruntime)
      .def("enable_tensorrt_engine", &C::EnableTensorRtEngine,
           py::arg("workspace_size") = int64_t{1} << 30, py::arg("max_batch_size") = 1,
           py::arg("min_subgraph_size") = 3,
           py::arg("precision_mode") = inf::PrecisionType::kFloat32, py::arg("use_static") = false,
           py::arg("use_calib_mode") = true)
      .def("tensorrt_engine_enabled", &C::tensorrt_engine_enabled)
      .def("switch_ir_optim", &C::SwitchIrOptim, py::arg("x") = true)
      .def("ir_optim", &C::ir_optim)
      .def("switch_ir_debug", &C::SwitchIrDebug, py::arg("x") = true,
           py::arg("passes") = std::vector<std::string>{})
      .def("enable_memory_optim", &C::EnableMemoryOptim, py::arg("x") = true)
      .def("memory_optim_enabled", &C::enable_memory_optim)
      .def("delete_pass", &C::DeletePass, py::arg("pass_name"))
      .def("pass_builder", &C::pass_builder, py::return_value_policy::reference_internal)
      .def("enable_new_ir", &C::EnableNewIR, py::arg("x") = true)
      .def("new_ir_enabled", &C::new_ir_enabled)
      .def("enable_new_executor", &C::EnableNewExecutor, py::arg("x") = true)
      .def("switch_use_feed_fetch_ops", &C::SwitchUseFeedFetchOps, py::arg("x") = true)
      .def("switch_specify_input_names", &C::SwitchSpecifyInputNames, py::arg("x") = true)
      .def("enable_profile", &C::EnableProfile)
      .def("profile_enabled", &C::profile_enabled)
      .def("disable_glog_info", &C::DisableGlogInfo)
      .def("glog_info_disabled", &C::glog_info_disabled)
      .def("summary", &C::Summary)
      .def("passes", &C::passes, "The passes a predictor made now would run");
}

void bind_predictor(py::module_& m) {
  using T = inf::Tensor;
  py::class_<T>(m, "Tensor")
      .def("reshape", &T::Reshape, py::arg("shape"))
      .def("copy_from_cpu", &copy_from_cpu, py::arg("data"))
      .def("copy_to_cpu", &copy_to_cpu)
      .def("shape", &T::shape)
      .def("type", &T::type)
      .def("place", &T::place)
      .def("name", &T::name);

  using P = inf::Predictor;
  py::class_<P, std::shared_ptr<P>>(m, "Predictor")
      .def(py::init([](const inf::Config& c) {
             py::gil_scoped_release release;
             return inf::CreatePredictor(c);
           }),
           py::arg("config"))
      .def("get_input_names", &P::GetInputNames)
      .def("get_output_names", &P::GetOutputNames)
      .def("get_input_handle", &P::GetInputHandle, py::arg("name"))
      .def("get_output_handle", &P::GetOutputHandle, py::arg("name"))
      .def("get_input_tensor_shape", &P::GetInputTensorShape)
      .def("get_output_tensor_shape", &P::GetOutputTensorShape)
      .def("get_input_types", &P::GetInputTypes)
      .def("get_output_types", &P::GetOutputTypes)
      .def(
          "run",
          [](P& p, const py::object& inputs) -> py::object {
            if (!inputs.is_none()) return run_tensors(p, inputs);
            {
              // Only around the run: py::none() below takes a reference to None, which needs
              // the GIL (found by TSan on predictor clones run from threads).
              py::gil_scoped_release release;
              p.Run();
            }
            return py::none();
          },
          py::arg("inputs") = py::none())
      .def("clone", [](P& p) { return std::shared_ptr<P>(p.Clone()); })
      .def("clear_intermediate_tensor", &P::ClearIntermediateTensor)
      .def("try_shrink_memory", &P::TryShrinkMemory)
      .def("planned_peak_bytes", &P::planned_peak_bytes)
      .def("measured_peak_bytes", &P::measured_peak_bytes)
      .def("optimized_program", &P::optimized_program);
}

}  // namespace

void bind_inference(py::module_& m) {
  bind_enums(m);
  bind_config(m);
  bind_predictor(m);
  m.def(
      "create_predictor",
      [](const inf::Config& c) {
        py::gil_scoped_release release;
        return inf::CreatePredictor(c);
      },
      py::arg("config"));
  m.def(
      "convert_program_precision",
      [](const std::string& prog_file, const std::string& params_file, const std::string& dtype,
         const std::set<std::string>& white, const std::set<std::string>& black) {
        inf::SavedModel m = inf::read_saved_model(prog_file, params_file);
        inf::mixed_precision(m.program, parse_dtype(dtype), white, black);
        inf::run_passes(m.program, {inf::kFoldParamsPass});
        py::list params;
        for (const auto& [name, t] : m.program.params) params.append(py::make_tuple(name, t));
        return py::make_tuple(m.program.program->print(), params);
      },
      py::arg("prog_file"), py::arg("params_file"), py::arg("dtype"), py::arg("white_list"),
      py::arg("black_list"),
      "The saved model's program and parameters after the mixed-precision pass and fold-params "
      "(convert_to_mixed_precision writes them)");
  m.def("get_version", &inf::GetVersion);
  m.def("model_format_version", &inf::GetModelFormatVersion);
}

}  // namespace skiff::python

// paddle_infer::Predictor and its Tensor handles (include/skiff/inference.h).
// A Model (the optimized, lowered program and its weights) is made once by CreatePredictor and
// shared, read-only, by every clone; each predictor has its own executor (run state), inputs and
// outputs, so clones run concurrently.
#include <chrono>
#include <cstring>
#include <iostream>

#include "skiff/base/error.h"
#include "skiff/core/allocator.h"
#include "skiff/core/parallel.h"
#include "skiff/core/shape_math.h"
#include "skiff/inference.h"
#include "skiff/inference/pass_pipeline.h"
#include "skiff/inference/saved_model.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/profiler/record_event.h"
#include "skiff/runtime/executor/executor.h"

namespace skiff::inference {

namespace detail {

struct TensorSlot {
  std::string name;
  bool input = true;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> declared;  // -1: any size (for outputs: as far as the program knows)
  std::vector<int64_t> shape;     // inputs: set by Reshape
  bool shaped = false;
  DenseTensor value;  // inputs: the data to feed; outputs: the last run's result
};

struct Model {
  jit::CapturedProgram program;                                    // lowered
  std::vector<std::shared_ptr<const TensorSlot>> inputs, outputs;  // declarations
  Config config;
  Predictor::LoadTimes times;
};

struct PredictorState {
  std::shared_ptr<const Model> model;
  std::unique_ptr<executor::Executor> exec;
  std::vector<std::shared_ptr<TensorSlot>> inputs, outputs;
};

}  // namespace detail

namespace {

using detail::TensorSlot;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

DataType to_data_type(DType d) {
  switch (d) {
    case DType::kFloat32:
      return FLOAT32;
    case DType::kInt64:
      return INT64;
    case DType::kInt32:
      return INT32;
    case DType::kUInt8:
      return UINT8;
    case DType::kInt8:
      return INT8;
    case DType::kFloat16:
      return FLOAT16;
    case DType::kBool:
      return BOOL;
    case DType::kFloat64:
      return FLOAT64;
    case DType::kBFloat16:
      return BFLOAT16;
    default:
      SKIFF_THROW(kUnimplemented, "Predictor", "dtype", "a dtype of paddle_infer::DataType",
                  dtype_name(d));
  }
}

std::unique_ptr<detail::PredictorState> make_state(std::shared_ptr<const detail::Model> model) {
  auto s = std::make_unique<detail::PredictorState>();
  s->exec = std::make_unique<executor::Executor>(model->program);
  for (const auto& d : model->inputs) s->inputs.push_back(std::make_shared<TensorSlot>(*d));
  for (const auto& d : model->outputs) s->outputs.push_back(std::make_shared<TensorSlot>(*d));
  s->model = std::move(model);
  return s;
}

std::vector<int64_t> to_dims(const std::vector<int>& shape) {
  return std::vector<int64_t>(shape.begin(), shape.end());
}

// The slot's tensor for a copy in or out of `n` elements of T.
void check_type(const TensorSlot& s, DType want, const char* what) {
  SKIFF_ENFORCE(s.dtype == want, kTypeError, str("Tensor::", what), s.name,
                str("elements of its dtype ", dtype_name(s.dtype)),
                str("elements of ", dtype_name(want)));
}

}  // namespace

// Tensor handles ------------------------------------------------------------------------------

void Tensor::Reshape(const std::vector<int>& shape) {
  TensorSlot& s = *slot_;
  SKIFF_ENFORCE(s.input, kPrecondition, "Tensor::Reshape", s.name, "an input handle",
                "an output handle (outputs take the shape the run gives them)");
  const std::vector<int64_t> dims = to_dims(shape);
  bool ok = dims.size() == s.declared.size();
  for (size_t i = 0; ok && i < dims.size(); ++i) {
    ok = dims[i] >= 0 && (s.declared[i] == -1 || s.declared[i] == dims[i]);
  }
  SKIFF_ENFORCE(ok, kInvalidArgument, "Tensor::Reshape", s.name,
                str("a shape matching the model's input ", s.declared, " (-1: any size >= 0)"),
                dims);
  checked_numel(Dims(dims), "Tensor::Reshape", name());
  s.shape = dims;
  s.shaped = true;
  s.value = DenseTensor();
}

template <typename T>
void Tensor::CopyFromCpu(const T* data) {
  TensorSlot& s = *slot_;
  SKIFF_ENFORCE(s.input, kPrecondition, "Tensor::CopyFromCpu", s.name, "an input handle",
                "an output handle");
  SKIFF_ENFORCE(s.shaped, kPrecondition, "Tensor::CopyFromCpu", s.name,
                "Reshape(shape) before CopyFromCpu", "no shape set");
  check_type(s, dtype_v<T>, "CopyFromCpu");
  DenseTensor t = DenseTensor::empty(Dims(s.shape), s.dtype);
  SKIFF_ENFORCE(data != nullptr || t.numel() == 0, kInvalidArgument, "Tensor::CopyFromCpu", s.name,
                "a pointer to the data", "nullptr");
  if (t.numel() > 0) std::memcpy(t.raw_data(), data, static_cast<size_t>(t.nbytes()));
  s.value = std::move(t);
}

template <typename T>
void Tensor::ShareExternalData(const T* data, const std::vector<int>& shape, PlaceType place,
                               DataLayout) {
  SKIFF_ENFORCE(place == PlaceType::kCPU, kUnimplemented, "Tensor::ShareExternalData", "place",
                "PlaceType::kCPU", static_cast<int>(place));
  Reshape(shape);
  TensorSlot& s = *slot_;
  check_type(s, dtype_v<T>, "ShareExternalData");
  const Dims dims(s.shape);
  const size_t nbytes =
      static_cast<size_t>(checked_numel(dims, "Tensor::ShareExternalData", s.name)) * sizeof(T);
  auto storage = std::make_shared<Storage>(const_cast<T*>(data), nbytes, Place::cpu(),
                                           std::function<void()>([] {}));
  s.value = DenseTensor(std::move(storage), s.dtype, dims, contiguous_strides(dims), 0);
}

template <typename T>
T* Tensor::mutable_data(PlaceType place) {
  TensorSlot& s = *slot_;
  SKIFF_ENFORCE(place == PlaceType::kCPU, kUnimplemented, "Tensor::mutable_data", "place",
                "PlaceType::kCPU", static_cast<int>(place));
  SKIFF_ENFORCE(s.input && s.shaped, kPrecondition, "Tensor::mutable_data", s.name,
                "an input handle after Reshape", s.input ? "no shape set" : "an output handle");
  check_type(s, dtype_v<T>, "mutable_data");
  if (!s.value.defined() || s.value.dims() != Dims(s.shape) || !s.value.storage() ||
      s.value.storage()->place() != Place::cpu()) {
    s.value = DenseTensor::empty(Dims(s.shape), s.dtype);
  }
  return s.value.data<T>();
}

template <typename T>
void Tensor::CopyToCpu(T* data) const {
  const TensorSlot& s = *slot_;
  SKIFF_ENFORCE(s.value.defined(), kPrecondition, "Tensor::CopyToCpu", s.name,
                s.input ? "data set by CopyFromCpu" : "a Run() first", "no data");
  check_type(s, dtype_v<T>, "CopyToCpu");
  DenseTensor c = s.value.place() == Place::cpu() ? s.value.contiguous()
                                                  : s.value.copy_to(Place::cpu()).contiguous();
  if (c.numel() > 0) std::memcpy(data, c.raw_data(), static_cast<size_t>(c.nbytes()));
}

template <typename T>
T* Tensor::data(PlaceType* place, int* size) const {
  TensorSlot& s = *slot_;
  SKIFF_ENFORCE(s.value.defined(), kPrecondition, "Tensor::data", s.name,
                s.input ? "data set by CopyFromCpu" : "a Run() first", "no data");
  check_type(s, dtype_v<T>, "data");
  if (!s.value.is_contiguous()) s.value = s.value.contiguous();
  if (place) *place = PlaceType::kCPU;
  if (size) *size = static_cast<int>(s.value.numel());
  return s.value.data<T>();
}

std::vector<int> Tensor::shape() const {
  const TensorSlot& s = *slot_;
  std::vector<int64_t> d = s.value.defined() ? s.value.dims().to_vector()
                           : s.shaped        ? s.shape
                                             : s.declared;
  return std::vector<int>(d.begin(), d.end());
}

DataType Tensor::type() const { return to_data_type(slot_->dtype); }
const std::string& Tensor::name() const { return slot_->name; }

#define SKIFF_INFER_TENSOR_TYPE(T)                                                         \
  template void Tensor::CopyFromCpu<T>(const T*);                                          \
  template void Tensor::CopyToCpu<T>(T*) const;                                            \
  template void Tensor::ShareExternalData<T>(const T*, const std::vector<int>&, PlaceType, \
                                             DataLayout);                                  \
  template T* Tensor::mutable_data<T>(PlaceType);                                          \
  template T* Tensor::data<T>(PlaceType*, int*) const;
SKIFF_INFER_TENSOR_TYPE(float)
SKIFF_INFER_TENSOR_TYPE(double)
SKIFF_INFER_TENSOR_TYPE(int64_t)
SKIFF_INFER_TENSOR_TYPE(int32_t)
SKIFF_INFER_TENSOR_TYPE(uint8_t)
SKIFF_INFER_TENSOR_TYPE(int8_t)
SKIFF_INFER_TENSOR_TYPE(bool)
SKIFF_INFER_TENSOR_TYPE(float16)
#undef SKIFF_INFER_TENSOR_TYPE

// Predictor -----------------------------------------------------------------------------------

Predictor::Predictor(const Config& config) {
  auto model = std::make_shared<detail::Model>();
  model->config = config;
  const Clock::time_point t0 = Clock::now();
  SavedModel saved = read_saved_model(config.prog_file(), config.params_file());
  model->times.read = seconds_since(t0);
  jit::CapturedProgram& p = saved.program;
  // Declarations, from the saved program (op dialect, before the passes).
  for (const SavedModel::Input& in : saved.inputs) {
    auto s = std::make_shared<TensorSlot>();
    s->name = in.name;
    s->dtype = in.dtype;
    s->declared = in.shape;
    model->inputs.push_back(std::move(s));
  }
  for (ir::Operation* op = p.program->block()->front(); op; op = op->next()) {
    if (op->name() != ir::ShadowOutputOp::kName) continue;
    auto s = std::make_shared<TensorSlot>();
    s->input = false;
    s->name = op->attr_of<ir::StrAttr>("name").value();
    const TensorMeta meta = ops::ir_bridge::to_meta(op->operand(0).type().cast<ir::TensorType>());
    s->dtype = meta.dtype;
    s->declared = meta.dims.to_vector();
    model->outputs.push_back(std::move(s));
  }
  // Passes, then kernels.
  const Clock::time_point t1 = Clock::now();
  const std::vector<std::string> passes = config.passes();
  std::function<void(const std::string&, const std::string&)> debug;
  if (config.ir_debug()) {
    debug = [&config](const std::string& pass, const std::string& text) {
      const auto& only = config.ir_debug_passes_;
      if (only.empty() || std::find(only.begin(), only.end(), pass) != only.end()) {
        std::cerr << "// ----- IR after " << pass << "\n" << text;
      }
    };
  }
  run_passes(p, passes, debug);
  ir::PassManager lower(p.context.get());
  ops::ir_bridge::add_lowering(lower);
  lower.run(*p.program);
  if (debug) debug("lower-to-kernel", p.program->print());
  model->times.passes = seconds_since(t1);
  model->program = std::move(p);
  const Clock::time_point t2 = Clock::now();
  state_ = make_state(std::move(model));
  const_cast<detail::Model&>(*state_->model).times.build = seconds_since(t2);
}

Predictor::~Predictor() = default;

std::vector<std::string> Predictor::GetInputNames() {
  std::vector<std::string> n;
  for (const auto& s : state_->inputs) n.push_back(s->name);
  return n;
}

std::vector<std::string> Predictor::GetOutputNames() {
  std::vector<std::string> n;
  for (const auto& s : state_->outputs) n.push_back(s->name);
  return n;
}

std::map<std::string, std::vector<int64_t>> Predictor::GetInputTensorShape() {
  std::map<std::string, std::vector<int64_t>> m;
  for (const auto& s : state_->inputs) m[s->name] = s->declared;
  return m;
}

std::map<std::string, DataType> Predictor::GetInputTypes() {
  std::map<std::string, DataType> m;
  for (const auto& s : state_->inputs) m[s->name] = to_data_type(s->dtype);
  return m;
}

std::map<std::string, std::vector<int64_t>> Predictor::GetOutputTensorShape() {
  std::map<std::string, std::vector<int64_t>> m;
  for (const auto& s : state_->outputs) m[s->name] = s->declared;
  return m;
}

std::map<std::string, DataType> Predictor::GetOutputTypes() {
  std::map<std::string, DataType> m;
  for (const auto& s : state_->outputs) m[s->name] = to_data_type(s->dtype);
  return m;
}

namespace {
std::shared_ptr<TensorSlot> find_slot(const std::vector<std::shared_ptr<TensorSlot>>& slots,
                                      const std::string& name, const char* what) {
  for (const auto& s : slots) {
    if (s->name == name) return s;
  }
  std::vector<std::string> names;
  for (const auto& s : slots) names.push_back(s->name);
  SKIFF_THROW(kInvalidArgument, str("Predictor::", what), "name", str("one of ", names),
              str("'", name, "'"));
}
}  // namespace

std::unique_ptr<Tensor> Predictor::GetInputHandle(const std::string& name) {
  return std::unique_ptr<Tensor>(new Tensor(find_slot(state_->inputs, name, "GetInputHandle")));
}

std::unique_ptr<Tensor> Predictor::GetOutputHandle(const std::string& name) {
  return std::unique_ptr<Tensor>(new Tensor(find_slot(state_->outputs, name, "GetOutputHandle")));
}

namespace {
// Runs the executor on `feeds` with the configured thread count; fills the output slots.
void execute(detail::PredictorState& st, const std::vector<DenseTensor>& feeds) {
  profiler::RecordEvent event("Predictor::Run", profiler::EventType::kUserDefined);
  const int threads = st.model->config.cpu_math_library_num_threads();
  const int before = num_threads();
  set_num_threads(threads);
  std::vector<DenseTensor> out;
  try {
    out = st.exec->run(feeds);
  } catch (...) {
    set_num_threads(before);
    throw;
  }
  set_num_threads(before);
  SKIFF_CHECK(out.size() == st.outputs.size());
  for (size_t i = 0; i < out.size(); ++i) st.outputs[i]->value = std::move(out[i]);
}
}  // namespace

bool Predictor::Run() {
  std::vector<DenseTensor> feeds;
  for (const auto& s : state_->inputs) {
    SKIFF_ENFORCE(s->value.defined(), kPrecondition, "Predictor::Run", s->name,
                  "input data (Reshape + CopyFromCpu on its handle)", "no data set");
    feeds.push_back(s->value);
  }
  execute(*state_, feeds);
  return true;
}

bool Predictor::Run(const std::vector<skiff::Tensor>& inputs, std::vector<skiff::Tensor>* outputs) {
  SKIFF_ENFORCE(inputs.size() == state_->inputs.size(), kInvalidArgument, "Predictor::Run",
                "inputs", str(state_->inputs.size(), " tensors (", GetInputNames(), ")"),
                inputs.size());
  std::vector<DenseTensor> feeds;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSlot& s = *state_->inputs[i];
    SKIFF_ENFORCE(inputs[i].is_dense(), kInvalidArgument, "Predictor::Run", s.name,
                  "a dense tensor", "a symbolic tensor");
    const DenseTensor& t = inputs[i].dense();
    bool ok = t.dtype() == s.dtype && t.rank() == static_cast<int>(s.declared.size());
    for (int d = 0; ok && d < t.rank(); ++d) ok = s.declared[d] == -1 || s.declared[d] == t.dim(d);
    SKIFF_ENFORCE(ok, kInvalidArgument, "Predictor::Run", s.name,
                  str("a tensor of ", dtype_name(s.dtype), " ", s.declared),
                  str(dtype_name(t.dtype()), " ", t.dims()));
    feeds.push_back(t.place() == Place::cpu() ? t : t.copy_to(Place::cpu()));
  }
  execute(*state_, feeds);
  if (outputs) {
    outputs->clear();
    for (const auto& s : state_->outputs) outputs->emplace_back(s->value);
  }
  return true;
}

std::unique_ptr<Predictor> Predictor::Clone(void*) {
  std::unique_ptr<Predictor> c(new Predictor());
  c->state_ = make_state(state_->model);
  return c;
}

void Predictor::ClearIntermediateTensor() {
  for (const auto& s : state_->outputs) s->value = DenseTensor();
}

uint64_t Predictor::TryShrinkMemory() {
  Allocator* a = allocator_for(Place::cpu());
  const int64_t before = a->stats().reserved_bytes;
  a->release_idle();
  const int64_t after = a->stats().reserved_bytes;
  return before > after ? static_cast<uint64_t>(before - after) : 0;
}

int64_t Predictor::planned_peak_bytes() const { return state_->exec->planned_peak_bytes(); }
int64_t Predictor::measured_peak_bytes() const { return state_->exec->measured_peak_bytes(); }
const Predictor::LoadTimes& Predictor::load_times() const { return state_->model->times; }
std::string Predictor::optimized_program() const { return state_->model->program.program->print(); }

std::shared_ptr<Predictor> CreatePredictor(const Config& config) {
  return std::make_shared<Predictor>(config);
}

}  // namespace skiff::inference

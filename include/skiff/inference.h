// Skiff Inference: serving a saved model (docs/FORMATS.md) from C++, in the shape of Paddle
// Inference (paddle_infer::Config, CreatePredictor, Predictor, Tensor).
//
//   skiff::inference::Config config("model.pdmodel", "model.pdiparams");
//   config.SetCpuMathLibraryNumThreads(4);
//   auto predictor = skiff::inference::CreatePredictor(config);
//   auto x = predictor->GetInputHandle(predictor->GetInputNames()[0]);
//   x->Reshape({1, 784});
//   x->CopyFromCpu(data.data());
//   predictor->Run();
//   auto y = predictor->GetOutputHandle(predictor->GetOutputNames()[0]);
//   std::vector<float> out(numel(y->shape()));
//   y->CopyToCpu(out.data());
//
// `paddle_infer` names the same namespace, so Paddle's inference programs compile unchanged.
// Loading parses and verifies the program and reads the parameters; it runs nothing from the
// files, and a damaged file is a skiff::Error naming it. Predictors made by Clone() share the
// loaded program and the weights and may run at the same time from different threads (each
// predictor itself is used by one thread at a time, as in Paddle).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace skiff {
class Tensor;
}

namespace skiff::inference {

/// Paddle's paddle_infer::PrecisionType.
enum class PrecisionType { kFloat32 = 0, kInt8, kHalf, kBf16 };
/// Paddle's paddle_infer::DataType.
enum DataType { FLOAT32, INT64, INT32, UINT8, INT8, FLOAT16, BOOL, FLOAT64, BFLOAT16 };
/// Paddle's paddle_infer::PlaceType.
enum class PlaceType { kUNK = -1, kCPU, kGPU, kXPU, kNPU, kIPU, kCUSTOM };
/// Paddle's paddle_infer::DataLayout.
enum class DataLayout { kUNK = -1, kAny, kNHWC, kNCHW };

/// The ordered list of inference passes a Config runs (Paddle's PaddlePassBuilder). Names are
/// those of `AllPasses()` on a fresh Config (docs/ARCHITECTURE.md "Inference").
class PassBuilder {
 public:
  PassBuilder();
  void AppendPass(const std::string& pass_type);
  void InsertPass(size_t idx, const std::string& pass_type);
  void DeletePass(const std::string& pass_type);
  void DeletePass(size_t idx);
  void ClearPasses();
  const std::vector<std::string>& AllPasses() const { return passes_; }
  /// Dump the IR after every pass (Config::SwitchIrDebug).
  void TurnOnDebug() { debug_ = true; }
  bool debug() const { return debug_; }
  std::string DebugString() const;

 private:
  std::vector<std::string> passes_;
  bool debug_ = false;
};

/// Paddle's paddle_infer::Config (AnalysisConfig).
class Config {
 public:
  Config();
  /// A directory holding one `*.pdmodel` and its `*.pdiparams`.
  explicit Config(const std::string& model_dir);
  /// (program file, parameters file), or (model directory, file prefix) as Paddle 3 accepts.
  Config(const std::string& prog_file_or_model_dir, const std::string& params_file_or_prefix);

  void SetModel(const std::string& model_dir);
  void SetModel(const std::string& prog_file, const std::string& params_file);
  void SetProgFile(const std::string& prog_file) { prog_file_ = prog_file; }
  void SetParamsFile(const std::string& params_file) { params_file_ = params_file; }
  const std::string& model_dir() const { return model_dir_; }
  /// The program file (found in model_dir() when only a directory was given).
  std::string prog_file() const;
  std::string params_file() const;

  // CPU. oneDNN is Skiff's CPU kernel library and always on; DisableMKLDNN drops the oneDNN
  // fusion passes (Paddle's plain CPU pass list), as Paddle does.
  void EnableMKLDNN() { use_mkldnn_ = true; }
  void DisableMKLDNN() { use_mkldnn_ = false; }
  bool mkldnn_enabled() const { return use_mkldnn_; }
  void SetMkldnnCacheCapacity(int) {}
  /// bfloat16 at load: the `cpu-bfloat16` pass (auto_cast O1: matmul, linear and conv2d on
  /// bfloat16 operands through oneDNN, the rest in float32), then fold-params casts the weights
  /// once. Inputs and outputs stay float32.
  void EnableMkldnnBfloat16() { mkldnn_bfloat16_ = true; }
  bool mkldnn_bfloat16_enabled() const { return mkldnn_bfloat16_; }
  /// int8 at load: the `llm-int8` pass (LLM.int8 on every linear/matmul with a parameter
  /// weight: int8 weights with per-channel scales, each row of the activations quantized to
  /// int8 at run time apart from its outlier columns, int8 GEMMs through oneDNN's VNNI/AMX
  /// kernels). Takes precedence over EnableWeightOnlyInt8 (the linears are taken by then).
  /// `op_list` (Paddle's op types) may name fc, linear, matmul, matmul_v2 and mul, which all
  /// mean the linears; other types stay in float, with a warning naming them.
  void EnableMkldnnInt8(const std::unordered_set<std::string>& op_list = {});
  bool mkldnn_int8_enabled() const { return mkldnn_int8_; }
  /// Weight-only quantization at load: the linears (and matmuls) whose weight is a float
  /// parameter run as weight_only_linear on int8 rows with per-channel scales (the
  /// `weight-only-int8` pass, appended after the fusions); activations stay float.
  void EnableWeightOnlyInt8(bool x = true) { weight_only_int8_ = x; }
  bool weight_only_int8_enabled() const { return weight_only_int8_; }
  void SetCpuMathLibraryNumThreads(int cpu_math_library_num_threads);
  int cpu_math_library_num_threads() const { return cpu_math_threads_; }

  // Devices and engines this build does not have: each logs a warning saying so and leaves the
  // Config on the CPU (Paddle's behaviour on a build without them); the queries answer false.
  void EnableUseGpu(uint64_t memory_pool_init_size_mb, int device_id = 0,
                    PrecisionType precision = PrecisionType::kFloat32);
  void DisableGpu() {}
  bool use_gpu() const { return false; }
  void EnableCustomDevice(const std::string& device_type, int device_id = 0,
                          PrecisionType precision = PrecisionType::kFloat32);
  bool use_custom_device() const { return false; }
  void EnableXpu(int l3_size = 0xfffc00);
  bool use_xpu() const { return false; }
  void EnableONNXRuntime();
  void DisableONNXRuntime() {}
  bool use_onnxruntime() const { return false; }
  void EnableTensorRtEngine(int64_t workspace_size = 1 << 30, int max_batch_size = 1,
                            int min_subgraph_size = 3,
                            PrecisionType precision = PrecisionType::kFloat32,
                            bool use_static = false, bool use_calib_mode = true);
  bool tensorrt_engine_enabled() const { return false; }

  // Graph optimization.
  /// Off: the program runs as saved (only the lowering to kernels).
  void SwitchIrOptim(bool x = true) { ir_optim_ = x; }
  bool ir_optim() const { return ir_optim_; }
  /// Print the IR after every pass to stderr (`passes`: only after those; all when empty).
  void SwitchIrDebug(bool x = true, const std::vector<std::string>& passes = {});
  bool ir_debug() const { return ir_debug_; }
  /// The static memory plan: in-place reuse of dying buffers (the `inplace` pass) and the
  /// planned peak reported at load.
  void EnableMemoryOptim(bool x = true) { memory_optim_ = x; }
  bool enable_memory_optim() const { return memory_optim_; }
  /// Removes a pass from the pipeline (by name; an unknown name is ignored, as in Paddle).
  void DeletePass(const std::string& pass_name);
  /// The pipeline itself (see PassBuilder); changes made through it are used as they are.
  PassBuilder* pass_builder() const;
  /// Always on: Skiff has one IR and one executor.
  void EnableNewIR(bool = true) {}
  bool new_ir_enabled() const { return true; }
  void EnableNewExecutor(bool = true) {}
  void SwitchUseFeedFetchOps(bool = true) {}
  void SwitchSpecifyInputNames(bool = true) {}
  /// Record a profile of every Run (the op and kernel tables are printed when the predictor is
  /// destroyed, as Paddle does).
  void EnableProfile() { profile_ = true; }
  bool profile_enabled() const { return profile_; }
  void DisableGlogInfo() { glog_info_ = false; }
  bool glog_info_disabled() const { return !glog_info_; }

  /// A readable table of the settings.
  std::string Summary() const;

  /// The passes that would run for these settings (ir_optim, mkldnn, weight-only int8,
  /// deletions).
  std::vector<std::string> passes() const;

 private:
  std::string model_dir_, prog_file_, params_file_;
  bool use_mkldnn_ = true;
  int cpu_math_threads_ = 1;
  bool ir_optim_ = true;
  bool ir_debug_ = false;
  std::vector<std::string> ir_debug_passes_;
  bool memory_optim_ = false;
  bool weight_only_int8_ = false;
  bool mkldnn_bfloat16_ = false;
  bool mkldnn_int8_ = false;
  bool profile_ = false;
  bool glog_info_ = true;
  std::vector<std::string> deleted_passes_;
  mutable std::shared_ptr<PassBuilder> pass_builder_;  // made on first use
  friend class Predictor;
};

class Predictor;
namespace detail {
struct TensorSlot;
struct PredictorState;
}  // namespace detail

/// An input or output of a Predictor (Paddle's paddle_infer::Tensor). A handle stays valid
/// for the predictor's life; an output handle sees the latest Run.
class Tensor {
 public:
  /// Sets an input's shape (dims of -1 in the model's input accept any size).
  void Reshape(const std::vector<int>& shape);
  /// Copies numel(shape()) elements of T from host memory into the input; T must be the
  /// input's dtype.
  template <typename T>
  void CopyFromCpu(const T* data);
  /// Copies the output (numel(shape()) elements of T, its dtype) into host memory.
  template <typename T>
  void CopyToCpu(T* data) const;
  /// The input reads `data` itself (no copy) until the next Reshape/CopyFromCpu/
  /// ShareExternalData; the memory must stay valid and unchanged while Run reads it.
  template <typename T>
  void ShareExternalData(const T* data, const std::vector<int>& shape,
                         PlaceType place = PlaceType::kCPU, DataLayout layout = DataLayout::kNCHW);
  /// The input's buffer (allocated for shape()), to fill in place.
  template <typename T>
  T* mutable_data(PlaceType place = PlaceType::kCPU);
  /// The output's data (place and element count written when not null).
  template <typename T>
  T* data(PlaceType* place, int* size) const;

  std::vector<int> shape() const;
  DataType type() const;
  PlaceType place() const { return PlaceType::kCPU; }
  const std::string& name() const;

 private:
  explicit Tensor(std::shared_ptr<detail::TensorSlot> slot) : slot_(std::move(slot)) {}
  std::shared_ptr<detail::TensorSlot> slot_;
  friend class Predictor;
};

/// Paddle's paddle_infer::Predictor.
class Predictor {
 public:
  explicit Predictor(const Config& config);
  ~Predictor();
  Predictor(const Predictor&) = delete;
  Predictor& operator=(const Predictor&) = delete;

  std::vector<std::string> GetInputNames();
  std::vector<std::string> GetOutputNames();
  /// Declared shapes (-1: any size) and dtypes, by name.
  std::map<std::string, std::vector<int64_t>> GetInputTensorShape();
  std::map<std::string, DataType> GetInputTypes();
  std::map<std::string, std::vector<int64_t>> GetOutputTensorShape();
  std::map<std::string, DataType> GetOutputTypes();
  std::unique_ptr<Tensor> GetInputHandle(const std::string& name);
  std::unique_ptr<Tensor> GetOutputHandle(const std::string& name);

  /// Runs on the inputs set through the handles; throws skiff::Error on failure (an input not
  /// set or of the wrong shape is named), returns true otherwise.
  bool Run();
  /// Runs on `inputs` (one per input name, in order) and writes the outputs (Paddle 3's form).
  bool Run(const std::vector<skiff::Tensor>& inputs, std::vector<skiff::Tensor>* outputs);
  /// A predictor sharing this one's program and weights, with its own inputs, outputs and run
  /// state: clones run concurrently on different threads.
  std::unique_ptr<Predictor> Clone(void* stream = nullptr);
  /// Drops the outputs of the last run (intermediates are freed during the run already).
  void ClearIntermediateTensor();
  /// Returns cached but unused memory to the system; the number of bytes released.
  uint64_t TryShrinkMemory();

  // Beyond Paddle: what the load measured.
  /// Peak bytes of the buffers a run allocates, planned from static shapes at load (-1 when a
  /// shape is dynamic, until a run fixes them).
  int64_t planned_peak_bytes() const;
  /// The same, measured during the last run.
  int64_t measured_peak_bytes() const;
  /// Seconds spent reading files, running the passes, and building the executor.
  struct LoadTimes {
    double read = 0, passes = 0, build = 0;
  };
  const LoadTimes& load_times() const;
  /// The program after the passes (text IR, kernel dialect).
  std::string optimized_program() const;

 private:
  Predictor() = default;
  std::unique_ptr<detail::PredictorState> state_;
};

/// Paddle's paddle_infer::CreatePredictor.
std::shared_ptr<Predictor> CreatePredictor(const Config& config);
/// "skiff <version>, model format <n>".
std::string GetVersion();
/// The model format version this library reads and writes (docs/FORMATS.md).
int GetModelFormatVersion();

}  // namespace skiff::inference

namespace paddle_infer = skiff::inference;

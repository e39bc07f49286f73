// paddle_infer::Config and PassBuilder (include/skiff/inference.h).
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "skiff/base/error.h"
#include "skiff/base/logging.h"
#include "skiff/inference.h"
#include "skiff/inference/pass_pipeline.h"
#include "skiff/inference/saved_model.h"

namespace skiff::inference {

PassBuilder::PassBuilder() : passes_(default_passes(true)) {}

void PassBuilder::AppendPass(const std::string& pass_type) { passes_.push_back(pass_type); }

void PassBuilder::InsertPass(size_t idx, const std::string& pass_type) {
  SKIFF_ENFORCE(idx <= passes_.size(), kOutOfRange, "PassBuilder::InsertPass", "idx",
                str("at most ", passes_.size()), idx);
  passes_.insert(passes_.begin() + static_cast<std::ptrdiff_t>(idx), pass_type);
}

void PassBuilder::DeletePass(const std::string& pass_type) {
  passes_.erase(std::remove(passes_.begin(), passes_.end(), pass_type), passes_.end());
}

void PassBuilder::DeletePass(size_t idx) {
  SKIFF_ENFORCE(idx < passes_.size(), kOutOfRange, "PassBuilder::DeletePass", "idx",
                str("less than ", passes_.size()), idx);
  passes_.erase(passes_.begin() + static_cast<std::ptrdiff_t>(idx));
}

void PassBuilder::ClearPasses() { passes_.clear(); }

std::string PassBuilder::DebugString() const {
  std::ostringstream s;
  s << "passes:";
  for (const std::string& p : passes_) s << "\n  - " << p;
  return s.str();
}

Config::Config() = default;
Config::Config(const std::string& model_dir) { SetModel(model_dir); }
Config::Config(const std::string& prog_file_or_model_dir,
               const std::string& params_file_or_prefix) {
  std::error_code ec;
  if (std::filesystem::is_directory(prog_file_or_model_dir, ec)) {
    model_dir_ = prog_file_or_model_dir;
    auto [prog, params] = model_files_in(model_dir_, params_file_or_prefix);
    prog_file_ = prog;
    params_file_ = params;
  } else {
    SetModel(prog_file_or_model_dir, params_file_or_prefix);
  }
}

void Config::SetModel(const std::string& model_dir) {
  model_dir_ = model_dir;
  prog_file_.clear();
  params_file_.clear();
}

void Config::SetModel(const std::string& prog_file, const std::string& params_file) {
  prog_file_ = prog_file;
  params_file_ = params_file;
  model_dir_ = std::filesystem::path(prog_file).parent_path().string();
}

std::string Config::prog_file() const {
  if (prog_file_.empty() && !model_dir_.empty()) return model_files_in(model_dir_).first;
  return prog_file_;
}

std::string Config::params_file() const {
  if (params_file_.empty() && !model_dir_.empty()) return model_files_in(model_dir_).second;
  return params_file_;
}

void Config::SetCpuMathLibraryNumThreads(int n) {
  SKIFF_ENFORCE(n >= 1, kInvalidArgument, "Config::SetCpuMathLibraryNumThreads",
                "cpu_math_library_num_threads", "at least 1", n);
  cpu_math_threads_ = n;
}

namespace {
void not_available(const char* what, const char* why) {
  SKIFF_LOG(WARNING) << "Config::" << what << ": not available in this Skiff build (" << why
                     << "); the predictor runs on the CPU";
}
}  // namespace

void Config::EnableMkldnnInt8(const std::unordered_set<std::string>& op_list) {
  static const std::set<std::string> linears = {"fc", "linear", "matmul", "matmul_v2", "mul"};
  std::string other;
  for (const std::string& op : std::set<std::string>(op_list.begin(), op_list.end())) {
    if (!linears.count(op)) other += (other.empty() ? "" : ", ") + op;
  }
  if (!other.empty()) {
    SKIFF_LOG(WARNING) << "Config::EnableMkldnnInt8: int8 covers the linears (fc, linear, matmul); "
                       << other << " stay in float";
  }
  mkldnn_int8_ = true;
}
void Config::EnableUseGpu(uint64_t, int, PrecisionType) {
  not_available("EnableUseGpu", "the inference executor runs CPU kernels only");
}
void Config::EnableCustomDevice(const std::string&, int, PrecisionType) {
  not_available("EnableCustomDevice", "the inference executor runs CPU kernels only");
}
void Config::EnableXpu(int) { not_available("EnableXpu", "no XPU support"); }
void Config::EnableONNXRuntime() {
  not_available("EnableONNXRuntime", "Skiff does not link ONNX Runtime");
}
void Config::EnableTensorRtEngine(int64_t, int, int, PrecisionType, bool, bool) {
  not_available("EnableTensorRtEngine", "Skiff does not link TensorRT");
}

void Config::SwitchIrDebug(bool x, const std::vector<std::string>& passes) {
  ir_debug_ = x;
  ir_debug_passes_ = passes;
}

void Config::DeletePass(const std::string& pass_name) {
  deleted_passes_.push_back(pass_name);
  if (pass_builder_) pass_builder_->DeletePass(pass_name);
}

PassBuilder* Config::pass_builder() const {
  if (!pass_builder_) {
    pass_builder_ = std::make_shared<PassBuilder>();
    PassBuilder* b = pass_builder_.get();
    b->ClearPasses();
    for (const std::string& p : default_passes(use_mkldnn_)) {
      if (std::find(deleted_passes_.begin(), deleted_passes_.end(), p) == deleted_passes_.end()) {
        b->AppendPass(p);
      }
    }
  }
  return pass_builder_.get();
}

std::vector<std::string> Config::passes() const {
  if (!ir_optim_) return {};
  std::vector<std::string> list;
  if (pass_builder_) {
    list = pass_builder_->AllPasses();
  } else {
    list = default_passes(use_mkldnn_);
    for (const std::string& d : deleted_passes_) {
      list.erase(std::remove(list.begin(), list.end(), d), list.end());
    }
  }
  // Last: the rewrites see the linears the fusions made; a pipeline that already names a pass
  // (appended through pass_builder) runs it once. bfloat16 first, so that int8 quantizes the
  // bfloat16 weights fold-params made.
  auto named = [&](const char* pass) {
    return std::find(list.begin(), list.end(), pass) != list.end();
  };
  if (mkldnn_bfloat16_ && !named(kCpuBfloat16Pass)) {
    list.insert(list.end(), {kCpuBfloat16Pass, kFoldParamsPass});
  }
  if (mkldnn_int8_ && !named(kLlmInt8Pass)) list.push_back(kLlmInt8Pass);
  if (weight_only_int8_ && !named(kWeightOnlyInt8Pass)) {
    list.push_back(kWeightOnlyInt8Pass);
  }
  return list;
}

std::string Config::Summary() const {
  std::ostringstream s;
  auto row = [&](const std::string& k, const std::string& v) {
    s << "| " << k << std::string(k.size() < 24 ? 24 - k.size() : 0, ' ') << " | " << v << "\n";
  };
  row("model_dir", model_dir_);
  row("prog_file", prog_file_);
  row("params_file", params_file_);
  row("use_gpu", "false");
  row("use_mkldnn", use_mkldnn_ ? "true" : "false");
  row("cpu_math_thread", std::to_string(cpu_math_threads_));
  row("ir_optim", ir_optim_ ? "true" : "false");
  row("ir_debug", ir_debug_ ? "true" : "false");
  row("memory_optim", memory_optim_ ? "true" : "false");
  row("weight_only_int8", weight_only_int8_ ? "true" : "false");
  row("mkldnn_bfloat16", mkldnn_bfloat16_ ? "true" : "false");
  row("mkldnn_int8", mkldnn_int8_ ? "true" : "false");
  std::string list;
  for (const std::string& p : passes()) list += (list.empty() ? "" : ",") + p;
  row("passes", list);
  return s.str();
}

std::string GetVersion() {
  return str("skiff ", kSkiffVersion, ", model format ", kModelFormatVersion);
}
int GetModelFormatVersion() { return kModelFormatVersion; }

}  // namespace skiff::inference

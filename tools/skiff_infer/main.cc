// skiff_infer: runs a saved inference model (docs/FORMATS.md, what paddle.jit.save writes) on
// .npy inputs through the C++ predictor, writes the outputs as .npy and prints the per-stage
// timings (read, passes, build, first run, steady state over --repeat runs).
//   skiff_infer MODEL [IN.npy ...] [--input NAME=IN.npy] [--output-dir DIR] [--repeat N]
//               [--warmup N] [--threads N] [--no-ir-optim] [--delete-pass NAME]
//               [--weight-only-int8] [--llm-int8] [--profile TRACE.json] [--quiet]
// MODEL is a model directory, a prefix (PREFIX.pdmodel + PREFIX.pdiparams) or a .pdmodel file.
// Positional inputs follow the model's input order. Exit status: 0 done, 1 a skiff::Error (its
// message on stderr: bad model, bad .npy, wrong shape or dtype), 2 a usage error.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/core/tensor.h"
#include "skiff/inference.h"
#include "skiff/inference/npy.h"
#include "skiff/profiler/profiler.h"

namespace {

namespace fs = std::filesystem;
namespace inf = skiff::inference;

constexpr const char* kUsage =
    "usage: skiff_infer MODEL [IN.npy ...] [--input NAME=IN.npy] [--output-dir DIR]\n"
    "                   [--repeat N] [--warmup N] [--threads N] [--no-ir-optim]\n"
    "                   [--delete-pass NAME] [--weight-only-int8] [--llm-int8]\n"
    "                   [--profile TRACE.json] [--quiet]\n"
    "  MODEL            a model directory, a prefix (PREFIX.pdmodel/.pdiparams) or a .pdmodel\n"
    "  IN.npy           inputs in the model's input order (or --input NAME=FILE)\n"
    "  --output-dir     write each output as DIR/<name>.npy (default: not written)\n"
    "  --repeat N       timed steady-state runs (default 10)\n"
    "  --warmup N       untimed runs after the first (default 1)\n"
    "  --threads N      CPU math threads (Config::SetCpuMathLibraryNumThreads, default 1)\n"
    "  --no-ir-optim    run the program as saved (Config::SwitchIrOptim(false))\n"
    "  --delete-pass P  drop pass P from the pipeline (repeatable)\n"
    "  --weight-only-int8  quantize the linears' weights to int8 at load\n"
    "                   (Config::EnableWeightOnlyInt8)\n"
    "  --llm-int8       run the linears as LLM.int8: int8 weights, activations quantized per\n"
    "                   row at run time, int8 GEMMs (Config::EnableMkldnnInt8)\n"
    "  --profile FILE   write a Chrome trace of the timed runs\n"
    "  --quiet          print only the timings\n";

struct UsageError {
  std::string what;
};

struct Options {
  std::string model;
  std::vector<std::string> positional;
  std::map<std::string, std::string> named;
  std::string output_dir, profile;
  std::vector<std::string> deleted_passes;
  int repeat = 10, warmup = 1, threads = 1;
  bool ir_optim = true, quiet = false, weight_only_int8 = false, llm_int8 = false;
};

int parse_count(const std::string& flag, const std::string& text, int lo, int hi) {
  int v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || v < lo || v > hi) {
    throw UsageError{flag + " expects an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'"};
  }
  return v;
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError{a + " expects a value"};
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (a == "--input") {
      const std::string v = value();
      const size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
        throw UsageError{"--input expects NAME=FILE.npy, got '" + v + "'"};
      }
      if (!o.named.emplace(v.substr(0, eq), v.substr(eq + 1)).second) {
        throw UsageError{"--input names '" + v.substr(0, eq) + "' twice"};
      }
    } else if (a == "--output-dir") {
      o.output_dir = value();
    } else if (a == "--repeat") {
      o.repeat = parse_count(a, value(), 1, 1000000);
    } else if (a == "--warmup") {
      o.warmup = parse_count(a, value(), 0, 1000000);
    } else if (a == "--threads") {
      o.threads = parse_count(a, value(), 1, 4096);
    } else if (a == "--no-ir-optim") {
      o.ir_optim = false;
    } else if (a == "--delete-pass") {
      o.deleted_passes.push_back(value());
    } else if (a == "--weight-only-int8") {
      o.weight_only_int8 = true;
    } else if (a == "--llm-int8") {
      o.llm_int8 = true;
    } else if (a == "--profile") {
      o.profile = value();
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option '" + a + "'"};
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      o.positional.push_back(a);
    }
  }
  if (o.model.empty()) throw UsageError{"no MODEL given"};
  if (!o.positional.empty() && !o.named.empty()) {
    throw UsageError{"give inputs either in order or as --input NAME=FILE, not both"};
  }
  return o;
}

inf::Config make_config(const Options& o) {
  std::error_code ec;
  inf::Config c;
  if (fs::is_directory(o.model, ec)) {
    c.SetModel(o.model);
  } else if (fs::path(o.model).extension() == ".pdmodel") {
    c.SetModel(o.model, fs::path(o.model).replace_extension(".pdiparams").string());
  } else {
    c.SetModel(o.model + ".pdmodel", o.model + ".pdiparams");
  }
  c.SetCpuMathLibraryNumThreads(o.threads);
  c.SwitchIrOptim(o.ir_optim);
  for (const std::string& p : o.deleted_passes) c.DeletePass(p);
  c.EnableWeightOnlyInt8(o.weight_only_int8);
  if (o.llm_int8) c.EnableMkldnnInt8();
  return c;
}

std::vector<skiff::Tensor> read_inputs(const Options& o, const std::vector<std::string>& names) {
  std::vector<std::string> files = o.positional;
  if (!o.named.empty()) {
    for (const auto& [name, file] : o.named) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        SKIFF_THROW(kInvalidArgument, "skiff_infer", "--input", skiff::str("one of ", names),
                    skiff::str("'", name, "'"));
      }
    }
    for (const std::string& n : names) {
      auto it = o.named.find(n);
      SKIFF_ENFORCE(it != o.named.end(), kInvalidArgument, "skiff_infer", n,
                    "an input file (--input NAME=FILE.npy)", "none");
      files.push_back(it->second);
    }
  }
  SKIFF_ENFORCE(files.size() == names.size(), kInvalidArgument, "skiff_infer", "inputs",
                skiff::str(names.size(), " .npy files (for ", names, ")"), files.size());
  std::vector<skiff::Tensor> inputs;
  for (const std::string& f : files) inputs.emplace_back(inf::read_npy(f));
  return inputs;
}

// An output name as a file name: characters outside [A-Za-z0-9._-] become '_'.
std::string file_name_of(const std::string& name) {
  std::string s = name.empty() ? "output" : name;
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  }
  if (s == "." || s == "..") s = "output";
  return s + ".npy";
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

void print_output(const std::string& name, const skiff::DenseTensor& t) {
  std::cout << "output " << name << ": " << skiff::dtype_name(t.dtype()) << " " << t.dims() << "\n";
}

int run(const Options& o) {
  const inf::Config config = make_config(o);
  auto predictor = inf::CreatePredictor(config);
  const auto& lt = predictor->load_times();
  const std::vector<std::string> in_names = predictor->GetInputNames();
  const std::vector<std::string> out_names = predictor->GetOutputNames();
  const std::vector<skiff::Tensor> inputs = read_inputs(o, in_names);
  std::vector<skiff::Tensor> outputs;
  auto t0 = std::chrono::steady_clock::now();
  predictor->Run(inputs, &outputs);
  const double first_ms = ms_since(t0);
  for (int i = 0; i < o.warmup; ++i) predictor->Run(inputs, &outputs);
  skiff::profiler::Profiler profiler;
  if (!o.profile.empty()) profiler.start();
  std::vector<double> times;
  for (int i = 0; i < o.repeat; ++i) {
    t0 = std::chrono::steady_clock::now();
    predictor->Run(inputs, &outputs);
    times.push_back(ms_since(t0));
    if (!o.profile.empty()) profiler.step();
  }
  if (!o.profile.empty()) profiler.stop().save(o.profile);
  std::sort(times.begin(), times.end());
  double sum = 0;
  for (double t : times) sum += t;
  std::printf("load: read %.3f ms, passes %.3f ms, build %.3f ms\n", lt.read * 1e3, lt.passes * 1e3,
              lt.build * 1e3);
  std::printf("first run: %.3f ms\n", first_ms);
  std::printf(
      "steady state (%d runs, %d thread%s): mean %.3f ms, min %.3f ms, median %.3f ms, "
      "max %.3f ms\n",
      o.repeat, o.threads, o.threads == 1 ? "" : "s", sum / o.repeat, times.front(),
      times[times.size() / 2], times.back());
  const int64_t planned = predictor->planned_peak_bytes();
  const std::string planned_text =
      planned < 0 ? std::string("n/a (dynamic shapes)") : std::to_string(planned) + " bytes";
  std::printf("peak memory: planned %s, measured %lld bytes\n", planned_text.c_str(),
              static_cast<long long>(predictor->measured_peak_bytes()));
  if (!o.output_dir.empty()) fs::create_directories(o.output_dir);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const skiff::DenseTensor& t = outputs[i].dense();
    if (!o.quiet) print_output(out_names[i], t);
    if (o.output_dir.empty()) continue;
    const std::string path = (fs::path(o.output_dir) / file_name_of(out_names[i])).string();
    inf::write_npy(t, path);
    if (!o.quiet) std::cout << "  written to " << path << "\n";
  }
  if (!o.profile.empty() && !o.quiet) std::cout << "trace: " << o.profile << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_args(argc, argv));
  } catch (const UsageError& e) {
    std::cerr << "skiff_infer: " << e.what << "\n" << kUsage;
    return 2;
  } catch (const skiff::Error& e) {
    std::cerr << "skiff_infer: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {  // filesystem errors (an output directory not creatable)
    std::cerr << "skiff_infer: " << e.what() << "\n";
    return 1;
  }
}

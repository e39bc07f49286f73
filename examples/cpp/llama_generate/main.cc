// llama_generate: streams text from the example Llama saved by examples/llama/export.py, through
// the C++ predictor: one prefill program for the prompt, then one decode program per token with
// an explicit KV cache (the caches a run returns are the next run's inputs, no copy).
//   llama_generate SERVE_DIR [--prompt TEXT] [--max-new-tokens N] [--temperature T]
//                  [--top-k K] [--top-p P] [--seed S] [--greedy] [--int8] [--llm-int8] [--bf16]
//                  [--threads N] [--print-ids] [--quiet]
// Text goes to stdout as it is generated; the timings (prefill, decode tokens/s) to stderr.
// Exit status: 0 done, 1 a bad model directory or a skiff::Error, 2 a usage error.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bpe_tokenizer.h"
#include "sampler.h"
#include "skiff/base/error.h"
#include "skiff/inference.h"
#include "skiff/tensor_util.h"

namespace {

namespace inf = skiff::inference;
using llama_generate::BpeTokenizer;
using llama_generate::Sampler;
using llama_generate::SamplingOptions;

constexpr const char* kUsage =
    "usage: llama_generate SERVE_DIR [--prompt TEXT] [--max-new-tokens N] [--temperature T]\n"
    "                      [--top-k K] [--top-p P] [--seed S] [--greedy] [--int8] [--llm-int8]\n"
    "                      [--bf16] [--threads N] [--print-ids] [--quiet]\n"
    "  SERVE_DIR         what examples/llama/export.py wrote (generator.json, the programs)\n"
    "  --prompt TEXT     the text to continue (default \"The \")\n"
    "  --max-new-tokens  tokens to generate (default 100; stops at the model's max_seq_len)\n"
    "  --temperature T   softmax temperature (default 0.8; 0 = greedy)\n"
    "  --top-k K         sample among the K most likely tokens (default 40; 0 = all)\n"
    "  --top-p P         then among the smallest set of probability >= P (default 1 = off)\n"
    "  --seed S          sampling seed (default 1)\n"
    "  --greedy          always the most likely token (same as --temperature 0)\n"
    "  --int8            weight-only int8 linears, quantized at load (EnableWeightOnlyInt8)\n"
    "  --llm-int8        LLM.int8 linears: int8 weights and activations quantized per row at run\n"
    "                    time, int8 GEMMs (EnableMkldnnInt8)\n"
    "  --bf16            matmuls in bfloat16 (EnableMkldnnBfloat16); with --int8, bfloat16\n"
    "                    activations on int8 weights\n"
    "  --threads N       CPU math threads (default 1)\n"
    "  --print-ids       also print the token ids: \"ids: ...\" (generated), then\n"
    "                    \"prompt ids: ...\" (the prompt as the tokenizer encodes it)\n"
    "  --quiet           no timings on stderr\n";

struct UsageError {
  std::string what;
};

struct Options {
  std::string dir;
  std::string prompt = "The ";
  int max_new_tokens = 100, threads = 1;
  uint64_t seed = 1;
  SamplingOptions sampling;
  bool int8 = false, llm_int8 = false, bf16 = false, print_ids = false, quiet = false;
};

const char* precision_name(const Options& o) {
  if (o.llm_int8) return o.bf16 ? "LLM.int8, bfloat16 outliers" : "LLM.int8";
  if (o.int8) return o.bf16 ? "int8 weights, bfloat16 activations" : "int8 weights";
  return o.bf16 ? "bfloat16 matmuls" : "float32";
}

double parse_number(const std::string& flag, const std::string& text, double lo, double hi) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(v >= lo && v <= hi)) {
    throw UsageError{flag + " expects a number in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'"};
  }
  return v;
}

int parse_int(const std::string& flag, const std::string& text, int lo, int hi) {
  const double v = parse_number(flag, text, lo, hi);
  if (v != static_cast<int>(v)) throw UsageError{flag + " expects an integer, got '" + text + "'"};
  return static_cast<int>(v);
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
    } else if (a == "--prompt") {
      o.prompt = value();
    } else if (a == "--max-new-tokens") {
      o.max_new_tokens = parse_int(a, value(), 0, 1 << 20);
    } else if (a == "--temperature") {
      o.sampling.temperature = static_cast<float>(parse_number(a, value(), 0, 100));
    } else if (a == "--top-k") {
      o.sampling.top_k = parse_int(a, value(), 0, 1 << 30);
    } else if (a == "--top-p") {
      o.sampling.top_p = static_cast<float>(parse_number(a, value(), 1e-6, 1));
    } else if (a == "--seed") {
      o.seed = static_cast<uint64_t>(parse_number(a, value(), 0, 9e15));
    } else if (a == "--greedy") {
      o.sampling.temperature = 0;
    } else if (a == "--int8") {
      o.int8 = true;
    } else if (a == "--llm-int8") {
      o.llm_int8 = true;
    } else if (a == "--bf16") {
      o.bf16 = true;
    } else if (a == "--threads") {
      o.threads = parse_int(a, value(), 1, 4096);
    } else if (a == "--print-ids") {
      o.print_ids = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option '" + a + "'"};
    } else if (o.dir.empty()) {
      o.dir = a;
    } else {
      throw UsageError{"unexpected argument '" + a + "'"};
    }
  }
  if (o.dir.empty()) throw UsageError{"no SERVE_DIR given"};
  return o;
}

// generator.json: the fields export.py writes, checked before any program is loaded.
struct GeneratorFile {
  int64_t vocab_size = 0, n_layers = 0, max_seq_len = 0;
  std::string prefill, decode, tokenizer;
};

GeneratorFile read_generator_file(const std::string& dir) {
  const std::string path = dir + "/generator.json";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read '" + path + "' (run examples/llama/export.py)");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("'" + path + "' is not JSON: " + e.what());
  }
  if (!j.is_object() || j.value("format", "") != "skiff-llama-generator") {
    throw std::runtime_error("'" + path + "' is not a skiff-llama-generator file");
  }
  if (!j.contains("version") || j["version"] != 1) {
    throw std::runtime_error("'" + path + "' has format version " +
                             (j.contains("version") ? j["version"].dump() : "(none)") +
                             "; this generator reads version 1");
  }
  GeneratorFile g;
  auto positive = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<int64_t>() <= 0) {
      throw std::runtime_error("'" + path + "': '" + key + "' must be a positive integer");
    }
    return j[key].get<int64_t>();
  };
  auto name = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty() ||
        j[key].get<std::string>().find('/') != std::string::npos) {
      throw std::runtime_error("'" + path + "': '" + key + "' must be a file name in " + dir);
    }
    return dir + "/" + j[key].get<std::string>();
  };
  g.vocab_size = positive("vocab_size");
  g.n_layers = positive("n_layers");
  g.max_seq_len = positive("max_seq_len");
  g.prefill = name("prefill");
  g.decode = name("decode");
  g.tokenizer = name("tokenizer");
  return g;
}

std::shared_ptr<inf::Predictor> load_program(const std::string& prefix, const Options& o) {
  inf::Config c(prefix + ".pdmodel", prefix + ".pdiparams");
  c.SetCpuMathLibraryNumThreads(o.threads);
  c.EnableWeightOnlyInt8(o.int8);
  if (o.llm_int8) c.EnableMkldnnInt8();
  if (o.bf16) c.EnableMkldnnBfloat16();
  return inf::CreatePredictor(c);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run(const Options& o) {
  const GeneratorFile g = read_generator_file(o.dir);
  const BpeTokenizer tok = BpeTokenizer::load(g.tokenizer);
  if (tok.vocab_size() > g.vocab_size) {
    throw std::runtime_error("the tokenizer has " + std::to_string(tok.vocab_size()) +
                             " tokens, more than the model's vocabulary of " +
                             std::to_string(g.vocab_size));
  }
  const auto t_load = std::chrono::steady_clock::now();
  auto prefill = load_program(g.prefill, o);
  auto decode = load_program(g.decode, o);
  const double load_s = seconds_since(t_load);

  std::vector<int64_t> ids = tok.encode(o.prompt);
  if (ids.empty()) ids.push_back(0);  // as train.py's sampler: an empty prompt starts at id 0
  if (static_cast<int64_t>(ids.size()) > g.max_seq_len) {
    throw std::runtime_error("the prompt is " + std::to_string(ids.size()) +
                             " tokens, more than the model's max_seq_len " +
                             std::to_string(g.max_seq_len));
  }
  const auto n_prompt = static_cast<int64_t>(ids.size());
  std::vector<int64_t> positions(ids.size());
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = static_cast<int64_t>(i);

  Sampler sampler(o.sampling, o.seed);
  std::vector<skiff::Tensor> outputs;
  std::vector<int64_t> generated;
  std::fwrite(o.prompt.data(), 1, o.prompt.size(), stdout);
  std::fflush(stdout);

  auto emit = [&](const skiff::Tensor& logits) {
    const std::vector<float> row = skiff::to_vector<float>(logits);
    const int64_t next = sampler.next(row.data(), tok.vocab_size());
    generated.push_back(next);
    ids.push_back(next);
    const std::string& bytes = tok.token_bytes(next);
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
  };

  const auto t_prefill = std::chrono::steady_clock::now();
  if (o.max_new_tokens > 0) {
    prefill->Run({skiff::to_tensor(ids, {1, n_prompt}), skiff::to_tensor(positions, {n_prompt})},
                 &outputs);
    emit(outputs[0]);
  }
  const double prefill_s = seconds_since(t_prefill);

  const auto t_decode = std::chrono::steady_clock::now();
  bool truncated = false;
  while (static_cast<int>(generated.size()) < o.max_new_tokens) {
    const auto pos = static_cast<int64_t>(ids.size()) - 1;  // the last token, not yet cached
    if (pos >= g.max_seq_len) {
      truncated = true;
      break;
    }
    std::vector<skiff::Tensor> inputs = {skiff::to_tensor(std::vector<int64_t>{ids.back()}, {1, 1}),
                                         skiff::to_tensor(std::vector<int64_t>{pos}, {1})};
    inputs.insert(inputs.end(), outputs.begin() + 1, outputs.end());
    decode->Run(inputs, &outputs);
    emit(outputs[0]);
  }
  const double decode_s = seconds_since(t_decode);
  std::fputc('\n', stdout);
  if (o.print_ids) {
    std::printf("ids:");
    for (int64_t id : generated) std::printf(" %lld", static_cast<long long>(id));
    std::printf("\nprompt ids:");
    for (int64_t i = 0; i < n_prompt; ++i) std::printf(" %lld", static_cast<long long>(ids[i]));
    std::printf("\n");
  }
  std::fflush(stdout);
  if (truncated) {
    std::fprintf(stderr, "stopped at the model's max_seq_len (%lld tokens)\n",
                 static_cast<long long>(g.max_seq_len));
  }
  if (!o.quiet) {
    const size_t n_decoded = generated.empty() ? 0 : generated.size() - 1;
    std::fprintf(stderr,
                 "load %.3f s (%s); prompt %lld tokens, prefill %.2f ms; %zu decode steps, "
                 "%.2f ms/token, %.1f tokens/s\n",
                 load_s, precision_name(o), static_cast<long long>(n_prompt), prefill_s * 1e3,
                 n_decoded, n_decoded ? decode_s * 1e3 / n_decoded : 0.0,
                 n_decoded ? n_decoded / decode_s : 0.0);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse_args(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "llama_generate: " << e.what << "\n" << kUsage;
    return 2;
  }
  try {
    return run(o);
  } catch (const skiff::Error& e) {
    std::cerr << "llama_generate: " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "llama_generate: " << e.what() << "\n";
  }
  return 1;
}

// The next token from a row of logits: greedy, or sampled with temperature, top-k and top-p
// (nucleus) filtering, as Paddle's and Hugging Face's generate apply them (k first, then p).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace llama_generate {

struct SamplingOptions {
  float temperature = 0.8f;  // <= 0: greedy
  int top_k = 40;            // <= 0: no top-k filter
  float top_p = 1.0f;        // >= 1: no nucleus filter
};

class Sampler {
 public:
  Sampler(SamplingOptions options, uint64_t seed) : options_(options), rng_(seed) {}
  /// `logits` has one entry per vocabulary id.
  int64_t next(const float* logits, int64_t vocab_size);

 private:
  SamplingOptions options_;
  std::mt19937_64 rng_;
  std::vector<std::pair<float, int64_t>> candidates_;  // reused between calls
};

}  // namespace llama_generate

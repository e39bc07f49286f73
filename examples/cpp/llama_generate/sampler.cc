#include "sampler.h"

#include <algorithm>
#include <cmath>

namespace llama_generate {

int64_t Sampler::next(const float* logits, int64_t vocab_size) {
  if (options_.temperature <= 0) {
    return std::max_element(logits, logits + vocab_size) - logits;  // the first maximum
  }
  candidates_.clear();
  for (int64_t i = 0; i < vocab_size; ++i) {
    candidates_.emplace_back(logits[i] / options_.temperature, i);
  }
  auto by_logit = [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  size_t keep = candidates_.size();
  if (options_.top_k > 0 && static_cast<size_t>(options_.top_k) < keep) {
    keep = static_cast<size_t>(options_.top_k);
    std::partial_sort(candidates_.begin(), candidates_.begin() + keep, candidates_.end(), by_logit);
  } else {
    std::sort(candidates_.begin(), candidates_.end(), by_logit);
  }
  candidates_.resize(keep);
  // Softmax over what is left, in double (the largest logit first, so exp never overflows).
  std::vector<double> p(keep);
  double sum = 0;
  for (size_t i = 0; i < keep; ++i) {
    p[i] = std::exp(static_cast<double>(candidates_[i].first - candidates_[0].first));
    sum += p[i];
  }
  if (options_.top_p < 1.0f) {
    // The smallest prefix whose probability reaches top_p (always at least one token).
    double cumulative = 0;
    size_t n = 0;
    while (n < keep) {
      cumulative += p[n] / sum;
      ++n;
      if (cumulative >= options_.top_p) break;
    }
    keep = n;
    sum = 0;
    for (size_t i = 0; i < keep; ++i) sum += p[i];
  }
  std::uniform_real_distribution<double> uniform(0.0, sum);
  double u = uniform(rng_);
  for (size_t i = 0; i < keep; ++i) {
    u -= p[i];
    if (u <= 0) return candidates_[i].second;
  }
  return candidates_[keep - 1].second;
}

}  // namespace llama_generate

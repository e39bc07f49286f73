#include "bpe_tokenizer.h"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace llama_generate {

namespace {

enum class CharClass { kLetter, kDigit, kSpace, kOther };

// One code point of UTF-8 `s` at `i`: its byte length and whether Python's str.isspace holds.
// Invalid bytes count as one "other" byte each (Python would have rejected the text earlier).
std::pair<size_t, bool> next_code_point(const std::string& s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
  if (i + len > s.size()) len = 1;
  uint32_t cp = len == 1 ? b : b & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 0x2) return {1, false};
    cp = (cp << 6) | (c & 0x3F);
  }
  const bool space = (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 ||
                     cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
                     cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
  return {len, space};
}

CharClass class_at(const std::string& s, size_t i, size_t* len) {
  const char c = s[i];
  *len = 1;
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return CharClass::kLetter;
  if (c >= '0' && c <= '9') return CharClass::kDigit;
  auto [n, space] = next_code_point(s, i);
  *len = n;
  return space ? CharClass::kSpace : CharClass::kOther;
}

// The end of the run of `cls` characters starting at `i`.
size_t run_end(const std::string& s, size_t i, CharClass cls) {
  while (i < s.size()) {
    size_t len;
    if (class_at(s, i, &len) != cls) break;
    i += len;
  }
  return i;
}

}  // namespace

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    size_t len;
    CharClass cls = class_at(text, i, &len);
    size_t start = i;
    if (text[i] == ' ' && i + 1 < text.size()) {
      // The optional leading space of the first three alternatives.
      size_t next_len;
      const CharClass next = class_at(text, i + 1, &next_len);
      if (next != CharClass::kSpace) {
        words.push_back(text.substr(start, run_end(text, i + 1, next) - start));
        i = start + words.back().size();
        continue;
      }
    }
    i = run_end(text, i, cls);
    words.push_back(text.substr(start, i - start));
  }
  return words;
}

BpeTokenizer BpeTokenizer::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("tokenizer: cannot read '" + path + "'");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("tokenizer: '" + path + "' is not JSON: " + e.what());
  }
  if (!j.is_object() || j.value("type", "") != "byte_bpe" || !j.contains("merges") ||
      !j["merges"].is_array()) {
    throw std::runtime_error("tokenizer: '" + path +
                             "' is not a byte_bpe tokenizer ({\"type\": \"byte_bpe\", "
                             "\"merges\": [[a, b], ...]})");
  }
  std::vector<std::pair<int, int>> merges;
  for (const auto& m : j["merges"]) {
    const int next_id = 256 + static_cast<int>(merges.size());
    if (!m.is_array() || m.size() != 2 || !m[0].is_number_integer() || !m[1].is_number_integer() ||
        m[0].get<int64_t>() < 0 || m[1].get<int64_t>() < 0 || m[0].get<int64_t>() >= next_id ||
        m[1].get<int64_t>() >= next_id) {
      throw std::runtime_error("tokenizer: '" + path + "' merge " + std::to_string(merges.size()) +
                               " must be two ids below " + std::to_string(next_id) + ", got " +
                               m.dump());
    }
    merges.emplace_back(m[0].get<int>(), m[1].get<int>());
  }
  return BpeTokenizer(std::move(merges));
}

BpeTokenizer::BpeTokenizer(std::vector<std::pair<int, int>> merges) {
  for (int i = 0; i < 256; ++i) vocab_.emplace_back(1, static_cast<char>(i));
  for (size_t r = 0; r < merges.size(); ++r) {
    ranks_.emplace(merges[r], static_cast<int64_t>(r));
    vocab_.push_back(vocab_[merges[r].first] + vocab_[merges[r].second]);
  }
}

std::vector<int64_t> BpeTokenizer::encode_word(const std::string& word) const {
  std::vector<int64_t> ids(word.begin(), word.end());
  for (auto& id : ids) id = static_cast<unsigned char>(id);
  while (ids.size() > 1) {
    // The lowest-ranked adjacent pair, the leftmost on a tie (tokenizer.py's order).
    int64_t best_rank = std::numeric_limits<int64_t>::max();
    size_t best_j = 0;
    for (size_t j = 0; j + 1 < ids.size(); ++j) {
      auto it = ranks_.find({ids[j], ids[j + 1]});
      if (it != ranks_.end() && it->second < best_rank) {
        best_rank = it->second;
        best_j = j;
      }
    }
    if (best_rank == std::numeric_limits<int64_t>::max()) break;
    ids[best_j] = 256 + best_rank;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best_j) + 1);
  }
  return ids;
}

std::vector<int64_t> BpeTokenizer::encode(const std::string& text) const {
  std::vector<int64_t> out;
  for (const std::string& w : split_words(text)) {
    const auto ids = encode_word(w);
    out.insert(out.end(), ids.begin(), ids.end());
  }
  return out;
}

const std::string& BpeTokenizer::token_bytes(int64_t id) const {
  if (id < 0 || id >= vocab_size()) {
    throw std::out_of_range("tokenizer: token id " + std::to_string(id) + " is not below the " +
                            "vocabulary size " + std::to_string(vocab_size()));
  }
  return vocab_[static_cast<size_t>(id)];
}

std::string BpeTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string out;
  for (int64_t id : ids) out += token_bytes(id);
  return out;
}

}  // namespace llama_generate

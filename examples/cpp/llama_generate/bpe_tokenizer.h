// The example Llama's byte-level BPE (examples/llama/tokenizer.py) in C++: the same word split,
// the same merge order, so a prompt encodes to the ids Python gives it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llama_generate {

class BpeTokenizer {
 public:
  /// Reads tokenizer.py's JSON ({"type": "byte_bpe", "merges": [[a, b], ...]}); a missing file
  /// or a malformed one is a std::runtime_error naming the file and what is wrong.
  static BpeTokenizer load(const std::string& path);

  explicit BpeTokenizer(std::vector<std::pair<int, int>> merges);

  std::vector<int64_t> encode(const std::string& text) const;
  /// The bytes of one token (a token may end inside a UTF-8 sequence; streamed output simply
  /// writes bytes, so the terminal reassembles the characters).
  const std::string& token_bytes(int64_t id) const;
  std::string decode(const std::vector<int64_t>& ids) const;
  int64_t vocab_size() const { return static_cast<int64_t>(vocab_.size()); }

 private:
  std::vector<int64_t> encode_word(const std::string& word) const;

  std::map<std::pair<int64_t, int64_t>, int64_t> ranks_;  // pair -> merge index
  std::vector<std::string> vocab_;                        // id -> bytes
};

/// The words of `text` as tokenizer.py's pattern splits them:
/// ` ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+`, with \s as Python's str.isspace.
std::vector<std::string> split_words(const std::string& text);

}  // namespace llama_generate

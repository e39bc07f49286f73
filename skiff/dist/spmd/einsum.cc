#include "skiff/dist/spmd/einsum.h"

#include "skiff/base/error.h"

namespace skiff::dist::spmd {

namespace {
constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz";
}

std::string dim_letters(std::string_view rule, int64_t n) {
  SKIFF_ENFORCE(n >= 0 && n <= static_cast<int64_t>(kAlphabet.size()), kInvalidArgument, rule,
                "x", "a tensor of at most 26 dims", str(n, " dims"));
  return std::string(kAlphabet.substr(0, static_cast<size_t>(n)));
}

AxisMap merge_shardings(std::string_view rule, const std::vector<LetteredMapping>& operands) {
  AxisMap map;
  std::string order;  // letters in the order they are first met
  std::map<char, std::string_view> owner;  // the operand that set a letter's sharding
  for (const LetteredMapping& op : operands) {
    SKIFF_CHECK(op.letters.size() == op.dims_mapping.size());
    for (size_t i = 0; i < op.letters.size(); ++i) {
      const char c = op.letters[i];
      if (c == '1') continue;
      const int64_t m = op.dims_mapping[i];
      auto it = map.find(c);
      if (it == map.end()) {
        map[c] = m;
        order.push_back(c);
        if (m >= 0) owner[c] = op.name;
        continue;
      }
      if (m < 0 || it->second == m) continue;
      if (it->second < 0) {
        it->second = m;
        owner[c] = op.name;
        continue;
      }
      SKIFF_THROW(kUnimplemented, rule, op.name,
                  str("tensor axis '", c, "' sharded like in '", owner[c], "' (mesh axis ",
                      it->second, "); one axis sharded on two mesh axes is not supported"),
                  str("mesh axis ", m));
    }
  }
  std::map<int64_t, char> axis_owner;  // mesh axis -> the letter that keeps it
  for (char c : order) {
    int64_t& m = map[c];
    if (m < 0) continue;
    if (axis_owner.count(m) > 0) {
      m = kReplicated;
      continue;
    }
    axis_owner[m] = c;
  }
  return map;
}

std::vector<int64_t> dims_mapping_for(std::string_view letters, const AxisMap& map) {
  std::vector<int64_t> out(letters.size(), kReplicated);
  for (size_t i = 0; i < letters.size(); ++i) {
    auto it = map.find(letters[i]);
    if (letters[i] != '1' && it != map.end()) out[i] = it->second;
  }
  return out;
}

std::map<int64_t, ReduceType> partial_for(std::string_view in_letters, std::string_view out_letters,
                                          const AxisMap& map, ReduceType type) {
  std::map<int64_t, ReduceType> out;
  for (char c : in_letters) {
    if (c == '1' || out_letters.find(c) != std::string_view::npos) continue;
    auto it = map.find(c);
    if (it != map.end() && it->second >= 0) out[it->second] = type;
  }
  return out;
}

AxisMap replicate_letters(AxisMap map, std::string_view letters) {
  for (char c : letters) {
    auto it = map.find(c);
    if (it != map.end()) it->second = kReplicated;
  }
  return map;
}

}  // namespace skiff::dist::spmd

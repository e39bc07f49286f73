#include "skiff/inference/saved_model.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "skiff/base/error.h"
#include "skiff/checkpoint.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/profiler/json.h"

namespace skiff::inference {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOp = "load inference model";

// "load inference model: expected a model saved by ..., got 'file' with <what>".
[[noreturn]] void bad_file(const std::string& file, const std::string& what) {
  SKIFF_THROW(kInvalidArgument, kOp, "",
              "a model saved by jit.save or save_inference_model (docs/FORMATS.md)",
              str("'", file, "' with ", what));
}

void check_file(const std::string& file, const char* role) {
  std::error_code ec;
  SKIFF_ENFORCE(fs::exists(file, ec), kIOError, kOp, role,
                str("an existing file (a model is saved as prefix.pdmodel and prefix.pdiparams)"),
                str("'", file, "', which does not exist"));
  SKIFF_ENFORCE(!fs::is_directory(file, ec), kIOError, kOp, role, "a file",
                str("'", file, "', a directory"));
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  SKIFF_ENFORCE(in.good(), kIOError, kOp, "prog_file", "a readable file",
                str("'", file, "' (", std::strerror(errno), ")"));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The metadata value `key` parsed as JSON (`required`: its absence is an error).
profiler::json::Value meta_json(const CheckpointMetadata& meta, const std::string& key,
                                const std::string& params_file, bool required,
                                const char* fallback) {
  auto it = meta.find(key);
  if (it == meta.end()) {
    if (required) bad_file(params_file, str("no metadata '", key, "'"));
    return profiler::json::parse(fallback, key);
  }
  try {
    return profiler::json::parse(it->second, key);
  } catch (const Error& e) {
    bad_file(params_file, str("metadata '", key, "' that is not JSON (", e.info().got, ")"));
  }
}

bool is_int(const profiler::json::Value& v) {
  if (v.kind != profiler::json::Value::kNumber || v.text.empty()) return false;
  for (size_t i = v.text[0] == '-' ? 1 : 0; i < v.text.size(); ++i) {
    if (v.text[i] < '0' || v.text[i] > '9') return false;
  }
  return v.text != "-";
}

std::string clip(std::string s) {
  if (s.size() > 200) s = s.substr(0, 200) + "...";
  return s;
}

void check_format(const CheckpointMetadata& meta, const std::string& params_file,
                  const std::string& producer) {
  auto it = meta.find("skiff.format");
  if (it == meta.end()) bad_file(params_file, "no metadata 'skiff.format'");
  const std::string& got = it->second;
  if (got == std::to_string(kModelFormatVersion)) return;
  const bool digits =
      !got.empty() && got.size() < 10 && got.find_first_not_of("0123456789") == std::string::npos;
  const bool newer = digits && std::stol(got) > kModelFormatVersion;
  SKIFF_THROW(kInvalidArgument, kOp, "",
              str("model format version ", kModelFormatVersion, " (what this Skiff ",
                  kSkiffVersion, " reads)"),
              str("'", params_file, "' in model format version '", clip(got), "' (written by ",
                  producer, "), ",
                  newer ? "newer than this Skiff: load it with a newer Skiff"
                        : "unknown to this Skiff"));
}

}  // namespace

SavedModel read_saved_model(const std::string& prog_file, const std::string& params_file) {
  check_file(prog_file, "prog_file");
  check_file(params_file, "params_file");
  SavedModel m;
  CheckpointMetadata meta;
  StateDict state = load(params_file, &meta);  // errors name the file
  auto prod = meta.find("skiff.producer");
  m.producer = prod == meta.end() ? "an unknown producer" : clip(prod->second);
  check_format(meta, params_file, m.producer);
  const std::string text = read_text(prog_file);
  std::vector<std::pair<std::string, Tensor>> params(state.begin(), state.end());
  try {
    m.program = jit::parse_program(text, params);
  } catch (const Error& e) {
    throw_error(e.code(), kOp, "", "a valid program", str("'", prog_file, "': ", e.what()),
                __FILE__, __LINE__);
  }
  if (m.program.outputs.empty()) bad_file(prog_file, "no outputs (no builtin.shadow_output op)");

  // skiff.inputs: one entry per op.data, in order, agreeing with it.
  const profiler::json::Value inputs =
      meta_json(meta, "skiff.inputs", params_file, true, "[]");
  if (inputs.kind != profiler::json::Value::kArray) {
    bad_file(params_file, "metadata 'skiff.inputs' that is not a list of inputs");
  }
  std::vector<ir::op::DataOp> data_ops;
  for (ir::Operation* op = m.program.program->block()->front(); op; op = op->next()) {
    if (op->name() == ir::op::DataOp::kName) data_ops.emplace_back(op);
  }
  if (inputs.items.size() != data_ops.size()) {
    bad_file(params_file, str("metadata 'skiff.inputs' naming ", inputs.items.size(),
                              " inputs, but '", prog_file, "' reads ", data_ops.size()));
  }
  for (size_t i = 0; i < inputs.items.size(); ++i) {
    const profiler::json::Value& e = inputs.items[i];
    const profiler::json::Value* name = e.find("name");
    const profiler::json::Value* shape = e.find("shape");
    const profiler::json::Value* dtype = e.find("dtype");
    bool ok = e.kind == profiler::json::Value::kObject && name &&
              name->kind == profiler::json::Value::kString && shape &&
              shape->kind == profiler::json::Value::kArray && dtype &&
              dtype->kind == profiler::json::Value::kString;
    SavedModel::Input in;
    if (ok) {
      in.name = name->text;
      for (const auto& d : shape->items) {
        ok = ok && is_int(d) && d.text.size() < 19 && std::stoll(d.text) >= -1;
        if (ok) in.shape.push_back(std::stoll(d.text));
      }
      try {
        in.dtype = parse_dtype(dtype->text);
      } catch (const Error&) {
        ok = false;
      }
    }
    if (!ok) {
      bad_file(params_file, str("metadata 'skiff.inputs' entry ", i,
                                " that is not {name: str, shape: [int >= -1], dtype: a dtype "
                                "name}"));
    }
    const ir::op::DataOp& d = data_ops[i];
    if (in.name != d.name() || in.shape != d.shape()) {
      bad_file(params_file, str("metadata 'skiff.inputs' entry ", i, " (", in.name, " ",
                                in.shape, ") disagreeing with the program's input ", i, " (",
                                d.name(), " ", d.shape(), ") in '", prog_file, "'"));
    }
    m.inputs.push_back(std::move(in));
  }
  // skiff.outputs: the count agrees with the program.
  const profiler::json::Value outputs =
      meta_json(meta, "skiff.outputs", params_file, true, "{}");
  const profiler::json::Value* count = outputs.find("count");
  if (outputs.kind != profiler::json::Value::kObject || !count || !is_int(*count)) {
    bad_file(params_file, "metadata 'skiff.outputs' that is not {count: int, single: bool}");
  }
  if (count->text != std::to_string(m.program.outputs.size())) {
    bad_file(params_file, str("metadata 'skiff.outputs' declaring ", clip(count->text),
                              " outputs, but '", prog_file, "' has ",
                              m.program.outputs.size()));
  }
  return m;
}

std::pair<std::string, std::string> model_files_in(const std::string& dir,
                                                    const std::string& prefix) {
  std::error_code ec;
  SKIFF_ENFORCE(fs::is_directory(dir, ec), kIOError, kOp, "model_dir", "a directory",
                str("'", dir, "'", fs::exists(dir, ec) ? ", a file" : ", which does not exist"));
  if (!prefix.empty()) {
    return {(fs::path(dir) / (prefix + ".pdmodel")).string(),
            (fs::path(dir) / (prefix + ".pdiparams")).string()};
  }
  std::vector<std::string> models;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".pdmodel") models.push_back(e.path().string());
  }
  std::sort(models.begin(), models.end());
  SKIFF_ENFORCE(models.size() == 1, kInvalidArgument, kOp, "model_dir",
                str("a directory with one *.pdmodel (or give the files: SetModel(prog, params))"),
                str("'", dir, "' with ", models.size(), " *.pdmodel files",
                    models.empty() ? std::string() : str(" ", models)));
  fs::path params = models[0];
  params.replace_extension(".pdiparams");
  return {models[0], params.string()};
}

}  // namespace skiff::inference

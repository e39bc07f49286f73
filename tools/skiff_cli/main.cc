// The `skiff` command-line tool, home of the framework's subcommands:
//   skiff kernels      every registered kernel, one per line: "op backend dtype"
//   skiff ops          every op record's signature
//   skiff flags        every SKIFF_* environment flag with its value and help
#include <cctype>
#include <iostream>
#include <string>

#include "skiff/base/error.h"
#include "skiff/base/flags.h"
#include "skiff/ops/kernel_registry.h"
#include "skiff/ops/op_schema.h"

namespace {

int usage() {
  std::cerr << "usage: skiff <command>\n"
               "  kernels   list registered kernels (op backend dtype)\n"
               "  ops       list op signatures\n"
               "  flags     list SKIFF_* flags\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  try {
    if (cmd == "kernels") {
      for (const auto& line : skiff::ops::KernelRegistry::global().describe()) {
        std::cout << line << '\n';
      }
      return 0;
    }
    if (cmd == "ops") {
      for (const auto& s : skiff::ops::all_op_schemas()) std::cout << s.signature << '\n';
      return 0;
    }
    if (cmd == "flags") {
      skiff::ops::init();  // registers the flags read at start-up
      for (const auto& f : skiff::list_flags()) {
        std::string upper = f.name;
        for (char& c : upper) c = static_cast<char>(std::toupper(c));
        std::cout << "SKIFF_" << upper << "=" << f.value << "  (default " << f.default_value << ") "
                  << f.help << '\n';
      }
      return 0;
    }
  } catch (const skiff::Error& e) {
    std::cerr << "skiff: " << e.what() << '\n';
    return 1;
  }
  return usage();
}

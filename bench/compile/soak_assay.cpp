// Compile-time probe (a): a soak report decoded strictly and encoded canonically with assay.
// bench/compile/soak_nlohmann.cpp does the same with nlohmann-json; bench/compile_time.sh
// compares how long the two take to compile.
#include "assay/contracts/soak_report.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2)
    return 2;
  std::ifstream in(argv[1], std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto report = assay::decode<assay::contracts::soak_report>(text);
  if (!report) {
    std::fprintf(stderr, "%s\n", report.error().format().c_str());
    return 1;
  }
  auto bytes = assay::encode(*report);
  if (!bytes)
    return 1;
  std::fwrite(bytes->data(), 1, bytes->size(), stdout);
  return 0;
}

// gen_doc — writes the benchmark evidence document (bench/evidence_doc.hpp) to a file.
//
//   gen_doc OUT.json [BYTES] [SEED]      defaults: 26214400 bytes (25 MiB), the benchmark's seed
//
// The bytes are exactly those json_bench parses, so outside tools can be timed on them.
#include "evidence_doc.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool parse_number(const char* s, unsigned long long& out) {
  char* end = nullptr;
  out = std::strtoull(s, &end, 0);
  return end != s && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: gen_doc OUT.json [BYTES] [SEED]\n");
    return 2;
  }
  unsigned long long bytes = assay_bench::default_document_bytes;
  unsigned long long seed = assay_bench::default_seed;
  if ((argc > 2 && !parse_number(argv[2], bytes)) || (argc > 3 && !parse_number(argv[3], seed))) {
    std::fprintf(stderr, "gen_doc: BYTES and SEED must be numbers\n");
    return 2;
  }
  const std::string doc = assay_bench::make_evidence_document(bytes, seed);
  std::FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 3;
  }
  const bool ok = std::fwrite(doc.data(), 1, doc.size(), f) == doc.size();
  if (std::fclose(f) != 0 || !ok) {
    std::fprintf(stderr, "gen_doc: cannot write %s\n", argv[1]);
    return 3;
  }
  std::fprintf(stderr, "gen_doc: wrote %zu bytes to %s\n", doc.size(), argv[1]);
  return 0;
}

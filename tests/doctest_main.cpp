// The shared main of the unit tests. Test cases that read the external conformance data are in
// the doctest suite "conformance", those that run the Rust reference (assay-ref) as an oracle in
// the suite "oracle"; meson runs such an executable without those suites, then with each alone
// (tests/meson.build). A run of one alone reports itself skipped (exit 77, as meson reads it)
// when what it needs is absent, unless ASSAY_REQUIRE_CONFORMANCE=1 says the conformance data must
// be there (ASSAY_REQUIRE_ORACLE=1, the reference too, as CI says): a check that did not run is
// never reported as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include "support.hpp"

#include <cstdio>
#include <string_view>

int main(int argc, char** argv) {
  bool conformance_only = false, oracle_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    conformance_only = conformance_only || a == "--test-suite=conformance" || a == "-ts=conformance";
    oracle_only = oracle_only || a == "--test-suite=oracle" || a == "-ts=oracle";
  }
  if (oracle_only && (assay_test::reference_binary().empty() || !assay_test::conformance_present())) {
    if (assay_test::oracle_required()) {
      std::fprintf(stderr, "assay-ref (ASSAY_REF or the PATH) or the conformance data required but absent\n");
      return 1;
    }
    std::printf("assay-ref (ASSAY_REF or the PATH) or the conformance data absent: skipped\n");
    return 77;
  }
  if (conformance_only && !assay_test::conformance_present()) {
    if (assay_test::conformance_required()) {
      std::fprintf(stderr, "conformance data required but absent (ASSAY_CONFORMANCE_DIR)\n");
      return 1;
    }
    std::printf("conformance data absent (ASSAY_CONFORMANCE_DIR): skipped\n");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}

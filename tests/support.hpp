// Shared helpers for the tests: file reading and the location of the external conformance data.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <stdlib.h>

namespace assay_test {

// A fresh directory (mkdtemp), removed with everything in it when the test ends.
struct temp_dir {
  std::string path;
  temp_dir() {
    std::string t = (std::filesystem::temp_directory_path() / "assay-test-XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    path = t;
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::filesystem::path source_root() {
  const char* s = std::getenv("ASSAY_SOURCE_ROOT");
  return s ? std::filesystem::path(s) : std::filesystem::path(".");
}

inline bool conformance_required() {
  const char* req = std::getenv("ASSAY_REQUIRE_CONFORMANCE");
  return req && std::string(req) == "1";
}

// ASSAY_REQUIRE_ORACLE=1 (CI builds the reference): an oracle test without assay-ref fails.
inline bool oracle_required() {
  const char* req = std::getenv("ASSAY_REQUIRE_ORACLE");
  return req && std::string(req) == "1";
}

inline bool conformance_present() {
  const char* d = std::getenv("ASSAY_CONFORMANCE_DIR");
  return d && *d && std::filesystem::is_directory(d);
}

// The Rust reference's binary, the oracle of the differential tests (doctest suite "oracle"):
// $ASSAY_REF, else assay-ref on the PATH; empty when there is none.
inline std::filesystem::path reference_binary() {
  namespace fs = std::filesystem;
  if (const char* p = std::getenv("ASSAY_REF"); p != nullptr && *p != '\0')
    return fs::exists(p) ? fs::path(p) : fs::path();
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && fs::exists(fs::path(dir) / "assay-ref"))
        return fs::path(dir) / "assay-ref";
  }
  return {};
}

// The external conformance data (../shared/conformance in CI), for the test cases of the doctest
// suite "conformance" (which doctest_main.cpp reports skipped as a whole when the data is
// absent). Returns an empty path when it is absent; the caller then skips with a message, or
// fails when ASSAY_REQUIRE_CONFORMANCE=1.
inline std::filesystem::path conformance_dir() {
  const char* d = std::getenv("ASSAY_CONFORMANCE_DIR");
  std::filesystem::path p = d ? std::filesystem::path(d) : std::filesystem::path();
  if (!p.empty() && std::filesystem::is_directory(p))
    return p;
  const char* req = std::getenv("ASSAY_REQUIRE_CONFORMANCE");
  if (req && std::string(req) == "1") {
    FAIL("conformance data required but absent at '" << p.string() << "'");
  }
  MESSAGE("conformance data absent at '" << p.string() << "': conformance checks skipped");
  return {};
}

}  // namespace assay_test

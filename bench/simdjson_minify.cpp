// simdjson_minify — the anchor of the whole-process `assay jcs` comparison: reads FILE, parses
// it with simdjson's DOM parser and writes simdjson::minify of the parsed element to stdout.
// (Less work than JCS: no member sorting, no number re-formatting.)
//
//   simdjson_minify FILE > OUT
#include <simdjson.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_minify FILE\n");
    return 2;
  }
  simdjson::padded_string text;
  if (auto err = simdjson::padded_string::load(argv[1]).get(text); err) {
    std::fprintf(stderr, "simdjson_minify: %s: %s\n", argv[1], simdjson::error_message(err));
    return 1;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto err = parser.parse(text).get(root); err) {
    std::fprintf(stderr, "simdjson_minify: %s: %s\n", argv[1], simdjson::error_message(err));
    return 1;
  }
  const std::string out = simdjson::minify(root);
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "simdjson_minify: cannot write the output\n");
    return 1;
  }
  return 0;
}

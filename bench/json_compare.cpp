// json_compare — json::document's strict parse against simdjson, RapidJSON and nlohmann-json,
// in one process, on three generated documents of about 26 MB each:
//
//   mixed    the evidence document of evidence_doc.hpp (names, text, numbers, nesting)
//   numbers  rows of doubles written with 17 significant digits (fixed and exponent forms)
//   strings  text with escapes (\n \" \\ \uXXXX, surrogate pairs) and literal non-ASCII UTF-8
//
//   json_compare [--reps N] [--bytes N] [--only NAME] [--write-docs DIR]
//
// Each repetition parses the document once with every parser, in an order rotated from one
// repetition to the next (so no parser always runs on a cache its predecessor warmed); the
// figure is the least time of N repetitions (default 5). A time covers the parse and the
// release of what it built (the tape, the DOM). Two parsers are reused: simdjson's dom::parser
// (its buffers allocated once, before timing) and json::document, each parse handed the buffers
// of the previous one (document::parse(text, limits, std::move(old))). RapidJSON parses with
// kParseFullPrecisionFlag (correctly rounded doubles, as the other three give), into a fresh
// Document each time (its pool allocator only grows while a Document lives); nlohmann into a
// fresh json value.
//
// The ratio printed is a ratio of throughputs, assay ÷ other: 0.80x means json::document reads
// at 80% of the other parser's speed. Before timing, every parser must accept each document,
// and all must count the same number of values and member names.
//
// A library not found when the program was configured is skipped with a message. With
// --write-docs the three documents are written to DIR (mixed.json, numbers.json,
// strings.json) for whole-process comparisons (bench/speed_table.sh), and nothing is timed.
#include "evidence_doc.hpp"

#include "assay/json/document.hpp"

#if defined(ASSAY_BENCH_SIMDJSON)
#include <simdjson.h>
#endif
#if defined(ASSAY_BENCH_RAPIDJSON)
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#endif
#if defined(ASSAY_BENCH_NLOHMANN)
#include <nlohmann/json.hpp>
#endif

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace json = assay::json;
using assay_bench::prng;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "json_compare: %s\n", what.c_str());
  std::exit(1);
}

// --- the documents ----------------------------------------------------------------------------

// {"rows":[[x,...],...]}: 8 doubles a row, every one with 17 significant digits, in plain
// decimal (-1234.5678901234567) or exponent form (1.2345678901234567e-120), either sign.
std::string make_numbers(std::size_t target, std::uint64_t seed) {
  prng r(seed);
  std::string out = "{\"rows\":[";
  out.reserve(target + 512);
  char buf[64];
  bool first_row = true;
  while (out.size() + 4 < target) {
    out += first_row ? "[" : ",[";
    first_row = false;
    for (int i = 0; i < 8; ++i) {
      if (i != 0)
        out += ',';
      // 17 significant digits: a mantissa in [1e16, 1e17), then a decimal exponent.
      const std::uint64_t mant = 10000000000000000ULL + r.below(90000000000000000ULL);
      const bool negative = r.chance(40);
      if (negative)
        out += '-';
      const char* e = std::to_chars(buf, buf + sizeof buf, mant).ptr;
      const std::string_view digits(buf, static_cast<std::size_t>(e - buf));
      if (r.chance(60)) {
        // plain decimal: the point after 0..6 digits (0: "0.xxxx")
        const std::size_t point = r.below(7);
        if (point == 0) {
          out += "0.";
          out += digits;
        } else {
          out += digits.substr(0, point);
          out += '.';
          out += digits.substr(point);
        }
      } else {
        out += digits.substr(0, 1);
        out += '.';
        out += digits.substr(1);
        out += r.chance(50) ? "e-" : "e+";
        out.append(buf, std::to_chars(buf, buf + sizeof buf, 1 + r.below(290)).ptr);
      }
    }
    out += ']';
  }
  out += "]}";
  return out;
}

// {"texts":[{"id":N,"text":"...","note":"..."},...]}: sentences in which about a third of the
// words are literal non-ASCII UTF-8 (2, 3 and 4-byte sequences) and about one in six is an
// escape sequence, surrogate pairs included.
std::string make_strings(std::size_t target, std::uint64_t seed) {
  namespace d = assay_bench::detail;
  prng r(seed);
  std::string out = "{\"texts\":[";
  out.reserve(target + 4096);
  auto sentence = [&](std::size_t words) {
    out += '"';
    for (std::size_t i = 0; i < words; ++i) {
      if (i != 0)
        out += ' ';
      if (r.chance(16))
        out += d::escaped[r.below(d::escaped.size())];
      else if (r.chance(35))
        out += d::words[29 + r.below(d::words.size() - 29)];
      else
        out += d::words[r.below(29)];
    }
    out += '"';
  };
  char buf[24];
  for (std::uint64_t id = 0; out.size() + 4 < target; ++id) {
    out += id == 0 ? "{\"id\":" : ",{\"id\":";
    out.append(buf, std::to_chars(buf, buf + sizeof buf, id).ptr);
    out += ",\"text\":";
    sentence(10 + r.below(90));
    out += ",\"note\":";
    sentence(2 + r.below(10));
    out += '}';
  }
  out += "]}";
  return out;
}

struct doc {
  const char* name;
  std::string text;
};

// --- counting values (and member names) -----------------------------------------------------

std::size_t count_assay(const json::document& d) {
  return d.nodes().size();
}

#if defined(ASSAY_BENCH_SIMDJSON)
std::size_t count_simdjson(simdjson::dom::element e) {
  std::size_t n = 1;
  if (e.is_array()) {
    for (simdjson::dom::element x : simdjson::dom::array(e))
      n += count_simdjson(x);
  } else if (e.is_object()) {
    for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e))
      n += 1 + count_simdjson(kv.value);
  }
  return n;
}
#endif

#if defined(ASSAY_BENCH_RAPIDJSON)
std::size_t count_rapidjson(const rapidjson::Value& v) {
  std::size_t n = 1;
  if (v.IsArray()) {
    for (const auto& x : v.GetArray())
      n += count_rapidjson(x);
  } else if (v.IsObject()) {
    for (const auto& m : v.GetObject())
      n += 1 + count_rapidjson(m.value);
  }
  return n;
}
#endif

#if defined(ASSAY_BENCH_NLOHMANN)
std::size_t count_nlohmann(const nlohmann::json& v) {
  std::size_t n = 1;
  if (v.is_array()) {
    for (const auto& x : v)
      n += count_nlohmann(x);
  } else if (v.is_object()) {
    for (const auto& [k, x] : v.items())
      n += 1 + count_nlohmann(x);
  }
  return n;
}
#endif

// --- the contenders ---------------------------------------------------------------------------

struct contender {
  const char* name;
  // Parses once; returns false (and says why in `why`) when the parser refuses the document.
  std::function<bool(std::string& why)> parse;
  // Parses once more, untimed, and counts values and member names.
  std::function<std::size_t()> count;
  double best = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void run_document(const doc& dc, unsigned reps) {
  const std::string& text = dc.text;
  std::vector<contender> cs;

  // The tape and side buffer of the previous parse are handed to the next (the document is not
  // kept: its release is part of the next parse, as simdjson's parser reuses its buffers).
  json::document spare;
  cs.push_back({"assay json::document (reused)",
                [&](std::string& why) {
                  auto d = json::document::parse(text, {}, std::move(spare));
                  if (!d) {
                    why = d.error().format();
                    return false;
                  }
                  spare = std::move(*d);
                  return true;
                },
                [&] { return count_assay(*json::document::parse(text)); }});

#if defined(ASSAY_BENCH_SIMDJSON)
  simdjson::padded_string padded(text);
  simdjson::dom::parser sj;
  if (auto err = sj.allocate(padded.size()); err)
    die(std::string("simdjson cannot allocate: ") + simdjson::error_message(err));
  cs.push_back({"simdjson dom (parser reused)",
                [&](std::string& why) {
                  simdjson::dom::element e;
                  auto err = sj.parse(padded).get(e);
                  if (err)
                    why = simdjson::error_message(err);
                  return !err;
                },
                [&] { return count_simdjson(sj.parse(padded).value()); }});
#endif

#if defined(ASSAY_BENCH_RAPIDJSON)
  cs.push_back({"RapidJSON (full precision)",
                [&](std::string& why) {
                  rapidjson::Document d;
                  d.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
                  if (d.HasParseError())
                    why = rapidjson::GetParseError_En(d.GetParseError());
                  return !d.HasParseError();
                },
                [&] {
                  rapidjson::Document d;
                  d.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
                  return count_rapidjson(d);
                }});
#endif

#if defined(ASSAY_BENCH_NLOHMANN)
  cs.push_back({"nlohmann::json",
                [&](std::string& why) {
                  try {
                    auto j = nlohmann::json::parse(text.begin(), text.end());
                    return true;
                  } catch (const std::exception& e) {
                    why = e.what();
                    return false;
                  }
                },
                [&] { return count_nlohmann(nlohmann::json::parse(text.begin(), text.end())); }});
#endif

  // Every parser accepts the document and sees the same number of values and names.
  std::size_t expected = 0;
  for (contender& c : cs) {
    std::string why;
    if (!c.parse(why))
      die(std::string(c.name) + " refuses the " + dc.name + " document: " + why);
    const std::size_t n = c.count();
    if (&c == &cs.front())
      expected = n;
    else if (n != expected)
      die(std::string(c.name) + " counts " + std::to_string(n) + " values and names in the " + dc.name +
          " document, assay " + std::to_string(expected));
  }

  for (unsigned rep = 0; rep < reps; ++rep) {
    for (std::size_t k = 0; k < cs.size(); ++k) {
      contender& c = cs[(k + rep) % cs.size()];
      std::string why;
      const auto t0 = std::chrono::steady_clock::now();
      const bool ok = c.parse(why);
      const double t = seconds_since(t0);
      if (!ok)
        die(std::string(c.name) + " failed: " + why);
      c.best = rep == 0 ? t : std::min(c.best, t);
    }
  }

  const double mb = static_cast<double>(text.size()) / 1e6;
  std::printf("\n%s: %.1f MB, %zu values and names, min of %u\n", dc.name, mb, expected, reps);
  std::printf("  %-30s %9s %9s %14s\n", "parser", "min ms", "MB/s", "assay/this");
  for (const contender& c : cs)
    std::printf("  %-30s %9.1f %9.0f %13.2fx\n", c.name, c.best * 1e3, mb / c.best,
                c.best > 0 ? c.best / cs[0].best : 0);
  // One line per comparison for scripts: RATIO document parser assay/parser-throughput.
  for (std::size_t k = 1; k < cs.size(); ++k) {
    std::string tag = cs[k].name;
    tag = tag.substr(0, tag.find(' '));
    std::printf("RATIO %s %s %.3f\n", dc.name, tag.c_str(), cs[k].best / cs[0].best);
  }
}

bool to_number(const char* s, unsigned long long& out) {
  const char* e = s + std::strlen(s);
  return std::from_chars(s, e, out).ptr == e && e != s;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long reps = 5;
  unsigned long long bytes = assay_bench::default_document_bytes;
  std::string only;
  std::string write_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--reps" && has_value && to_number(argv[i + 1], reps) && reps > 0) {
      ++i;
    } else if (a == "--bytes" && has_value && to_number(argv[i + 1], bytes) && bytes > 0) {
      ++i;
    } else if (a == "--only" && has_value) {
      only = argv[++i];
    } else if (a == "--write-docs" && has_value) {
      write_dir = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: json_compare [--reps N] [--bytes N] [--only mixed|numbers|strings] "
                   "[--write-docs DIR]\n");
      return 2;
    }
  }

#if !defined(ASSAY_BENCH_SIMDJSON)
  std::printf("simdjson: skipped (not found when configured; Debian: libsimdjson-dev)\n");
#endif
#if !defined(ASSAY_BENCH_RAPIDJSON)
  std::printf("RapidJSON: skipped (not found when configured; Debian: rapidjson-dev)\n");
#endif
#if !defined(ASSAY_BENCH_NLOHMANN)
  std::printf("nlohmann-json: skipped (not found when configured; Debian: nlohmann-json3-dev)\n");
#endif

  const std::uint64_t seed = assay_bench::default_seed;
  const char* names[] = {"mixed", "numbers", "strings"};
  for (int k = 0; k < 3; ++k) {
    if (!only.empty() && only != names[k])
      continue;
    doc dc{names[k], {}};
    switch (k) {
      case 0:
        dc.text = assay_bench::make_evidence_document(bytes, seed);
        break;
      case 1:
        dc.text = make_numbers(bytes, seed);
        break;
      default:
        dc.text = make_strings(bytes, seed);
        break;
    }
    if (!write_dir.empty()) {
      const std::string path = write_dir + "/" + names[k] + ".json";
      std::FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr)
        die("cannot write " + path);
      const bool ok = std::fwrite(dc.text.data(), 1, dc.text.size(), f) == dc.text.size();
      if (std::fclose(f) != 0 || !ok)
        die("cannot write " + path);
      std::printf("%s\n", path.c_str());
      continue;
    }
    run_document(dc, static_cast<unsigned>(reps));
  }
  return 0;
}

// libFuzzer target: loading packs (SPEC §10) from hostile text, JSON and YAML.
//
// The first byte chooses the reader: even, the strict JSON reader; odd, the YAML reader
// (libyaml; only when the target is built with ASSAY_FUZZ_YAML, else every input is JSON). The
// rest, at most 64 KiB, is loaded with load_pack. For every input:
//   - loading never crashes, hangs or leaks (the sanitizers and libFuzzer see to that);
//   - every error has a message and a code;
//   - loading is deterministic: a second load gives the same digest, or the same errors (code,
//     message, pointer and position);
// and when the pack loads:
//   - its digest is "sha256:" and 64 lowercase hex digits;
//   - its digest document (what `assay pack show` prints), as canonical JSON, loads again through
//     the JSON reader with the same digest (the round trip), and through the YAML reader too
//     (JSON is YAML to a pack), and the second digest document is the same bytes.
// Differential mode: with ASSAY_FUZZ_REF naming the reference CLI (assay-ref), every YAML input is
// also given to `assay-ref pack-digest` (one process per input: slow, for runs aimed at it; not
// ASSAY_REF, which CI exports for the oracle tests, so the bounded CI run stays a crash, leak and
// hang check with a fixed cost per input), and
// loading or refusing, and the digest, must agree — except where SPEC §10 wants otherwise: the
// budgets of this reader (size, depth, members), a key given twice (refused here wherever it is),
// and the x-assay extension.
// Any broken property aborts.
#include "fuzz_fail.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#ifdef ASSAY_FUZZ_YAML
#include "assay/lint/pack_yaml.hpp"
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <unistd.h>

namespace lint = assay::lint;

namespace {

constexpr std::size_t max_input = 64 << 10;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  fuzz::fail("fuzz_pack", what, detail, 600);
}

bool is_sha256_digest(std::string_view d) {
  if (d.size() != 71 || d.substr(0, 7) != "sha256:")
    return false;
  for (char c : d.substr(7))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

void check_errors(const assay::errors& es) {
  if (es.empty())
    fail("a load failed without an error");
  for (const assay::error& e : es) {
    if (e.message.empty())
      fail("an error without a message", assay::name(e.code));
    if (e.code == assay::errc::ok)
      fail("an error with the code ok", e.message);
  }
}

// Both loads gave the same outcome.
void check_same(const assay::results<lint::loaded_pack>& a, const assay::results<lint::loaded_pack>& b) {
  if (a.has_value() != b.has_value())
    fail("the same text loaded once and failed once");
  if (a) {
    if (a->digest != b->digest)
      fail("the same text loaded with two digests", a->digest + " " + b->digest);
    return;
  }
  if (a.error().items != b.error().items)
    fail("the same text failed with different errors", a.error().format() + "\n---\n" + b.error().format());
}

lint::pack_options options_for(bool yaml) {
  lint::pack_options o;
#ifdef ASSAY_FUZZ_YAML
  if (yaml)
    o = lint::yaml_options(o);
#else
  (void)yaml;
#endif
  return o;
}

void round_trip(const lint::loaded_pack& p) {
  const auto shown = assay::json::to_canonical(lint::digest_document(p.definition));
  if (!shown)
    fail("the digest document does not serialize", shown.error().message);
  for (bool yaml : {false, true}) {
#ifndef ASSAY_FUZZ_YAML
    if (yaml)
      continue;
#endif
    const auto again = lint::load_pack(*shown, {lint::pack_source::origin::text, "shown"}, options_for(yaml));
    if (!again)
      fail(yaml ? "the digest document does not load as YAML" : "the digest document does not load as JSON",
           again.error().format() + "\n--- document:\n" + *shown);
    if (again->digest != p.digest)
      fail(yaml ? "the digest document loads as YAML with another digest"
                : "the digest document loads as JSON with another digest",
           p.digest + " " + again->digest + "\n--- document:\n" + *shown);
    const auto shown_again = assay::json::to_canonical(lint::digest_document(again->definition));
    if (!shown_again || *shown_again != *shown)
      fail("the digest document changed on its way round", *shown);
  }
}

#ifdef ASSAY_FUZZ_YAML
// What `assay-ref pack-digest` says of `text`: "name version digest", or "error".
std::string reference_outcome(const char* bin, std::string_view text) {
  char path[] = "/tmp/fuzz_pack_XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0)
    fail("cannot make a temporary file for the reference");
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0)
      fail("cannot write a temporary file for the reference");
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  const std::string cmd = std::string("'") + bin + "' pack-digest '" + path + "' 2>&1";
  std::string out;
  if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0)
      out.append(buf, n);
    ::pclose(pipe);
  }
  ::unlink(path);
  if (!out.empty() && out.back() == '\n')
    out.pop_back();
  if (out.rfind("ERROR ", 0) == 0)
    return "error";
  if (out.empty() || out.find('\n') != std::string::npos)
    fail("the reference printed no single line", out);
  return out;
}

void differential(std::string_view text, const assay::results<lint::loaded_pack>& ours) {
  static const char* bin = std::getenv("ASSAY_FUZZ_REF");
  if (bin == nullptr || *bin == '\0')
    return;
  if (!ours) {
    const assay::errc c = ours.error().front().code;
    if (c == assay::errc::size_limit || c == assay::errc::depth_limit || c == assay::errc::member_limit ||
        c == assay::errc::duplicate_member)
      return;
  }
  if (text.find("x-assay") != std::string_view::npos)
    return;
  const std::string here =
      ours ? std::string(ours->definition.name) + " " + ours->definition.version + " " + ours->digest : "error";
  const std::string there = reference_outcome(bin, text);
  if (here != there)
    fail("the reference reads this pack otherwise",
         "here: " + (ours ? here : ours.error().format()) + "\nreference: " + there);
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size - 1 > max_input)
    return 0;
  const bool yaml = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const lint::pack_options opts = options_for(yaml);
  const lint::pack_source source{lint::pack_source::origin::file, "fuzz.pack"};

  const auto first = lint::load_pack(text, source, opts);
  const auto second = lint::load_pack(text, source, opts);
  check_same(first, second);
#ifdef ASSAY_FUZZ_YAML
  if (yaml)
    differential(text, first);
#endif
  if (!first) {
    check_errors(first.error());
    return 0;
  }
  if (!is_sha256_digest(first->digest))
    fail("a digest that is not sha256:<64 hex>", first->digest);
  if (first->checks.size() != first->definition.rules.size())
    fail("not one check per rule");
  round_trip(*first);
  return 0;
}

// The lint engine against the Rust reference (SPEC §11): its fixture bundle with its packs gives
// the outcomes the issue names (asserted literally), and every reference bundle linted with every
// reference pack gives the reference's findings — rule id, severity, message, location and
// fingerprint — in the reference's order (live against assay-ref when it is at hand: $ASSAY_REF
// or on the PATH; reported as skipped when it is not).
#include "support.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/json/value.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/lint/resolve.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace lint = assay::lint;
namespace json = assay::json;

namespace {

lint::lint_result lint_with(const fs::path& bundle, const std::vector<fs::path>& pack_files) {
  std::vector<lint::loaded_pack> packs;
  for (const auto& p : pack_files) {
    auto loaded = lint::load_pack_file(p, lint::yaml_options());
    REQUIRE_MESSAGE(loaded.has_value(), p.string());
    packs.push_back(std::move(*loaded));
  }
  auto l = lint::linter::create(packs, {.bundle_path = bundle.string()});
  REQUIRE(l.has_value());
  auto v = assay::evidence::verify_bundle_file(bundle.string(), {}, *l);
  REQUIRE_MESSAGE(v.has_value(), bundle.string());
  return l->take();
}

std::vector<std::string> violated(const lint::lint_result& r) {
  std::vector<std::string> out;
  for (const auto& x : r.rules)
    if (x.status == lint::outcome::violated)
      out.push_back(x.rule_id + " " + std::string(lint::name(x.level)));
  return out;
}

std::string run_reference(const fs::path& ref, const fs::path& bundle, const fs::path& pack) {
  const std::string cmd = "'" + ref.string() + "' lint '" + bundle.string() + "' '" + pack.string() + "' 2>/dev/null";
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0)
      out.append(buf.data(), n);
    pclose(f);
  }
  return out;
}

// A finding as one line: id, severity, message, location, fingerprint.
std::string line_of(const std::string& id, std::string_view sev, const std::string& message,
                    const std::string& location, const std::string& fingerprint) {
  return id + " | " + std::string(sev) + " | " + message + " | " + location + " | " + fingerprint;
}

}  // namespace

TEST_CASE("the reference fixture: eu-ai-act-baseline and soc2-baseline" * doctest::test_suite("conformance")) {
  const fs::path c = assay_test::conformance_dir();
  if (c.empty())
    return;
  const fs::path bundle = c / "assay-upstream/bundles/test-bundle.tar.gz";
  const fs::path packs = c / "assay-upstream/packs";

  auto eu = lint_with(bundle, {packs / "eu-ai-act-baseline.yaml"});
  CHECK(violated(eu) == std::vector<std::string>{"eu-ai-act-baseline@1.0.0:EU12-004 warning"});
  REQUIRE(eu.findings.size() == 1);
  CHECK(eu.findings[0].message ==
        "No event contains any of the required fields: /data/policy_decision, /data/denied, /data/policy_hash, "
        "/data/config_hash, /data/violation, /data/risk_level, /data/anomaly_detected");
  CHECK(eu.findings[0].fingerprint == "sha256:c23379b201188c3667ff12fde9de03c3378893739c2b26f7d589f9f5023613fb");
  CHECK(eu.fails(lint::severity::warning));
  CHECK_FALSE(eu.fails(lint::severity::error));

  auto soc2 = lint_with(bundle, {packs / "soc2-baseline.yaml"});
  CHECK(violated(soc2) == std::vector<std::string>{"soc2-baseline@1.0.0:invariant.decision_record error"});
  CHECK(soc2.fails(lint::severity::error));
}

// Run alone (meson's lint_engine_reference_oracle), skipped as a whole without assay-ref.
TEST_CASE("differential: every reference bundle with every reference pack, against assay-ref lint" *
          doctest::test_suite("oracle")) {
  const fs::path c = assay_test::conformance_dir();
  const fs::path ref = assay_test::reference_binary();
  REQUIRE_FALSE(c.empty());
  REQUIRE_FALSE(ref.empty());
  std::vector<fs::path> bundles{c / "assay-upstream/bundles/test-bundle.tar.gz",
                                c / "assay-upstream/bundles/demo-bundle.tar.gz"};
  for (const char* dir : {"assay-upstream/conformance-v0", "assay-upstream/conformance-v1"})
    for (const auto& e : fs::directory_iterator(c / dir))
      if (e.path().filename().string().rfind("ok-", 0) == 0)
        bundles.push_back(e.path());
  std::vector<fs::path> packs;
  for (const auto& e : fs::directory_iterator(c / "assay-upstream/packs"))
    packs.push_back(e.path());
  std::sort(bundles.begin(), bundles.end());
  std::sort(packs.begin(), packs.end());
  std::size_t compared = 0;
  for (const auto& b : bundles) {
    for (const auto& p : packs) {
      CAPTURE(b.filename().string());
      CAPTURE(p.filename().string());
      const auto theirs = json::parse(run_reference(ref, b, p));
      REQUIRE(theirs.has_value());
      std::vector<std::string> want;
      for (const json::value& f : theirs->find("findings")->as_array()) {
        const std::string sev = f.find("severity")->as_string();
        std::string loc = "global";
        if (const json::value* l = f.find("location"); l != nullptr && !l->is_null())
          loc = std::to_string(static_cast<long long>(l->find("seq")->as_number())) + ":" +
                std::to_string(static_cast<long long>(l->find("line")->as_number())) + ":" +
                l->find("event_type")->as_string();
        want.push_back(line_of(f.find("rule_id")->as_string(),
                               sev == "Error"  ? "error"
                               : sev == "Warn" ? "warning"
                                               : "info",
                               f.find("message")->as_string(), loc, f.find("fingerprint")->as_string()));
      }
      const auto ours = lint_with(b, {p});
      std::vector<std::string> have;
      for (const auto& f : ours.findings)
        have.push_back(line_of(f.rule_id, lint::name(f.level), f.message,
                               f.location ? std::to_string(f.location->seq) + ":" + std::to_string(f.location->line) +
                                                ":" + f.location->event_type
                                          : "global",
                               f.fingerprint));
      CHECK(have == want);
      ++compared;
    }
  }
  CHECK(compared == bundles.size() * packs.size());
  MESSAGE(compared << " bundle × pack pairs equal to assay-ref lint");
}

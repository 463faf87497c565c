// Completeness and closure (SPEC §13) over crafted bundles: each signal state (captured, redacted,
// missing, unknown), the score and its weights, the confidence, the uncontrolled dependencies,
// the report's exact bytes and their reproducibility, the explanation of the score, and a signal
// a caller registered.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/json/canonical.hpp"
#include "assay/closure/observer.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack.hpp"

#include <string>
#include <vector>

namespace closure = assay::closure;
namespace lint = assay::lint;
namespace json = assay::json;
using assay_test::event;
using assay_test::make_event;

namespace {

constexpr std::string_view commitment_json =
    R"j({"alg":"sha256","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size_bytes":12})j";

// A pack that requires `signals` (a JSON array text) and has no rules.
lint::loaded_pack signals_pack(std::string_view signals, const lint::signal_registry* reg = nullptr) {
  const std::string text =
      R"j({"name":"needs","version":"1.0.0","kind":"quality","description":"d","author":"a","license":"l",)j"
      R"j("requires":{"assay_min_version":"5.0.0"},"rules":[],"x-assay":{"requires_signals":)j" +
      std::string(signals) + "}}";
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "needs.json"}, {.signals = reg});
  REQUIRE_MESSAGE(p.has_value(), (p ? std::string() : p.error().front().format()));
  return std::move(*p);
}

// The events renumbered from seq 0 (a bundle's first event has seq 0), then bundled.
std::string bundle_of(std::vector<json::value> events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].set("assayseq", static_cast<double>(i));
    events[i].set("id", "run-1:" + std::to_string(i));
  }
  return assay_test::bundle(assay_test::lines_of(std::move(events)));
}

struct computed {
  std::vector<closure::signal_outcome> outcomes;
  std::string report;  // canonical bytes
  std::string explain;
  closure::observer::score_parts score;
};

computed run(const std::string& bytes, const std::vector<lint::loaded_pack>& packs,
             const lint::signal_registry& reg = lint::signal_registry::v0()) {
  closure::observer c(packs, reg);
  auto v = assay::evidence::verify_bundle_bytes(bytes, {}, c);
  REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
  assay::contracts::closure_report r = c.report();
  // The report names the bundle file by the digest the pass computed as it read the file.
  REQUIRE(r.bundle_digest.has_value());
  CHECK(*r.bundle_digest == "sha256:" + assay::hash::digest_bytes<assay::hash::sha256>(bytes).hex());
  r.bundle_digest = "sha256:feed";  // as the expected documents below name it
  auto encoded = assay::encode(r);
  REQUIRE_MESSAGE(encoded.has_value(), (encoded ? std::string() : encoded.error().front().format()));
  return {c.outcomes(), *encoded, c.explain_score(), c.score()};
}

closure::signal_state state_of(const computed& c, std::string_view name) {
  for (const auto& o : c.outcomes)
    if (o.def->name == name)
      return o.state;
  FAIL("signal not tracked: " << name);
  return closure::signal_state::unknown;
}

// Events that show each state: tool calls with bodies (captured), a model named on a vendor event
// (captured, through "*"), the run's input only as a commitment (redacted), a seed event without
// a seed (missing), no policy decision (unknown); a nondeterministic tool and network access.
std::vector<json::value> mixed_events() {
  return {
      event(0, "assay.tool.call", R"j({"tool":"search","arguments":{"q":"x"},"nondeterministic":true})j"),
      event(1, "vendor.llm", R"j({"gen_ai.request.model":"m-1"})j"),
      event(2, "assay.run.input", R"j({"input":)j" + std::string(commitment_json) + "}"),
      event(3, "assay.run.seed", R"j({"note":"seeded from the clock"})j"),
      event(4, "assay.net.access", R"j({"hits":2})j"),
      event(5, "assay.net.access", R"j({"hits":1})j"),
      event(6, "assay.tool.call", R"j({"tool":"calc","result":4,"nondeterministic":false})j"),
  };
}

}  // namespace

TEST_CASE("closure: each signal state, the score, the confidence and the dependencies, to the byte") {
  std::vector<json::value> events = mixed_events();
  events[4].set("subject", std::string("api.example.com:443"));
  events[5].set("subject", std::string("api.example.com:443"));  // the same host: listed once
  const std::string bytes = bundle_of(events);
  const std::vector<lint::loaded_pack> packs{
      signals_pack(R"j(["tool_calls","run_inputs","rng_seeds","policy_decisions","model_identity"])j")};
  const computed c = run(bytes, packs);

  CHECK(state_of(c, "tool_calls") == closure::signal_state::captured);
  CHECK(state_of(c, "tool_io_bodies") == closure::signal_state::captured);
  CHECK(state_of(c, "model_identity") == closure::signal_state::captured);
  CHECK(state_of(c, "run_inputs") == closure::signal_state::redacted);
  CHECK(state_of(c, "rng_seeds") == closure::signal_state::missing);
  CHECK(state_of(c, "policy_decisions") == closure::signal_state::unknown);
  CHECK(c.score.captured == doctest::Approx(0.5));
  CHECK(c.score.score == 0.5);

  const std::string digest = "sha256:" + std::string(64, '0');
  CHECK(
      c.report ==
      R"j({"bundle_digest":"sha256:feed",)j"
      R"j("closure":{"captured":["model_identity","tool_io_bodies"],"confidence":"medium",)j"
      R"j("missing":["rng_seeds","run_inputs"],"score":0.5,)j"
      R"j("scoring":{"method":"weighted_ratio_v1","weights":{"model_identity":0.2,"rng_seeds":0.2,)j"
      R"j("run_inputs":0.3,"tool_io_bodies":0.3}},)j"
      R"j("uncontrolled_dependencies":["network:api.example.com:443","tool:search"]},)j"
      R"j("completeness":{"by_signal":{)j"
      R"j("model_identity":{"evidence_paths":["assay.model.invoked#/data/model","*#/data/gen_ai.request.model"],)j"
      R"j("reason":"found at events.ndjson line 2 (vendor.llm, /data/gen_ai.request.model)","status":"captured"},)j"
      R"j("policy_decisions":{"evidence_paths":["assay.tool.decision"],)j"
      R"j("reason":"no event of a type where it is recorded","status":"unknown"},)j"
      R"j("rng_seeds":{"evidence_paths":["assay.run.seed#/data/seed"],)j"
      R"j("reason":"1 event(s) of a type where it is recorded, none with a value there (first: assay.run.seed)",)j"
      R"j("status":"missing"},)j"
      R"j("run_inputs":{"commitment":{"alg":"sha256","digest":")j" +
          digest +
          R"j(","size_bytes":12},)j"
          R"j("evidence_paths":["assay.run.input#/data/input"],)j"
          R"j("reason":"only a redaction commitment was found, first at events.ndjson line 3 (assay.run.input, /data/input)",)j"
          R"j("status":"redacted"},)j"
          R"j("tool_calls":{"evidence_paths":["assay.tool.call#/data/tool"],)j"
          R"j("reason":"found at events.ndjson line 1 (assay.tool.call, /data/tool)","status":"captured"}},)j"
          R"j("captured":["model_identity","tool_calls"],"redacted":["run_inputs"],)j"
          R"j("required":["model_identity","policy_decisions","rng_seeds","run_inputs","tool_calls"],)j"
          R"j("unknown":["policy_decisions","rng_seeds"]},)j"
          R"j("pack_context":[{"digest":")j" +
          packs[0].digest +
          R"j(","kind":"quality","name":"needs","version":"1.0.0"}],)j"
          R"j("schema_version":"closure-v1"})j");

  // The same bundle and packs: the same bytes; and the report is a valid closure-v1.
  CHECK(run(bytes, packs).report == c.report);
  CHECK(assay::decode<assay::contracts::closure_report>(c.report).has_value());

  CHECK(c.explain ==
        "closure.score = 0.5 (weighted_ratio_v1: captured weight 0.5 of 1)\n"
        "  model_identity  weight 0.2  captured\n"
        "    looked for in: assay.model.invoked#/data/model, *#/data/gen_ai.request.model\n"
        "    found at events.ndjson line 2 (vendor.llm, /data/gen_ai.request.model)\n"
        "  rng_seeds  weight 0.2  missing\n"
        "    looked for in: assay.run.seed#/data/seed\n"
        "    1 event(s) of a type where it is recorded, none with a value there (first: assay.run.seed)\n"
        "  run_inputs  weight 0.3  redacted\n"
        "    looked for in: assay.run.input#/data/input\n"
        "    only a redaction commitment was found, first at events.ndjson line 3 (assay.run.input, /data/input)\n"
        "  tool_io_bodies  weight 0.3  captured\n"
        "    looked for in: assay.tool.call#/data/arguments, assay.tool.call#/data/result\n"
        "    found at events.ndjson line 1 (assay.tool.call, /data/arguments)\n"
        "confidence: medium\n"
        "uncontrolled dependencies:\n"
        "  network:api.example.com:443\n"
        "  tool:search\n");
}

TEST_CASE("closure: confidence high only at score 1 with nothing uncontrolled; low below 0.5") {
  std::vector<json::value> all = {
      event(0, "assay.tool.call", R"j({"tool":"t","result":"r"})j"),
      event(1, "assay.model.invoked", R"j({"model":"m"})j"),
      event(2, "assay.run.input", R"j({"input":"hello"})j"),
      event(3, "assay.run.seed", R"j({"seed":42})j"),
  };
  const computed full = run(bundle_of(all), {});
  CHECK(full.score.score == 1);
  CHECK(full.report.find(R"j("confidence":"high")j") != std::string::npos);
  CHECK(full.report.find(R"j("uncontrolled_dependencies":[])j") != std::string::npos);
  // No pack: nothing required, completeness empty.
  CHECK(
      full.report.find(R"j("completeness":{"by_signal":{},"captured":[],"redacted":[],"required":[],"unknown":[]})j") !=
      std::string::npos);

  // Score 1 but a network dependency (without a subject): medium.
  std::vector<json::value> with_net = all;
  with_net.push_back(event(4, "assay.net.access", R"j({"hits":1})j"));
  const computed net = run(bundle_of(with_net), {});
  CHECK(net.score.score == 1);
  CHECK(net.report.find(R"j("confidence":"medium")j") != std::string::npos);
  CHECK(net.report.find(R"j("uncontrolled_dependencies":["network:(no subject)"])j") != std::string::npos);

  const computed seventy = run(bundle_of({all[1], all[2], all[3]}), {});
  CHECK(seventy.score.score == 0.7);
  CHECK(seventy.report.find(R"j("score":0.7,)j") != std::string::npos);
  // The sums are exact: with a signal of weight 0.1 registered, 0.1 + 0.2 of 1.1 is 3/11
  // (0.2727272727272727), where adding doubles gives 0.27272727272727276.
  auto reg = lint::signal_registry::v0();
  reg.add({.name = "aa_trace", .found_in = {{"x.trace"}}, .replay_weight = 0.1});
  const computed tenth = run(bundle_of({event(0, "x.trace"), all[1]}), {}, reg);
  CHECK(tenth.score.score == 3.0 / 11.0);
  CHECK(tenth.report.find(R"j("score":0.2727272727272727,)j") != std::string::npos);
  CHECK(tenth.explain.starts_with(
      "closure.score = 0.2727272727272727 (weighted_ratio_v1: captured weight 0.3 of 1.1)\n"));

  // 0.3 + 0.2 = 0.5: medium; 0.2 + 0.2 = 0.4: low.
  const computed half = run(bundle_of({all[2], all[3]}), {});
  CHECK(half.report.find(R"j("confidence":"medium")j") != std::string::npos);
  const computed low = run(bundle_of({all[1], all[3]}), {});
  CHECK(low.score.score == 0.4);
  CHECK(low.report.find(R"j("confidence":"low")j") != std::string::npos);
}

TEST_CASE("closure: captured wins over redacted; null is no value; '*' events never show a signal missing") {
  // The run input first as a commitment, then as a value: captured, no commitment reported.
  const std::vector<lint::loaded_pack> packs{signals_pack(R"j(["run_inputs","model_identity","rng_seeds"])j")};
  const computed c = run(bundle_of({
                             event(0, "assay.run.input", R"j({"input":)j" + std::string(commitment_json) + "}"),
                             event(1, "assay.run.input", R"j({"input":"plain"})j"),
                             event(2, "assay.run.seed", R"j({"seed":null})j"),
                             event(3, "vendor.other", R"j({"x":1})j"),
                         }),
                         packs);
  CHECK(state_of(c, "run_inputs") == closure::signal_state::captured);
  CHECK(c.report.find(
            R"j("reason":"found at events.ndjson line 2 (assay.run.input, /data/input)","status":"captured")j") !=
        std::string::npos);
  CHECK(c.report.find("commitment") == std::string::npos);
  CHECK(state_of(c, "rng_seeds") == closure::signal_state::missing);
  // vendor.other matches model_identity's "*" place but says nothing of a model: unknown.
  CHECK(state_of(c, "model_identity") == closure::signal_state::unknown);

  // Not a commitment: an object with other members, or another alg, is a captured value.
  const computed odd =
      run(bundle_of({event(0, "assay.run.input", R"j({"input":{"alg":"md5","digest":"sha256:00","size_bytes":1}})j")}),
          packs);
  CHECK(state_of(odd, "run_inputs") == closure::signal_state::captured);
}

TEST_CASE("closure: a nondeterministic tool named by its commitment, listed once") {
  const std::string tool_commitment = std::string(commitment_json);
  const computed c =
      run(bundle_of({
              event(0, "assay.tool.call", R"j({"tool":"fetch","nondeterministic":true})j"),
              event(1, "assay.tool.call", R"j({"tool":"fetch","nondeterministic":true})j"),
              event(2, "assay.tool.call", R"j({"tool":)j" + tool_commitment + R"j(,"nondeterministic":true})j"),
              event(3, "assay.tool.call", R"j({"tool":"clock","nondeterministic":"yes"})j"),  // not true: not listed
          }),
          {});
  CHECK(c.report.find(R"j("uncontrolled_dependencies":["tool:fetch","tool:sha256:)j" + std::string(64, '0') + "\"]") !=
        std::string::npos);
}

TEST_CASE("closure: a signal the caller registered, required by a pack") {
  auto reg = lint::signal_registry::v0();
  reg.add({.name = "ticket_refs", .found_in = {{"acme.ticket.*", {"/data/ticket"}}}});
  const std::vector<lint::loaded_pack> packs{signals_pack(R"j(["ticket_refs"])j", &reg)};
  const computed found = run(bundle_of({event(0, "acme.ticket.linked", R"j({"ticket":"T-1"})j")}), packs, reg);
  CHECK(state_of(found, "ticket_refs") == closure::signal_state::captured);
  CHECK(found.report.find(R"j("captured":["ticket_refs"])j") != std::string::npos);
  const computed absent = run(bundle_of({event(0, "acme.ticket.closed", R"j({"id":"T-1"})j")}), packs, reg);
  CHECK(state_of(absent, "ticket_refs") == closure::signal_state::missing);
  CHECK(absent.report.find(R"j("unknown":["ticket_refs"])j") != std::string::npos);
}

TEST_CASE("closure beside the linter: one pass feeds both") {
  const std::vector<lint::loaded_pack> packs{signals_pack(R"j(["tool_calls"])j")};
  closure::observer c(packs);
  auto l = lint::linter::create(packs);
  REQUIRE(l.has_value());
  auto v = assay::evidence::verify_bundle_bytes(bundle_of(mixed_events()), {}, *l, c);
  REQUIRE(v.has_value());
  CHECK(l->take().event_count == 7);
  CHECK(c.not_captured(packs[0]).empty());
  const std::vector<lint::loaded_pack> more{signals_pack(R"j(["tool_calls","rng_seeds","policy_decisions"])j")};
  closure::observer c2(more);
  REQUIRE(assay::evidence::verify_bundle_bytes(bundle_of(mixed_events()), {}, c2).has_value());
  CHECK(c2.not_captured(more[0]) == std::vector<std::string>{"rng_seeds (missing)", "policy_decisions (unknown)"});
}

TEST_CASE("closure: the reference's network and process event types are dependencies too") {
  // The reference's profile mapping writes assay.net.connect and assay.process.exec, the host:port
  // or the program in the subject (as in its own test bundle).
  std::vector<json::value> events{
      event(0, "assay.net.connect", R"j({"subject":"api.example.com:443"})j"),
      event(1, "assay.process.exec", R"j({"subject":"echo"})j"),
      event(2, "assay.net.access", R"j({"hits":1})j"),
      event(3, "assay.net.connect", R"j({})j"),
  };
  events[0].set("subject", "api.example.com:443");
  events[1].set("subject", "echo");
  events[2].set("subject", "api.example.com:443");
  const computed c = run(bundle_of(std::move(events)), {});
  CHECK(c.report.find(R"j("uncontrolled_dependencies":["network:(no subject)","network:api.example.com:443",)j"
                      R"j("process:echo"])j") != std::string::npos);
  CHECK(c.report.find(R"j("confidence":"low")j") != std::string::npos);
}

TEST_CASE("closure: the reference's own test bundle shows its connect and exec as dependencies" *
          doctest::test_suite("conformance")) {
  const auto bytes = assay_test::read_file(assay_test::conformance_dir() / "assay-upstream/bundles/test-bundle.tar.gz");
  const computed c = run(bytes, {});
  CHECK(c.report.find(R"j("uncontrolled_dependencies":["network:api.example.com:443","process:echo"])j") !=
        std::string::npos);
}

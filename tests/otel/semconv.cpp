// The OpenTelemetry export against the semantic-conventions registry it names (SPEC §16,
// "Pinned"): the YAML model of the release in schemaUrl, read here with the project's YAML reader
// (assay::lint::read_yaml_pack), gives every attribute's type, enum members and deprecation, the
// namespaces the registry owns, and the span definitions with their required attributes, kind and
// name rule. A bundle with every mapped event type (and every operation and provider the registry
// lists) is exported and every span, span event and resource attribute checked against it. A
// problem names the span, the attribute and what is wrong.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/otel/exporter.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace json = assay::json;
namespace otel = assay::otel;
using assay::lint::pack_node;
using assay_test::event;

namespace {

// The release of the registry in the conformance data (its README says so), which the export pins.
constexpr std::string_view release = "1.41.1";

// --- the registry ------------------------------------------------------------------------------

struct enum_member {
  std::string value;
  bool is_int = false;
  bool deprecated = false;
};

struct attribute_def {
  std::string type;  // string, int, double, boolean, string[], ..., any, template[...], or "enum"
  std::vector<enum_member> members;
  bool open = true;  // an enum without allow_custom_values: false takes other values too
  bool deprecated = false;
  std::string file;
};

struct attribute_ref {
  std::string id, level;  // level: "" when the group does not say
};

struct group_def {
  std::string id, type, extends, span_kind, text, file;  // text: brief and note, spaces collapsed
  std::vector<attribute_ref> attributes;
};

struct registry {
  std::map<std::string, attribute_def> attributes;
  std::map<std::string, group_def> groups;
  std::set<std::string> namespaces;  // the first component of every attribute the registry defines
  std::size_t files = 0;
};

const std::string* scalar(const pack_node* n) {
  return n != nullptr && n->is_scalar() ? &n->text : nullptr;
}

std::string collapse(std::string_view s) {
  std::string out;
  for (char c : s) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  return out;
}

bool integer_text(const std::string& s) {
  const std::size_t start = !s.empty() && s[0] == '-' ? 1 : 0;
  return s.size() > start && s.find_first_not_of("0123456789", start) == std::string::npos;
}

void read_group(registry& r, const pack_node& g, const std::string& file) {
  group_def d;
  d.file = file;
  const std::string* id = scalar(g.find("id"));
  REQUIRE_MESSAGE(id != nullptr, file << ": a group without an id");
  d.id = *id;
  for (auto [member, out] : {std::pair{"type", &d.type}, {"extends", &d.extends}, {"span_kind", &d.span_kind}})
    if (const std::string* v = scalar(g.find(member)))
      *out = *v;
  for (const char* member : {"brief", "note"})
    if (const std::string* v = scalar(g.find(member)))
      d.text += collapse(*v) + " ";
  if (const pack_node* attrs = g.find("attributes"); attrs != nullptr && attrs->is_sequence()) {
    for (const pack_node& a : attrs->items) {
      attribute_ref ref;
      const std::string* def = scalar(a.find("id"));
      const std::string* use = scalar(a.find("ref"));
      REQUIRE_MESSAGE((def != nullptr || use != nullptr),
                      file << ": group " << d.id << ": an attribute with no id or ref");
      ref.id = def != nullptr ? *def : *use;
      if (const pack_node* level = a.find("requirement_level")) {
        if (level->is_scalar())
          ref.level = level->text;
        else if (level->is_mapping() && !level->keys.empty())
          ref.level = level->keys.front();
      }
      d.attributes.push_back(ref);
      if (def == nullptr)
        continue;
      attribute_def ad;
      ad.file = file;
      ad.deprecated = a.find("deprecated") != nullptr;
      const pack_node* type = a.find("type");
      REQUIRE_MESSAGE(type != nullptr, file << ": attribute " << *def << " has no type");
      if (type->is_scalar()) {
        ad.type = type->text;
      } else {
        const pack_node* members = type->find("members");
        REQUIRE_MESSAGE((members != nullptr && members->is_sequence()),
                        file << ": attribute " << *def << ": a type that is neither a name nor members");
        ad.type = "enum";
        if (const std::string* custom = scalar(type->find("allow_custom_values")))
          ad.open = *custom != "false";
        for (const pack_node& m : members->items) {
          const pack_node* value = m.find("value");
          REQUIRE_MESSAGE((value != nullptr && value->is_scalar()),
                          file << ": " << *def << ": a member without a value");
          ad.members.push_back(
              {value->text, value->plain && integer_text(value->text), m.find("deprecated") != nullptr});
        }
      }
      r.namespaces.insert(def->substr(0, def->find('.')));
      REQUIRE_MESSAGE(r.attributes.emplace(*def, ad).second, file << ": attribute " << *def << " defined twice");
    }
  }
  REQUIRE_MESSAGE(r.groups.emplace(d.id, d).second, file << ": group " << d.id << " defined twice");
}

registry load_registry(const fs::path& model) {
  registry r;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(model))
    if (entry.is_regular_file() && (entry.path().extension() == ".yaml" || entry.path().extension() == ".yml"))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  assay::lint::yaml_limits limits;  // the defaults hold the largest file (nodes, depth, members)
  for (const auto& f : files) {
    const std::string name = fs::relative(f, model).generic_string();
    const std::string text = assay_test::read_file(f);
    auto doc = assay::lint::read_yaml_pack(text, limits);
    REQUIRE_MESSAGE(doc.has_value(), name << ": " << (doc ? std::string() : doc.error().format()));
    ++r.files;
    const pack_node* groups = doc->find("groups");
    if (groups == nullptr)
      continue;
    REQUIRE_MESSAGE(groups->is_sequence(), name << ": groups is not a sequence");
    for (const pack_node& g : groups->items)
      read_group(r, g, name);
  }
  return r;
}

// The requirement level of each attribute of a group, its `extends` chain resolved (a group
// overrides what it extends).
std::map<std::string, std::string> levels(const registry& r, const std::string& id, int depth = 0) {
  const auto it = r.groups.find(id);
  REQUIRE_MESSAGE(it != r.groups.end(), "no group " << id << " in the registry");
  REQUIRE(depth < 32);
  std::map<std::string, std::string> out;
  if (!it->second.extends.empty())
    out = levels(r, it->second.extends, depth + 1);
  for (const auto& a : it->second.attributes)
    if (!a.level.empty() || !out.contains(a.id))
      out[a.id] = a.level.empty() ? "recommended" : a.level;
  return out;
}

std::vector<std::string> required(const registry& r, const std::string& id) {
  std::vector<std::string> out;
  for (const auto& [attr, level] : levels(r, id))
    if (level == "required")
      out.push_back(attr);
  return out;
}

// The span name a definition prescribes ("**Span name** SHOULD be `...`"), "" when it has none.
std::string name_rule(const group_def& g) {
  const std::size_t at = g.text.find("**Span name** SHOULD be");
  if (at == std::string::npos)
    return {};
  const std::size_t open = g.text.find('`', at);
  const std::size_t close = open == std::string::npos ? open : g.text.find('`', open + 1);
  return close == std::string::npos ? std::string() : g.text.substr(open + 1, close - open - 1);
}

int kind_number(const std::string& kind) {
  static const std::map<std::string, int> kinds = {
      {"internal", 1}, {"server", 2}, {"client", 3}, {"producer", 4}, {"consumer", 5}};
  const auto it = kinds.find(kind);
  return it == kinds.end() ? 0 : it->second;
}

// --- the check ---------------------------------------------------------------------------------

// Attributes whose value the exporter copies from the event: an open enum's other values are the
// event's, which the conventions allow. Every other enum value is the exporter's own and must be
// a member.
const std::set<std::string> copied_from_event = {"gen_ai.provider.name", "gen_ai.operation.name"};

struct checker {
  explicit checker(const registry& r) : reg(r) {}
  const registry& reg;
  std::vector<std::string> problems;
  std::size_t attributes_checked = 0, genai_spans = 0, mcp_spans = 0;
  std::set<std::string> definitions_used;

  void problem(const std::string& where, const std::string& what) { problems.push_back(where + ": " + what); }

  static std::string value_kind(const json::value& v) {
    return v.is_object() && v.as_object().size() == 1 ? v.as_object().front().name : std::string("(malformed)");
  }

  // The definition of `key`: itself, or a template attribute it is a member of.
  const attribute_def* definition(const std::string& key) const {
    if (const auto it = reg.attributes.find(key); it != reg.attributes.end())
      return &it->second;
    for (const auto& [id, d] : reg.attributes)
      if (d.type.starts_with("template[") && key.starts_with(id + "."))
        return &d;
    return nullptr;
  }

  void type_check(const std::string& where, const std::string& key, const attribute_def& d, const json::value& v) {
    static const std::map<std::string, std::string> kinds = {
        {"string", "stringValue"}, {"int", "intValue"}, {"double", "doubleValue"}, {"boolean", "boolValue"}};
    std::string type = d.type;
    if (type.starts_with("template[") && type.ends_with("]"))
      type = type.substr(9, type.size() - 10);
    const std::string got = value_kind(v);
    if (type == "any")
      return;
    if (type == "enum") {
      const bool ints = !d.members.empty() &&
                        std::all_of(d.members.begin(), d.members.end(), [](const enum_member& m) { return m.is_int; });
      const std::string want = ints ? "intValue" : "stringValue";
      if (got != want) {
        problem(where, "attribute " + key + ": " + got + ", but the registry's enum has " + want + " members");
        return;
      }
      const std::string value = v.find(want)->as_string();
      bool member = false, live = false;
      std::string list;
      for (const auto& m : d.members) {
        list += (list.empty() ? "" : ", ") + m.value;
        if (m.value == value) {
          member = true;
          live = live || !m.deprecated;
        }
      }
      if (member && !live)
        problem(where, "attribute " + key + ": \"" + value + "\" is a deprecated member of its enum");
      else if (!member && !d.open)
        problem(where, "attribute " + key + ": \"" + value + "\" is not a member of its closed enum (" + list + ")");
      else if (!member && !copied_from_event.contains(key))
        problem(where, "attribute " + key + ": \"" + value + "\", set by the exporter, is not a member of its enum (" +
                           list + ")");
      return;
    }
    if (type.ends_with("[]")) {
      const auto it = kinds.find(type.substr(0, type.size() - 2));
      if (got != "arrayValue" || it == kinds.end()) {
        problem(where, "attribute " + key + ": " + got + ", but the registry's type is " + d.type);
        return;
      }
      for (const auto& item : v.find("arrayValue")->find("values")->as_array())
        if (value_kind(item) != it->second)
          problem(where,
                  "attribute " + key + ": an item " + value_kind(item) + ", but the registry's type is " + d.type);
      return;
    }
    const auto it = kinds.find(type);
    if (it == kinds.end())
      problem(where, "attribute " + key + ": the registry's type " + d.type + " is not one this check knows");
    else if (got != it->second)
      problem(where, "attribute " + key + ": " + got + ", but the registry's type is " + d.type);
  }

  void attribute(const std::string& where, const std::string& key, const json::value& v) {
    ++attributes_checked;
    const std::string ns = key.substr(0, key.find('.'));
    if (ns == "assay" && key.size() > 6)
      return;
    if (!reg.namespaces.contains(ns)) {
      problem(where, "attribute " + key + ": neither under assay.* nor in a namespace of the registry");
      return;
    }
    const attribute_def* d = definition(key);
    if (d == nullptr) {
      problem(where, "attribute " + key + ": not defined in semantic conventions " + std::string(release) +
                         ", whose namespace " + ns + ".* it is in");
      return;
    }
    if (d->deprecated)
      problem(where, "attribute " + key + ": deprecated in semantic conventions " + std::string(release) + " (" +
                         d->file + ")");
    type_check(where, key, *d, v);
  }

  // key -> AnyValue, every attribute checked.
  std::map<std::string, json::value> attributes(const std::string& where, const json::value& holder) {
    std::map<std::string, json::value> out;
    const json::value* list = holder.find("attributes");
    if (list == nullptr)
      return out;
    for (const auto& kv : list->as_array()) {
      const std::string& key = kv.find("key")->as_string();
      if (!out.emplace(key, *kv.find("value")).second)
        problem(where, "attribute " + key + ": written twice");
      attribute(where, key, *kv.find("value"));
    }
    return out;
  }

  void requires_of(const std::string& where, const std::string& group, const std::map<std::string, json::value>& a) {
    definitions_used.insert(group);
    for (const auto& r : required(reg, group))
      if (!a.contains(r))
        problem(where, "no " + r + ", which " + group + " requires");
  }

  static std::optional<std::string> string_of(const std::map<std::string, json::value>& a, const std::string& key) {
    const auto it = a.find(key);
    if (it == a.end() || it->second.find("stringValue") == nullptr)
      return std::nullopt;
    return it->second.find("stringValue")->as_string();
  }

  // The span definitions a GenAI span of operation `op` answers to: the one whose text names the
  // operation (of the span's kind, when there are several), else the generic inference span; and
  // for that one, a provider's own definition (span.{provider}.*).
  std::vector<std::string> genai_definitions(const std::string& op, int kind,
                                             const std::optional<std::string>& provider) {
    std::vector<std::string> named, of_kind;
    const std::string says = "`gen_ai.operation.name` SHOULD be `" + op + "`";
    for (const auto& [id, g] : reg.groups)
      if (g.type == "span" && id.starts_with("span.gen_ai.") && g.text.find(says) != std::string::npos) {
        named.push_back(id);
        if (kind_number(g.span_kind) == kind)
          of_kind.push_back(id);
      }
    if (named.empty()) {
      std::vector<std::string> out = {"span.gen_ai.inference.client"};
      REQUIRE(reg.groups.contains(out.front()));
      if (provider)
        for (const auto& [id, g] : reg.groups)
          if (g.type == "span" && id.starts_with("span." + *provider + "."))
            out.push_back(id);
      return out;
    }
    return of_kind.empty() ? named : of_kind;  // a kind none has: each definition says so
  }

  static std::string expected_name(const std::string& rule, const std::map<std::string, json::value>& a) {
    std::string out;
    for (std::size_t i = 0; i < rule.size();) {
      if (rule[i] == '{') {
        const std::size_t close = rule.find('}', i);
        out += string_of(a, rule.substr(i + 1, close - i - 1)).value_or("");
        i = close + 1;
      } else {
        out += rule[i++];
      }
    }
    return collapse(out).substr(0, collapse(out).find_last_not_of(' ') + 1);
  }

  void span(const json::value& s) {
    const std::string name = s.find("name")->as_string();
    const int kind = static_cast<int>(s.find("kind")->as_number());
    std::string where = "span \"" + name + "\"";
    if (const json::value* list = s.find("attributes"))
      for (const auto& kv : list->as_array())
        if (kv.find("key")->as_string() == "assay.event.id")
          where += " (event " + kv.find("value")->find("stringValue")->as_string() + ")";
    const auto a = attributes(where, s);
    conventions(where, a);
    const bool genai = std::any_of(a.begin(), a.end(), [](const auto& kv) { return kv.first.starts_with("gen_ai."); });
    if (genai) {
      ++genai_spans;
      const auto op = string_of(a, "gen_ai.operation.name");
      if (!op) {
        problem(where,
                "a GenAI span (it has gen_ai.* attributes) without gen_ai.operation.name, which every GenAI "
                "span definition requires");
      } else {
        for (const std::string& def : genai_definitions(*op, kind, string_of(a, "gen_ai.provider.name"))) {
          const group_def& g = reg.groups.at(def);
          requires_of(where, def, a);
          if (kind_number(g.span_kind) != kind)
            problem(where, "kind " + std::to_string(kind) + ", but " + def + " is " + g.span_kind + " (" +
                               std::to_string(kind_number(g.span_kind)) + ")");
          if (const std::string rule = name_rule(g); !rule.empty() && expected_name(rule, a) != name)
            problem(where, "named \"" + name + "\", but " + def + " names it \"" + expected_name(rule, a) + "\" (`" +
                               rule + "`)");
        }
      }
    }
    if (const json::value* events = s.find("events"))
      for (const auto& ev : events->as_array()) {
        const std::string ew = where + ", span event \"" + ev.find("name")->as_string() + "\"";
        conventions(ew, attributes(ew, ev));
      }
  }

  // The attribute groups that apply whenever one of their namespaces is written: MCP's on a tool
  // execution span that an MCP call adds to (its kind stays INTERNAL, as the MCP conventions say
  // for a call another instrumentation already traces), CloudEvents'.
  void conventions(const std::string& where, const std::map<std::string, json::value>& a) {
    const auto any = [&](std::string_view prefix) {
      return std::any_of(a.begin(), a.end(), [&](const auto& kv) { return kv.first.starts_with(prefix); });
    };
    if (any("mcp.")) {
      ++mcp_spans;
      requires_of(where, "trace.mcp.common.attributes", a);
    }
    if (any("cloudevents."))
      requires_of(where, "cloudevents", a);
  }

  void resource(const json::value& res) {
    const auto a = attributes("resource", res);
    for (const auto& [id, g] : reg.groups) {
      if (g.type != "entity")
        continue;
      const bool used = std::any_of(g.attributes.begin(), g.attributes.end(),
                                    [&](const attribute_ref& r) { return a.contains(r.id); });
      if (used)
        requires_of("resource", id, a);
    }
  }

  // Every line of an export: its schemaUrls, resource and spans.
  void lines(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t nl = text.find('\n', at);
      REQUIRE(nl != std::string::npos);
      const auto td = json::parse(std::string_view(text).substr(at, nl - at)).value();
      at = nl + 1;
      for (const auto& rs : td.find("resourceSpans")->as_array()) {
        CHECK(rs.find("schemaUrl")->as_string() == "https://opentelemetry.io/schemas/1.41.1");
        resource(*rs.find("resource"));
        for (const auto& ss : rs.find("scopeSpans")->as_array()) {
          CHECK(ss.find("schemaUrl")->as_string() == "https://opentelemetry.io/schemas/1.41.1");
          for (const auto& s : ss.find("spans")->as_array())
            span(s);
        }
      }
    }
  }
};

std::string report(const std::vector<std::string>& problems) {
  std::string out;
  for (const auto& p : problems)
    out += "\n  " + p;
  return out;
}

fs::path model_dir() {
  const auto dir = assay_test::conformance_dir();
  if (dir.empty())
    return {};
  const fs::path model = dir / "otel-semconv" / "model";
  REQUIRE_MESSAGE(fs::is_directory(model), "no semantic-conventions registry at " << model.string());
  return model;
}

// --- the bundle --------------------------------------------------------------------------------

const std::string commitment = R"({"alg":"sha256","digest":"sha256:0123","size_bytes":12})";

// Every mapped event type, each way the mapping can take it, and a model invocation for every
// operation and every provider the registry's enums list.
std::vector<json::value> rich_events(const registry& reg) {
  std::vector<std::string> specs = {
      R"(assay.profile.started|{"profile_name":"ci","profile_version":"3","total_runs_aggregated":2})",
      R"(assay.tool.decision|{"tool":"read_file","decision":"allow","reason_code":"policy.allow",)"
      R"("tool_definition_source":"mcp.tools/list","tool_definition_digest":"sha256:ab"})",
      R"(assay.tool.decision|{"tool":"shell","decision":"deny","reason_code":"policy.deny"})",
      R"(assay.tool.call|{"tool":"read_file","call_id":"c-1","arguments":{"path":"a.txt","n":[1,2]},)"
      R"("result":{"text":"hello","ok":true},"nondeterministic":false})",
      R"(assay.tool.call|{"tool":"shell","call_id":"c-2","arguments":"ls","result":null,"error":"exit 2"})",
      R"(assay.tool.call|{"tool":)" + commitment + R"(,"call_id":)" + commitment + R"(,"arguments":)" + commitment +
          "}",
      R"(assay.tool.call|{"tool":"","call_id":7})",
      R"(assay.tool.call|{"call_id":"c-3"})",
      R"(assay.model.invoked|{"model":"gpt-4o","provider":"openai","operation":"chat","usage":{"input_tokens":3}})",
      R"(assay.model.invoked|{"model":"m-1"})",
      R"(assay.model.invoked|{"model":"m-2","provider":"anthropic"})",
      R"(assay.model.invoked|{"model":"m-3","operation":"chat"})",
      R"(assay.model.invoked|{"model":)" + commitment + R"(,"provider":"anthropic","operation":"chat"})",
      R"(assay.model.invoked|{"model":)" + commitment + R"(,"provider":"openai","operation":"chat"})",
      R"(assay.model.invoked|{"model":"m-4","provider":)" + commitment + R"(,"operation":)" + commitment + "}",
      R"(assay.model.invoked|{"model":"m-5","provider":"acme","operation":"complete"})",
      R"(assay.model.invoked|{"model":7,"provider":"cohere","operation":"chat"})",
      R"(vendor.thing|{"a":1})",
  };
  for (const auto& m : reg.attributes.at("gen_ai.operation.name").members)
    specs.push_back(R"(assay.model.invoked|{"model":"m-op","provider":"openai","operation":")" + m.value + "\"}");
  for (const auto& m : reg.attributes.at("gen_ai.provider.name").members)
    specs.push_back(R"(assay.model.invoked|{"model":"m-p","operation":"chat","provider":")" + m.value + "\"}");
  specs.push_back(R"(assay.profile.finished|{"files_count":1,"network_count":0,"processes_count":2})");
  std::vector<json::value> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const std::size_t bar = specs[i].find('|');
    json::value e = event(i, specs[i].substr(0, bar), specs[i].substr(bar + 1));
    e.set("time", "2026-01-02T03:04:05." + std::to_string(100 + i) + "Z");
    if (i % 3 == 1)
      e.set("subject", "s-" + std::to_string(i));
    if (i == 4)
      e.set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    out.push_back(std::move(e));
  }
  return out;
}

otel::export_output export_bundle(const std::string& bytes, otel::export_options o) {
  otel::bundle_exporter x(o);
  auto v = assay::evidence::verify_bundle_bytes(bytes, {}, x);
  REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
  return x.finish();
}

}  // namespace

TEST_CASE("the export writes only what semantic conventions 1.41.1 define, as they define it" *
          doctest::test_suite("conformance")) {
  const fs::path model = model_dir();
  if (model.empty())
    return;
  CHECK(otel::semconv_version == "1.41.1");
  CHECK(otel::schema_url == "https://opentelemetry.io/schemas/1.41.1");
  const registry reg = load_registry(model);
  // The registry was read, not skipped: its files, the namespaces the export writes in, and the
  // definitions the check relies on.
  CHECK(reg.files >= 200);
  for (const char* ns : {"gen_ai", "mcp", "cloudevents", "service", "error", "server"})
    CHECK_MESSAGE(reg.namespaces.contains(ns), ns);
  CHECK_FALSE(reg.namespaces.contains("assay"));
  CHECK(reg.attributes.at("gen_ai.tool.call.arguments").type == "any");
  CHECK(reg.attributes.at("gen_ai.system").deprecated);
  CHECK(reg.attributes.at("gen_ai.operation.name").members.size() >= 9);
  CHECK(required(reg, "span.gen_ai.execute_tool.internal") ==
        std::vector<std::string>{"gen_ai.operation.name", "gen_ai.tool.name"});
  CHECK(required(reg, "span.gen_ai.inference.client") ==
        std::vector<std::string>{"gen_ai.operation.name", "gen_ai.provider.name"});
  CHECK(name_rule(reg.groups.at("span.gen_ai.execute_tool.internal")) == "execute_tool {gen_ai.tool.name}");

  const auto events = rich_events(reg);
  const std::string lines = assay_test::lines_of(events);
  const std::string bundle = assay_test::bundle(lines);
  for (const bool sensitive : {false, true}) {
    CAPTURE(sensitive);
    const auto out = export_bundle(bundle, {.spans_per_line = 7, .include_sensitive = sensitive});
    checker c(reg);
    c.lines(out.lines);
    CHECK_MESSAGE(c.problems.empty(), c.problems.size() << " problem(s) against semantic conventions " << release << ":"
                                                        << report(c.problems));
    // Every kind of span was there to be checked.
    CHECK(c.genai_spans >= 20);
    CHECK(c.mcp_spans == 2);  // read_file's decision and call
    for (const char* def :
         {"span.gen_ai.execute_tool.internal", "span.gen_ai.inference.client", "span.openai.inference.client",
          "span.gen_ai.embeddings.client", "trace.mcp.common.attributes", "cloudevents", "entity.service"})
      CHECK_MESSAGE(c.definitions_used.contains(def), def);
    // Nothing by guess: each model invocation or tool event without what its span definition needs
    // is in the report, once.
    std::set<std::string> refused;
    for (const auto& d : out.report.mapping_loss.dropped_attributes)
      if (d.reason.find("it is not guessed") != std::string::npos)
        CHECK_MESSAGE(refused.insert(d.event_id).second, std::string(d.event_id));
    CHECK(refused.size() >= 10);
    CHECK(out.report.semconv_version == "1.41.1");
  }

  // The library API, events without a CloudEvents source.
  otel::exporter x({"runtime", "2.0", std::nullopt});
  REQUIRE(x.add(R"({"type":"assay.model.invoked","id":"r:0","time":"2026-01-01T00:00:00Z","assayrunid":"r",)"
                R"("assaycontenthash":"sha256:00","specversion":"1.0","subject":"s",)"
                R"("data":{"model":"m","provider":"openai","operation":"chat"}})")
              .has_value());
  checker c(reg);
  c.lines(x.finish().lines);
  CHECK_MESSAGE(c.problems.empty(), report(c.problems));
  CHECK(c.genai_spans == 1);
}

TEST_CASE("the check fails, naming the span, the attribute and the fault" * doctest::test_suite("conformance")) {
  const fs::path model = model_dir();
  if (model.empty())
    return;
  const registry reg = load_registry(model);
  // What the export wrote when it named 1.37.0: a redacted model under gen_ai.request.model.*, an
  // inference span with no operation, a deprecated attribute, wrong types, a wrong kind and name.
  const auto td =
      json::parse(
          R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.version","value":{"stringValue":"1"}}]},)"
          R"("schemaUrl":"https://opentelemetry.io/schemas/1.41.1","scopeSpans":[{"schemaUrl":)"
          R"("https://opentelemetry.io/schemas/1.41.1","spans":[)"
          R"({"name":"m","kind":3,"attributes":[)"
          R"({"key":"assay.event.id","value":{"stringValue":"r:1"}},)"
          R"({"key":"gen_ai.request.model.alg","value":{"stringValue":"sha256"}},)"
          R"({"key":"gen_ai.system","value":{"stringValue":"openai"}},)"
          R"({"key":"cloudevents.event_type","value":{"stringValue":"assay.model.invoked"}},)"
          R"({"key":"vendor.x","value":{"intValue":"1"}}]},)"
          R"({"name":"call t","kind":3,"attributes":[)"
          R"({"key":"assay.event.id","value":{"stringValue":"r:2"}},)"
          R"({"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},)"
          R"({"key":"gen_ai.tool.name","value":{"intValue":"5"}},)"
          R"({"key":"mcp.method.name","value":{"stringValue":"tools/run"}}]}]}]}]})")
          .value();
  checker c(reg);
  c.lines(json::to_canonical(td).value() + "\n");
  CHECK(
      report(c.problems) ==
      report({
          "resource: no service.name, which entity.service requires",
          R"(span "m" (event r:1): attribute gen_ai.request.model.alg: not defined in semantic conventions 1.41.1, )"
          R"(whose namespace gen_ai.* it is in)",
          R"(span "m" (event r:1): attribute gen_ai.system: deprecated in semantic conventions 1.41.1 )"
          R"((gen-ai/deprecated/registry-deprecated.yaml))",
          R"(span "m" (event r:1): attribute vendor.x: neither under assay.* nor in a namespace of the registry)",
          R"(span "m" (event r:1): no cloudevents.event_id, which cloudevents requires)",
          R"(span "m" (event r:1): no cloudevents.event_source, which cloudevents requires)",
          R"(span "m" (event r:1): a GenAI span (it has gen_ai.* attributes) without gen_ai.operation.name, which )"
          R"(every GenAI span definition requires)",
          R"(span "call t" (event r:2): attribute gen_ai.tool.name: intValue, but the registry's type is string)",
          R"(span "call t" (event r:2): attribute mcp.method.name: "tools/run", set by the exporter, is not a member )"
          R"(of its enum (notifications/cancelled, initialize, notifications/initialized, notifications/progress, )"
          R"(ping, resources/list, resources/templates/list, resources/read, notifications/resources/list_changed, )"
          R"(resources/subscribe, resources/unsubscribe, notifications/resources/updated, prompts/list, prompts/get, )"
          R"(notifications/prompts/list_changed, tools/list, tools/call, notifications/tools/list_changed, )"
          R"(logging/setLevel, notifications/message, sampling/createMessage, completion/complete, roots/list, )"
          R"(notifications/roots/list_changed, elicitation/create))",
          R"(span "call t" (event r:2): kind 3, but span.gen_ai.execute_tool.internal is internal (1))",
          R"(span "call t" (event r:2): named "call t", but span.gen_ai.execute_tool.internal names it )"
          R"("execute_tool" (`execute_tool {gen_ai.tool.name}`))",
      }));
}

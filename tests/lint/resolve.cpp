// Resolution of --pack values (SPEC §10): paths, directories, built-ins, the config directory
// ($XDG_CONFIG_HOME, else ~/.config) without escape through symlinks, comma lists, the default
// pack and the not-found message with its suggestion. Every case runs in a temporary directory
// with XDG_CONFIG_HOME and HOME pointed into it.
#include "support.hpp"

#include "assay/lint/resolve.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
namespace lint = assay::lint;

namespace {

const std::string pack_json = R"({"name":"NAME","version":"1.0.0","kind":"quality","description":"d","author":"a",)"
                              R"("license":"l","requires":{"assay_min_version":"1.0"},"rules":[]})";

std::string pack_named(std::string_view name) {
  std::string s = pack_json;
  return s.replace(s.find("NAME"), 4, name);
}

void write(const fs::path& p, const std::string& text) {
  if (p.has_parent_path())
    fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A scratch directory, the working directory while it lives; XDG_CONFIG_HOME and HOME are set
// into it (restored afterwards).
class sandbox {
 public:
  sandbox() {
    root_ = fs::temp_directory_path() /
            ("assay-lint-resolve-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(root_);
    fs::create_directories(root_ / "work");
    old_cwd_ = fs::current_path();
    fs::current_path(root_ / "work");
    save("XDG_CONFIG_HOME", old_xdg_);
    save("HOME", old_home_);
    ::setenv("XDG_CONFIG_HOME", (root_ / "xdg").c_str(), 1);
    ::setenv("HOME", (root_ / "home").c_str(), 1);
  }
  ~sandbox() {
    fs::current_path(old_cwd_);
    restore("XDG_CONFIG_HOME", old_xdg_);
    restore("HOME", old_home_);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const fs::path& root() const { return root_; }
  fs::path xdg_packs() const { return root_ / "xdg" / "assay" / "packs"; }
  fs::path home_packs() const { return root_ / "home" / ".config" / "assay" / "packs"; }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  static void save(const char* name, std::optional<std::string>& out) {
    if (const char* v = std::getenv(name))
      out = v;
  }
  static void restore(const char* name, const std::optional<std::string>& v) {
    if (v)
      ::setenv(name, v->c_str(), 1);
    else
      ::unsetenv(name);
  }
  fs::path root_, old_cwd_;
  std::optional<std::string> old_xdg_, old_home_;
};

lint::loaded_pack resolves(std::string_view ref) {
  auto p = lint::load_pack_ref(ref);
  REQUIRE_MESSAGE(p.has_value(), ref << ": " << p.error().format());
  return std::move(*p);
}

// The (first) error's message.
std::string refused(std::string_view ref) {
  auto p = lint::load_pack_ref(ref);
  REQUIRE_MESSAGE(!p.has_value(), ref << " resolved");
  const assay::error e = p.error().front();
  return e.source.empty() ? e.message : e.source + ": " + e.message;  // a pack's file, then the reason
}

const std::string builtins = "built-in packs: cicd-starter, replay-readiness";

}  // namespace

TEST_CASE("an existing path wins: a file, or a directory's pack.yaml") {
  sandbox s;
  write("mine.json", pack_named("mine"));
  const lint::loaded_pack file = resolves("mine.json");
  CHECK(file.definition.name == "mine");
  CHECK(file.source.from == lint::pack_source::origin::file);
  CHECK(file.source.name == "mine.json");
  // A file named like a built-in is taken before the built-in.
  write("cicd-starter", pack_named("shadow"));
  CHECK(resolves("cicd-starter").definition.name == "shadow");
  fs::remove("cicd-starter");
  CHECK(resolves("cicd-starter").source.from == lint::pack_source::origin::built_in);

  write("dir/pack.yaml", pack_named("in-dir"));
  const lint::loaded_pack dir = resolves("dir");
  CHECK(dir.definition.name == "in-dir");
  CHECK(dir.source.name == (fs::path("dir") / "pack.yaml").string());
  fs::create_directories("empty");
  CHECK(refused("empty") == "pack directory \"empty\" has no pack.yaml");
  // A load error names the file.
  write("broken.json", "{\"name\":\"x\"}");
  CHECK(refused("broken.json") == "broken.json: required member \"version\" is missing");
}

TEST_CASE("the config directory: XDG_CONFIG_HOME, else ~/.config; <name>.yaml, else <name>/pack.yaml") {
  sandbox s;
  REQUIRE(lint::pack_config_dir() == s.xdg_packs());
  write(s.xdg_packs() / "team-a.yaml", pack_named("team-a"));
  write(s.xdg_packs() / "team-b" / "pack.yaml", pack_named("team-b"));
  const lint::loaded_pack a = resolves("team-a");
  CHECK(a.definition.name == "team-a");
  CHECK(a.source.name == (s.xdg_packs() / "team-a.yaml").string());
  CHECK(resolves("team-b").source.name == (s.xdg_packs() / "team-b" / "pack.yaml").string());
  // <name>.yaml comes first.
  write(s.xdg_packs() / "team-a" / "pack.yaml", pack_named("other"));
  CHECK(resolves("team-a").definition.name == "team-a");
  // Built-ins come before the config directory.
  write(s.xdg_packs() / "replay-readiness.yaml", pack_named("not-the-builtin"));
  CHECK(resolves("replay-readiness").source.from == lint::pack_source::origin::built_in);

  // An empty XDG_CONFIG_HOME means ~/.config.
  ::setenv("XDG_CONFIG_HOME", "", 1);
  REQUIRE(lint::pack_config_dir() == s.home_packs());
  write(s.home_packs() / "home-pack.yaml", pack_named("home-pack"));
  CHECK(resolves("home-pack").definition.name == "home-pack");
  CHECK(refused("team-a").find("not found") != std::string::npos);
  ::unsetenv("XDG_CONFIG_HOME");
  CHECK(resolves("home-pack").definition.name == "home-pack");
  ::unsetenv("HOME");
  CHECK_FALSE(lint::pack_config_dir().has_value());
  CHECK(refused("home-pack") ==
        "pack \"home-pack\" not found: no such file, built-in pack or pack in the config "
        "directory; " +
            builtins);
}

TEST_CASE("a pack in the config directory must not resolve outside it") {
  sandbox s;
  write(s.root() / "outside" / "evil.yaml", pack_named("evil"));
  fs::create_directories(s.xdg_packs());
  fs::create_symlink(s.root() / "outside" / "evil.yaml", s.xdg_packs() / "evil.yaml");
  CHECK(refused("evil") == "pack \"" + (s.xdg_packs() / "evil.yaml").string() +
                               "\" resolves outside the pack directory \"" + s.xdg_packs().string() + "\"");
  // A directory link leads outside just the same.
  fs::create_directory_symlink(s.root() / "outside", s.xdg_packs() / "linked");
  write(s.root() / "outside" / "pack.yaml", pack_named("linked"));
  CHECK(refused("linked").find("resolves outside the pack directory") != std::string::npos);
  // A link that stays inside is followed; the pack is read from where it leads.
  write(s.xdg_packs() / "real" / "x.yaml", pack_named("inside"));
  fs::create_symlink(s.xdg_packs() / "real" / "x.yaml", s.xdg_packs() / "inside.yaml");
  const lint::loaded_pack inside = resolves("inside");
  CHECK(inside.definition.name == "inside");
  CHECK(inside.source.name == (s.xdg_packs() / "inside.yaml").string());
  // The config directory itself may be a link: containment is judged on where it leads.
  fs::remove_all(s.root() / "xdg");
  write(s.root() / "real-config" / "assay" / "packs" / "via-link.yaml", pack_named("via-link"));
  fs::create_directory_symlink(s.root() / "real-config", s.root() / "xdg");
  CHECK(resolves("via-link").definition.name == "via-link");
  // A name that is not a pack name never reaches the config directory.
  write(s.xdg_packs() / "Bad_Name.yaml", pack_named("bad"));
  CHECK(refused("Bad_Name") == "pack \"Bad_Name\" not found: no such file or built-in pack; " + builtins);
}

TEST_CASE("not found: the built-in packs listed, the nearest suggested") {
  sandbox s;
  const std::string where = "no such file, built-in pack or pack in " + s.xdg_packs().string() + "; ";
  CHECK(refused("cicd-startr") ==
        "pack \"cicd-startr\" not found: " + where + builtins + "; did you mean \"cicd-starter\"?");
  CHECK(refused("cicd") == "pack \"cicd\" not found: " + where + builtins + "; did you mean \"cicd-starter\"?");
  CHECK(refused("replay") == "pack \"replay\" not found: " + where + builtins + "; did you mean \"replay-readiness\"?");
  CHECK(refused("replay-readiness-v2") ==
        "pack \"replay-readiness-v2\" not found: " + where + builtins + "; did you mean \"replay-readiness\"?");
  CHECK(refused("soc2-baseline") == "pack \"soc2-baseline\" not found: " + where + builtins);
  CHECK(refused("./missing.yaml") == "pack \"./missing.yaml\" not found: no such file or built-in pack; " + builtins);

  // The one "did you mean" of the library and the CLI (json/nearest.hpp).
  using assay::json::edit_distance;
  CHECK(edit_distance("cicd-starter", "cicd-startr") == 1);
  CHECK(edit_distance("euaiact", "eu-ai-act") == 2);
  CHECK(edit_distance("eu-ai-act", "eu-ai-act-baseline") == 9);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("cicd-strater", "cicd-starter") == 1);  // two neighbours swapped: one edit
  CHECK(edit_distance("ca", "abc") == 3);                     // not a swap and an insertion (OSA, not Damerau)
  const std::vector<std::string> names{"finding-v1", "soak-drift-v1", "soak-report-v1", "verify"};
  CHECK(assay::json::nearest_name("soak-report", names) == std::optional<std::string_view>("soak-report-v1"));
  CHECK(assay::json::nearest_name("finding-v2", names) == std::optional<std::string_view>("finding-v1"));
  CHECK(assay::json::nearest_name("verfy", names) == std::optional<std::string_view>("verify"));
  CHECK_FALSE(assay::json::nearest_name("vrfy", names, 1).has_value());
  CHECK_FALSE(assay::json::nearest_name("lint", names).has_value());
  CHECK_FALSE(assay::json::nearest_name("", names).has_value());
  CHECK(lint::suggest_builtin_pack("cicd-strater") == "cicd-starter");
  CHECK(lint::suggest_builtin_pack("zzz").empty());
  CHECK(lint::suggest_builtin_pack("").empty());
}

TEST_CASE("comma lists, the default pack, and every error at once") {
  sandbox s;
  write("a.json", pack_named("a"));
  write("b.json", pack_named("b"));
  auto names = [](const std::vector<lint::loaded_pack>& packs) {
    std::vector<std::string> out;
    for (const auto& p : packs)
      out.emplace_back(p.definition.name);
    return out;
  };
  auto packs = lint::load_packs(std::vector<std::string>{"a.json,b.json", "cicd-starter"});
  REQUIRE(packs.has_value());
  CHECK(names(*packs) == std::vector<std::string>{"a", "b", "cicd-starter"});
  auto fallback = lint::load_packs({});
  REQUIRE(fallback.has_value());
  CHECK(names(*fallback) == std::vector<std::string>{"cicd-starter"});

  auto split = lint::split_pack_refs(std::vector<std::string>{"a,b", "c"});
  REQUIRE(split.has_value());
  CHECK(*split == std::vector<std::string>{"a", "b", "c"});
  auto empty = lint::split_pack_refs(std::vector<std::string>{"a,,b"});
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().front().message == "empty pack reference in --pack \"a,,b\"");
  CHECK_FALSE(lint::split_pack_refs(std::vector<std::string>{"a,"}).has_value());

  auto both = lint::load_packs(std::vector<std::string>{"nope-1,a.json,nope-2"});
  REQUIRE_FALSE(both.has_value());
  REQUIRE(both.error().size() == 2);
  CHECK(both.error().items[0].message.substr(0, 24) == "pack \"nope-1\" not found:");
  CHECK(both.error().items[1].message.substr(0, 24) == "pack \"nope-2\" not found:");
}

TEST_CASE("pack names") {
  for (const char* ok : {"a", "0", "a-b", "a--b", "cicd-starter", "123-pack"})
    CHECK(lint::is_pack_name(ok));
  for (const char* bad : {"", "-a", "a-", "A", "a_b", "a.b", "a b", "/slash", "é"})
    CHECK_FALSE(lint::is_pack_name(bad));
}

TEST_CASE("without a YAML reader, a YAML file says how to read it") {
  sandbox s;
  write("p.yaml", "name: p\n");
  const std::string m = refused("p.yaml");
  CHECK(m.find("p.yaml: ") == 0);
  CHECK(m.find("(this reads JSON packs only: YAML needs assay/lint/pack_yaml.hpp, yaml_options())") !=
        std::string::npos);
}

TEST_CASE("a folder of packs: each pack file in name order; a directory with pack.yaml is one pack") {
  sandbox s;
  write("packs/b.yaml", pack_named("bee"));  // JSON is YAML: the default reader takes JSON only
  write("packs/a.json", pack_named("ay"));
  write("packs/c.yml", pack_named("see"));
  write("packs/.hidden.json", pack_named("hidden"));
  write("packs/notes.txt", "not a pack");
  fs::create_directories("packs/sub.json");  // a directory named like a pack file is not one
  const std::vector<std::string> folder{"packs"};
  auto all = lint::load_packs(folder);
  REQUIRE_MESSAGE(all.has_value(), (all ? std::string() : all.error().format()));
  std::vector<std::string> names;
  for (const auto& p : *all)
    names.emplace_back(p.definition.name);
  CHECK(names == std::vector<std::string>{"ay", "bee", "see"});
  CHECK((*all)[0].digest == lint::pack_digest((*all)[0].definition));
  // With pack.yaml the directory is that one pack, as before (and as the reference resolves it).
  write("packs/pack.yaml", pack_named("the-one"));
  auto one = lint::load_packs(folder);
  REQUIRE(one.has_value());
  REQUIRE(one->size() == 1);
  CHECK(std::string((*one)[0].definition.name) == "the-one");
  // An empty folder, and a folder with a pack that does not load: errors naming them.
  fs::create_directories("none");
  auto none = lint::load_packs(std::vector<std::string>{"none"});
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().front().message ==
        "pack directory \"none\" has no pack.yaml and no pack files (*.yaml, *.yml, *.json)");
  write("broken/x.json", "{");
  auto broken = lint::load_packs(std::vector<std::string>{"broken"});
  REQUIRE_FALSE(broken.has_value());
  CHECK(broken.error().front().source.find("x.json") != std::string::npos);
  // At most 256 files.
  for (int i = 0; i <= 256; ++i) {
    std::string file = "many/p", name = "p";  // (appended, not "a" + std::string: g++ 12 -O3 -Wrestrict)
    file += std::to_string(1000 + i);
    file += ".json";
    name += std::to_string(i);
    write(file, pack_named(name));
  }
  auto many = lint::load_packs(std::vector<std::string>{"many"});
  REQUIRE_FALSE(many.has_value());
  CHECK(many.error().front().message == "pack folder \"many\" holds more than 256 pack files");
}

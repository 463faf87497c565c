// assay/lint/resolve.hpp — finding the packs a `--pack` value names (docs/packs.md) and loading them.
//
//   auto packs = assay::lint::load_packs(values, assay::lint::yaml_options());   // the CLI's --pack values
//
// A value may be a comma list (`a,b` is `a` then `b`). Each reference is, in this order:
//   1. an existing path: a file, a directory holding pack.yaml, or (load_packs) a folder of pack
//      files, each loaded, in name order;
//   2. a built-in pack by name (builtin_packs.hpp);
//   3. for a valid pack name, <config>/<name>.yaml or <config>/<name>/pack.yaml, where <config> is
//      $XDG_CONFIG_HOME/assay/packs (else ~/.config/assay/packs); a file found there must not
//      resolve, symlinks followed, outside that directory;
//   4. otherwise an error listing the built-in packs and suggesting the nearest name.
// No value at all means the built-in default pack (cicd-starter), never a file that happens to be
// named like it in the working directory.
#pragma once

#include "assay/error.hpp"
#include "assay/json/nearest.hpp"
#include "assay/lint/builtin_packs.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/pack_document.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace assay::lint {

// The pack name grammar: ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$
constexpr bool is_pack_name(std::string_view s) noexcept {
  if (s.empty() || s.front() == '-' || s.back() == '-')
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return false;
  return true;
}

// The directory of the user's packs: $XDG_CONFIG_HOME/assay/packs when XDG_CONFIG_HOME is set and
// not empty, else $HOME/.config/assay/packs; nothing when neither is set.
inline std::optional<std::filesystem::path> pack_config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0')
    return std::filesystem::path(xdg) / "assay" / "packs";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".config" / "assay" / "packs";
  return std::nullopt;
}

// The built-in pack nearest to `ref`: one whose name starts with it (or that it starts with), or
// within edit distance 3; the closest such (the first in name order on a tie). Empty when none.
inline std::string_view suggest_builtin_pack(std::string_view ref) {
  std::vector<std::string_view> names;
  for (const builtin_pack& p : builtin_packs())
    names.push_back(p.name);
  return json::nearest_name(ref, names, 3).value_or(std::string_view());
}

// The references of --pack values: each value split at commas. An empty reference is an error.
inline results<std::vector<std::string>> split_pack_refs(std::span<const std::string> values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = v.find(',', start);
      std::string ref = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (ref.empty())
        return errors(make_error(errc::invalid_argument, "empty pack reference in --pack " + quoted_text(v)));
      out.push_back(std::move(ref));
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  return out;
}

// The largest pack file read (docs/packs.md): 4 MiB.
inline constexpr std::size_t max_pack_file_bytes = std::size_t{4} << 20;

// Loads a pack file (JSON, or YAML with pack_yaml.hpp's reader in `opts`). The file is read as a
// stream, at most max_pack_file_bytes + 1 bytes: a larger one (or /dev/zero) is an error.
template <class = void>
results<loaded_pack> load_pack_file(const std::filesystem::path& path, const pack_options& opts = {},
                                    std::string shown_as = {}) {
  if (shown_as.empty())
    shown_as = path.string();
  std::FILE* in = std::fopen(path.c_str(), "rb");
  std::string text;
  bool failed = in == nullptr;
  if (in != nullptr) {
    std::array<char, 65536> buf;
    while (text.size() <= max_pack_file_bytes) {
      const std::size_t want = std::min(buf.size(), max_pack_file_bytes + 1 - text.size());
      const std::size_t got = std::fread(buf.data(), 1, want, in);
      text.append(buf.data(), got);
      if (got < want)
        break;
    }
    failed = std::ferror(in) != 0;
  }
  if (failed) {
    const std::error_code ec(errno, std::generic_category());
    if (in != nullptr)
      std::fclose(in);
    return errors(make_error(errc::io_error, "cannot read pack file " + quoted_text(shown_as) + ": " + ec.message()));
  }
  std::fclose(in);
  if (text.size() > max_pack_file_bytes)
    return errors(make_error(errc::size_limit, "pack file " + quoted_text(shown_as) + " is larger than 4 MiB (" +
                                                   std::to_string(max_pack_file_bytes) + " bytes)"));
  auto loaded = load_pack(text, pack_source{pack_source::origin::file, shown_as}, opts);
  if (!loaded && opts.reader == nullptr) {
    const std::string ext = path.extension().string();
    if ((ext == ".yaml" || ext == ".yml") && is_syntax_error(loaded.error().front().code)) {
      errors e = std::move(loaded).error();
      e.items.front().message += " (this reads JSON packs only: YAML needs assay/lint/pack_yaml.hpp, yaml_options())";
      return e;
    }
  }
  return loaded;
}

namespace detail {

// True when `inner` is `dir` or lies below it (both already canonical), compared by components.
inline bool within(const std::filesystem::path& dir, const std::filesystem::path& inner) {
  auto d = dir.begin(), i = inner.begin();
  for (; d != dir.end(); ++d, ++i) {
    if (d->empty() && std::next(d) == dir.end())
      break;  // a trailing separator
    if (i == inner.end() || *d != *i)
      return false;
  }
  return true;
}

inline std::string not_found_message(std::string_view ref, const std::optional<std::filesystem::path>& config) {
  std::string names;
  for (const builtin_pack& p : builtin_packs())
    names += (names.empty() ? "" : ", ") + std::string(p.name);
  std::string m = "pack " + quoted_text(ref) + " not found: ";
  if (is_pack_name(ref))
    m += "no such file, built-in pack or pack in " + (config ? config->string() : std::string("the config directory"));
  else
    m += "no such file or built-in pack";
  m += "; built-in packs: " + names;
  if (const std::string_view s = suggest_builtin_pack(ref); !s.empty())
    m += "; did you mean " + quoted_text(s) + "?";
  return m;
}

}  // namespace detail

// A folder of packs (a directory without pack.yaml): its regular files named *.yaml, *.yml or
// *.json, hidden ones left out, in byte order of names; at most max_folder_packs. An entry of
// such a name that is a symbolic link to nothing (dangling) or to itself (a loop) is an error
// naming it (errc::io_error), not left out: a pack the folder was meant to hold is never skipped
// unsaid.
inline constexpr std::size_t max_folder_packs = 256;

// Whether `ref` names a folder of packs: an existing directory without pack.yaml.
inline bool is_pack_folder(std::string_view ref) {
  std::error_code ec;
  const std::filesystem::path dir{std::string(ref)};
  return !ref.empty() && std::filesystem::is_directory(dir, ec) && !std::filesystem::exists(dir / "pack.yaml", ec);
}

// The pack files of the folder `dir` (named `ref` in errors), as above.
inline results<std::vector<std::filesystem::path>> folder_pack_files(const std::filesystem::path& dir,
                                                                     std::string_view ref) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string ext = it->path().extension().string();
    if (name.empty() || name[0] == '.' || (ext != ".yaml" && ext != ".yml" && ext != ".json"))
      continue;
    std::error_code kind;
    if (!it->is_regular_file(kind)) {
      std::error_code link;
      if (it->is_symlink(link)) {
        std::error_code target;
        const auto st = std::filesystem::status(it->path(), target);
        if (target || st.type() == std::filesystem::file_type::not_found) {
          const bool loop = target == std::errc::too_many_symbolic_link_levels;
          return errors(make_error(
              errc::io_error, "pack folder " + quoted_text(ref) + ": " + quoted_text(name) +
                                  (loop ? " is a symbolic link loop" : " is a symbolic link to nothing (dangling)")));
        }
      }
      continue;
    }
    if (files.size() == max_folder_packs)
      return errors(make_error(errc::above_maximum, "pack folder " + quoted_text(ref) + " holds more than " +
                                                        std::to_string(max_folder_packs) + " pack files"));
    files.push_back(it->path());
  }
  if (ec)
    return errors(make_error(errc::io_error, "cannot read pack folder " + quoted_text(ref) + ": " + ec.message()));
  if (files.empty())
    return errors(make_error(errc::io_error, "pack directory " + quoted_text(ref) +
                                                 " has no pack.yaml and no pack files (*.yaml, *.yml, *.json)"));
  std::sort(files.begin(), files.end());
  return files;
}

// Resolves and loads one reference (not a comma list).
template <class = void>
results<loaded_pack> load_pack_ref(std::string_view ref, const pack_options& opts = {}) {
  std::error_code ec;
  const std::filesystem::path path{std::string(ref)};
  if (!ref.empty() && std::filesystem::exists(path, ec)) {
    if (std::filesystem::is_directory(path, ec)) {
      const std::filesystem::path file = path / "pack.yaml";
      if (!std::filesystem::exists(file, ec))
        return errors(make_error(errc::io_error, "pack directory " + quoted_text(ref) + " has no pack.yaml"));
      return load_pack_file(file, opts);
    }
    return load_pack_file(path, opts);
  }
  if (const builtin_pack* b = find_builtin_pack(ref)) {
    pack_options builtin_opts = opts;
    builtin_opts.reader = nullptr;  // built-ins are JSON
    return load_pack(b->text, pack_source{pack_source::origin::built_in, std::string(b->name)}, builtin_opts);
  }
  const std::optional<std::filesystem::path> config = pack_config_dir();
  if (is_pack_name(ref) && config && std::filesystem::is_directory(*config, ec)) {
    const std::filesystem::path root = std::filesystem::canonical(*config, ec);
    if (ec)
      return errors(make_error(errc::io_error,
                               "cannot resolve pack directory " + quoted_text(config->string()) + ": " + ec.message()));
    for (const std::filesystem::path& candidate :
         {*config / (std::string(ref) + ".yaml"), *config / std::string(ref) / "pack.yaml"}) {
      if (!std::filesystem::exists(candidate, ec))
        continue;
      const std::filesystem::path real = std::filesystem::canonical(candidate, ec);
      if (ec)
        return errors(
            make_error(errc::io_error, "cannot resolve pack " + quoted_text(candidate.string()) + ": " + ec.message()));
      if (!detail::within(root, real))
        return errors(make_error(errc::invalid_argument, "pack " + quoted_text(candidate.string()) +
                                                             " resolves outside the pack directory " +
                                                             quoted_text(config->string())));
      // Read what was checked, not the link (which could change in between).
      return load_pack_file(real, opts, candidate.string());
    }
  }
  return errors(make_error(errc::invalid_argument, detail::not_found_message(ref, config)));
}

// The built-in default pack (cicd-starter), loaded as built in: never through the resolution order,
// so no file in the working directory or the config directory can stand in for it (docs/packs.md).
template <class = void>
results<loaded_pack> load_default_pack(const pack_options& opts = {}) {
  const builtin_pack* b = find_builtin_pack(default_pack_name);
  if (b == nullptr)  // not reached: the default is one of the built-ins (tests/lint/pack.cpp)
    return errors(make_error(errc::invalid_argument, "the default pack is not built in"));
  pack_options builtin_opts = opts;
  builtin_opts.reader = nullptr;  // built-ins are JSON
  return load_pack(b->text, pack_source{pack_source::origin::built_in, std::string(b->name)}, builtin_opts);
}

// Resolves and loads the packs of --pack values (comma lists allowed), in order; no value at all
// means the built-in default pack, whatever the working directory holds (load_default_pack). An
// explicit `--pack cicd-starter` is resolved like any other value (a path of that name wins).
// Every reference is tried; all errors are returned together.
template <class = void>
results<std::vector<loaded_pack>> load_packs(std::span<const std::string> values, const pack_options& opts = {}) {
  if (values.empty()) {
    auto p = load_default_pack(opts);
    if (!p)
      return std::move(p).error();
    std::vector<loaded_pack> out;
    out.push_back(std::move(*p));
    return out;
  }
  auto refs = split_pack_refs(values);
  if (!refs)
    return refs.error();
  std::vector<loaded_pack> out;
  errors errs;
  auto take = [&](results<loaded_pack> p) {  // the pack, or its errors beside the others
    if (p)
      out.push_back(std::move(*p));
    else
      for (error& e : std::move(p).error().items)
        errs.items.push_back(std::move(e));
  };
  for (const std::string& ref : *refs) {
    // A folder of packs: each of its pack files, in name order (a directory with pack.yaml is one
    // pack, below).
    if (is_pack_folder(ref)) {
      auto files = folder_pack_files(std::filesystem::path(ref), ref);
      if (!files) {
        for (error& e : std::move(files).error().items)
          errs.items.push_back(std::move(e));
        continue;
      }
      for (const std::filesystem::path& f : *files)
        take(load_pack_file(f, opts));
      continue;
    }
    take(load_pack_ref(ref, opts));
  }
  if (!errs.empty())
    return errs;
  return out;
}

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE results<loaded_pack> load_pack_file<void>(const std::filesystem::path&, const pack_options&,
                                                                std::string);
ASSAY_EXTERN_TEMPLATE results<loaded_pack> load_pack_ref<void>(std::string_view, const pack_options&);
ASSAY_EXTERN_TEMPLATE results<loaded_pack> load_default_pack<void>(const pack_options&);
ASSAY_EXTERN_TEMPLATE results<std::vector<loaded_pack>> load_packs<void>(std::span<const std::string>,
                                                                         const pack_options&);
}  // namespace assay::lint
#endif

// assay/evidence/read_unverified.hpp — reading what a bundle holds without verifying it, for a
// person looking at a bundle that failed (`assay evidence show --no-verify`). Nothing here is
// evidence: hashes, order, ids and the manifest's facts are not checked. What still holds is
// what keeps the reader safe: the gzip and tar layers (archive_read.hpp) with the limits on
// size, decoded bytes and lines, so a hostile archive can bring neither a bomb nor an unbounded
// line.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/archive_read.hpp"
#include "assay/evidence/bundle.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace assay::evidence {

// What read_unverified hands to its reader, each member optional:
//   on_manifest(std::string_view bytes)                  manifest.json (its first copy)
//   on_line(std::uint64_t line, std::string_view bytes)  each line of events.ndjson (1-based,
//                                                        without its newline or a '\r' before it)
//   on_long_line(std::uint64_t line, std::uint64_t bytes) a line over max_line_bytes, skipped
//   on_other(const tar_member&)                          any other member, skipped
//   on_end(std::string_view file_sha256)                 the archive read to its end: the
//                                                        "sha256:<hex>" of the file's bytes
template <class R>
result<void> read_unverified(byte_source& source, const bundle_limits& lim, R& reader) {
  if (source.size() && *source.size() > lim.max_bundle_bytes) {
    return make_error(code::LimitBundleBytes, "the bundle is larger than the limit of " +
                                                  std::to_string(lim.max_bundle_bytes.value()) + " bytes");
  }
  inflater inflate(source, lim);
  tar_reader tar(inflate);
  tar_member member;
  bool seen_manifest = false, seen_events = false;
  for (;;) {
    auto more = tar.next(member);
    if (!more)
      return more.error();
    if (!*more)
      break;
    if (member.regular && member.path == "manifest.json" && !seen_manifest) {
      seen_manifest = true;
      if (static_cast<std::uint64_t>(member.size) > lim.max_manifest_bytes) {
        return make_error(code::LimitFileSize, "manifest.json is larger than the limit of " +
                                                   std::to_string(lim.max_manifest_bytes.value()) + " bytes");
      }
      std::string bytes;
      if (auto r = tar.read_all(bytes); !r)
        return r.error();
      if constexpr (requires { reader.on_manifest(std::string_view()); })
        reader.on_manifest(std::string_view(bytes));
      continue;
    }
    if (!(member.regular && member.path == "events.ndjson" && !seen_events)) {
      if constexpr (requires { reader.on_other(member); })
        reader.on_other(member);
      continue;
    }
    seen_events = true;
    std::string carry;
    std::uint64_t line = 0, long_bytes = 0;
    bool skipping = false;  // inside a line over the limit
    auto end_line = [&](std::string_view bytes) {
      ++line;
      if (skipping) {
        if constexpr (requires { reader.on_long_line(line, long_bytes); })
          reader.on_long_line(line, long_bytes + bytes.size());
        skipping = false;
        long_bytes = 0;
        return;
      }
      if (!bytes.empty() && bytes.back() == '\r')
        bytes.remove_suffix(1);
      if constexpr (requires { reader.on_line(line, bytes); })
        reader.on_line(line, bytes);
    };
    for (;;) {
      auto block = tar.read_block();
      if (!block)
        return block.error();
      if (block->empty())
        break;
      std::string_view rest = *block;
      while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        const std::string_view piece = rest.substr(0, nl);
        if (skipping) {
          long_bytes += piece.size();
        } else if (carry.size() + piece.size() > lim.max_line_bytes) {
          skipping = true;
          long_bytes = carry.size() + piece.size();
          carry.clear();
        } else if (nl != std::string_view::npos && carry.empty()) {
          end_line(piece);  // the whole line in this block: no copy
          rest.remove_prefix(nl + 1);
          continue;
        } else {
          carry.append(piece);
        }
        if (nl == std::string_view::npos)
          break;
        end_line(carry);
        carry.clear();
        rest.remove_prefix(nl + 1);
      }
    }
    if (!carry.empty() || skipping)
      end_line(carry);
  }
  if (auto e = inflate.drain())
    return *e;
  if constexpr (requires { reader.on_end(std::string_view()); })
    reader.on_end(inflate.source_sha256());
  return {};
}

}  // namespace assay::evidence

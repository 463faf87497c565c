// assay/evidence/content_hash.hpp — content hash v1 of an evidence event (docs/evidence.md).
//
//   content hash = "sha256:" hex(sha256(JCS({data, datacontenttype, specversion, subject?, type})))
//
// subject is left out when absent or null (an empty string is kept). Nothing else of the
// event is covered. The JCS bytes of the projection stream straight into the hash: the member
// names are written in their fixed canonical order and only `data` is canonicalized.
#pragma once

#include "assay/error.hpp"
#include "assay/hash/hash.hpp"
#include "assay/hash/sha256_each.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/separate.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace assay::evidence {

namespace detail {

// An error about member `member` of an event. (Built piece by piece: g++ 12 warns, wrongly,
// of overlapping copies in a chain of + on these strings.)
inline error member_error(errc code, std::string_view member, std::string_view why) {
  std::string message = "event member \"";
  message += member;
  message += "\" ";
  message += why;
  std::string pointer = "/";
  pointer += member;
  return make_error(code, std::move(message), std::move(pointer));
}

inline error missing(std::string_view member, std::string_view why) {
  return member_error(errc::missing_member, member, why);
}

inline error not_utf8(std::string_view member) {
  return member_error(errc::invalid_utf8, member, "is not valid UTF-8");
}

// Writes JCS({data, datacontenttype, specversion, subject?, type}) to `w`: the names in their
// fixed canonical order, `write_data(w)` for the value of data (returns result<void>).
template <class W, class WriteData>
result<void> write_projection(W& w, WriteData&& write_data, std::string_view dct, std::string_view spec,
                              std::optional<std::string_view> subject, std::string_view type) {
  w.write("{\"data\":", 8);
  result<void> r = write_data(w);
  if (!r) {
    error e = r.error();
    e.pointer = "/data" + e.pointer;
    return e;
  }
  w.write(",\"datacontenttype\":", 19);
  if (!json::write_string(w, dct))
    return not_utf8("datacontenttype");
  w.write(",\"specversion\":", 15);
  if (!json::write_string(w, spec))
    return not_utf8("specversion");
  if (subject) {
    w.write(",\"subject\":", 11);
    if (!json::write_string(w, *subject))
      return not_utf8("subject");
  }
  w.write(",\"type\":", 8);
  if (!json::write_string(w, type))
    return not_utf8("type");
  w.put('}');
  return {};
}

// The projection above streamed into sha256: its content hash.
template <class WriteData>
result<std::string> projection_hash(WriteData&& write_data, std::string_view dct, std::string_view spec,
                                    std::optional<std::string_view> subject, std::string_view type) {
  hash::hash_sink<hash::sha256> sink(hash::sink_options{static_cast<std::size_t>(-1)});
  if (auto r = write_projection(sink, std::forward<WriteData>(write_data), dct, spec, subject, type); !r)
    return r.error();
  return sink.finish().to_string();
}

}  // namespace detail

// From a DOM event. (A template only so that its hashing code is compiled where it is called.)
template <class = void>
result<std::string> content_hash(const json::value& event) {
  if (!event.is_object())
    return make_error(errc::type_mismatch, "an event must be a JSON object");
  const json::value* data = event.find("data");
  const json::value* dct = event.find("datacontenttype");
  const json::value* spec = event.find("specversion");
  const json::value* subject = event.find("subject");
  const json::value* type = event.find("type");
  if (data == nullptr)
    return detail::missing("data", "is required");
  if (dct == nullptr || !dct->is_string())
    return detail::missing("datacontenttype", "must be a string");
  if (spec == nullptr || !spec->is_string())
    return detail::missing("specversion", "must be a string");
  if (type == nullptr || !type->is_string())
    return detail::missing("type", "must be a string");
  if (subject != nullptr && !subject->is_string() && !subject->is_null()) {
    return make_error(errc::type_mismatch, "event member \"subject\" must be a string or null", "/subject");
  }
  return detail::projection_hash(
      [&](auto& w) { return json::write_canonical(w, *data); }, dct->as_string(), spec->as_string(),
      subject != nullptr && subject->is_string() ? std::optional<std::string_view>(subject->as_string()) : std::nullopt,
      type->as_string());
}

// Writes the projection content hash v1 covers (the bytes it hashes) for the members of an event
// in a parsed document, given by their nodes (0 = absent): data, datacontenttype, specversion,
// subject and type. The verifier writes many and hashes them together (hash/sha256_each.hpp).
template <class W>
result<void> write_projection_at_nodes(W& w, const json::document& doc, std::size_t data, std::size_t dct,
                                       std::size_t spec, std::size_t subject, std::size_t type) {
  const auto& nodes = doc.nodes();
  auto is_string = [&](std::size_t i) { return i != 0 && nodes[i].kind == json::kind::string; };
  if (data == 0)
    return detail::missing("data", "is required");
  if (!is_string(dct))
    return detail::missing("datacontenttype", "must be a string");
  if (!is_string(spec))
    return detail::missing("specversion", "must be a string");
  if (!is_string(type))
    return detail::missing("type", "must be a string");
  if (subject != 0 && nodes[subject].kind != json::kind::string && nodes[subject].kind != json::kind::null) {
    return make_error(errc::type_mismatch, "event member \"subject\" must be a string or null", "/subject");
  }
  return detail::write_projection(
      w,
      [&](auto& out) -> result<void> {
        doc.write_canonical(out, data);
        return {};
      },
      doc.string_at(dct), doc.string_at(spec),
      is_string(subject) ? std::optional<std::string_view>(doc.string_at(subject)) : std::nullopt, doc.string_at(type));
}

// The content hash of the same.
template <class = void>  // compiled only where used: it instantiates the canonical writer and SHA-256
result<std::string> content_hash_at_nodes(const json::document& doc, std::size_t data, std::size_t dct,
                                          std::size_t spec, std::size_t subject, std::size_t type) {
  hash::hash_sink<hash::sha256> sink(hash::sink_options{static_cast<std::size_t>(-1)});
  if (auto r = write_projection_at_nodes(sink, doc, data, dct, spec, subject, type); !r)
    return r.error();
  return sink.finish().to_string();
}

// From the event object at node `at` of a parsed document (the verifier's fast path).
template <class = void>
result<std::string> content_hash(const json::document& doc, std::size_t at = 0) {
  if (doc.nodes()[at].kind != json::kind::object)
    return make_error(errc::type_mismatch, "an event must be a JSON object");
  const auto m = doc.find_members<5>(at, {"data", "datacontenttype", "specversion", "subject", "type"});
  return content_hash_at_nodes(doc, m[0], m[1], m[2], m[3], m[4]);
}

// The projection's bytes before its data.
inline constexpr std::string_view projection_before_data = "{\"data\":";

// The projection's bytes after its data, for an event whose other covered members are these:
// ,"datacontenttype":..,"specversion":..,"subject"?,"type":..} (a subject that is nullopt is left
// out). With content_hash_of_projection, the recorder's path: an event's data is canonical
// already, and a run appends few types, so it keeps these bytes for the type it appended last.
template <class = void>
result<std::string> projection_after_data(std::string_view datacontenttype, std::string_view specversion,
                                          std::optional<std::string_view> subject, std::string_view type) {
  std::string text;
  {
    json::string_sink sink{&text};
    json::writer<json::string_sink> w(sink);  // written out when destroyed
    auto r = detail::write_projection(
        w, [](auto&) -> result<void> { return {}; }, datacontenttype, specversion, subject, type);
    if (!r)
      return r.error();
  }
  text.erase(0, projection_before_data.size());
  return text;
}

// The content hash of a projection the caller wrote: projection_before_data, the data's
// canonical bytes, projection_after_data. Hashed in one call of sha256_each (the SHA extensions
// where the processor has them). Its string form is "sha256:<hex>".
template <class = void>
hash::digest<hash::sha256> content_hash_of_projection(std::string_view projection) {
  hash::sha256_bytes d;
  hash::sha256_each(&projection, 1, &d);
  return hash::digest<hash::sha256>(d);
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE result<std::string> content_hash<void>(const json::value&);
ASSAY_EXTERN_TEMPLATE result<std::string> content_hash_at_nodes<void>(const json::document&, std::size_t, std::size_t,
                                                                      std::size_t, std::size_t, std::size_t);
ASSAY_EXTERN_TEMPLATE result<std::string> content_hash<void>(const json::document&, std::size_t);
ASSAY_EXTERN_TEMPLATE result<std::string> projection_after_data<void>(std::string_view, std::string_view,
                                                                      std::optional<std::string_view>,
                                                                      std::string_view);
ASSAY_EXTERN_TEMPLATE hash::digest<hash::sha256> content_hash_of_projection<void>(std::string_view);
}  // namespace assay::evidence
#endif

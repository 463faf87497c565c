// bench/evidence_doc.hpp — a deterministic, realistic evidence document for benchmarks.
//
// make_evidence_document(target_bytes, seed) returns compact JSON of at least target_bytes:
//   {"generator":..., "events":[ CloudEvents-style evidence events ... ], "event_count":N}
// Events carry string, number and boolean members, nested objects and arrays, member names out
// of canonical order, numbers in non-canonical forms (2.50, 1.250e-05, 1E3), ASCII text with
// escapes (\" \\ \n \t \/ \u0007, \u00e9, surrogate pairs) and literal UTF-8 (Latin, Cyrillic,
// Greek, CJK, emoji). The same (target_bytes, seed) always gives the same bytes, whatever the
// compiler or platform: only a fixed PRNG (splitmix64), integer arithmetic and
// std::to_chars (shortest / fixed precision) are used.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace assay_bench {

inline constexpr std::size_t default_document_bytes = 25u * 1024u * 1024u;
inline constexpr std::uint64_t default_seed = 0x5eed2025u;

class prng {
 public:
  explicit prng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n small: the modulo bias is irrelevant here and deterministic anyway).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  std::uint64_t s_;
};

namespace detail {

inline constexpr std::array<std::string_view, 48> words = {
    "the",      "agent",  "called",  "tool",    "search",   "result",   "policy", "denied",  "request", "model",
    "response", "tokens", "latency", "budget",  "evidence", "bundle",   "verify", "digest",  "signal",  "network",
    "access",   "cache",  "retry",   "timeout", "user",     "query",    "answer", "context", "window",  "café",
    "naïve",    "façade", "Zürich",  "данные",  "запрос",   "Ελληνικά", "λόγος",  "日本語",  "検索",    "结果",
    "데이터",   "😀",      "🚀",       "✓",       "→",        "µs",       "€",      "ß"};

// Fragments that are already JSON string syntax (escapes included).
inline constexpr std::array<std::string_view, 12> escaped = {
    "\\\"quoted\\\"", "C:\\\\tmp\\\\out.json", "line one\\nline two", "col\\tcol", "a\\/b",  "bell\\u0007",
    "caf\\u00e9",     "\\ud83d\\ude80 launch", "\\u65e5\\u672c",      "\\r\\n",    "\\b\\f", "\\u0000nul"};

inline constexpr std::array<std::string_view, 6> tools = {"web.search", "fs.read",   "fs.write",
                                                          "http.get",   "code.exec", "db.query"};
inline constexpr std::array<std::string_view, 4> event_types = {"assay.tool.call", "assay.model.response",
                                                                "assay.net.access", "assay.policy.decision"};
inline constexpr std::array<std::string_view, 5> hosts = {"api.example.com", "search.example.org", "cdn.example.net",
                                                          "10.0.0.12", "registry.npmjs.org"};

class builder {
 public:
  builder(std::string& out, prng& r) : out_(out), r_(r) {}

  builder& raw(std::string_view s) {
    out_.append(s);
    return *this;
  }
  builder& ch(char c) {
    out_.push_back(c);
    return *this;
  }
  builder& key(std::string_view k) {
    out_.push_back('"');
    out_.append(k);
    out_.append("\":");
    return *this;
  }
  builder& str(std::string_view s) {
    out_.push_back('"');
    out_.append(s);
    out_.push_back('"');
    return *this;
  }
  builder& integer(long long v) {
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  builder& shortest(double v) {
    char buf[40];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    return *this;
  }
  builder& fixed(double v, int digits) {
    char buf[64];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits).ptr);
    return *this;
  }
  builder& scientific(double v, int digits) {
    char buf[64];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, digits).ptr);
    return *this;
  }
  builder& boolean(bool b) { return raw(b ? "true" : "false"); }
  builder& hex(std::size_t n) {
    static constexpr char digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < n; ++i)
      out_.push_back(digits[r_.below(16)]);
    return *this;
  }

  // A sentence of `n` words; about one in eight words is an escape fragment.
  builder& text(std::size_t n) {
    out_.push_back('"');
    for (std::size_t i = 0; i < n; ++i) {
      if (i != 0)
        out_.push_back(' ');
      if (r_.chance(12)) {
        out_.append(escaped[r_.below(escaped.size())]);
      } else if (r_.chance(20)) {
        out_.append(words[29 + r_.below(words.size() - 29)]);  // non-ASCII
      } else {
        out_.append(words[r_.below(29)]);
      }
    }
    out_.push_back('"');
    return *this;
  }

  builder& timestamp(std::uint64_t seq) {
    // 2025-06-01T00:00:00Z plus seq * 37 ms.
    const std::uint64_t ms = seq * 37;
    const std::uint64_t s = ms / 1000;
    char buf[40];
    char* p = buf;
    auto two = [&](std::uint64_t v) {
      *p++ = static_cast<char>('0' + v / 10 % 10);
      *p++ = static_cast<char>('0' + v % 10);
    };
    const std::uint64_t day = 1 + (s / 86400) % 28;
    for (char c : std::string_view("2025-06-"))
      *p++ = c;
    two(day);
    *p++ = 'T';
    two(s / 3600 % 24);
    *p++ = ':';
    two(s / 60 % 60);
    *p++ = ':';
    two(s % 60);
    *p++ = '.';
    *p++ = static_cast<char>('0' + ms % 1000 / 100);
    *p++ = static_cast<char>('0' + ms % 100 / 10);
    *p++ = static_cast<char>('0' + ms % 10);
    *p++ = 'Z';
    return str(std::string_view(buf, static_cast<std::size_t>(p - buf)));
  }

  void tool_call() {
    raw("{");
    key("tool").str(tools[r_.below(tools.size())]).ch(',');
    key("call_id").ch('"').raw("call_").hex(12).ch('"').ch(',');
    key("arguments").raw("{");
    key("query").text(4 + r_.below(12)).ch(',');
    key("max_results").integer(static_cast<long long>(1 + r_.below(50))).ch(',');
    key("temperature").fixed(static_cast<double>(r_.below(20)) / 10.0, 2).ch(',');
    key("filters").raw("{").key("lang").str(r_.chance(70) ? "en" : "de").ch(',');
    key("safe").boolean(r_.chance(80)).raw("}");
    raw("},");
    key("result").raw("{");
    key("ok").boolean(r_.chance(90)).ch(',');
    key("items").ch('[');
    const std::size_t items = 2 + r_.below(5);
    for (std::size_t i = 0; i < items; ++i) {
      if (i != 0)
        ch(',');
      raw("{");
      key("title").text(3 + r_.below(8)).ch(',');
      key("url").raw("\"https:\\/\\/").raw(hosts[r_.below(hosts.size())]).raw("\\/doc\\/").hex(8).ch('"').ch(',');
      key("score").shortest(r_.unit()).ch(',');
      key("rank").integer(static_cast<long long>(i + 1));
      raw("}");
    }
    raw("],");
    key("latency_ms").fixed(r_.unit() * 900.0, 1).ch(',');
    key("bytes").integer(static_cast<long long>(r_.below(1u << 20)));
    raw("},");
    key("nondeterministic").boolean(r_.chance(30));
    raw("}");
  }

  void model_response() {
    const long long prompt = static_cast<long long>(100 + r_.below(8000));
    const long long completion = static_cast<long long>(10 + r_.below(2000));
    raw("{");
    key("model").str(r_.chance(50) ? "model-large-2025-05" : "model-small").ch(',');
    key("usage").raw("{");
    key("prompt_tokens").integer(prompt).ch(',');
    key("completion_tokens").integer(completion).ch(',');
    key("total_tokens").integer(prompt + completion);
    raw("},");
    key("finish_reason").str(r_.chance(90) ? "stop" : "length").ch(',');
    key("content").text(20 + r_.below(60)).ch(',');
    key("logprobs").ch('[');
    for (int i = 0; i < 8; ++i) {
      if (i != 0)
        ch(',');
      shortest(-r_.unit() * 12.0);
    }
    raw("],");
    key("cost_usd").scientific(static_cast<double>(1 + r_.below(9999)) * 1e-7, 3).ch(',');
    key("cached").boolean(r_.chance(25)).ch(',');
    key("stop_sequences").raw(r_.chance(50) ? "[]" : "[\"\\n\\n\",\"END\"]");
    raw("}");
  }

  void net_access() {
    raw("{");
    key("subject").str(hosts[r_.below(hosts.size())]).ch(',');
    key("method").str(r_.chance(70) ? "GET" : "POST").ch(',');
    key("status").integer(r_.chance(90) ? 200 : (r_.chance(50) ? 404 : 503)).ch(',');
    key("headers").raw("{");
    key("content-type");
    str("application/json; charset=utf-8");
    ch(',');
    key("x-request-id").ch('"').hex(32).ch('"').ch(',');
    key("user-agent").str("assay-agent/0.1 (+https:\\/\\/example.com\\/bot)");
    raw("},");
    key("bytes_in").integer(static_cast<long long>(r_.below(5u << 20))).ch(',');
    key("bytes_out").integer(static_cast<long long>(r_.below(1u << 16))).ch(',');
    key("duration_s").raw(r_.chance(50) ? "1E3" : "2.50").ch(',');
    key("blocked").boolean(r_.chance(5)).ch(',');
    key("tls").raw("{").key("version").str("1.3").ch(',').key("cipher").str("TLS_AES_128_GCM_SHA256").raw("}");
    raw("}");
  }

  void policy_decision() {
    raw("{");
    key("rule").raw("\"core@1.0.0:E").integer(static_cast<long long>(100 + r_.below(40))).ch('"').ch(',');
    key("severity").str(r_.chance(60) ? "warning" : (r_.chance(50) ? "error" : "info")).ch(',');
    key("allowed").boolean(r_.chance(70)).ch(',');
    key("reason").text(8 + r_.below(20)).ch(',');
    key("matched").ch('[');
    const std::size_t n = 1 + r_.below(3);
    for (std::size_t i = 0; i < n; ++i) {
      if (i != 0)
        ch(',');
      raw("{").key("pointer").str("\\/data\\/arguments\\/query").ch(',').key("value").raw("null").ch(',');
      key("depth").raw("[[").integer(static_cast<long long>(i)).raw(",[]],{}]").raw("}");
    }
    raw("],");
    key("score").shortest(r_.unit() * 100.0);
    raw("}");
  }

  void event(std::uint64_t seq, std::string_view run_id) {
    const std::size_t type = r_.below(event_types.size());
    raw("{");
    key("specversion").str("1.0").ch(',');
    key("type").str(event_types[type]).ch(',');
    key("source").raw("\"urn:assay:agent\\/").raw(tools[r_.below(tools.size())]).ch('"').ch(',');
    key("id").ch('"').raw(run_id).ch(':').integer(static_cast<long long>(seq)).ch('"').ch(',');
    key("time").timestamp(seq).ch(',');
    key("datacontenttype").str("application/json").ch(',');
    key("assayrunid").str(run_id).ch(',');
    key("assayseq").integer(static_cast<long long>(seq)).ch(',');
    key("assaycontenthash").raw("\"sha256:").hex(64).ch('"').ch(',');
    key("data");
    switch (type) {
      case 0:
        tool_call();
        break;
      case 1:
        model_response();
        break;
      case 2:
        net_access();
        break;
      default:
        policy_decision();
        break;
    }
    raw("}");
  }

 private:
  std::string& out_;
  prng& r_;
};

}  // namespace detail

// The document: at least target_bytes (one event past the target at most).
inline std::string make_evidence_document(std::size_t target_bytes = default_document_bytes,
                                          std::uint64_t seed = default_seed) {
  prng r(seed);
  std::string out;
  out.reserve(target_bytes + 8192);
  detail::builder b(out, r);
  b.raw("{\"generator\":\"assay bench evidence v1\",\"events\":[");
  std::string run_id = "run_";
  {
    static constexpr char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; ++i)
      run_id.push_back(digits[r.below(16)]);
  }
  std::uint64_t seq = 0;
  const std::string_view tail_prefix = "],\"event_count\":";
  while (out.size() + tail_prefix.size() + 24 < target_bytes || seq == 0) {
    if (seq != 0)
      b.ch(',');
    b.event(seq, run_id);
    ++seq;
  }
  b.raw(tail_prefix);
  b.integer(static_cast<long long>(seq));
  b.raw("}");
  return out;
}

}  // namespace assay_bench

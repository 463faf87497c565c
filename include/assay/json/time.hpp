// assay/json/time.hpp — RFC 3339 date-times, the one time format of every contract.
//
//   json::is_date_time("2023-11-14T22:13:20.5+01:00")      // RFC 3339 §5.6 grammar and calendar
//   auto t = json::parse_instant(s);                         // seconds since the epoch + fraction
//   json::compare_date_times(a, b)                           // as instants, offsets applied
//   json::format_rfc3339(std::chrono::system_clock::now())   // "2023-11-14T22:13:20.293907Z"
//   json::report_time()                                      // now, or SOURCE_DATE_EPOCH when set
//
// Formatting writes UTC with `Z` and 0, 3, 6 or 9 fraction digits: none when the sub-second part
// is zero, else the fewest of 3, 6, 9 that are exact (docs/evidence.md). Parsing accepts every RFC 3339
// date-time (any number of fraction digits, `t`/`z` in either case, numeric offsets).
#pragma once

#include "assay/error.hpp"

#include <chrono>
#include <compare>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace assay::json {

namespace detail {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar, and back (the era-based
// algorithms in H. Hinnant's "chrono-Compatible Low-Level Date Algorithms").
constexpr std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) noexcept {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct civil_date {
  std::int64_t year;
  unsigned month, day;
};

constexpr civil_date civil_from_days(std::int64_t z) noexcept {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const auto d = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  const auto m = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

}  // namespace detail

// RFC 3339 §5.6 date-time: full-date "T" full-time, with 'T' and 'Z' in either case, a real
// calendar day, a leap second allowed as :60.
constexpr bool is_date_time(std::string_view s) noexcept {
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    if (at + n > s.size())
      return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9')
        return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
      !digits(8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(11, 2, hour) || s[13] != ':' ||
      !digits(14, 2, minute) || s[16] != ':' || !digits(17, 2, second)) {
    return false;
  }
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60)
    return false;
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int max_day = days[month - 1] + (month == 2 && leap ? 1 : 0);
  if (day < 1 || day > max_day)
    return false;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i;
    if (i == start)
      return false;
  }
  if (i >= s.size())
    return false;
  if (s[i] == 'Z' || s[i] == 'z')
    return i + 1 == s.size();
  if (s[i] != '+' && s[i] != '-')
    return false;
  int oh = 0, om = 0;
  if (!digits(i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(i + 4, 2, om))
    return false;
  return i + 6 == s.size() && oh <= 23 && om <= 59;
}

// An RFC 3339 date-time as an instant: whole seconds since 1970-01-01T00:00:00Z (the offset
// applied; a leap second 23:59:60 counts as the next day's 00:00:00) and the fraction's digits
// without trailing zeros, kept as text (a view into the parsed string) so that any number of
// digits compares exactly. Instants order by seconds, then by the fraction's digits as text:
// "5" < "51" and "05" < "5", as 0.5 < 0.51 and 0.05 < 0.5.
struct instant {
  std::int64_t seconds = 0;
  std::string_view fraction;

  friend constexpr std::strong_ordering operator<=>(const instant& a, const instant& b) noexcept {
    if (a.seconds != b.seconds)
      return a.seconds <=> b.seconds;
    const int c = a.fraction.compare(b.fraction);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  }
  friend constexpr bool operator==(const instant& a, const instant& b) noexcept { return (a <=> b) == 0; }
};

// The instant of an RFC 3339 date-time; nullopt when `s` is not one.
constexpr std::optional<instant> parse_instant(std::string_view s) noexcept {
  if (!is_date_time(s))
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t n) {
    std::int64_t v = 0;
    for (std::size_t i = at; i < at + n && i < s.size(); ++i)  // bounds: is_date_time checked them
      v = v * 10 + (s[i] - '0');
    return v;
  };
  instant t;
  t.seconds = detail::days_from_civil(num(0, 4), num(5, 2), num(8, 2)) * 86400 + num(11, 2) * 3600 + num(14, 2) * 60 +
              num(17, 2);
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    const std::size_t start = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')  // is_date_time: a zone follows the digits
      ++i;
    std::size_t end = i;
    while (end > start && s[end - 1] == '0')
      --end;
    t.fraction = s.substr(start, end - start);
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const std::int64_t offset = num(i + 1, 2) * 3600 + num(i + 4, 2) * 60;
    t.seconds += s[i] == '+' ? -offset : offset;
  }
  return t;
}

// The order of two RFC 3339 date-times as instants: "2023-11-14T23:13:20+01:00" is equal to
// "2023-11-14T22:13:20.000Z". nullopt when either is not a date-time.
constexpr std::optional<std::strong_ordering> compare_date_times(std::string_view a, std::string_view b) noexcept {
  const auto x = parse_instant(a);
  const auto y = parse_instant(b);
  if (!x || !y)
    return std::nullopt;
  return *x <=> *y;
}

// "YYYY-MM-DDThh:mm:ss[.fff|.ffffff|.fffffffff]Z" for `seconds` since the epoch and `nanos`
// (0..999,999,999) past it. Years outside 0000..9999 are clamped to four digits' range by the
// caller's clock; they cannot occur for a system_clock time point of this era.
// The text into `buf` (at most 30 bytes); returns its length.
// The second's part is kept per thread: times of the same second (a recorder's events, most)
// format only their fraction.
inline std::size_t format_rfc3339_to(char (&buf)[32], std::int64_t seconds, std::uint32_t nanos = 0) noexcept {
  auto put = [&](std::size_t at, std::uint64_t v, std::size_t width) {
    for (std::size_t i = width; i-- > 0;) {
      buf[at + i] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
  };
  struct second_text {
    std::int64_t seconds;
    bool valid;
    char text[19];
  };
  thread_local second_text last{0, false, {}};
  if (!last.valid || last.seconds != seconds) {
    std::int64_t days = seconds / 86400;
    std::int64_t rem = seconds % 86400;
    if (rem < 0) {
      rem += 86400;
      --days;
    }
    const detail::civil_date d = detail::civil_from_days(days);
    put(0, static_cast<std::uint64_t>(d.year < 0 ? 0 : d.year), 4);
    buf[4] = '-';
    put(5, d.month, 2);
    buf[7] = '-';
    put(8, d.day, 2);
    buf[10] = 'T';
    put(11, static_cast<std::uint64_t>(rem / 3600), 2);
    buf[13] = ':';
    put(14, static_cast<std::uint64_t>(rem / 60 % 60), 2);
    buf[16] = ':';
    put(17, static_cast<std::uint64_t>(rem % 60), 2);
    std::memcpy(last.text, buf, 19);
    last.seconds = seconds;
    last.valid = true;
  } else {
    std::memcpy(buf, last.text, 19);
  }
  std::size_t n = 19;
  if (nanos != 0) {
    buf[n++] = '.';
    if (nanos % 1000000 == 0) {
      put(n, nanos / 1000000, 3);
      n += 3;
    } else if (nanos % 1000 == 0) {
      put(n, nanos / 1000, 6);
      n += 6;
    } else {
      put(n, nanos, 9);
      n += 9;
    }
  }
  buf[n++] = 'Z';
  return n;
}

inline std::size_t format_rfc3339_to(char (&buf)[32], std::chrono::system_clock::time_point tp) noexcept {
  const auto ns_total = std::chrono::duration_cast<std::chrono::nanoseconds>(tp.time_since_epoch()).count();
  std::int64_t secs = ns_total / 1000000000;
  std::int64_t ns = ns_total % 1000000000;
  if (ns < 0) {
    ns += 1000000000;
    --secs;
  }
  return format_rfc3339_to(buf, secs, static_cast<std::uint32_t>(ns));
}

inline std::string format_rfc3339(std::int64_t seconds, std::uint32_t nanos = 0) {
  char buf[32];
  return std::string(buf, format_rfc3339_to(buf, seconds, nanos));
}

inline std::string format_rfc3339(std::chrono::system_clock::time_point tp) {
  char buf[32];
  return std::string(buf, format_rfc3339_to(buf, tp));
}

// SOURCE_DATE_EPOCH (reproducible-builds.org): a decimal count of seconds since the epoch.
// nullopt when the variable is unset or empty; an error when it is set to anything else.
inline result<std::optional<std::int64_t>> source_date_epoch() {
  const char* v = std::getenv("SOURCE_DATE_EPOCH");
  if (v == nullptr || *v == '\0')
    return std::optional<std::int64_t>{};
  const std::string_view s(v);
  std::int64_t out = 0;
  bool ok = s.size() <= 18;  // at most 18 digits: no overflow, and years within four digits below
  for (std::size_t i = 0; ok && i < s.size(); ++i) {
    const char c = s[i];
    ok = c >= '0' && c <= '9';
    out = ok ? out * 10 + (c - '0') : out;
  }
  if (!ok || out > 253402300799)  // 9999-12-31T23:59:59Z
    return make_error(errc::invalid_argument,
                      "SOURCE_DATE_EPOCH must be a decimal number of seconds since 1970-01-01 (up to year 9999)");
  return std::optional<std::int64_t>{out};
}

// The time a report is generated at: SOURCE_DATE_EPOCH when it is set (whole seconds, so that
// two runs of the same inputs give the same bytes), the clock otherwise.
inline result<std::string> report_time() {
  auto sde = source_date_epoch();
  if (!sde)
    return sde.error();
  if (*sde)
    return format_rfc3339(**sde);
  return format_rfc3339(std::chrono::system_clock::now());
}

}  // namespace assay::json

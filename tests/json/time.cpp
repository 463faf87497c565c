// RFC 3339 date-times: the grammar, instants, their order, formatting, SOURCE_DATE_EPOCH.
#include "support.hpp"

#include "assay/json/time.hpp"

#include <chrono>
#include <cstdlib>

namespace json = assay::json;
using namespace std::chrono;

TEST_CASE("format: seconds, or the fewest of 3, 6, 9 fraction digits that are exact") {
  const system_clock::time_point base{seconds{1700000000}};
  CHECK(json::format_rfc3339(base) == "2023-11-14T22:13:20Z");
  CHECK(json::format_rfc3339(base + milliseconds{5}) == "2023-11-14T22:13:20.005Z");
  CHECK(json::format_rfc3339(base + microseconds{293907}) == "2023-11-14T22:13:20.293907Z");
  CHECK(json::format_rfc3339(base + microseconds{290000}) == "2023-11-14T22:13:20.290Z");
  CHECK(json::format_rfc3339(base + nanoseconds{1}) == "2023-11-14T22:13:20.000000001Z");
  CHECK(json::format_rfc3339(system_clock::time_point{}) == "1970-01-01T00:00:00Z");
  CHECK(json::format_rfc3339(system_clock::time_point{seconds{951782400}}) == "2000-02-29T00:00:00Z");
  CHECK(json::format_rfc3339(system_clock::time_point{seconds{-1}}) == "1969-12-31T23:59:59Z");
  CHECK(json::format_rfc3339(system_clock::time_point{nanoseconds{-1}}) == "1969-12-31T23:59:59.999999999Z");
  CHECK(json::format_rfc3339(253402300799) == "9999-12-31T23:59:59Z");
}

TEST_CASE("format and parse agree on every day of four centuries") {
  for (std::int64_t day = -146097; day < 2 * 146097; day += 1) {
    const std::int64_t secs = day * 86400 + 3723;
    if (secs < -62167219200)  // before year 0
      continue;
    const std::string text = json::format_rfc3339(secs, 0);
    const auto t = json::parse_instant(text);
    REQUIRE(t);
    REQUIRE(t->seconds == secs);
  }
}

TEST_CASE("grammar") {
  CHECK(json::is_date_time("2023-11-14T22:13:20Z"));
  CHECK(json::is_date_time("2023-11-14t22:13:20.5z"));
  CHECK(json::is_date_time("2024-02-29T00:00:00+01:00"));
  CHECK(json::is_date_time("2016-12-31T23:59:60Z"));  // a leap second
  CHECK_FALSE(json::is_date_time("2023-02-29T00:00:00Z"));
  CHECK_FALSE(json::is_date_time("2023-11-14 22:13:20Z"));
  CHECK_FALSE(json::is_date_time("2023-11-14T22:13:20"));
  CHECK_FALSE(json::is_date_time("2023-11-14T22:13:20.Z"));
  CHECK_FALSE(json::is_date_time("2023-11-14T24:00:00Z"));
  CHECK_FALSE(json::is_date_time("2023-11-14T22:13:20+0100"));
  static_assert(json::is_date_time("1970-01-01T00:00:00Z"));
}

TEST_CASE("instants: offsets applied, fractions of any length compared exactly") {
  const auto a = json::parse_instant("2023-11-14T23:13:20+01:00");
  const auto b = json::parse_instant("2023-11-14T22:13:20.000Z");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->seconds == 1700000000);
  CHECK(*a == *b);
  CHECK(json::compare_date_times("2023-11-14T22:13:20.5Z", "2023-11-14T22:13:20.51Z") == std::strong_ordering::less);
  CHECK(json::compare_date_times("2023-11-14T22:13:20.05Z", "2023-11-14T22:13:20.5Z") == std::strong_ordering::less);
  CHECK(json::compare_date_times("2023-11-14T22:13:21Z", "2023-11-14T22:13:20.999999999999Z") ==
        std::strong_ordering::greater);
  CHECK(json::compare_date_times("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z") == std::strong_ordering::equal);
  CHECK_FALSE(json::compare_date_times("now", "2017-01-01T00:00:00Z"));
  CHECK(json::parse_instant("1969-12-31T23:59:59Z")->seconds == -1);
}

TEST_CASE("SOURCE_DATE_EPOCH") {
  ::unsetenv("SOURCE_DATE_EPOCH");
  CHECK(json::source_date_epoch().value() == std::nullopt);
  ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  CHECK(json::source_date_epoch().value() == 1700000000);
  CHECK(json::report_time().value() == "2023-11-14T22:13:20Z");
  for (const char* bad : {"-1", "1e9", " 1", "17000000000000000000", "253402300800", "12a"}) {
    ::setenv("SOURCE_DATE_EPOCH", bad, 1);
    const auto r = json::source_date_epoch();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().code == assay::errc::invalid_argument);
    CHECK_FALSE(json::report_time().has_value());
  }
  ::setenv("SOURCE_DATE_EPOCH", "", 1);
  CHECK(json::source_date_epoch().value() == std::nullopt);
  ::unsetenv("SOURCE_DATE_EPOCH");
  CHECK(json::is_date_time(json::report_time().value()));
}

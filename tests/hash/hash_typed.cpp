// Tests of assay/hash/digest_of.hpp: digests of typed (reflected) values.
#include "assay/hash/digest_of.hpp"

#include "support.hpp"

#include <string>
#include <vector>

using namespace assay::hash;
namespace json = assay::json;
using assay::errc;

// Named namespace: reflected field names need types with linkage.
namespace hash_typed_test {

struct point {
  int y;
  std::string label;
  double x;
};

struct row {
  std::string name;
  long long n;
  bool ok;
  std::vector<int> v;
};

struct table {
  std::vector<row> rows;
  std::string title;
};

struct constrained {
  assay::non_empty name;
  assay::bounded<int, 0, 10> level;
};

}  // namespace hash_typed_test

using namespace hash_typed_test;

TEST_CASE("digest_of a typed value hashes its canonical bytes") {
  const point p{2, "a\"b", 0.5};
  const std::string canon = R"({"label":"a\"b","x":0.5,"y":2})";
  CHECK(assay::encode(p).value() == canon);
  CHECK(digest_of<sha256>(p).value() == digest_bytes<sha256>(canon));
  CHECK(digest_of<xxh3_128>(p).value() == digest_bytes<xxh3_128>(canon));
  CHECK(digest_string_of("sha512", p).value() == digest_bytes<sha512>(canon).to_string());
  CHECK(!digest_string_of("md5", p));
  // The DOM overload is still chosen for DOM values and text.
  CHECK(digest_of<sha256>(json::parse(canon).value()).value() == digest_bytes<sha256>(canon));
  CHECK(digest_of<sha256>("x").value() == digest_bytes<sha256>("\"x\""));
  CHECK(digest_of<sha256>(std::string("x")).value() == digest_bytes<sha256>("\"x\""));
}

TEST_CASE("digest_of a large typed value (pipelined) equals hashing its canonical bytes") {
  table t;
  t.title = "big";
  for (int i = 0; i < 60000; ++i) {
    t.rows.push_back(row{"row-" + std::to_string(i), i * 1000003LL, i % 3 == 0, {i, -i, i / 2}});
  }
  const std::string canon = assay::encode(t).value();
  REQUIRE(canon.size() > (std::size_t{3} << 20));
  CHECK(digest_of<sha256>(t).value() == digest_bytes<sha256>(canon));
  CHECK(digest_of<sha256>(t, sink_options{0, 777, 2}).value() == digest_bytes<sha256>(canon));
  CHECK(digest_of<sha512>(t).value() == digest_bytes<sha512>(canon));
}

TEST_CASE("digest_of refuses a value that violates its type") {
  constrained bad{assay::non_empty(""), 3};
  auto d = digest_of<sha256>(bad);
  REQUIRE(!d);
  CHECK(d.error().code == errc::too_short);
  CHECK(d.error().pointer == "/name");
  // A violating string on its own goes through reflection too, not the DOM.
  CHECK(!digest_of<sha256>(assay::non_empty("")));
  constrained good{assay::non_empty("n"), 3};
  CHECK(digest_of<sha256>(good).value() == digest_bytes<sha256>(R"({"level":3,"name":"n"})"));
}

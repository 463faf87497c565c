// Must not compile with ASSAY_COMPILE_FAIL: a forbidden member that is required and cannot hold a
// commitment; dropping it would leave a payload its own type rejects.
// expect-error: a forbidden member must be optional
#include "assay/evidence/redact.hpp"

#include <optional>
#include <string>

struct leaky {
  static constexpr std::string_view event_type = "test.leaky";
#ifdef ASSAY_COMPILE_FAIL
  std::string password;
#else
  std::optional<std::string> password;
#endif
  static constexpr assay::field_info assay_fields[] = {
      {.field = "password", .privacy = assay::privacy::forbidden_secret}};
};

int main() {
  assay::json::value data = assay::json::object{};
  return assay::evidence::redact_payload<leaky>(data).dropped == 0 ? 0 : 1;
}

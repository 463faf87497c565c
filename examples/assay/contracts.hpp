// The contracts of docs/cli.md by name, for the verbs that name one (schema, validate). The
// library's registry instantiates every contract's decoder and schema: contracts.cpp compiles it
// once, and these verbs include only this.
#pragma once

#include "assay/error.hpp"

#include <string>
#include <string_view>

namespace assay_cli {

// The contract names, one per line, in name order.
std::string contract_list();

// The contract names, comma-separated, for messages.
std::string contract_names();

// "unknown contract "X"[; did you mean "Y"?] (contracts: …)", the name made printable.
std::string unknown_contract(std::string_view name);

bool has_contract(std::string_view name);

// The JSON Schema generated from contract `name`, indented, with a final newline.
std::string contract_schema(std::string_view name);

// `text` decoded strictly as contract `name`: every violation, or a single syntax error.
assay::results<void> validate_contract(std::string_view name, std::string_view text);

}  // namespace assay_cli

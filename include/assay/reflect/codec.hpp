// assay/reflect/codec.hpp — decoding (decode.hpp), encoding (encode.hpp) and members of untyped
// JSON (untyped.hpp): everything a contract needs to be read and written.
#pragma once

#include "assay/reflect/decode.hpp"
#include "assay/reflect/encode.hpp"
#include "assay/reflect/untyped.hpp"

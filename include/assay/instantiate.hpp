// assay/instantiate.hpp — the one translation unit of a program built with separate compilation
// (see assay/separate.hpp): a .cpp file whose only line includes this header, compiled with
// ASSAY_SEPARATE_COMPILATION defined like every other unit of the program. It compiles each
// entry point that the headers declare `extern template`, once.
#pragma once

#if !defined(ASSAY_SEPARATE_COMPILATION)
#error "assay/instantiate.hpp is for programs built with ASSAY_SEPARATE_COMPILATION defined (see assay/separate.hpp)"
#endif
#if defined(ASSAY_EXTERN_TEMPLATE)
#error "assay/instantiate.hpp must be the first assay header of its translation unit (best: its only line)"
#endif

#define ASSAY_INSTANTIATE 1
#include "assay/assay.hpp"

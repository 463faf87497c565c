// assay/json/inline.hpp — ASSAY_ALWAYS_INLINE, for small functions (and lambdas: the GNU
// spelling goes after a lambda's parameters too) on the hot path of the parsers, the tape and the
// serializers, which the compiler, counting their bodies, might otherwise leave as calls.
#pragma once

#ifndef ASSAY_ALWAYS_INLINE
#if defined(__GNUC__)
#define ASSAY_ALWAYS_INLINE __attribute__((always_inline))
#else
#define ASSAY_ALWAYS_INLINE
#endif
#endif

// ASSAY_NOINLINE: for the rare path of a hot function (growing a buffer), kept out of its body.
#ifndef ASSAY_NOINLINE
#if defined(__GNUC__)
#define ASSAY_NOINLINE __attribute__((noinline))
#else
#define ASSAY_NOINLINE
#endif
#endif

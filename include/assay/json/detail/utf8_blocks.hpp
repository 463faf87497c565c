// assay/json/detail/utf8_blocks.hpp — UTF-8 validation of 16 bytes at once, with SSE2 alone.
//
// The scan of a string's contents (lex.hpp) finds quotes, backslashes and control characters
// 16 bytes at a time; checking the UTF-8 of non-ASCII text one byte at a time (an automaton whose
// every step waits for the one before) cost as much as all the rest of reading a text-heavy
// document. Here a block is checked whole and without a branch. Every rule of Unicode's Table
// 3-7 is a property of a byte and the (at most three) bytes before it:
//
// - structure: a byte must be a continuation (80..BF) exactly when the byte before it is a lead
//   (C0..FF), or the one two back is a lead of three or four bytes (E0..FF), or the one three
//   back a lead of four (F0..FF);
// - bytes that never occur: C0, C1 (overlong two-byte forms) and F5..FF;
// - the second byte of four leads is narrower than 80..BF: after E0 it is A0..BF (no overlong
//   three-byte forms), after ED 80..9F (no surrogates), after F0 90..BF (no overlong four-byte
//   forms), after F4 80..8F (nothing above U+10FFFF).
//
// Comparisons on the block and on copies of it shifted by one, two and three bytes (with the end
// of the block before) tell all of these for the 16 bytes at once. SSE2 is part of x86-64, so
// this needs no processor check and inlines into the parsers' loops. (Keiser and Lemire's
// "Validating UTF-8 in less than one instruction per byte" (2021) does the same with SSSE3's
// table lookups in fewer instructions; that would need a second copy of the parsers compiled
// for SSSE3 and a choice between them at run time.)
#pragma once

#include "assay/json/inline.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>

namespace assay::json::detail::utf8_blocks {

// Bit i set where byte i of `v` breaks a rule above, given `prev`, the 16 bytes before v (zeros,
// i.e. ASCII, at the start of a string). A sequence that v's end leaves open is not an error
// here; it shows in the next block, at the byte that should continue it.
ASSAY_ALWAYS_INLINE inline unsigned errors(__m128i v, __m128i prev) noexcept {
  const __m128i prev1 = _mm_or_si128(_mm_slli_si128(v, 1), _mm_srli_si128(prev, 15));
  const __m128i prev2 = _mm_or_si128(_mm_slli_si128(v, 2), _mm_srli_si128(prev, 14));
  const __m128i prev3 = _mm_or_si128(_mm_slli_si128(v, 3), _mm_srli_si128(prev, 13));
  auto set = [](int b) ASSAY_ALWAYS_INLINE { return _mm_set1_epi8(static_cast<char>(b)); };
  // High bit set where a continuation is due: saturating subtraction leaves 80 or more exactly
  // when the byte was at least C0 (two back: E0, three back: F0).
  const __m128i due =
      _mm_or_si128(_mm_or_si128(_mm_subs_epu8(prev1, set(0xC0 - 0x80)), _mm_subs_epu8(prev2, set(0xE0 - 0x80))),
                   _mm_subs_epu8(prev3, set(0xF0 - 0x80)));
  // Continuations are 80..BF: as signed bytes, below C0 (-64).
  const __m128i cont = _mm_cmplt_epi8(v, set(0xC0));
  __m128i bad = _mm_xor_si128(due, cont);
  // C0, C1; F5..FF.
  bad = _mm_or_si128(bad, _mm_cmpeq_epi8(_mm_and_si128(v, set(0xFE)), set(0xC0)));
  bad = _mm_or_si128(bad, _mm_cmpeq_epi8(_mm_max_epu8(v, set(0xF5)), v));
  // The four narrower second bytes (signed comparisons: where the byte is not a continuation at
  // all they may say anything, as the structure rule already refuses it).
  bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(prev1, set(0xE0)), _mm_cmplt_epi8(v, set(0xA0))));
  bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(prev1, set(0xED)), _mm_cmpgt_epi8(v, set(0x9F))));
  bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(prev1, set(0xF0)), _mm_cmplt_epi8(v, set(0x90))));
  bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(prev1, set(0xF4)), _mm_cmpgt_epi8(v, set(0x8F))));
  return static_cast<unsigned>(_mm_movemask_epi8(bad));
}

}  // namespace assay::json::detail::utf8_blocks

#endif

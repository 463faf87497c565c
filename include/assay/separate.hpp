// assay/separate.hpp — optional separate compilation of the heavy entry points.
//
// The library is header-only: a translation unit that verifies, writes or lints a bundle
// compiles the verifier, the writer or the linter. Each of those entry points is a template on
// an unused parameter (`template <class = void>`), so a unit that does not call it does not
// compile it; but a program whose many units call them compiles them many times.
//
// Such a program can compile them once instead:
//   - define ASSAY_SEPARATE_COMPILATION in every unit (on the command line, say
//     -DASSAY_SEPARATE_COMPILATION): each header then declares its entry points
//     `extern template`, and no unit compiles them;
//   - add one unit whose only line is  #include "assay/instantiate.hpp"  (built with the same
//     definition): it compiles every entry point, once, for the whole program.
// Without the definition nothing changes: no declaration is made and nothing needs linking.
//
// Each header that has such entry points names them at its end, after its definitions, in a
// block guarded by ASSAY_EXTERN_TEMPLATE (`check_headers.py separate` in tests/headers/ checks that
// every `template <class = void>` of include/ is named there).
#pragma once

#if defined(ASSAY_SEPARATE_COMPILATION)
#if defined(ASSAY_INSTANTIATE)
#define ASSAY_EXTERN_TEMPLATE template  // assay/instantiate.hpp: the explicit instantiations
#else
#define ASSAY_EXTERN_TEMPLATE extern template
#endif
#endif

namespace assay {

// T, named through the parameter V of a deferred template (`template <class V = void>`). Code in
// a template that does not depend on its parameters is compiled where it is written, in every
// unit that includes the header, used or not: a container of a type only that template uses
// (`std::vector<T>::push_back`) would be. Named as deferred_t<V, T>, T's code is compiled only
// where the template is instantiated (otel/exporter.hpp names the OTLP types this way).
template <class V, class T>
struct deferred {
  using type = T;
};
template <class V, class T>
using deferred_t = typename deferred<V, T>::type;

}  // namespace assay

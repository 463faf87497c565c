#!/usr/bin/env python3
"""Writes include/assay/version.hpp from the project version in meson.build (the one place the
version is written by hand). `--check` writes nothing and fails when the header differs from
what it would write (the test `version_header`).

  python3 scripts/version.py          # after changing `version :` in meson.build
  python3 scripts/version.py --check
"""

import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def header(version):
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", version)
    if not m:
        sys.exit("meson.build: version %r is not MAJOR.MINOR.PATCH" % version)
    major, minor, patch = m.groups()
    return """// assay/version.hpp — the library's version. Generated from meson.build by scripts/version.py;
// do not edit (the test version_header fails when the two differ).
#pragma once

#include <string_view>

#define ASSAY_VERSION_MAJOR %s
#define ASSAY_VERSION_MINOR %s
#define ASSAY_VERSION_PATCH %s

namespace assay {

// "MAJOR.MINOR.PATCH": what reports name as the tool's version and the recorder as its producer's.
inline constexpr std::string_view version = "%s";

}  // namespace assay
""" % (major, minor, patch, version)


def main(argv):
    with open(os.path.join(root, "meson.build")) as f:
        m = re.search(r"^project\([^)]*?\bversion\s*:\s*'([^']+)'", f.read(), re.S | re.M)
    if not m:
        sys.exit("meson.build: no project version")
    want = header(m.group(1))
    path = os.path.join(root, "include", "assay", "version.hpp")
    if "--check" in argv:
        have = open(path).read() if os.path.exists(path) else ""
        if have != want:
            print("include/assay/version.hpp does not say version %s of meson.build: run scripts/version.py"
                  % m.group(1))
            return 1
        print("version.hpp: %s" % m.group(1))
        return 0
    with open(path, "w") as f:
        f.write(want)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Installs assay into a temporary directory and builds a tiny consumer against it, each way a
user may: CMake find_package(assay) with assay::core and with assay::assay, pkg-config
assay-core, and a meson subproject; and, from the source tree, CMake add_subdirectory() and
FetchContent (of a .tar.gz of the tree, as a release archive would be). Nothing of assay is
rebuilt: the install copies the headers, the pkg-config and the CMake files only (meson install
--tags devel --no-rebuild).

  install_test.py --meson MESON --build-root DIR --source-root DIR --prefix PREFIX -- CXX...

Exit 77 (skipped) when cmake or pkg-config is missing.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CONSUMER = os.path.join(HERE, "consumer")
EXPECTED = {"core": '{"a":[true,null],"b":1.5}',
            "full": "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"}
failures = []


def run(cmd, cwd=None, env=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise RuntimeError("failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stdout))
    return r.stdout


def check_programs(way, directory):
    for name, expected in EXPECTED.items():
        exe = os.path.join(directory, name)
        if not os.path.exists(exe):
            continue
        out = run([exe]).strip()
        if out != expected:
            failures.append("%s: %s printed %r, expected %r" % (way, name, out, expected))


def step(way, fn):
    try:
        fn()
        print("ok   " + way)
    except Exception as e:  # one way failing must not hide the others
        failures.append("%s: %s" % (way, e))
        print("FAIL " + way)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meson", required=True)
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--source-root", required=True)
    ap.add_argument("--prefix", required=True)
    ap.add_argument("cxx", nargs="+")
    a = ap.parse_args()
    meson = [a.meson]
    cxx = a.cxx

    if shutil.which("cmake") is None or shutil.which("pkg-config") is None:
        print("cmake or pkg-config not found: skipped")
        return 77

    work = tempfile.mkdtemp(prefix="assay-install-")
    try:
        dest = os.path.join(work, "dest")
        run(meson + ["install", "-C", a.build_root, "--no-rebuild", "--tags", "devel", "--destdir", dest, "--quiet"])
        prefix = os.path.join(dest, a.prefix.lstrip("/"))
        if not os.path.isfile(os.path.join(prefix, "include", "assay", "assay.hpp")):
            failures.append("install: no include/assay/assay.hpp under the prefix")

        pcs = [os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs if f.endswith(".pc")]
        pc_dirs = sorted({os.path.dirname(p) for p in pcs})
        for pc in pcs:
            with open(pc) as f:
                if "-std=" in f.read():
                    failures.append("%s sets -std=: the consumer chooses its standard" % os.path.basename(pc))
        if sorted(os.path.basename(p) for p in pcs) != ["assay-core.pc", "assay.pc"]:
            failures.append("install: expected assay.pc and assay-core.pc, found %s" % pcs)

        def cmake_way():
            src = os.path.join(work, "cmake-src")
            shutil.copytree(CONSUMER, src)
            bld = os.path.join(work, "cmake-build")
            run(["cmake", "-S", src, "-B", bld, "-DCMAKE_PREFIX_PATH=" + prefix,
                 "-DCMAKE_CXX_COMPILER=" + cxx[-1], "-DCMAKE_BUILD_TYPE=Release"])
            run(["cmake", "--build", bld])
            check_programs("cmake", bld)

        def cmake_source_way(how):
            src = os.path.join(work, "cmake-" + how + "-src")
            shutil.copytree(CONSUMER, src)
            bld = os.path.join(work, "cmake-" + how + "-build")
            args = ["-DASSAY_FROM=" + how]
            if how == "subdirectory":
                args.append("-DASSAY_SOURCE_DIR=" + os.path.abspath(a.source_root))
            else:
                archive = os.path.join(work, "assay-src.tar.gz")
                with tarfile.open(archive, "w:gz") as t:
                    for name in ("CMakeLists.txt", "meson.build", "cmake", "include"):
                        t.add(os.path.join(a.source_root, name), arcname="assay/" + name)
                with open(archive, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                args += ["-DASSAY_URL=file://" + archive, "-DASSAY_URL_HASH=" + digest]
            out = run(["cmake", "-S", src, "-B", bld, "-DCMAKE_CXX_COMPILER=" + cxx[-1],
                       "-DCMAKE_BUILD_TYPE=Release"] + args)
            run(["cmake", "--build", bld])
            if not all(os.path.exists(os.path.join(bld, p)) for p in ("core", "full")):
                raise RuntimeError("the consumer's programs were not built:\n" + out)
            # assay as a subproject builds no CLI of its own (ASSAY_BUILD_EXAMPLES is off).
            if os.path.exists(os.path.join(bld, "assay", "assay")) or os.path.exists(
                    os.path.join(bld, "_deps", "assay-build", "assay")):
                raise RuntimeError("the subproject built its CLI")
            check_programs("cmake " + how, bld)

        def pkg_config_way():
            env = dict(os.environ, PKG_CONFIG_PATH=os.pathsep.join(pc_dirs))
            flags = run(["pkg-config", "--define-variable=prefix=" + prefix, "--cflags", "--libs", "assay-core"],
                        env=env).split()
            if not any(f.startswith("-I" + prefix) for f in flags):
                raise RuntimeError("assay-core does not point into the install: %s" % flags)
            out = os.path.join(work, "core")
            run(cxx + ["-std=c++20", "-O1", os.path.join(CONSUMER, "core.cpp"), "-o", out] + flags)
            check_programs("pkg-config", work)

        def meson_way():
            src = os.path.join(work, "meson-src")
            shutil.copytree(CONSUMER, src)
            shutil.move(os.path.join(src, "meson.build.in"), os.path.join(src, "meson.build"))
            os.makedirs(os.path.join(src, "subprojects"))
            os.symlink(os.path.abspath(a.source_root), os.path.join(src, "subprojects", "assay"))
            bld = os.path.join(work, "meson-build")
            env = dict(os.environ, CXX=" ".join(cxx))
            run(meson + ["setup", bld, src, "--buildtype=release"], env=env)
            # assay as a subproject builds neither its tests nor its examples.
            targets = run(meson + ["introspect", "--targets", bld])
            for own in ('"test_', '"doctest_main"', '"contracts_tour"'):
                if own in targets:
                    raise RuntimeError("the subproject configured its own targets (%s)" % own)
            run(["ninja", "-C", bld])
            check_programs("meson subproject", bld)

        step("cmake find_package(assay): assay::core and assay::assay", cmake_way)
        step("cmake add_subdirectory(assay): assay::core and assay::assay", lambda: cmake_source_way("subdirectory"))
        step("cmake FetchContent(assay) of a source archive", lambda: cmake_source_way("fetch"))
        step("pkg-config assay-core", pkg_config_way)
        step("meson subproject: assay_core_dep and dependency('assay')", meson_way)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

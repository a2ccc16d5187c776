"""Build the Cython core.

CATENA_DEBUG=1 builds with Cython's bounds checks, no optimisation and the undefined-
behaviour sanitizer; CATENA_DEBUG=asan adds AddressSanitizer, whose runtime must be
preloaded (docs/robustness.md has the commands).  Release builds carry no debug
information; a debug build keeps it.

CATENA_PORTABLE=1 builds the core from standard C11 and the C library only: the solver's
table from calloc instead of mmap with huge pages, C11 atomics, bit scans in plain C and
the C11 clock.  macOS and Windows always build so (the C snippets select the same by
preprocessor macros); the default Linux build keeps huge pages and the compiler builtins.
docs/release.md has the release commands.
"""

import os
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

MODE = os.environ.get("CATENA_DEBUG", "")
DEBUG = MODE in ("1", "asan")
PORTABLE = os.environ.get("CATENA_PORTABLE", "") not in ("", "0") or not sys.platform.startswith("linux")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}


class BuildCore(build_ext):
    """Compiler flags by compiler: GCC and Clang take the same, MSVC its own."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            compile_args, link_args = (["/Od", "/Zi"], ["/DEBUG"]) if DEBUG else ([], [])
        else:
            sanitizers = "-fsanitize=address,undefined" if MODE == "asan" else "-fsanitize=undefined"
            compile_args = (["-O0", "-g", "-fno-omit-frame-pointer", sanitizers, "-fno-sanitize-recover=undefined"]
                            if DEBUG else ["-O3", "-g0"])      # -g0 overrides the interpreter's -g
            link_args = [sanitizers] if DEBUG else []
            if PORTABLE:
                compile_args.append("-std=c11")
        for extension in self.extensions:
            extension.extra_compile_args = compile_args
            extension.extra_link_args = link_args
        super().build_extensions()


# cythonize regenerates C only when a .pyx changes, and setuptools recompiles only a C file
# newer than its module: a switch between release, debug and portable builds (or of the
# compiler) must regenerate it, or the switch would silently not apply
BUILD = f"{MODE}{' portable' if PORTABLE else ''} {os.environ.get('CC', '')}"
STAMP = os.path.join("build", "catena-build-mode")
previous = open(STAMP).read() if os.path.exists(STAMP) else None
os.makedirs("build", exist_ok=True)
with open(STAMP, "w") as handle:
    handle.write(BUILD)

macros = [("CATENA_PORTABLE", "1")] if PORTABLE else []
extensions = [Extension(f"catena.{name}", [f"catena/{name}.pyx"], define_macros=macros)
              for name in ("_geometry", "_position", "_position_setup", "_prior", "_mcts", "_solver")]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, force=previous != BUILD),
      cmdclass={"build_ext": BuildCore})

"""Build the Cython core.

CATENA_DEBUG=1 builds with Cython's bounds checks, no optimisation and the undefined-
behaviour sanitizer; CATENA_DEBUG=asan adds AddressSanitizer, whose runtime must be
preloaded (docs/robustness.md has the commands).
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

MODE = os.environ.get("CATENA_DEBUG", "")
DEBUG = MODE in ("1", "asan")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}
sanitizers = "-fsanitize=address,undefined" if MODE == "asan" else "-fsanitize=undefined"
compile_args = ["-O0", "-g", "-fno-omit-frame-pointer", sanitizers,
                "-fno-sanitize-recover=undefined"] if DEBUG else ["-O3"]
link_args = [sanitizers] if DEBUG else []

# cythonize regenerates C only when a .pyx changes: a switch between release and debug
# must regenerate it too, or the directives above would silently not apply
STAMP = os.path.join("build", "catena-build-mode")
previous = open(STAMP).read() if os.path.exists(STAMP) else None
os.makedirs("build", exist_ok=True)
with open(STAMP, "w") as handle:
    handle.write(MODE)

extensions = [
    Extension(f"catena.{name}", [f"catena/{name}.pyx"], extra_compile_args=compile_args,
              extra_link_args=link_args)
    for name in ("_geometry", "_position", "_position_setup", "_mcts", "_solver")
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, force=previous != MODE))

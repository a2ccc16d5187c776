"""Build the Cython core.  CATENA_DEBUG=1 builds with bounds checks and no optimisation."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CATENA_DEBUG") == "1"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(f"catena.{name}", [f"catena/{name}.pyx"], extra_compile_args=compile_args)
    for name in ("_geometry", "_position", "_position_setup", "_mcts", "_solver")
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))

"""What a release needs that can be checked without building: the license, the metadata, the
sdist's file list (MANIFEST.in) and the wheel builders' configuration.  The builds themselves
(wheel, auditwheel, twine, a portable and a Clang core) are in docs/release.md."""

import pathlib
import re

import pytest

try:
    import tomllib
except ImportError:                  # Python 3.10: pytest brings tomli there
    import tomli as tomllib

from setuptools.command.egg_info import FileList

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


def test_license_file_is_mit_and_declared_the_pep_639_way():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c)" in text
    assert "Permission is hereby granted, free of charge" in text
    assert PROJECT["license"] == "MIT"                  # an SPDX expression, not the deprecated table
    assert PROJECT["license-files"] == ["LICENSE"]
    # PEP 639: an expression and a license classifier together are refused
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]
    setuptools = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools == ["setuptools>=77"]             # the first to read license-files


def test_metadata_has_authors_keywords_and_classifiers():
    assert PROJECT["authors"] and all(a.get("name") for a in PROJECT["authors"])
    assert len(PROJECT["keywords"]) >= 5
    classifiers = set(PROJECT["classifiers"])
    for system in ("POSIX :: Linux", "MacOS", "Microsoft :: Windows"):
        assert f"Operating System :: {system}" in classifiers
    assert {f"Programming Language :: Python :: {v}" for v in PYTHONS} <= classifiers
    assert "Programming Language :: Cython" in classifiers
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert PROJECT["requires-python"] == f">={PYTHONS[0]}"


def test_wheels_are_built_for_every_python_and_platform_and_carry_no_generated_c():
    wheels = PYPROJECT["tool"]["cibuildwheel"]
    assert wheels["build"] == [f"cp{v.replace('.', '')}-*" for v in PYTHONS]
    assert wheels["test-command"]
    workflow = (ROOT / ".github" / "workflows" / "wheels.yml").read_text()
    assert "pypa/cibuildwheel@" in workflow
    for runner in ("ubuntu-", "macos-", "windows-"):
        assert re.search(rf"os: \[[^\]]*{runner}", workflow), runner
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert {"*.c", "*.pyx"} <= set(setuptools["exclude-package-data"]["catena"])
    assert not {"*.c", "*.pyx"} & set(setuptools["package-data"]["catena"])


def sdist_files(extra=()):
    """The files MANIFEST.in takes from the checkout's files (plus ``extra``, files a build
    leaves in the tree), as setuptools reads the template."""
    files = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
             if p.is_file() and not {".git", "build"} & set(p.relative_to(ROOT).parts)]
    chosen = FileList()
    chosen.set_allfiles(files + list(extra))
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            chosen.process_template_line(line)
    return set(chosen.files)


@pytest.fixture(scope="module")
def sdist():
    return sdist_files(extra=["catena/_solver.c", "catena/_solver.cpython-311-x86_64-linux-gnu.so",
                              "tests/__pycache__/conftest.cpython-311.pyc"])


def test_sdist_has_the_tests_with_their_helpers_and_data(sdist):
    for helper in ("conftest.py", "reference.py", "_fastref.py", "_fuzz_child.py", "data/perft.txt"):
        assert f"tests/{helper}" in sdist, helper
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*.py")} <= sdist


def test_sdist_has_docs_examples_bench_license_and_the_sources(sdist):
    for folder in ("docs", "examples", "bench"):
        assert {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).glob("*") if p.is_file()} <= sdist, folder
    assert {"LICENSE", "README.md", "pyproject.toml", "setup.py", "catena/py.typed"} <= sdist
    for pattern in ("*.pyx", "*.pxd", "*.pyi"):          # the .py modules: setuptools adds them
        assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "catena").glob(pattern)} <= sdist, pattern


def test_sdist_leaves_out_what_a_build_generates(sdist):
    assert not [f for f in sdist if f.endswith((".c", ".so", ".pyc"))]


def test_every_data_file_of_the_package_ships():
    """The wheel (package data) and the sdist (MANIFEST.in) carry every file of catena/data:
    the move prior's weights and the proven values."""
    import fnmatch
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["catena.data"]
    manifest = (ROOT / "MANIFEST.in").read_text()
    for path in (ROOT / "catena" / "data").iterdir():
        if path.name.startswith("__") or path.suffix in (".py", ".pyc"):
            continue
        assert any(fnmatch.fnmatch(path.name, p) for p in patterns), path.name
        assert f"catena/data/*{path.suffix}" in manifest, path.name

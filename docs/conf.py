"""Sphinx configuration of catena's documentation site.

Build it from the repository root, after building the core in place
(``python3 setup.py build_ext --inplace``)::

    python3 -m sphinx -W -b html docs docs/_build/html

The pages are the Markdown files of ``docs/`` (read by MyST) and an API
reference made by autodoc from the docstrings.
"""

import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)           # the catena package built in place

project = "catena"
author = "the catena authors"
copyright = "the catena authors"

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

myst_heading_anchors = 3

autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
add_module_names = False

html_theme = "alabaster"
html_title = "catena"
html_static_path = []

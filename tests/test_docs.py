"""The docstring examples of every public module, and the README's, run as doctests."""

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["catena", "catena.errors", "catena.effort", "catena.progress", "catena._interrupt", "catena.results",
           "catena._geometry", "catena._position", "catena._mcts", "catena._solver", "catena.game",
           "catena.match", "catena.gtp", "catena.engines", "catena.elo", "catena.players", "catena.points",
           "catena.record", "catena.solved", "catena.svg", "catena.terminal", "catena.text", "catena.analysis",
           "catena.notation", "catena.observation", "catena.openspiel", "catena.pettingzoo",
           "catena.selfplay", "catena.distributed", "catena.web", "catena.checkpoint", "catena.solver"]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no runnable example"


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 10


def test_user_guide_examples():
    result = doctest.testfile(str(ROOT / "docs" / "guide.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 40


def test_tutorial_examples():
    result = doctest.testfile(str(ROOT / "docs" / "tutorial.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 15


def test_research_guide_examples():
    result = doctest.testfile(str(ROOT / "docs" / "research.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 20


def test_every_public_name_has_a_runnable_example():
    import catena

    constants = {"GAME_TYPES", "SCORINGS"}
    missing = [name for name in catena.__all__
               if name not in constants and ">>>" not in (getattr(catena, name).__doc__ or "")]
    assert not missing, f"public names without a >>> example: {missing}"

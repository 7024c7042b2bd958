"""Compiled policy plugins from Python: load_plugin() makes the example plugin's policies usable by name."""
import os

import pytest

import spotsim

EXAMPLE = os.environ["SPOTSIM_EXAMPLE_PLUGIN"]


def test_loaded_plugin_policies_are_listed_and_run_like_the_builtins():
    spotsim.load_plugin(EXAMPLE)
    spotsim.load_plugin(EXAMPLE)  # a second load of the same file changes nothing
    assert len(spotsim.loaded_plugins()) == 1
    names = set(spotsim.policies()["name"])
    assert {"plugin-spot-only", "slack-guard", "plugin-fixed"} <= names
    builtin = spotsim.simulate(policy="spot-only", checkpoint="fixed:interval=45m", work="40h", replications=200, seed=3)
    plugin = spotsim.simulate(policy="plugin-spot-only", checkpoint="plugin-fixed:interval=45m", work="40h",
                              replications=200, seed=3)
    assert builtin.runs.equals(plugin.runs)


def test_a_file_that_is_not_a_plugin_raises_input_error_naming_it():
    with pytest.raises(spotsim.InputError, match="nowhere/libx.so: no such file"):
        spotsim.load_plugin("/nowhere/libx.so")

"""Policies written in Python (docs/plugins.md#python-policies): what simulate() and sweep() accept besides names.

A selection policy is any object with ``decide(observation) -> SelectionDecision`` and optionally ``reset()``
(called before each replication); a checkpoint policy has ``next_interval(observation) -> seconds or None``
instead. A class is instantiated with no arguments. The engine calls them exactly where it calls its C++ policies.
"""
from ._spotsim import Observation, Phase, Purchase, SelectionDecision


def policy_name(policy):
    """What a policy object is called in the manifest and in messages: its `name`, else its class name."""
    return str(getattr(policy, "name", type(policy).__name__))


def policy_spec(policy):
    """(spec for the manifest, object or None): a name passes through; a class is instantiated."""
    if policy is None or isinstance(policy, str):
        return policy, None
    if isinstance(policy, type):
        policy = policy()
    return "python:" + policy_name(policy), policy


__all__ = ["Observation", "Phase", "Purchase", "SelectionDecision", "policy_name", "policy_spec"]

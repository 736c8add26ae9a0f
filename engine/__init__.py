"""The pure rules engine: rulesets behind one interface, found by id or alias.

Nothing under engine/ does I/O, reads a clock, uses the global random generator, touches a
database or prints. Everything here can be called without pbem/.
"""

from engine.dice import Dice
from engine.problems import Problem, ProblemKind
from engine.records import Event, OrderResult, OrderStatus, Outcome, ParsedOrders, Resolution
from engine.registry import all_rulesets, get_ruleset, register
from engine.ruleset import EditError, OptionSpec, Ruleset

__all__ = [
    "Dice",
    "EditError",
    "Event",
    "OptionSpec",
    "OrderResult",
    "OrderStatus",
    "Outcome",
    "ParsedOrders",
    "Problem",
    "ProblemKind",
    "Resolution",
    "Ruleset",
    "all_rulesets",
    "get_ruleset",
    "register",
]

"""The one rule of what a closing action leaves unused (meeple/core/benefits.py)."""

from __future__ import annotations

import pytest

from meeple.core.benefits import OptionalBenefits

RULES = OptionalBenefits(closing=frozenset({"end", "skip"}),
                         benefits={"tax": "tax", "swap": "magician", "redraw": "magician", "kill": "kill"})


def test_a_closing_action_forgoes_every_benefit_still_legal_in_the_order_offered() -> None:
    assert RULES.forgone(["build", "redraw", "tax", "swap", "end"]) == [[], [], [], [], ["magician", "tax"]]
    assert RULES.forgone(["skip", "kill", "end"]) == [["kill"], [], ["kill"]]


def test_nothing_to_tell_without_both_a_closing_action_and_a_benefit() -> None:
    assert RULES.forgone(["end", "build"]) is None
    assert RULES.forgone(["tax", "kill"]) is None
    assert RULES.forgone([]) is None


def test_a_kind_cannot_both_close_and_be_a_benefit() -> None:
    with pytest.raises(ValueError, match="end"):
        OptionalBenefits(closing=frozenset({"end"}), benefits={"end": "end", "tax": "tax"})

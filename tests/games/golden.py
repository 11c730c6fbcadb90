"""Golden random playouts: digests of whole seeded games, so an engine made faster provably plays the same.

Each case is a game, a player count, options and a seed; ``playout_digest`` plays it with a seeded
``random.Random`` choosing among ``legal_actions()`` (so the order of the legal actions counts too) and
hashes the full history, the scores, the winners, the stats, and ``to_json()`` and the views of seat 0
and of a spectator at a few points (and, in Citadels, seat 0's determinization). The expected digests
were generated from the engines before they were optimised (``python -m tests.games.golden burgundy
caylus palais_royal citadels`` rewrites them) and are committed beside each game's tests as
``golden_playouts.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from meeple import load_game

SEEDS = (1, 2, 3)
CHECKPOINTS = (0, 7, 40, 150, 400)

# Option sets beyond the defaults and the presets, chosen to reach the rules' alternative branches.
EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "burgundy": [
        {"tiebreak_empty": "most", "k06_pay_with_workers": True, "sale_vp": "per_sale"},
        {"forced_building_effects": True, "board_variant_4": "b", "board_variant_8": "b"},
    ],
    "caylus": [
        {"lawyer_targets": "wood_stone", "pp_floor": False, "tower_full_penalty": "none"},
        {"jeweller": True, "simplified_favours": True, "lawyer_pp": 3},
    ],
    "citadels": [
        {"deck": "ffg66", "overbuild": True, "haunted_last_round": False, "great_wall_self": True,
         "bonus_timing": "after_gather", "tie_break": "ffg", "first_crown": "random", "observatory_cost": 5},
        {"classic_variant": True, "max_rounds": 4, "laboratory_gold": 2, "library": "keep_all"},
    ],
    "palais_royal": [
        {"initial_placement": "free_10", "cost_reduction": "orthogonal_diagonal", "edge_tie": "demote",
         "privilege_activation": "immediate", "step3_order": "fixed", "gold_limited": True},
        {"corner_edges": "none", "edge_tie": "full", "bonus_servant_from_rooms": False,
         "winner_tiebreak": "shared", "discard_public": False, "hide_face_down_nobles": True,
         "start_seat": "random", "round_limit": 12},
        {"gate_fixed_centre": True, "cost_reduction": "none", "end_trigger_nobles": 33},
    ],
}

# Games whose hidden-card bookkeeping is read only by ``determinize`` (Citadels' knowledge records): their
# digests also hold seat 0's determinization at the checkpoints.
DETERMINIZED = frozenset({"citadels"})


def option_sets(name: str) -> list[dict[str, Any]]:
    """The defaults, every preset, and the extra option sets of the game."""
    game = load_game(name)
    presets: list[dict[str, Any]] = [{"preset": preset} for preset in game.presets]
    return [{}, *presets, *EXTRA_OPTIONS.get(name, [])]


def cases(name: str) -> list[tuple[int, dict[str, Any], int]]:
    """Every (players, options, seed) a game's golden file covers."""
    game = load_game(name)
    return [(players, options, seed)
            for players in range(game.min_players, game.max_players + 1)
            for options in option_sets(name)
            for seed in SEEDS]


def case_key(players: int, options: dict[str, Any], seed: int) -> str:
    """The golden file's key of a case."""
    return f"{players}p seed={seed} {json.dumps(options, sort_keys=True)}"


def playout_digest(name: str, players: int, options: dict[str, Any], seed: int) -> str:
    """sha256 of everything observable along one seeded random game."""
    game = load_game(name)
    state = game.new_game(players=players, seed=seed, options=options)
    chooser = random.Random(seed * 7919 + players)
    digest = hashlib.sha256()

    def record(label: str, value: Any) -> None:
        digest.update(label.encode())
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    steps = 0
    while True:
        if steps in CHECKPOINTS or state.is_over:
            record(f"json@{steps}", state.to_json())
            record(f"view0@{steps}", state.view(0))
            record(f"spectator@{steps}", state.view(None))
            if name in DETERMINIZED:
                record(f"determinized0@{steps}", state.determinize(0, seed).to_json())
        if state.is_over:
            break
        legal = state.legal_actions()
        record("legal", [str(action) for action in legal] if steps in CHECKPOINTS else len(legal))
        state.apply(chooser.choice(legal))
        steps += 1
    record("history", list(state.history))
    record("scores", state.scores())
    record("winners", state.winners())
    record("stats", state.stats())
    return digest.hexdigest()


def golden_path(name: str) -> Path:
    """Where a game's golden digests live."""
    return Path(__file__).parent / name / "golden_playouts.json"


def expected_digests(name: str) -> dict[str, str]:
    """The committed digests of a game."""
    loaded: dict[str, str] = json.loads(golden_path(name).read_text())
    return loaded


def mismatches(name: str) -> list[str]:
    """Keys of the cases whose playout no longer matches the committed digest (or has none)."""
    expected = expected_digests(name)
    wrong = [case_key(*case) for case in cases(name)
             if expected.get(case_key(*case)) != playout_digest(name, *case)]
    missing = sorted(set(expected) - {case_key(*case) for case in cases(name)})
    return wrong + missing


def write_golden(name: str) -> None:
    """Regenerate a game's golden file from the engine as it is now (only from the unoptimised code)."""
    digests = {case_key(*case): playout_digest(name, *case) for case in cases(name)}
    golden_path(name).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    for game_name in sys.argv[1:]:
        write_golden(game_name)
        print(game_name, len(cases(game_name)), "cases")

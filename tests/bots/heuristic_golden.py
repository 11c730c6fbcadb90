"""Golden heuristic games: digests of seeded games between heuristic bots, so a heuristic that reads
its facts another way (a lens instead of the engine's fields) provably decides the same.

Each case is a game, a player count, options and a seed; ``game_digest`` plays it with
``HeuristicBot(10 * seed + seat)`` on every seat and hashes the whole history, the scores and the
winners, and for a bot with a ``ranked`` order (the search's candidates: Burgundy's and Palais Royal's) a fresh bot's
ranking at every ``RANK_EVERY``-th ply. The expected digests were generated from the bots before they
read lenses (``python -m tests.bots.heuristic_golden citadels palais_royal`` rewrites them; with
``--missing-only`` it adds new cases and keeps every recorded digest) and are
committed as ``tests/bots/golden/<game>.json``. Citadels' 5–7-player digests were rewritten when its bot's
character choice from five players on changed (its 2–4-player ones stayed as they were).

Tournament cases play the medium bot against random ones, seated and seeded as ``meeple tournament``
seats game ``seed - 1`` of a run (``meeple.tournament.seat_bots``): the games its medium-against-random
tables were played with. Citadels keeps twenty seeds of both kinds at 2–4 players, because its
hard-against-medium tables at those counts were played with these decisions.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from meeple import load_game
from meeple.core.contract import GameState
from meeple.tournament import seat_bots

SEEDS = (1, 2)
#: More seeds (with the default options) where a kept table depends on the bot's decisions: players -> seeds.
MORE_SEEDS: dict[str, dict[int, range]] = {"citadels": {players: range(1, 21) for players in (2, 3, 4)}}
LINEUPS = ("self", "tournament")
RANK_EVERY = 5
#: Option sets beyond the defaults: a preset and one that changes costs, scoring or the end.
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "citadels": [
        {"preset": "original"},
        {"overbuild": True, "complete_at": 8, "bonus_timing": "after_gather", "tie_break": "ffg",
         "first_crown": "random", "great_wall_self": True, "haunted_last_round": False, "observatory_cost": 5},
    ],
    "burgundy": [
        {"preset": "variant_secret"},
        {"preset": "variant_boards"},
        {"tiebreak_empty": "most", "k06_pay_with_workers": True, "sale_vp": "per_sale",
         "forced_building_effects": True, "board_variant_4": "b", "board_variant_8": "b"},
    ],
    "caylus": [
        {"preset": "later_printing"},
        {"lawyer_targets": "wood_stone", "pp_floor": False, "tower_full_penalty": "none",
         "simplified_favours": True},
    ],
    "palais_royal": [
        {"preset": "first_game"},
        {"initial_placement": "free_10", "cost_reduction": "orthogonal_diagonal", "edge_tie": "demote",
         "privilege_activation": "immediate", "step3_order": "fixed", "gold_limited": True},
        {"corner_edges": "none", "edge_tie": "full", "bonus_servant_from_rooms": False,
         "winner_tiebreak": "shared", "discard_public": False, "hide_face_down_nobles": True,
         "start_seat": "random", "round_limit": 12},
    ],
}


#: One golden game: players, options, seed and lineup ("self": the heuristic bot on every seat;
#: "tournament": the medium bot against random ones as a tournament seats them).
Case = tuple[int, dict[str, Any], int, str]


def cases(name: str) -> list[Case]:
    """Every case a game's golden file covers: every player count, the defaults and the option sets
    above with the heuristic bot on every seat, and tournament games with the default options."""
    game = load_game(name)
    player_counts = range(game.min_players, game.max_players + 1)
    own: list[Case] = [(players, options, seed, "self") for players in player_counts
                       for options in [{}, *OPTION_SETS.get(name, [])] for seed in SEEDS]
    more = MORE_SEEDS.get(name, {})
    extra_self: list[Case] = [(players, {}, seed, "self") for players in player_counts
                              for seed in more.get(players, ()) if seed not in SEEDS]
    tournament: list[Case] = [(players, {}, seed, "tournament") for players in player_counts
                              for seed in more.get(players, SEEDS)]
    return own + extra_self + tournament


def case_key(players: int, options: dict[str, Any], seed: int, lineup: str) -> str:
    lineup_label = "" if lineup == "self" else " medium against random"
    return f"{players}p seed={seed}{lineup_label} {json.dumps(options, sort_keys=True)}"


def game_digest(name: str, players: int, options: dict[str, Any], seed: int, lineup: str = "self") -> str:
    """sha256 of the moves, scores and winners of one seeded game between heuristic bots, or of one
    tournament game of the medium bot against random ones."""
    bot_class = importlib.import_module(f"meeple.bots.heuristics.{name}").HeuristicBot
    state: GameState[Any] = load_game(name).new_game(players=players, seed=seed, options=options)
    if lineup == "tournament":
        _, bots = seat_bots(["medium"] + ["easy"] * (players - 1), seed - 1, seed)
    else:
        bots = [bot_class(10 * seed + seat) for seat in range(players)]
    rankings: list[list[str]] = []
    plies = 0
    while not state.is_over and plies < 20_000:
        seat = state.current_player
        assert seat is not None
        if lineup == "self" and plies % RANK_EVERY == 0 and hasattr(bot_class, "ranked"):
            rankings.append([str(action) for action in bot_class(10 * seed + seat).ranked(state)])
        state.apply(bots[seat].choose(state))
        plies += 1
    digest = hashlib.sha256()
    record: list[Any] = [list(state.history), state.scores(), state.winners()]
    if rankings:
        record.append(rankings)
    digest.update(json.dumps(record, default=str).encode())
    return digest.hexdigest()


def golden_path(name: str) -> Path:
    return Path(__file__).parent / "golden" / f"{name}.json"


def mismatches(name: str) -> list[str]:
    """Keys of the cases whose game no longer matches the committed digest (or has none)."""
    expected: dict[str, str] = json.loads(golden_path(name).read_text())
    wrong = [case_key(*case) for case in cases(name) if expected.get(case_key(*case)) != game_digest(name, *case)]
    return wrong + sorted(set(expected) - {case_key(*case) for case in cases(name)})


def write_golden(name: str, missing_only: bool = False) -> None:
    """Regenerate a game's golden file from the bots as they are now (only before changing a bot), or
    with ``missing_only`` add the cases it lacks and keep every recorded digest."""
    recorded: dict[str, str] = json.loads(golden_path(name).read_text()) if missing_only else {}
    digests = {case_key(*case): recorded.get(case_key(*case)) or game_digest(name, *case) for case in cases(name)}
    golden_path(name).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    add_only = "--missing-only" in sys.argv
    for game_name in [arg for arg in sys.argv[1:] if arg != "--missing-only"]:
        write_golden(game_name, add_only)
        print(game_name, len(cases(game_name)), "cases")

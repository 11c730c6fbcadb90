"""OpenSpiel's ISMCTS plays a 2-player meeple game against a uniformly random player.

    pip install -e '.[research]'
    python examples/openspiel_ismcts.py                           # Citadels, 20 games, 30 simulations
    python examples/openspiel_ismcts.py --game caylus --games 10 --simulations 60

Importing ``meeple.research.openspiel`` registers ``python_meeple_<game>``; the game opens with the
chance nodes that draw its seed (sampled here from their uniform outcomes), then the players act.
ISMCTS (``open_spiel.python.algorithms.ismcts``) samples the worlds a player cannot tell apart with the
engine's ``determinize`` (``meeple.research.openspiel.resample``) and evaluates leaves with random
rollouts. The two bots swap seats every game; the script prints ISMCTS's win rate (a shared win counts
as half) and its average return. Results of a run are in docs/research.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

import meeple.research.openspiel as meeple_spiel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="citadels")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game(f"python_meeple_{args.game}", {"players": 2})
    rng = np.random.default_rng(args.seed)
    search = meeple_spiel.ismcts_bot(game, args.simulations, seed=args.seed)
    wins = 0.0
    returns = []
    started = time.time()
    for index in range(args.games):
        ismcts_seat = index % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            elif state.current_player() == ismcts_seat:
                state.apply_action(search.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        result = state.returns()[ismcts_seat]
        returns.append(result)
        wins += 1.0 if result > 0 else 0.5 if result == 0 else 0.0
        outcome = "won" if result > 0 else "lost" if result < 0 else "tied"
        print(f"game {index + 1}: ISMCTS (seat {ismcts_seat}) {outcome}, {len(state.meeple.history)} actions",
              flush=True)
    minutes = (time.time() - started) / 60
    print(f"{args.game} 2p: ISMCTS ({args.simulations} simulations, random rollouts) vs random: "
          f"{wins / args.games:.0%} wins over {args.games} games, mean return {np.mean(returns):+.2f} "
          f"({minutes:.1f} min)", flush=True)


if __name__ == "__main__":
    main()

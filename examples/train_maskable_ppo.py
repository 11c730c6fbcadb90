"""Train sb3-contrib's MaskablePPO on a meeple game against random bots, and measure its win rate.

    pip install -e '.[research]' sb3-contrib torch      # a CPU build of torch is enough
    python examples/train_maskable_ppo.py                # Citadels, 2 players, 100,000 steps
    python examples/train_maskable_ppo.py --game caylus --players 3 --steps 300000

The learner is seat 0 of ``meeple.research.gym_env`` (its encoded observation, the action table, the
legal-action mask that MaskablePPO reads through ``env.action_masks()``), the other seats are meeple's
"easy" (random) bots. The reward is +1 for a win, −1/(n − 1) for a loss, at the end of the game only.
Before and after training the script plays ``--eval-games`` games with seeds the training never saw
and prints the win rate (a shared win counts as a win), next to a random learner's and the fair share
1/n. Results of a run are in docs/research.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def win_rate(env: object, choose: object, games: int, first_seed: int) -> float:
    """The learner's share of wins over ``games`` games from seeds ``first_seed``, ``first_seed + 1``, …"""
    wins = 0.0
    for game in range(games):
        observation, info = env.reset(seed=first_seed + game)  # type: ignore[attr-defined]
        done = False
        while not done:
            action = choose(observation, info["action_mask"])  # type: ignore[operator]
            observation, _, done, _, info = env.step(action)  # type: ignore[attr-defined]
        winners = env.driver.state.winners()  # type: ignore[attr-defined]
        wins += 1.0 if 0 in winners else 0.0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="citadels")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100_000, help="learner decisions to train on")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default="", help="save the trained model to this path")
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    from meeple.research import gym_env

    torch.set_num_threads(1)
    env = gym_env(args.game, players=args.players, seat=0, opponents="random")
    evaluation = gym_env(args.game, players=args.players, seat=0, opponents="random")
    chooser = np.random.default_rng(args.seed)
    eval_seed = 10_000_000  # far from the training seeds (drawn by the environment from --seed)

    def random_learner(observation: object, mask: np.ndarray) -> int:
        return int(chooser.choice(np.flatnonzero(mask)))

    before = win_rate(evaluation, random_learner, args.eval_games, eval_seed)
    print(f"{args.game} {args.players}p, random learner vs random bots: {before:.1%} wins "
          f"(fair share {1 / args.players:.1%})", flush=True)

    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, learning_rate=3e-4,
                        gamma=0.997, ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, verbose=0)
    env.reset(seed=args.seed)
    started = time.time()
    model.learn(total_timesteps=args.steps)
    minutes = (time.time() - started) / 60
    if args.save:
        model.save(args.save)

    def trained(observation: object, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    after = win_rate(evaluation, trained, args.eval_games, eval_seed)
    print(f"{args.game} {args.players}p, MaskablePPO after {args.steps:,} steps ({minutes:.1f} min): "
          f"{after:.1%} wins against random bots over {args.eval_games} games "
          f"(random learner {before:.1%}, fair share {1 / args.players:.1%})", flush=True)


if __name__ == "__main__":
    main()

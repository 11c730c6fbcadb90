"""The Castles of Burgundy: game metadata and options (reference §4 DECISIONS, §3.18 variant)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.benefits import OptionalBenefits
from meeple.core.contract import JSON, Game
from meeple.core.errors import InvalidOptions
from meeple.core.options import Option, OptionSet, OptionValue
from meeple.games.burgundy.data import BOARDS, CENTRE, C
from meeple.games.burgundy.state import BurgundyState

OPTIONS = OptionSet(
    (
        Option(
            "boards",
            "basic",
            "estate boards (§3.18, D22): 'basic' = board 1 for everyone; 'random' = distinct boards drawn "
            "from random_board_pool; 'choose' = each seat picks a board 1–9 in turn order (2–9 once each); "
            "or one board id per seat, e.g. '3,6,1,1'",
            kind=str,
            group="setup",
            suggestions=("basic", "random", "choose"),
        ),
        Option("random_board_pool", "1,2,3,5,6,7,9", "boards the 'random' mode draws from (D22)", kind=str,
               group="setup"),
        Option(
            "start_castle",
            "centre",
            "start castle on the centre space 19 ('centre'), or each seat chooses one of its board's castle "
            "spaces in turn order ('choose') (§3.18, D9)",
            choices=("centre", "choose"),
            group="setup",
        ),
        Option("board_variant_4", "a", "transcription used for estate board 4 (D23)", choices=("a", "b"),
               group="setup"),
        Option("board_variant_8", "a", "transcription used for estate board 8 (D23)", choices=("a", "b"),
               group="setup"),
        Option(
            "secret_setup",
            False,
            "variant choices of board and start castle are made secretly and revealed together, instead of "
            "openly in turn order (§3.18); secret board choices may repeat a board",
            group="setup",
        ),
        Option(
            "tiebreak_empty",
            "fewest",
            "first tie-break: fewest empty estate spaces wins (seed) or most (BGA reading) (D1)",
            choices=("fewest", "most"),
            group="scoring",
        ),
        Option(
            "k06_pay_with_workers",
            False,
            "with K06 the purchase may be paid with any mix of silverlings and workers (2019 style) (D3)",
        ),
        Option(
            "keep_smc_on_depots",
            True,
            "at phase start ships, mines and castles stay on the depots and their spaces are not refilled "
            "(the seed's note, which wins over the reference's default False) (D5)",
        ),
        Option(
            "sale_vp",
            "per_tile",
            "a sale scores n VP per goods tile sold (2011 rulebook, D11) or n VP per sale (a literal reading "
            "of the seed, which says only '2/3/4 VP')",
            choices=("per_tile", "per_sale"),
            group="scoring",
        ),
        Option(
            "forced_building_effects",
            False,
            "Warehouse, Carpenter, Church, Market and City Hall may not be declined when usable (D16)",
        ),
        Option(
            "first_seat",
            None,
            "the start player's seat; None draws it at random (D27)",
            kind=int,
            minimum=0,
            maximum=3,
            group="setup",
        ),
    ),
    presets={
        "reference": {"keep_smc_on_depots": False},
        "variant_boards": {"boards": "random", "start_castle": "choose"},
        "variant_choose": {"boards": "choose", "start_castle": "choose"},
        "variant_secret": {"boards": "choose", "start_castle": "choose", "secret_setup": True},
    },
)


#: resolve_options(None, players), kept per player count
_DEFAULTS: dict[int, dict[str, OptionValue]] = {}


class Burgundy(Game[BurgundyState]):
    name = "burgundy"
    title = "The Castles of Burgundy"
    min_players = 2
    max_players = 4
    option_set = OPTIONS
    state_class = BurgundyState
    observation_module = "meeple.games.burgundy.observation"
    # docs/rules/burgundy.md §3.7: `pass` ends the turn, giving up the once-a-turn purchase.
    optional_benefits = OptionalBenefits(closing=frozenset({"pass"}), benefits={"buy": "buy"})

    def components(self) -> JSON:
        from meeple.games.burgundy.components import components

        return components()

    def resolve_options(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        if options is None and players in (2, 3, 4):  # defaults: resolved once per player count (immutable values)
            defaults = _DEFAULTS.get(players)
            if defaults is None:
                defaults = _DEFAULTS[players] = self._resolve(options, players)
            return dict(defaults)
        return self._resolve(options, players)

    def _resolve(self, options: Mapping[str, Any] | None, players: int) -> dict[str, OptionValue]:
        resolved = super().resolve_options(options, players)
        first = resolved["first_seat"]
        if isinstance(first, int) and first >= players:
            raise InvalidOptions(f"first_seat must be a seat below {players}, not {first}")
        mode = str(resolved["boards"])
        choose_start = resolved["start_castle"] == "choose"
        pool_text = str(resolved["random_board_pool"])
        try:
            pool = [int(x) for x in pool_text.split(",")]
        except ValueError as error:
            raise InvalidOptions(f"random_board_pool must list board ids 1–9, not {pool_text!r}") from error
        if not all(1 <= b <= 9 for b in pool) or len(set(pool)) != len(pool):
            raise InvalidOptions(f"random_board_pool must list distinct board ids 1–9, not {pool_text!r}")

        def key(board_id: int) -> str:
            return f"{board_id}{resolved[f'board_variant_{board_id}']}" if board_id in (4, 8) else str(board_id)

        if mode == "basic":
            candidates = ["1"]
        elif mode == "choose":
            candidates = [key(b) for b in range(1, 10)]
        elif mode == "random":
            if len(pool) < players:
                raise InvalidOptions(f"random_board_pool needs at least {players} boards")
            candidates = [key(b) for b in pool]
        else:
            try:
                ids = [int(x) for x in mode.split(",")]
            except ValueError as error:
                raise InvalidOptions(
                    f"boards must be 'basic', 'random', 'choose' or one board id per seat, not {mode!r}"
                ) from error
            if len(ids) != players or not all(1 <= b <= 9 for b in ids):
                raise InvalidOptions(f"boards must give {players} board ids 1–9, not {mode!r}")
            candidates = [key(b) for b in ids]
        if not choose_start and any(BOARDS[c].types[CENTRE] != C for c in candidates):
            raise InvalidOptions("these boards have no castle on the centre space: use start_castle='choose'")
        return resolved

"""What every card, tile, building and noble does, in the page's language: the texts the tables show on
hover and tap.

Components are enumerated from each game's data module, so a component added there without texts
fails ``tests/server/test_explain.py``. Each gets a name, its full effect, and a ``code`` (the game's
own short id, shown at most as a small secondary label). The words live in
``meeple/server/i18n/<game>/<language>.json`` under ``<game>.explain.*`` (names reuse the keys the
tables already draw with); numbers that the data files hold (costs, points, a noble's privilege) are
filled in from the data, so they are stated once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from meeple.server.i18n import load_messages


@dataclass(frozen=True)
class Explanation:
    """One component as a player reads it: its name, what it does, and its code (may be empty)."""

    name: str
    effect: str
    code: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "effect": self.effect, "code": self.code}


class MissingText(KeyError):
    """A component's text is absent in the language asked for (only when English may not fill in)."""


Lookup = Callable[..., str]
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _lookup(messages: Mapping[str, str]) -> Lookup:
    """``t(key, **params)`` over ``messages``, filling ``{name}`` placeholders as the page's ``t()`` does."""

    def t(key: str, **params: object) -> str:
        if key not in messages:
            raise MissingText(key)
        return _PLACEHOLDER.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], messages[key])

    return t


# --- Citadels -------------------------------------------------------------------------------------


def _citadels(t: Lookup) -> dict[str, Explanation]:
    from meeple.games.citadels import data

    result: dict[str, Explanation] = {}
    for rank, slug in enumerate(data.CHARACTER_SLUGS, start=1):
        result[f"character.{slug}"] = Explanation(
            t(f"citadels.char.{slug}"), t(f"citadels.explain.character.{slug}"), str(rank)
        )
    taxers = {tax: data.CHARACTER_SLUGS[rank] for rank, tax in enumerate(data.CHARACTER_TAX) if tax >= 0}
    for kind, (slug, _name, type_, cost, points, copies) in enumerate(data.DISTRICTS):
        type_slug = data.TYPE_SLUGS[type_]
        if type_ in taxers:
            ability = t("citadels.explain.taxed", taxer=t(f"citadels.char.{taxers[type_]}"))
        else:
            ability = t(f"citadels.explain.district.{slug}")
        cost_text = f"{cost}/{cost + 1}" if kind == data.OBSERVATORY else str(cost)  # the option D2
        effect = t("citadels.explain.district_facts", type=t(f"citadels.type.{type_slug}"), cost=cost_text,
                   points=points, copies=copies, effect=ability)
        result[f"district.{slug}"] = Explanation(t(f"citadels.district.{slug}"), effect, "")
    return result


# --- The Castles of Burgundy ---------------------------------------------------------------------------


def _burgundy(t: Lookup) -> dict[str, Explanation]:
    from meeple.games.burgundy import data

    result: dict[str, Explanation] = {}
    for code, tile in enumerate(data.TILE_NAMES):
        key = tile.replace(".", "_")
        kind = data.TILE_TYPE[code]
        if kind == data.A:
            animal = data.ANIMALS[data.ANIMAL_KIND[code]]
            count = data.ANIMAL_COUNT[code]
            name = t("burgundy.tile.animal", animal=t(f"burgundy.animal.{animal}"), n=count)
            effect = t("burgundy.explain.animals", n=count)
            result[tile] = Explanation(name, effect, "")
        elif kind == data.K:
            name = t("burgundy.explain.knowledge_name", summary=t(f"burgundy.tilehelp.{key}"))
            result[tile] = Explanation(name, t(f"burgundy.explain.{key}"), tile)
        else:
            result[tile] = Explanation(t(f"burgundy.tile.{key}"), t(f"burgundy.explain.{key}"), "")
    for goods in range(1, data.GOODS_KINDS + 1):
        name = t("burgundy.ui.goods_n", n=goods)
        result[f"goods.{goods}"] = Explanation(name, t("burgundy.explain.goods", n=goods), "")
    return result


# --- Caylus ------------------------------------------------------------------------------------------


def _caylus(t: Lookup) -> dict[str, Explanation]:
    from meeple.games.caylus import data

    result: dict[str, Explanation] = {}
    for tile in data.TILES:
        result[tile.slug] = Explanation(t(f"caylus.b.{tile.slug}"), t(f"caylus.explain.{tile.slug}"), "")
    for slug in data.SPECIAL_NAMES.values():
        result[slug] = Explanation(t(f"caylus.special.{slug}"), t(f"caylus.explain.{slug}"), "")
    for section in data.SECTIONS:
        result[f"section.{section}"] = Explanation(
            t(f"caylus.section.{section}"), t(f"caylus.explain.section.{section}"), ""
        )
    return result


# --- Palais Royal ------------------------------------------------------------------------------------


def _palais_royal(t: Lookup) -> dict[str, Explanation]:
    from meeple.games.palais_royal.data import components

    parts = components()
    result: dict[str, Explanation] = {}
    for room in parts.rooms:
        effect = t(f"palais_royal.explain.room.{room.code}")
        steps = re.findall(r"\d", room.step)  # "1", "3a", "3c/4": the step it acts in; none for CAR, GAT
        if steps:
            effect = f"{t('palais_royal.ui.step_n', n=steps[-1])} · {effect}"
        result[f"room.{room.code}"] = Explanation(t(f"palais_royal.room.{room.code}"), effect, "")
    for card in parts.cards:
        window = t("palais_royal.ui.any_step") if card.window == "any" else t(
            "palais_royal.ui.step_n", n=card.window.removeprefix("step"))
        effect = t(f"palais_royal.explain.card.{card.code}", n=card.param, vp=card.vp_if_played)
        result[f"card.{card.code}"] = Explanation(
            t(f"palais_royal.card.{card.code}"),
            t("palais_royal.explain.card_facts", window=window, copies=card.copies, effect=effect), "",
        )
    for code in sorted({noble.privilege for noble in parts.nobles if noble.privilege}):
        result[f"privilege.{code}"] = Explanation(
            t(f"palais_royal.privilege.{code}"), t(f"palais_royal.explain.privilege.{code}"), ""
        )
    for noble in parts.nobles:
        if noble.privilege:
            privilege = t(f"palais_royal.privilege.{noble.privilege}")
            if noble.param > 1:
                privilege = f"{privilege} {noble.param}"
            name = t("palais_royal.explain.noble_name", privilege=privilege)
            # Only the servants come at once; every other privilege works from the next turn (rules D-14).
            template = "noble_privilege" if noble.privilege == "SUPPLY" else "noble_privilege_later"
            power = t(f"palais_royal.explain.{template}", privilege=privilege,
                      effect=t(f"palais_royal.explain.privilege.{noble.privilege}"))
        else:
            name = t("palais_royal.explain.noble_plain_name")
            power = t("palais_royal.explain.no_privilege")
        effect = t("palais_royal.explain.noble", gold=noble.gold, turquoise=noble.turquoise, violet=noble.violet,
                   vp=noble.vp, privilege=power)
        result[f"noble.{noble.id}"] = Explanation(name, effect, noble.id)
    return result


EXPLAINERS: dict[str, Callable[[Lookup], dict[str, Explanation]]] = {
    "citadels": _citadels,
    "burgundy": _burgundy,
    "caylus": _caylus,
    "palais_royal": _palais_royal,
}


def explain(game: str, language: str, *, english_fallback: bool = True) -> dict[str, Explanation]:
    """Every component of ``game`` by id, in ``language``.

    Raises ``KeyError`` for a game without explanations or an unknown language; without
    ``english_fallback`` a text missing in that language raises ``MissingText`` naming its key.
    """
    explainer = EXPLAINERS[game]
    return explainer(_lookup(load_messages(language, fallback=english_fallback)))

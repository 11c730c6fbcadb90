"""Game options declared as data: name, default, allowed values, and the rule decision they select."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import InvalidOptions

OptionValue = bool | int | str | None

#: How the lobby groups a game's options, in this order: how the game is set up, rule variants, the end
#: of the game and its scoring, and settings for tests and research (not rules of the game).
OPTION_GROUPS: tuple[str, ...] = ("setup", "rules", "scoring", "research")


@dataclass(frozen=True)
class Option:
    """One documented game option.

    ``choices`` lists every allowed value when the set is finite; otherwise ``kind`` gives the type
    and ``minimum``/``maximum`` bound integers. ``None`` is allowed only when it is the default or
    listed in ``choices``. ``group`` is one of ``OPTION_GROUPS``. ``suggestions`` names the usual
    values of a free-form option (e.g. a board mode among board lists), which the lobby offers by name
    beside a field for any other value.
    """

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] | None = None
    kind: type | None = None
    minimum: int | None = None
    maximum: int | None = None
    group: str = "rules"
    suggestions: tuple[OptionValue, ...] = ()

    def __post_init__(self) -> None:
        if self.group not in OPTION_GROUPS:
            groups = ", ".join(OPTION_GROUPS)
            raise ValueError(f"option {self.name!r}: group must be one of {groups}, not {self.group!r}")
        if self.suggestions and (self.choices is not None or self.default not in self.suggestions):
            raise ValueError(f"option {self.name!r}: suggestions are for free-form options and include the default")

    def validate(self, value: Any) -> OptionValue:
        if self.choices is not None:
            for choice in self.choices:
                # bool is an int subclass: 1 must not pass for True, nor True for 1.
                if type(choice) is type(value) and choice == value:
                    return choice
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        if value is None:
            if self.default is None:
                return None
            raise InvalidOptions(f"option {self.name!r} may not be None")
        kind = self.kind or type(self.default)
        if type(value) is not kind:
            raise InvalidOptions(f"option {self.name!r} must be of type {kind.__name__}, not {value!r}")
        if isinstance(value, int):
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions(f"option {self.name!r} must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value  # type: ignore[return-value]

    def describe(self) -> dict[str, Any]:
        """A JSON-safe description, for the lobby and the docs."""
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "type": (self.kind or type(self.default)).__name__,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "description": self.description,
            "group": self.group,
            "suggestions": list(self.suggestions),
        }


@dataclass(frozen=True)
class OptionSet:
    """All options of a game, plus named presets (bundles of option values).

    ``resolve`` turns what a user passed into a complete, validated dict; the key ``preset`` selects
    a preset whose values the user's own keys then override.
    """

    options: tuple[Option, ...]
    presets: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, values in self.presets.items():
            for key, value in values.items():
                self.by_name[key].validate(value) if key in self.by_name else _unknown(key, name)

    @property
    def by_name(self) -> dict[str, Option]:
        return {option.name: option for option in self.options}

    def defaults(self) -> dict[str, OptionValue]:
        return {option.name: option.default for option in self.options}

    def resolve(self, given: Mapping[str, Any] | None) -> dict[str, OptionValue]:
        given = dict(given or {})
        resolved = self.defaults()
        preset = given.pop("preset", None)
        if preset is not None:
            if preset not in self.presets:
                names = ", ".join(sorted(self.presets)) or "none"
                raise InvalidOptions(f"unknown preset {preset!r}; presets: {names}")
            resolved.update(self.presets[preset])
        by_name = self.by_name
        for key, value in given.items():
            if key not in by_name:
                names = ", ".join(sorted(by_name))
                raise InvalidOptions(f"unknown option {key!r}; options: {names}")
            resolved[key] = by_name[key].validate(value)
        return resolved

    def describe(self) -> dict[str, Any]:
        return {
            "options": [option.describe() for option in self.options],
            "presets": {name: dict(values) for name, values in self.presets.items()},
        }


def _unknown(key: str, preset: str) -> None:
    raise InvalidOptions(f"preset {preset!r} sets unknown option {key!r}")

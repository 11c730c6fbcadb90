"""Every word the pages show comes from the i18n files, in all four languages.

The front end (``meeple/web``) and the server code are scanned for the message keys they use:
``t("key")`` and ``t(`prefix.${x}.suffix`)`` in the scripts, ``data-i18n*="key"`` in the pages, and
whole keys written as string literals in the Python code. Each must exist in every language's own file
(not only through the English fallback). Then the scripts and pages are scanned for English text that
bypasses ``t()``: literal text handed to ``el()`` as a child or as a title, placeholder or aria-label,
or written between the pages' tags without ``data-i18n``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from meeple.server import i18n
from meeple.server.i18n import LANGUAGES
from meeple.server.pages import PAGE_CONTEXT, page_html

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "meeple" / "web"
SCRIPTS = sorted((WEB / "js").rglob("*.js"))
#: The pages as the server renders them (``meeple/server/pages.py``), by name.
PAGES = {page: page_html(page) for page in PAGE_CONTEXT}
PYTHON = sorted([*(ROOT / "meeple" / "server").rglob("*.py"), *(ROOT / "meeple" / "games").rglob("*.py")])

#: ``t("key")`` (``tMaybe`` has a fallback by design, so it is not required to resolve).
LITERAL_CALL = re.compile(r"""\bt\(\s*(["'])([\w.:-]+)\1""")
#: ``t(`prefix.${expression}.suffix`)``.
TEMPLATE_CALL = re.compile(r"\bt\(\s*`([^`]*)`")
PAGE_KEY = re.compile(r"""data-i18n(?:-[a-z]+)?=["']([\w.:-]+)["']""")
#: The first segments of the platform's and the games' keys, for finding keys in Python literals.
PREFIXES = ("lobby", "table", "seat", "account", "connection", "log", "replay", "game", "bot", "citadels",
            "burgundy", "caylus", "palais_royal")
PYTHON_KEY = re.compile(r"""["']((?:""" + "|".join(PREFIXES) + r""")\.[a-z_]+(?:\.[\w-]+)+)["']""")


def own_messages(language: str) -> dict[str, str]:
    """The keys a language's own files define, without the English fallback."""
    i18n._read.cache_clear()
    return i18n._read(language)


def template_pattern(template: str) -> re.Pattern[str]:
    """``a.${x}.b`` -> the keys it can name: each ``${…}`` stands for one dot-free segment."""
    parts = re.split(r"\$\{[^}]*\}", template)
    return re.compile(r"[^.]+".join(re.escape(part) for part in parts) + r"\Z")


def used_keys() -> tuple[set[str], set[str]]:
    """(keys named in full, templates of keys) in the scripts, the pages and the Python code."""
    keys: set[str] = set()
    templates: set[str] = set()
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        keys |= {match.group(2) for match in LITERAL_CALL.finditer(text)}
        for match in TEMPLATE_CALL.finditer(text):
            (templates if "${" in match.group(1) else keys).add(match.group(1))
    for html in PAGES.values():
        keys |= set(PAGE_KEY.findall(html))
    for module in PYTHON:
        keys |= {key for key in PYTHON_KEY.findall(module.read_text(encoding="utf-8")) if not key.endswith(".json")}
    return keys, templates


def test_the_scan_finds_the_keys_it_should() -> None:
    keys, templates = used_keys()
    assert {"lobby.create_button", "lobby.tagline", "table.your_turn", "lobby.preset"} <= keys
    assert {"connection.${shown}", "lobby.status.${table.status}", "bot.level.${level}.about"} <= templates
    assert template_pattern("bot.level.${level}.about").match("bot.level.hard.about")
    assert not template_pattern("bot.level.${level}.about").match("bot.level.hard.name.about")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_key_the_code_uses_exists_in_every_language(language: str) -> None:
    keys, templates = used_keys()
    messages = own_messages(language)
    missing = sorted(key for key in keys if key not in messages)
    assert not missing, f"{language}: keys used by the code but missing: {missing}"
    english = own_messages("en")
    for template in sorted(templates):
        pattern = template_pattern(template)
        named = {key for key in english if pattern.match(key)}
        assert named, f"no English key matches t(`{template}`)"
        assert named <= messages.keys(), f"{language}: {sorted(named - messages.keys())} (from `{template}`)"


#: A refusal the server sends (``{"code": …}``), which the pages show as ``error.<code>``.
REFUSAL = re.compile(r'(?:Refused|BadJSON|refusal_response)\(\s*"([a-z_]+)"')


def refusal_codes() -> set[str]:
    return {code for module in PYTHON for code in REFUSAL.findall(module.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_refusal_the_server_sends_has_words_in_every_language(language: str) -> None:
    codes = refusal_codes()
    assert {"bad_options", "not_your_turn", "too_large", "malformed"} <= codes
    messages = own_messages(language)
    assert not sorted(code for code in codes if f"error.{code}" not in messages), language


#: el("tag", {...}, "literal text" …): literal text as an element's first child.
EL_TEXT_CHILD = re.compile(r"""\bel\(\s*"[a-z0-9]+"\s*,\s*(?:\{[^{}]*\}|null|undefined)\s*,\s*(["'])(.*?)\1""")
#: title: "…", placeholder: "…", "aria-label": "…" in attributes; textContent = "…".
TEXT_ATTRIBUTE = re.compile(
    r"""(?:(?<![\w."-])(?:title|placeholder)\s*:|"aria-label"\s*:|\.textContent\s*=)\s*(["'])(.*?)\1""")
#: A word: two lower-case letters in a row (symbols such as "×", "—", "✓", "+1" or phase letters are not).
WORD = re.compile(r"[a-z]{2,}")
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


def english_literals(text: str) -> list[str]:
    code = COMMENT.sub("", text)
    return [match.group(0) for pattern in (EL_TEXT_CHILD, TEXT_ATTRIBUTE) for match in pattern.finditer(code)
            if WORD.search(match.group(2))]


def test_the_english_scan_catches_hard_coded_text() -> None:
    assert english_literals('el("button", { class: "x" }, "Create table")')
    assert english_literals('node.textContent = "Waiting";')
    assert english_literals('el("select", { id: "language", "aria-label": "Language" })')
    assert not english_literals('el("button", { class: "x" }, t("lobby.create_button"))')
    assert not english_literals('el("span", {}, "×", `${seat}: ${score}`)')
    assert not english_literals('// el("button", {}, "text") in a comment')
    assert not english_literals('document.getElementById("table-title").textContent = title;')


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.relative_to(WEB).as_posix())
def test_no_script_shows_hard_coded_english(script: Path) -> None:
    assert not english_literals(script.read_text(encoding="utf-8"))


class PageText(HTMLParser):
    """Collects the text of a page that is neither translated (``data-i18n``) nor code."""

    SILENT: ClassVar[set[str]] = {"script", "style"}
    VOID: ClassVar[set[str]] = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []
        self.untranslated: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        for attribute in ("title", "placeholder", "aria-label", "alt"):
            value = dict(attrs).get(attribute)
            if value and WORD.search(value) and f"data-i18n-{attribute}" not in names:
                self.untranslated.append(f"{tag}[{attribute}={value!r}]")
        if tag not in self.VOID:
            self.open.append((tag, "data-i18n" in names))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text or not WORD.search(text) or text == "meeple":  # the site's name is not translated
            return
        if self.open and (self.open[-1][0] in self.SILENT or self.open[-1][1]):
            return
        self.untranslated.append(text)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_no_page_shows_hard_coded_english(page: str) -> None:
    parser = PageText()
    parser.feed(PAGES[page])
    assert not parser.untranslated

"""The ``meeple`` command: play in the terminal, simulate bot games, inspect games and options."""

from __future__ import annotations

import functools
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from typer.core import TyperCommand

from meeple.bots import BOT_KINDS, BUDGET_CLOCKS, level_name, make_bot
from meeple.bots.heuristics import has_heuristic
from meeple.core.contract import Game, GameState
from meeple.core.errors import MeepleError
from meeple.core.registry import game_names, load_game
from meeple.simulate import simulate as run_simulation
from meeple.terminal import SeatNames, screen_for
from meeple.terminal.play import PlaySession

WS_IMPLEMENTATION = "websockets-sansio"
"""uvicorn's WebSocket protocol for ``meeple serve`` (its Sans-I/O one on ``websockets``)."""

app = typer.Typer(
    help="meeple: Citadels, The Castles of Burgundy, Caylus and Palais Royal — play, simulate, serve.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)
P = ParamSpec("P")
R = TypeVar("R")

OptionArg = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as NAME=VALUE (repeatable); see `meeple options GAME`."),
]
PresetArg = Annotated[str | None, typer.Option(help="A named bundle of options; see `meeple options GAME`.")]


def _game(name: str) -> Game[Any]:
    try:
        return load_game(name)
    except MeepleError as error:
        raise typer.BadParameter(str(error), param_hint="GAME") from None


def _parse_options(pairs: list[str] | None, preset: str | None) -> dict[str, Any]:
    """``NAME=VALUE`` pairs; values are read as JSON (true, 8, null) and otherwise kept as text."""
    options: dict[str, Any] = {}
    if preset:
        options["preset"] = preset
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise typer.BadParameter(f"expected NAME=VALUE, got {pair!r}", param_hint="--option")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


BotsArg = Annotated[str, typer.Option(
    "--bots", help="Bot level for every seat (easy, medium, hard or expert), or a comma list with one level per seat.")]
PlayersArg = Annotated[int | None, typer.Option(
    help="Number of players (default: as many as --bots lists, or 4 when it names one level).")]


def _levels(game: str, text: str, seats: int, seat_word: str = "players") -> list[str]:
    """``--bots``: one level for every seat, or exactly one per seat; former names (random, heuristic,
    ismcts) are read as easy, medium and hard. Refused up front rather than in the middle of a game: a
    medium bot for a game that has no heuristic bot."""
    given = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [level for level in given if level_name(level) not in BOT_KINDS]
    if not given or unknown:
        shown = repr(unknown[0]) if unknown else "nothing"
        raise typer.BadParameter(f"--bots names {shown}: the levels are {', '.join(BOT_KINDS)}")
    levels = [level_name(level) for level in given]
    if "medium" in levels and not has_heuristic(game):
        raise typer.BadParameter(f"{game} has no medium bot yet: choose easy or hard")
    if len(levels) == 1:
        return levels * seats
    if len(levels) != seats:
        raise typer.BadParameter(f"--bots lists {len(levels)} bots for {seats} {seat_word}: give one level for "
                                 f"every seat, or one level for all")
    return levels


def _player_count(players: int | None, bots: str) -> int:
    """``--players`` when given, else the length of a ``--bots`` list, else 4."""
    if players is not None:
        return players
    listed = len([part for part in bots.split(",") if part.strip()])
    return listed if listed > 1 else 4


def _progress() -> Progress:
    """A bar that moves during long games too: games done (the running one in part), decisions, time."""
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TaskProgressColumn(),
        TextColumn("{task.fields[finished]}/{task.total:.0f} games, {task.fields[decisions]} decisions"),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True,
    )


def _on_progress(progress: Progress, task: Any) -> Any:
    def report(done: float, decisions: int) -> None:
        progress.update(task, completed=done, finished=int(done), decisions=f"{decisions:,}")
    return report


@contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (``kill PID``, a service manager, a job that runs out of time) stops a run as Ctrl-C does,
    keeping and reporting the finished games. A run started in the background from a script cannot get
    Ctrl-C at all: the shell has it ignore SIGINT. Processes forked meanwhile keep SIGTERM's default."""
    owner = os.getpid()

    def stop(signum: int, frame: Any) -> None:
        if os.getpid() != owner:  # a forked worker: end as SIGTERM ends a process
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _restores_ctrl_c(command: Callable[P, R]) -> Callable[P, R]:
    """A command that may ignore a second Ctrl-C (``_interrupted``) gives SIGINT back as it found it on
    return, so a caller running commands in its own process (tests, a notebook) still gets Ctrl-C after."""
    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if threading.current_thread() is not threading.main_thread():
            return command(*args, **kwargs)
        previous = signal.getsignal(signal.SIGINT)
        try:
            return command(*args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, previous)
    return run


def _interrupted(finished: int, planned: int) -> None:
    """After Ctrl-C: say so, and let a second Ctrl-C not break the printing of the results (until the
    command returns: ``_restores_ctrl_c``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    follow = "; their results follow" if finished else ""
    console.print(f"[yellow]interrupted[/]: {finished} of {planned} games finished{follow}")


def _new_game(game: Game[Any], players: int, seed: int | None, options: dict[str, Any]) -> GameState[Any]:
    try:
        state: GameState[Any] = game.new_game(players=players, seed=seed, options=options)
    except MeepleError as error:
        raise typer.BadParameter(str(error)) from None
    return state


@app.command()
def games() -> None:
    """List the games this installation has."""
    table = Table("name", "title", "players", "options")
    for name in game_names():
        game = load_game(name)
        table.add_row(name, game.title, f"{game.min_players}–{game.max_players}", str(len(game.options)))
    console.print(table)


@app.command()
def options(game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")]) -> None:
    """Show a game's options, their defaults and allowed values, and its presets."""
    chosen = _game(game)
    table = Table("option", "default", "allowed", "what it decides", title=f"{chosen.title} options")
    for option in chosen.options.values():
        allowed = " / ".join(repr(c) for c in option.choices) if option.choices else (
            (option.kind or type(option.default)).__name__
        )
        table.add_row(option.name, repr(option.default), allowed, option.description)
    console.print(table)
    for name, values in chosen.presets.items():
        console.print(f"preset [bold]{name}[/]: " + (", ".join(f"{k}={v!r}" for k, v in values.items()) or "defaults"))


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")] = "citadels",
    players: Annotated[int, typer.Option(help="Number of players, you included.")] = 4,
    seat: Annotated[int, typer.Option(help="Your seat (0-based); the others are bots.")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    bots: Annotated[str, typer.Option(
        help="Bot level for the other seats (easy, medium, hard or expert), or a comma list, one per bot seat.",
    )] = "medium",
    name: Annotated[str | None, typer.Option(help="Your name in the log (default: Player N).")] = None,
    confirm_forced: Annotated[bool, typer.Option(
        "--confirm-forced", "--ask-every",
        help="Ask for every decision, even when only one move is legal (by default it is played for you).")] = False,
    option: OptionArg = None,
    preset: PresetArg = None,
) -> None:
    """Play in the terminal against bots: your view is drawn with what happened since your last move, and
    you pick from your legal actions (type `log` at the prompt for the whole log)."""
    chosen = _game(game)
    state = _new_game(chosen, players, seed, _parse_options(option, preset))
    if not 0 <= seat < players:
        raise typer.BadParameter(f"seat must be between 0 and {players - 1}", param_hint="--seat")
    others = [s for s in range(players) if s != seat]
    levels = _levels(game, bots, len(others), "bot seats")
    seated = {s: make_bot(level, seed=f"{state.seed}:{s}") for s, level in zip(others, levels, strict=True)}
    names = SeatNames([name or f"Player {s + 1}" if s == seat else f"Bot {s + 1}" for s in range(players)], seat)
    opponents = ", ".join(f"{names(s)} ({level})" for s, level in zip(others, levels, strict=True))
    console.print(f"[bold]{chosen.title}[/] — {players} players; you are {names(seat)} (seat {seat}) against "
                  f"{opponents}; seed {state.seed}")
    session = PlaySession(state, seat, seated, screen_for(game), names, console, confirm_forced)
    exit_code = session.run()
    if exit_code:
        raise typer.Exit(exit_code)


@app.command()
@_restores_ctrl_c
def simulate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")] = "citadels",
    players: PlayersArg = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    bots: BotsArg = "easy",
    option: OptionArg = None,
    preset: PresetArg = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results to this JSON file.")] = None,
) -> None:
    """Play bot games and report wins per seat, mean scores, mean rounds and games per second.
    Ctrl-C stops at once and reports the games that finished."""
    chosen = _game(game)
    chosen_options = _parse_options(option, preset)
    count = _player_count(players, bots)
    levels = _levels(game, bots, count)
    _new_game(chosen, count, seed, chosen_options)  # validates players and options up front
    try:
        with _progress() as progress, _sigterm_as_ctrl_c():
            task = progress.add_task(f"{chosen.title}, {count} players", total=games, finished=0, decisions=0)
            result = run_simulation(game, count, games, seed=seed, bot_kinds=levels, options=chosen_options,
                                    on_progress=_on_progress(progress, task))
    except KeyboardInterrupt:  # before the first game began or after the last one
        result = None
    if result is None or result.interrupted:
        _interrupted(0 if result is None else result.games, games)
    if result is None or result.games == 0:
        raise typer.Exit(130)
    table = Table("seat", "bot", "wins", "win share", "mean score",
                  title=f"{chosen.title}: {result.games} games, {count} players")
    for s in range(count):
        table.add_row(str(s), result.bots[s], f"{result.wins[s]:g}", f"{result.win_shares[s]:.1%}",
                      f"{result.mean_scores[s]:.2f}")
    console.print(table)
    stats = result.mean_stats
    if "rounds" in stats:
        console.print(f"mean rounds: {stats['rounds']:.2f}")
    console.print(f"mean actions: {stats.get('actions', 0):.1f}")
    console.print(_pace(result.games, result.seconds))
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_json(), indent=2))
        console.print(f"results written to {json_out}")
    if result.interrupted:
        raise typer.Exit(130)


def _pace(games: int, seconds: float) -> str:
    """Games per second, or seconds per game when games are slow (searching bots)."""
    if seconds <= 0.0:
        return f"{games} games"
    rate = games / seconds
    if rate >= 1.0:
        return f"{rate:.1f} games per second ({seconds:.1f} s in all)"
    return f"{seconds / games:.1f} s per game ({seconds / 60:.1f} min in all)"


class _RayAddressOptional(TyperCommand):
    """``--ray`` may stand alone (a local Ray instance): it takes the next word as its address only when
    that is ``auto``, ``local`` or has a colon (``HOST:PORT``, ``ray://HOST:PORT``)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        from meeple.tournament import LOCAL_RAY

        given = list(args)
        for i in reversed(range(len(given))):
            following = given[i + 1] if i + 1 < len(given) else ""
            if given[i] == "--ray" and not (following in ("auto", LOCAL_RAY) or ":" in following):
                given.insert(i + 1, LOCAL_RAY)
        return super().parse_args(ctx, given)


@app.command(cls=_RayAddressOptional)
@_restores_ctrl_c
def tournament(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")],
    bots: BotsArg,
    players: PlayersArg = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    workers: Annotated[int | None, typer.Option(
        help="Worker processes (default: every core); with --ray, games at once (default: every CPU).")] = None,
    option: OptionArg = None,
    preset: PresetArg = None,
    out: Annotated[Path | None, typer.Option(
        help="Keep the results in this folder as the games finish: games.csv (a row per game), "
             "moves.jsonl (each game's moves, to replay it), summary.json.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the tournament whose results are in --out: play only the games not yet there "
                         "(--games may be raised).")] = False,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="Play on Ray (pip install 'meeple\\[ray]'): alone, a Ray instance on this machine for the run; auto, "
             "the cluster this machine joined; HOST:PORT or ray://HOST:PORT, that cluster. Same results.")] = None,
    budget_clock: Annotated[str, typer.Option(
        metavar="|".join(BUDGET_CLOCKS),
        help="How the searching bots (hard, expert) measure their time a move: wall, the elapsed time, as a "
             "player waits; cpu, the CPU time of their own thread, what they would do on an idle core however "
             "busy the machine (results that do not depend on its load).")] = "wall",
) -> None:
    """Bots against bots with seats rotated: win shares with 95% intervals, mean scores, ratings.
    Ctrl-C (or SIGTERM) stops at once and reports the games that finished; with --out they are kept and
    --resume plays the rest."""
    from meeple.tournament import RayUnavailable, ResultsFolderError, require_ray, run_tournament

    chosen = _game(game)
    count = _player_count(players, bots)
    levels = _levels(game, bots, count)
    chosen_options = _parse_options(option, preset)
    _new_game(chosen, count, seed, chosen_options)  # validates the lineup size and options up front
    if budget_clock not in BUDGET_CLOCKS:
        raise typer.BadParameter(f"{budget_clock!r} is not one of {', '.join(BUDGET_CLOCKS)}",
                                 param_hint="--budget-clock")
    if resume and out is None:
        raise typer.BadParameter("--resume continues the results kept in --out: give that folder",
                                 param_hint="--resume")
    if ray is not None:
        try:
            require_ray()
        except RayUnavailable as error:
            raise typer.BadParameter(str(error), param_hint="--ray") from None
    try:
        with _progress() as progress, _sigterm_as_ctrl_c():
            task = progress.add_task(f"{chosen.title}: {' vs '.join(levels)}", total=games, finished=0,
                                     decisions=0)
            result = run_tournament(game, levels, games, seed=seed, options=chosen_options, workers=workers,
                                    on_progress=_on_progress(progress, task), ray_address=ray,
                                    on_ready=console.print, budget_clock=budget_clock, out=out, resume=resume)
    except KeyboardInterrupt:  # before the first game began or after the last one
        result = None
    except ResultsFolderError as error:
        raise typer.BadParameter(str(error), param_hint="--out") from None
    except RayUnavailable as error:
        console.print(f"[red]error[/]: {escape(str(error))}")
        raise typer.Exit(1) from None
    if result is None or result.interrupted:
        _interrupted(0 if result is None else result.played_now, games - (0 if result is None else result.resumed))
    if result is not None and result.resumed:
        console.print(f"resumed: {result.resumed} games were already in {out}; {result.played_now} played now")
        if len(result.code) > 1:
            console.print("[yellow]note[/]: the games kept were played by other code than this run's "
                          f"(fingerprints {', '.join(c[:12] for c in result.code)}); the table counts them all")
    if result is None or not result.records:
        raise typer.Exit(130)
    played = len(result.records)
    table = Table("bot", "games", "wins", "win share (95% CI)", "mean score", "rating μ", "σ",
                  title=f"{chosen.title}: {played} games, seats rotated")
    for entry in sorted(result.entries, key=lambda e: -e.ordinal):
        low, high = entry.win_share_interval
        table.add_row(entry.name, str(entry.games), f"{entry.wins:g}",
                      f"{entry.win_share:.1%} ({low:.1%}–{high:.1%})", f"{entry.mean_score:.2f}",
                      f"{entry.mu:.1f}", f"{entry.sigma:.1f}")
    console.print(table)
    if result.runner == "ray":  # the pace of the games themselves, then what reaching Ray cost
        console.print(f"{_pace(result.played_now, result.seconds - result.startup_seconds)}, after "
                      f"{result.startup_seconds:.1f} s to start or reach Ray")
    elif result.played_now:
        console.print(_pace(result.played_now, result.seconds))
    if out is not None:
        console.print(f"results written to {out / 'summary.json'} and {out / 'games.csv'}")
    if result.interrupted:
        raise typer.Exit(130)


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        envvar="MEEPLE_HOST", help="Address to listen on; 0.0.0.0 to let other machines in.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="MEEPLE_PORT", help="Port to listen on.")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar="MEEPLE_DATABASE_URL",
        help="SQLAlchemy URL, e.g. postgresql+psycopg://user:pw@host/meeple; default an SQLite file in the "
             "user data directory.")] = None,
    bot_delay: Annotated[float | None, typer.Option(
        help="Seconds a bot waits before moving, so people can follow (env MEEPLE_BOT_DELAY; default 0.8).")] = None,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        "--allowed-origin",
        help="Another origin whose pages may play here, e.g. https://games.example.org behind a proxy that "
             "rewrites Host (repeatable; env MEEPLE_ALLOWED_ORIGINS, comma-separated).")] = None,
    workers: Annotated[int, typer.Option(
        min=1, help="Server processes on this port (uvicorn workers); more than one needs PostgreSQL and "
                    "--redis-url.")] = 1,
    redis_url: Annotated[str | None, typer.Option(
        "--redis-url", envvar="MEEPLE_REDIS_URL",
        help="Redis that carries table updates between processes (several workers or hosts).")] = None,
    bot_processes: Annotated[int | None, typer.Option(
        envvar="MEEPLE_BOT_PROCESSES", min=0,
        help="Worker processes the bots of each server process think in (default: the cores shared among "
             "the workers; 0: threads).")] = None,
    bots: Annotated[bool, typer.Option(
        "--bots/--no-bots", help="Play bot moves in these processes (--no-bots: leave them to `meeple bots`).")] = True,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", envvar="MEEPLE_PUBLIC_URL",
        help="The address people use, e.g. https://games.example.org behind a TLS proxy: invite links and "
             "redirects use it, its origin is allowed, cookies are Secure when it is https.")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", envvar="MEEPLE_FORWARDED_ALLOW_IPS",
        help="Comma-separated proxy addresses or networks whose X-Forwarded-Proto/-For are trusted "
             "(default 127.0.0.1,::1; * trusts anyone).")] = None,
    smtp_host: Annotated[str | None, typer.Option(
        "--smtp-host", envvar="MEEPLE_SMTP_HOST",
        help="SMTP server for turn e-mails (none: no mail is sent).")] = None,
    smtp_port: Annotated[int | None, typer.Option(
        "--smtp-port", envvar="MEEPLE_SMTP_PORT", min=1, max=65535,
        help="Its port (default 587 with --smtp-starttls, else 25).")] = None,
    smtp_user: Annotated[str | None, typer.Option(
        "--smtp-user", envvar="MEEPLE_SMTP_USER", help="Login for the SMTP server, if it wants one.")] = None,
    smtp_password: Annotated[str | None, typer.Option(
        "--smtp-password", envvar="MEEPLE_SMTP_PASSWORD",
        help="Its password (better given as MEEPLE_SMTP_PASSWORD than on the command line).")] = None,
    smtp_from: Annotated[str | None, typer.Option(
        "--smtp-from", envvar="MEEPLE_SMTP_FROM", help="The From address of turn e-mails.")] = None,
    smtp_starttls: Annotated[bool | None, typer.Option(
        "--smtp-starttls/--no-smtp-starttls", envvar="MEEPLE_SMTP_STARTTLS",
        help="Upgrade the SMTP connection with STARTTLS.")] = None,
    ws_deflate: Annotated[bool, typer.Option(
        "--ws-deflate/--no-ws-deflate", envvar="MEEPLE_WS_DEFLATE",
        help="Compress WebSocket messages (permessage-deflate) for browsers that offer it: ~15x fewer bytes "
             "for ~0.03 ms of CPU and ~100 KB of memory a socket (docs/web.md, Load benchmark).")] = True,
) -> None:
    """Serve the web platform: lobby, tables, bots, replays (migrations are applied at start).
    See docs/deploy.md for hosting friends on a LAN or a server behind a TLS proxy."""
    import os

    import uvicorn

    from meeple.server.app import create_app
    from meeple.server.collector import tune_for_serving
    from meeple.server.config import Settings
    from meeple.server.db import make_engine, migrate
    from meeple.server.hosting import listens_everywhere, site_urls
    from meeple.server.limits import MAX_MESSAGE_CHARS
    from meeple.server.mail import SmtpSettings

    if bot_processes is None:
        bot_processes = max(1, (os.cpu_count() or 1) // workers)
    proxies = forwarded_allow_ips.split(",") if forwarded_allow_ips else None
    try:
        smtp = SmtpSettings.from_env(smtp_host, smtp_port, smtp_user, smtp_password, smtp_from, smtp_starttls)
        settings = Settings.from_env(database_url=database_url, bot_delay=bot_delay, allowed_origins=allowed_origin,
                                     redis_url=redis_url, run_bots=bots, bot_processes=bot_processes,
                                     host=host, public_url=public_url, forwarded_allow_ips=proxies, smtp=smtp)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    if workers > 1 and settings.database_url.startswith("sqlite"):
        raise typer.BadParameter("several workers share one database, and SQLite is one process's: give a "
                                 "PostgreSQL --database-url (or serve with one worker)", param_hint="--workers")
    if workers > 1 and not settings.redis_url:
        raise typer.BadParameter("several workers tell each other of moves over Redis: give --redis-url",
                                 param_hint="--workers")
    console.print(f"meeple serving on [bold]http://{host}:{port}[/] — database {_safe_url(settings.database_url)}"
                  + (f", {workers} workers" if workers > 1 else ""))
    if settings.public_url:
        console.print(f"public address: [bold]{settings.public_url}[/] (invite links use it)")
    elif listens_everywhere(host):
        urls = site_urls(host, port)
        console.print("friends on your network can open: " + (", ".join(f"[bold]{url}[/]" for url in urls) if urls
                      else "(no network address found: is this machine connected?)")
                      + f"; on this machine: http://127.0.0.1:{port}")
    console.print(f"turn e-mails through {settings.smtp.describe()}" if settings.smtp is not None
                  else "no SMTP server configured (--smtp-host / MEEPLE_SMTP_HOST): no turn e-mails are sent")
    # A WebSocket frame larger than any valid message is refused by uvicorn itself (close code 1009)
    # before it is buffered whole: the app reads at most MAX_MESSAGE_CHARS characters of UTF-8.
    # proxy_headers=False: the app reads forwarded headers itself, from settings.forwarded_allow_ips only.
    # ws=WS_IMPLEMENTATION: uvicorn's Sans-I/O WebSocket protocol, ~25% less CPU a message than its
    # deprecated "websockets" one (docs/web.md, Load benchmark).
    if workers == 1:
        served = create_app(settings)
        tune_for_serving()
        uvicorn.run(served, host=host, port=port, log_level="info", ws_max_size=4 * MAX_MESSAGE_CHARS,
                    ws_per_message_deflate=ws_deflate, ws=WS_IMPLEMENTATION, proxy_headers=False)
        return
    engine = make_engine(settings.database_url)
    migrate(engine)  # once, before the workers start (each then finds the schema at head)
    engine.dispose()
    os.environ.update({
        "MEEPLE_DATABASE_URL": settings.database_url, "MEEPLE_BOT_DELAY": str(settings.bot_delay),
        "MEEPLE_ALLOWED_ORIGINS": ",".join(settings.allowed_origins), "MEEPLE_REDIS_URL": settings.redis_url or "",
        "MEEPLE_RUN_BOTS": "1" if bots else "0", "MEEPLE_BOT_PROCESSES": str(settings.bot_processes),
        "MEEPLE_MAX_BODY_BYTES": str(settings.max_body_bytes), "MEEPLE_HOST": settings.host,
        "MEEPLE_PUBLIC_URL": settings.public_url or "",
        "MEEPLE_FORWARDED_ALLOW_IPS": ",".join(settings.forwarded_allow_ips),
    })
    if settings.smtp is not None:  # the workers read the same SMTP settings back from the environment
        smtp_env = settings.smtp
        os.environ.update({
            "MEEPLE_SMTP_HOST": smtp_env.host, "MEEPLE_SMTP_PORT": str(smtp_env.port),
            "MEEPLE_SMTP_USER": smtp_env.user or "", "MEEPLE_SMTP_PASSWORD": smtp_env.password or "",
            "MEEPLE_SMTP_FROM": smtp_env.sender, "MEEPLE_SMTP_STARTTLS": "1" if smtp_env.starttls else "0",
        })
    uvicorn.run("meeple.server.app:app_from_env", factory=True, workers=workers, host=host, port=port,
                log_level="info", ws_max_size=4 * MAX_MESSAGE_CHARS, ws_per_message_deflate=ws_deflate,
                ws=WS_IMPLEMENTATION, proxy_headers=False)


@app.command("bots")
def bots_command(
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar="MEEPLE_DATABASE_URL", help="The site's database (as given to serve).")] = None,
    redis_url: Annotated[str | None, typer.Option(
        "--redis-url", envvar="MEEPLE_REDIS_URL", help="The site's Redis (as given to serve).")] = None,
    processes: Annotated[int, typer.Option(
        envvar="MEEPLE_BOT_PROCESSES", min=0, help="Processes the bots think in (default: one per core).")] = 0,
    bot_delay: Annotated[float | None, typer.Option(
        help="Seconds a bot waits before moving (env MEEPLE_BOT_DELAY; default 0.8).")] = None,
) -> None:
    """Run a standalone bot worker: claims the site's bot jobs and plays them (serve --no-bots leaves
    them all to such workers)."""
    import asyncio
    import os

    from meeple.server.config import Settings
    from meeple.server.worker import run_bot_worker

    try:
        settings = Settings.from_env(database_url=database_url, bot_delay=bot_delay, redis_url=redis_url,
                                     bot_processes=processes or (os.cpu_count() or 1))
        console.print(f"meeple bots: database {_safe_url(settings.database_url)}, "
                      f"{settings.bot_processes} processes")
        asyncio.run(run_bot_worker(settings))
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


@app.command("ladder")
def ladder(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many ladder games to play.")] = 10,
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: as many as the levels, within the game's limits).")] = None,
    levels: Annotated[str, typer.Option(help="The bot levels on the ladder, comma-separated.")] = "easy,medium,hard",
    seed: Annotated[int | None, typer.Option(help="Seed of the first game (default: random); game i uses seed+i.")]
    = None,
    option: OptionArg = None,
    preset: PresetArg = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar="MEEPLE_DATABASE_URL", help="The site's database (as given to serve).")] = None,
) -> None:
    """Play rated bot-vs-bot games between the bot levels and record them in the site's database, so
    each level has a rating per game (on the leaderboards and its profile page) and players see where
    they stand against each."""
    import secrets

    from meeple.server.ladder import LadderGame, play_ladder
    from meeple.server.ratings import MIN_GAMES_LISTED
    from meeple.server.store import Store

    chosen = _game(game)
    names = [level_name(level.strip()) for level in levels.split(",") if level.strip()]
    unknown = [level for level in names if level not in BOT_KINDS]
    if unknown or len(set(names)) < 2 or len(set(names)) != len(names):
        raise typer.BadParameter(f"give at least two different levels among {', '.join(BOT_KINDS)}",
                                 param_hint="--levels")
    if "medium" in names and not has_heuristic(chosen.name):
        raise typer.BadParameter(f"{chosen.name} has no medium bot yet: leave medium out", param_hint="--levels")
    count = players if players is not None else max(chosen.min_players, min(chosen.max_players, len(names)))
    chosen_options = _parse_options(option, preset)
    first = seed if seed is not None else secrets.randbits(40)
    _new_game(chosen, count, first, chosen_options)  # validates players and options up front
    engine = _site_database(database_url)
    store = Store(engine)

    def report(result: LadderGame) -> None:
        winners = ", ".join(result.levels[seat] for seat in result.winners)
        console.print(f"table {result.table_id}: {' / '.join(result.levels)} — won by {winners}")

    try:
        play_ladder(store, chosen.name, count, names, games, first, chosen_options, on_game=report)
        board = {row["bot_level"]: row for row in store.leaderboard(chosen.name, count, 0, limit=100_000) if row["bot"]}
    finally:
        engine.dispose()
    table = Table("level", "rating", "rated games", "wins", title=f"{chosen.title}, {count} players: the bot ladder")
    for level in names:
        row = board.get(level)
        table.add_row(level, str(row["rating"]) if row else "-", str(row["games"]) if row else "0",
                      str(row["wins"]) if row else "0")
    console.print(table)
    console.print(f"(leaderboards list players with at least {MIN_GAMES_LISTED} rated games)")


@app.command("import-tournament")
def import_tournament_command(
    folder: Annotated[Path, typer.Argument(help="A results folder of meeple tournament --out.")],
    game: Annotated[list[int] | None, typer.Option(
        "--game", "-g", metavar="N",
        help="Only this game (its index in games.csv, from 0); repeat for more. Default: all.")] = None,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", envvar="MEEPLE_DATABASE_URL", help="The site's database (as given to serve).")] = None,
) -> None:
    """Put a tournament's kept games on the site as finished, unrated tables, each to watch in the
    browser's replay (/tables/ID/replay): every game is played again from its moves and must end as its
    row says. Importing again adds only the games not yet there."""
    from meeple.server.store import Store
    from meeple.server.tournament_games import ImportedGame, import_tournament
    from meeple.tournament import ResultsFolderError

    engine = _site_database(database_url)

    def report(imported: ImportedGame) -> None:
        lineup = " / ".join(f"{level} {score}" for level, score in zip(imported.levels, imported.scores, strict=True))
        state = "" if imported.added else " (already there)"
        console.print(f"game {imported.index}: /tables/{imported.table_id}/replay — {lineup}{state}")

    try:
        games = import_tournament(Store(engine), folder, set(game) if game else None, on_game=report)
    except ResultsFolderError as error:
        raise typer.BadParameter(str(error), param_hint="FOLDER") from None
    finally:
        engine.dispose()
    added = sum(imported.added for imported in games)
    console.print(f"{added} game{'s' * (added != 1)} added, {len(games) - added} already there")


def _site_database(database_url: str | None) -> Any:
    """The site's database engine (``--database-url`` or the environment, as ``serve`` reads it), migrated."""
    from meeple.server.config import Settings
    from meeple.server.db import make_engine, migrate

    try:
        settings = Settings.from_env(database_url=database_url)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    engine = make_engine(settings.database_url)
    migrate(engine)
    return engine


def _safe_url(url: str) -> str:
    """The database URL with any password hidden, for the start-up line."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

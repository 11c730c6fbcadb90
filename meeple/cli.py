"""The ``meeple`` command: play in the terminal, simulate bot games, inspect games and options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple.bots import BOT_KINDS, make_bot
from meeple.core.contract import Game, GameState
from meeple.core.errors import IllegalAction, MeepleError
from meeple.core.registry import game_names, load_game
from meeple.simulate import simulate as run_simulation
from meeple.terminal import renderer_for

app = typer.Typer(
    help="meeple: Citadels, The Castles of Burgundy, Caylus and Palais Royal — play, simulate, serve.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console(highlight=False)

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


def _bot_kinds(text: str) -> list[str]:
    kinds = [kind.strip() for kind in text.split(",") if kind.strip()]
    unknown = [kind for kind in kinds if kind not in BOT_KINDS]
    if not kinds or unknown:
        raise typer.BadParameter(f"bots must be among {', '.join(BOT_KINDS)}", param_hint="--bots")
    return kinds


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
    bots: Annotated[str, typer.Option(help="Bot kind for the other seats (comma list per seat).")] = "random",
    option: OptionArg = None,
    preset: PresetArg = None,
) -> None:
    """Play in the terminal against bots: your view is drawn, you pick from your legal actions."""
    chosen = _game(game)
    state = _new_game(chosen, players, seed, _parse_options(option, preset))
    if not 0 <= seat < players:
        raise typer.BadParameter(f"seat must be between 0 and {players - 1}", param_hint="--seat")
    kinds = _bot_kinds(bots)
    seated = {s: make_bot(kinds[min(i, len(kinds) - 1)], seed=f"{state.seed}:{s}")
              for i, s in enumerate(s for s in range(players) if s != seat)}
    render = renderer_for(game)
    console.print(f"[bold]{chosen.title}[/] — {players} players, you are seat {seat}, seed {state.seed}")
    while not state.is_over:
        current = state.current_player
        assert current is not None
        if current != seat:
            state.apply(seated[current].choose(state))
            continue
        console.print(render(state.view(seat), seat))
        actions = list(state.legal_actions())
        console.print(Columns([f"[cyan]{i}[/] {a}" for i, a in enumerate(actions, 1)], padding=(0, 3)))
        while True:
            try:
                answer = console.input("[bold]your move[/] (number or notation, q to quit): ").strip()
            except EOFError:
                console.print("\ninput ended; game abandoned")
                raise typer.Exit(1) from None
            if answer in {"q", "quit", "exit"}:
                console.print(f"game abandoned; replay it with --seed {state.seed}")
                raise typer.Exit(0)
            choice: Any = answer
            if answer.isdigit():
                number = int(answer)
                if not 1 <= number <= len(actions):
                    console.print(f"[red]choose a number from 1 to {len(actions)}[/]")
                    continue
                choice = actions[number - 1]
            try:
                state.apply(choice)
                break
            except IllegalAction as error:
                console.print(f"[red]{error}[/]")
    console.print(render(state.view(seat), seat))
    scores = state.scores()
    winners = state.winners()
    table = Table("seat", "score", "", title="Final scores")
    for s, score in enumerate(scores):
        table.add_row(f"{s}{' (you)' if s == seat else ''}", str(score), "winner" if s in winners else "")
    console.print(table)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")] = "citadels",
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    bots: Annotated[str, typer.Option(help="Bot kind per seat, comma-separated; the last repeats.")] = "random",
    option: OptionArg = None,
    preset: PresetArg = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results to this JSON file.")] = None,
) -> None:
    """Play bot games and report wins per seat, mean scores, mean rounds and games per second."""
    chosen = _game(game)
    chosen_options = _parse_options(option, preset)
    _new_game(chosen, players, seed, chosen_options)  # validates players and options up front
    kinds = _bot_kinds(bots)
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, transient=True,
    ) as progress:
        task = progress.add_task(f"{chosen.title}, {players} players", total=games)
        result = run_simulation(
            game, players, games, seed=seed, bot_kinds=kinds, options=chosen_options,
            on_game=lambda _state: progress.advance(task),
        )
    table = Table("seat", "bot", "wins", "win share", "mean score",
                  title=f"{chosen.title}: {result.games} games, {players} players")
    for s in range(players):
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


def _pace(games: int, seconds: float) -> str:
    """Games per second, or seconds per game when games are slow (searching bots)."""
    if seconds <= 0.0:
        return f"{games} games"
    rate = games / seconds
    if rate >= 1.0:
        return f"{rate:.1f} games per second ({seconds:.1f} s in all)"
    return f"{seconds / games:.1f} s per game ({seconds / 60:.1f} min in all)"


@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="Game name, e.g. citadels.")],
    bots: Annotated[str, typer.Option(help="One bot kind per seat, comma-separated, e.g. ismcts,random,random.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    workers: Annotated[int | None, typer.Option(help="Worker processes (default: every core).")] = None,
    option: OptionArg = None,
    preset: PresetArg = None,
    out: Annotated[Path | None, typer.Option(help="Write summary.json and games.csv into this folder.")] = None,
) -> None:
    """Bots against bots with seats rotated: win shares with 95% intervals, mean scores, ratings."""
    from meeple.tournament import run_tournament

    chosen = _game(game)
    kinds = _bot_kinds(bots)
    chosen_options = _parse_options(option, preset)
    _new_game(chosen, len(kinds), seed, chosen_options)  # validates the lineup size and options up front
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=console, transient=True,
    ) as progress:
        task = progress.add_task(f"{chosen.title}: {' vs '.join(kinds)}", total=games)
        result = run_tournament(game, kinds, games, seed=seed, options=chosen_options, workers=workers,
                                on_game=lambda _record: progress.advance(task))
    table = Table("bot", "games", "wins", "win share (95% CI)", "mean score", "rating μ", "σ",
                  title=f"{chosen.title}: {games} games, seats rotated")
    for entry in sorted(result.entries, key=lambda e: -e.ordinal):
        low, high = entry.win_share_interval
        table.add_row(entry.name, str(entry.games), f"{entry.wins:g}",
                      f"{entry.win_share:.1%} ({low:.1%}–{high:.1%})", f"{entry.mean_score:.2f}",
                      f"{entry.mu:.1f}", f"{entry.sigma:.1f}")
    console.print(table)
    console.print(_pace(games, result.seconds))
    if out is not None:
        summary, csv_file = result.write(out)
        console.print(f"results written to {summary} and {csv_file}")


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
) -> None:
    """Serve the web platform: lobby, tables, bots, replays (migrations are applied at start)."""
    import uvicorn

    from meeple.server.app import create_app
    from meeple.server.config import Settings

    try:
        settings = Settings.from_env(database_url=database_url, bot_delay=bot_delay, allowed_origins=allowed_origin)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    console.print(f"meeple serving on [bold]http://{host}:{port}[/] — database {_safe_url(settings.database_url)}")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")


def _safe_url(url: str) -> str:
    """The database URL with any password hidden, for the start-up line."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

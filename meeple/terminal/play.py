"""``meeple play``: one person against bots in the terminal.

Each time the person's turn comes, the board is drawn, then what happened since their previous decision
(the log in the web's sentences), then their legal actions in words. A decision with a single legal
action is played for them (and shown) unless they asked to confirm every one. At the prompt, ``log``
shows the whole log (in a pager when it is longer than the screen) and ``log N`` its last N lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.bots.base import Bot
from meeple.core.contract import GameState
from meeple.core.errors import IllegalAction
from meeple.terminal import LogBook, Screen
from meeple.terminal.common import SeatNames

#: At most this many lines of news when a turn begins; the rest is a ``log`` away.
NEWS_LINES = 40
QUIT = frozenset({"q", "quit", "exit"})
HELP = ("Type a number or a notation to move. Other commands: log (the whole log), log N (its last N lines), "
        "board (draw the board and your moves again), help, q (quit).")


class PlaySession:
    """One game in the terminal: bots move by themselves, the person is asked (or not, when forced)."""

    def __init__(self, state: GameState[Any], seat: int, bots: Mapping[int, Bot], screen: Screen,
                 names: SeatNames, console: Console, confirm_forced: bool = False) -> None:
        self.state = state
        self.seat = seat
        self.bots = bots
        self.screen = screen
        self.names = names
        self.console = console
        self.confirm_forced = confirm_forced
        self.book = LogBook(screen, names)
        self.log_tip_given = False

    def run(self) -> int:
        """Play to the end; the exit code: 0 finished or quit, 1 input ended, 130 Ctrl-C."""
        try:
            return self._play()
        except KeyboardInterrupt:
            self.console.print(f"\ngame abandoned; replay it with --seed {self.state.seed}")
            return 130

    def _play(self) -> int:
        state = self.state
        while not state.is_over:
            if state.current_player != self.seat:
                self._let_bots_play()
                continue
            view = state.view(self.seat)
            actions = list(state.legal_actions())
            if len(actions) == 1 and not self.confirm_forced:
                self._print_news(view)
                label = self.screen.action_label(str(actions[0]), view, self.names)
                self.console.print(Text.assemble(("Your only move, played for you: ", "dim"), (label, "bold")))
                state.apply(actions[0])
                continue
            self._show_turn(view, actions)
            exit_code = self._ask(view, actions)
            if exit_code is not None:
                return exit_code
        self._finish()
        return 0

    def _let_bots_play(self) -> None:
        """The bots' moves up to the person's next decision, with a spinner on a terminal (a hard bot
        thinks up to a second a move)."""
        state = self.state
        spinner = self.console.status("the bots are playing…") if self.console.is_terminal else nullcontext()
        with spinner:
            while not state.is_over and state.current_player != self.seat:
                current = state.current_player
                assert current is not None
                state.apply(self.bots[current].choose(state))

    # --- what the person sees -------------------------------------------------------------------------

    def _print_news(self, view: Mapping[str, Any], title: str = "Since your last move") -> None:
        """The log lines the person has not been shown yet (public, then private)."""
        public, private = self.book.unseen(view)
        if public:
            lines = public[-NEWS_LINES:]
            if len(public) > len(lines):
                lines.insert(0, f"… {len(public) - len(lines)} earlier lines: type `log` to read the whole log")
            self.console.print(Panel(Text("\n".join(lines)), title=title, title_align="left"))
        if private:
            self.console.print(Panel(Text("\n".join(private)), title="Only you saw", title_align="left"))

    def _show_turn(self, view: Mapping[str, Any], actions: Sequence[Any], news: bool = True) -> None:
        self.console.print(self.screen.render_view(dict(view), self.seat, self.names))
        if news:
            self._print_news(view)
        self.console.print(self._action_menu(view, actions))
        if not self.log_tip_given:
            self.console.print(Text(HELP, style="dim"))
            self.log_tip_given = True

    def _action_menu(self, view: Mapping[str, Any], actions: Sequence[Any]) -> RenderableType:
        items = []
        for number, action in enumerate(actions, 1):
            notation = str(action)
            label = self.screen.action_label(notation, view, self.names)
            item = Text.assemble((f"{number:>2} ", "cyan"), label)
            if label != notation:
                item.append(f"  {notation}", style="dim")
            items.append(item)
        return Columns(items, padding=(0, 3))

    def _show_log(self, view: Mapping[str, Any], command: str) -> None:
        """``log``: the whole log (a pager when it is longer than the screen); ``log N``: the last N lines."""
        public, private = self.book.everything(view)
        _, _, count = command.partition(" ")
        if count.strip().isdigit():
            public = public[-int(count):]
            private = private[-int(count):]
        parts: list[RenderableType] = [Text("\n".join(public) or "—")]
        if private:
            parts += [Text("\nOnly you saw", style="bold"), Text("\n".join(private))]
        log = Panel(Group(*parts), title="Log", title_align="left")
        if self.console.is_terminal and len(public) + len(private) > self.console.height - 4:
            with self.console.pager():  # plain text: `less` shows escape codes without -R
                self.console.print(log)
        else:
            self.console.print(log)

    def _ask(self, view: Mapping[str, Any], actions: Sequence[Any]) -> int | None:
        """Read commands until the person moves (None) or leaves (an exit code)."""
        while True:
            try:
                answer = self.console.input("[bold]your move[/] (number, notation, log, help, q): ").strip()
            except EOFError:
                self.console.print("\ninput ended; game abandoned")
                return 1
            if answer in QUIT:
                self.console.print(f"game abandoned; replay it with --seed {self.state.seed}")
                return 0
            if answer in ("help", "?"):
                self.console.print(HELP)
                continue
            if answer in ("board", "b"):
                self._show_turn(view, actions, news=False)
                continue
            if answer == "log" or answer.startswith("log "):
                self._show_log(view, answer)
                continue
            choice: Any = answer
            if answer.isdigit():
                number = int(answer)
                if not 1 <= number <= len(actions):
                    self.console.print(f"[red]choose a number from 1 to {len(actions)}[/]")
                    continue
                choice = actions[number - 1]
            try:
                self.state.apply(choice)
                return None
            except IllegalAction as error:
                self.console.print(Text(str(error), style="red"))

    def _finish(self) -> None:
        state = self.state
        view = state.view(self.seat)
        self.console.print(self.screen.render_view(view, self.seat, self.names))
        self._print_news(view, title="The last moves")
        winners = state.winners()
        table = Table("player", "score", "result", title="Final scores")
        for seat, score in enumerate(state.scores()):
            table.add_row(self.names.styled(seat), str(score), "winner" if seat in winners else "")
        self.console.print(table)

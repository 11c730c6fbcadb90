"""Caylus (William Attia, Ystari 2005) for 2–5 players: rules in docs/games/caylus.md."""

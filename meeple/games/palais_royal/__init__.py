"""Palais Royal (Xavier Georges, 2008): servants in a 3×3 palace, nobles recruited from a garden.

``load_game("palais_royal")`` gives the engine; see docs/games/palais_royal.md for the notation.
"""

"""One observation encoder per game (see ``meeple/research/encoding.py``)."""

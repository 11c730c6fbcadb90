"""The Castles of Burgundy (alea 2011), 2–4 players: rules engine through the meeple contract."""

"""Game variables: the numbers the rules use, which a Proclamation may change (rule 3).

game.toml's [variables] table overrides these defaults for a new game.
"""
DEFAULTS: dict[str, int] = {
    "accept_points": 3,        # rule 11
    "reject_points": 2,        # rule 11
    "win_score": 50,           # rule 11 / rule 8 (the second)
    "start_temperature": 303,  # rule 12
    "queue_limit": 2,          # rule 4
}

"""The era card game (1955 / 1985 / 2015): roles, a shared DeLorean, plays, ripples and events.

The rules follow a Japanese summary of the rulebook; ``docs/rules/eras.md`` translates every rule
sentence the engine implements and writes down each decision where the summary is silent.
"""

"""Back in Time, the cooperative board game: 2-4 players win or lose together.

``data`` holds the facts the rulebook states and checks a content pack's entries; ``rules`` is
the pure engine (the State API); ``odds`` computes the exact chance that chosen dice meet a
challenge; ``content`` declares the pack's sections; ``bots`` plays for the simulator;
``bench`` measures. The board graph, the tracker columns, the track lengths, the Part costs, the
Power Tiles, the cards and the dice's faces are content: the demo pack (``demo.toml``) invents
them and says so.
"""

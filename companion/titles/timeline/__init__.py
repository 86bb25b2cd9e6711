"""Back to the Future: The Card Game (Looney Labs): the companion keeps the TimeLine.

The cards stay physical. The companion keeps the TimeLine (which Linchpins are altered and what
ripples from them), the B-1 stack, the Items in play and the turn, and tells the players exactly
which cards to turn over. Hands and ID cards stay secret until played or shown.
"""

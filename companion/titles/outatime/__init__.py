"""OUTATIME, the dice game: six custom dice, Power cards, ripples and paradoxes."""

"""Chipfist package."""

# The catalogue registers how a message reads in English (bot/words), so that every
# entry point, the engine's included, says its messages through it.
import bot.words  # noqa: F401

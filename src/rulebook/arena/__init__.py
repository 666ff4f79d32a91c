"""``rulebook arena``: tournaments among agents and their ratings.

:mod:`~rulebook.arena.plan` draws the tables, :mod:`~rulebook.arena.play` plays them (in
parallel, resumable), :mod:`~rulebook.arena.ratings` fits the Plackett-Luce model,
:mod:`~rulebook.arena.standings` puts the figures together and
:mod:`~rulebook.arena.leaderboard` writes them out. The arena sees games only through
:mod:`rulebook.core` and agents only through :func:`rulebook.agents.make_agent`.
"""

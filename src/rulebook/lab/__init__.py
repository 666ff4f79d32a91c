"""The balance lab: many games between bots, stored per game, and reports for designers.

:mod:`~rulebook.lab.runner` plays jobs in parallel (processes or Ray) into Parquet files that
resume after an interruption (:mod:`~rulebook.lab.storage`); :mod:`~rulebook.lab.overrides`
changes a game's data for a run; :mod:`~rulebook.lab.stats` holds the statistics;
:mod:`~rulebook.lab.report` and :mod:`~rulebook.lab.compare` read the results back;
:mod:`~rulebook.lab.strength` measures the bots against each other;
:mod:`~rulebook.lab.tune` searches data values that meet a balance target. Everything here
sees games only through :mod:`rulebook.core`.
"""

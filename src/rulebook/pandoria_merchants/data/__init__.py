"""Pandoria Merchants data files (TOML), read by :mod:`rulebook.pandoria_merchants.content`."""

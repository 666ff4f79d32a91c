"""Tiny games registered by the tests (not shipped): see :mod:`toyland.duel`."""

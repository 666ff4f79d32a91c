"""What the table says aloud: the steps the rules take on their own.

A move may set off steps nobody chooses: a Season's battles fought, an enclosed area scored,
a round's end with new Monsters on the paths, a Mastery claimed. Players at a real table see
them happen and say them aloud; a log of moves alone would pass over them in silence. So the
rules tell of each such step where they take it, by its name, in the rulebook's terms::

    s.tell("battle", a, winner, levels)

and the game's ``aloud`` module (beside its ``words``; :attr:`State.texts`) puts it in plain
words: a function of that name, of the state at that moment and the step's details, returning
an :class:`Event` (or several, or none). The rules never import it, so it may use any of them.
Nothing is built while nobody listens, as in search: :meth:`State.tell` is then one call that
returns. Front ends listen to a move with :func:`rulebook.core.state.apply_heard` (TAG's forward
models log their events the same way: ``logEvent``).

An event is told to every seat and to spectators, so it holds only what every seat may see,
except :attr:`Event.own`, what the seat it is about is told instead when it knows more (the
cards it drew). The leak tests hold every event to that (``tests/test_web_leaks.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.core.words import third_person


@dataclass(frozen=True)
class Event:
    """One step the rules took on their own, in plain words.

    An event about one seat (``seat``) is a phrase that begins with its verb, as
    :meth:`State.describe` is (``Win the battle at Mountains 2 ...``): the seat reads it after
    "You" and the others in the third person after the seat's name ("Seat 2 wins the battle
    ..."). An event of the whole table (``seat`` None) is a sentence of its own ("Winter's
    battles begin."). ``own``, when given, is what the seat the event is about reads instead
    of ``text`` (a phrase too: what it alone may know); ``text`` may then be empty when the
    others are told nothing.
    """

    seat: int | None
    text: str
    own: str | None = None

    def phrase(self, viewer: int | None) -> str | None:
        """What ``viewer`` (a seat, or None for a spectator) is told, as written: ``own`` for
        the seat the event is about where it has one, else ``text``; None when it is told
        nothing."""
        if viewer is not None and viewer == self.seat and self.own is not None:
            return self.own or None
        return self.text or None

    def told_to(self, viewer: int | None) -> str | None:
        """The event as ``viewer`` reads it in a log line: after "You" for its own seat's
        event, in the third person after the seat's name for another seat's (``wins the
        battle ...``), the sentence itself for the table's; None when it is told nothing."""
        said = self.phrase(viewer)
        if said is None or self.seat is None:
            return said
        return said[:1].lower() + said[1:] if viewer == self.seat else third_person(said)

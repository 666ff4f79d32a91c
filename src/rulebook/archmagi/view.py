"""What each seat sees of the Player Turn, and its moves in words (Archmagi).

PLAYER TURN: the Play Area lies "faceup"; the Magic Pool, the Spell Books and the Monster Decks
are face down, and every Hand is its owner's alone. SYMBOLS GUIDE, Search: "Look at this many
Spells from the top of the Magic Pool ... and take one of those Spells into your Hand": those
Spells are named to the searching seat only (:func:`announce`, :func:`describe_public`). The
moves of each phase (Play Phase, Monster Phase, a decision inside an Action, the hand limit, the
Flow of Magic) in plain words: :func:`describe`. No rule is decided here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulebook.archmagi.flow import flows_to
from rulebook.archmagi.monsters import favor
from rulebook.archmagi.moves import MONSTER, OVER, PLAY, Move
from rulebook.archmagi.symbols import COMMON, Effect, Spell, effects_words
from rulebook.core.data import fields
from rulebook.core.words import plural

if TYPE_CHECKING:
    from rulebook.archmagi.state import Table
    from rulebook.core import Action

#: moves that choose a Spell among several seen: menus show the Spell's actions
CHOOSING = ("draft", "take")

#: what a decision's move means, for menus and the move log: {task: {verb: text}}
DECISION_TEXTS = {
    "flow": {"take": "Flow of Magic", "pass": "Flow of Magic: leave it"},
    "pay": {"discard": "to take a Spell by the Flow of Magic"},
    "limit": {"discard": "hand limit"},
    "search": {"take": "Search"},
    "return": {"return": "on top of the Magic Pool"},
    "may": {"use": "", "skip": "you may: no"},
}


def spell_text(spell: Spell) -> str:
    """A Spell's printed actions: ``top: gain 1 crystal(s); bottom: draft 1``."""
    top = ", ".join(e.text() for e in spell.top) or "-"
    if not spell.bottom:
        return f"{spell.element}; {top}"
    return f"{spell.element}; top: {top}; bottom: {', '.join(e.text() for e in spell.bottom)}"


def _monster_view(s: Table, m: int) -> dict[str, Any]:
    """A Monster of a Path as it lies face up (MONSTERS: cost, Tier, Reward, Favor Points)."""
    monster = s.content.monsters[m]
    return {
        **fields(monster, "name", "tier", "crystals", "spells"),
        "reward": [e.text() for e in monster.reward],
        "favor": monster.favor,
    }


def _choice_view(s: Table, player: int | None) -> dict[str, Any] | None:
    """The decision waited for: its kind and seat for everyone; its cards only for the
    seat deciding (and the Spell offered by the Flow of Magic, which lies face up)."""
    if not s.stack or s.phase == OVER:
        return None
    kind, p, n, data = s.stack[-1]
    choice: dict[str, Any] = {"kind": kind, "seat": p, "count": n}
    name_of = s.moves.name_of
    if kind in ("flow", "pay"):
        choice["spell"] = name_of[data]
    if p == player:
        if kind in ("search", "return"):
            choice["looking"] = [name_of[c] for c in s.looking]
        elif kind == "look":
            choice["looking"] = [name_of[c] for c in s.books[p][-n:]]
        elif kind == "may":
            choice["effects"] = [e.text() for e in data]
    return choice


def view(s: Table, player: int | None) -> dict[str, Any]:
    """The table as ``player`` sees it (``None``: as every seat sees it, without a Hand or
    a decision's cards). Public: piles face up, Paths, Planted areas, Crystals, Favor and
    the sizes of the hidden piles. Hidden: the order of the Magic Pool, Spell Books and
    Monster decks, and every Hand but the viewer's own."""
    name_of = s.moves.name_of
    seats = []
    for p in range(s.num_players):
        magi = s.magi_of(p)
        seats.append(
            {
                "magi": magi.name,
                "element": magi.element,
                "crystals": s.crystals[p],
                "favor": favor(s, p),
                "monsters": [s.content.monsters[m].name for m in s.trophies[p]],
                "hand": len(s.hands[p]),
                "spell_book": len(s.books[p]),
                "planted": [name_of[c] for c in s.planted[p]],
            }
        )
    obs: dict[str, Any] = {
        "game": s.setup.game,
        "you": player,
        "round": s.round,
        "rounds": s.content.rules.rounds,
        "last_turn": s.final,
        "phase": s.phase,
        "turn": s.turn,
        "plays": s.plays if s.phase == PLAY else 0,
        "current_players": list(s.current_players()),
        "magic_pool": len(s.pool) + len(s.looking),
        "discard_pile": [name_of[c] for c in s.discard],
        "exhausted": [name_of[c] for c in s.exhausted],
        "play_area": [name_of[c] for c in s.play_area],
        "paths": [[_monster_view(s, m) for m in path] for path in s.paths],
        "monster_decks": [len(d) for d in s.monster_decks],
        "seats": seats,
        "choice": _choice_view(s, player),
    }
    if player is not None:
        obs["hand"] = [name_of[c] for c in s.hands[player]]
    if s.phase == OVER:
        obs["winners"] = s.winners()
    return obs


def explain(s: Table, player: int, action: Action) -> str:
    """The move with what it does, for menus: ``top Ember (gain 1 crystal(s))``."""
    if type(action) is not Move:
        return str(action)
    kind = s.stack[-1][0] if s.stack else ""
    if kind in DECISION_TEXTS and action.verb in DECISION_TEXTS[kind]:
        text = f"{action} ({DECISION_TEXTS[kind][action.verb]})"
        spell = s.content.spell_by_name.get(action.card) if action.card else None
        if spell is not None and action.verb in CHOOSING:
            text = f"{text[:-1]}: {spell_text(spell)})"
        if kind == "may" and action.verb == "use":
            group = ", ".join(e.text() for e in s.stack[-1][3])
            text = f"{action} ({group})"
        return text
    if not action.card:
        return str(action)
    c = s.content
    if action.verb == "defeat":
        for m in c.monsters:
            if m.name == action.card:
                reward = ", ".join(e.text() for e in m.reward) or "nothing"
                return (
                    f"{action} (pay {m.crystals} crystals, {m.spells} spells; "
                    f"reward {reward}; {m.favor} favor)"
                )
    spell = c.spell_by_name.get(action.card)
    if spell is None:
        return str(action)
    effects: tuple[Effect, ...] = ()
    if action.verb == "top":
        effects = spell.top
    elif action.verb == "bottom":
        effects = spell.bottom
    elif action.verb == "both":
        effects = spell.top + spell.bottom
    if action.verb in CHOOSING:
        return f"{action} ({spell_text(spell)})"
    if not effects:
        return str(action)
    return f"{action} ({', '.join(e.text() for e in effects)})"


def announce(s: Table, player: int, action: Action) -> str:
    """The move as the other seats learn of it: a Search's ``take`` and ``return`` name
    Spells of the face-down Magic Pool (SYMBOLS GUIDE, Search), so they are not named."""
    if _searched(s, action):
        if s.stack[-1][0] == "search":
            return "take a Spell (Search)"
        return "return a Spell to the top of the Magic Pool (Search)"
    return explain(s, player, action)


def _searched(s: Table, action: Action) -> bool:
    """Whether ``action`` names a Spell a Search looks at: a Spell of the face-down Magic
    Pool, named to the searching seat alone (SYMBOLS GUIDE, Search)."""
    return (
        bool(s.stack)
        and type(action) is Move
        and bool(action.card)
        and s.stack[-1][0] in ("search", "return")
    )


# -- moves in plain words --------------------------------------------------------------------------


def describe(s: Table, player: int, action: Action) -> str:
    """The move in plain words, with what it costs: ``Play the Top Action of Ember (a Fire
    Spell): gain 1 Crystal; uses 1 of your 2 Plays``."""
    return _plain(s, player, action, own=True)


def describe_public(s: Table, player: int, action: Action) -> str:
    """The move in plain words as the others learn of it (``their Hand``); a Search's
    ``take`` and ``return`` name no Spell (as :meth:`announce`)."""
    if _searched(s, action):
        if s.stack[-1][0] == "search":
            return "Take one of the Spells they looked at into their Hand (Search)"
        return "Put one of the Spells they looked at back on top of the Magic Pool (Search)"
    return _plain(s, player, action, own=False)


def _plain(s: Table, p: int, action: Action, own: bool) -> str:
    """:meth:`describe` told to ``p`` (``own``: "your Hand") or of ``p`` ("their Hand")."""
    if type(action) is not Move:
        return str(action)
    if s.stack:
        return _plain_decision(s, p, action, own)
    if s.phase == MONSTER:
        return _plain_monster(s, p, action, own)
    return _plain_play(s, p, action, own)


def _kind_of(s: Table, spell: Spell) -> str:
    if spell.element == COMMON:
        return "a Common Spell, Exhausted after use"
    return f"a {spell.element.capitalize()} Spell"


def _plays_used(s: Table, own: bool) -> str:
    """What a Play costs: one of the Plays left this turn."""
    your = "your" if own else "their"
    if s.plays == 1:
        return f"uses {your} last Play"
    return f"uses 1 of {your} {s.plays} Plays"


def _grows(s: Table, p: int, spell: Spell, own: bool) -> str:
    """What a Spell Planted by ``p`` will do (the Flora Magi's Planted Spells), or ""."""
    if not s.magi_of(p).planted_bottoms or spell.element != s.magi[p]:
        return ""
    your = "your" if own else "their"
    return (
        f"; its Bottom Action ({effects_words(spell.bottom, own)}) then happens at the start "
        f"of each of {your} Play Phases"
    )


def _goes(s: Table, p: int, spell: Spell) -> str:
    """Where a Spell ``p`` discards goes, and who may take it by the Flow of Magic."""
    if spell.element == COMMON:
        return "to the Exhausted pile"
    q = flows_to(p, spell, s.seat_of)
    if q is None:
        return "to the discard pile"
    return f"to the discard pile (the {s.magi_of(q).name} may take it by the Flow of Magic)"


def _plain_play(s: Table, p: int, move: Move, own: bool) -> str:
    """A Play (PLAY PHASE): draw, an Action of a Spell, the Flora Magi's Plant, or end."""
    your = "your" if own else "their"
    verb = move.verb
    if verb == "end":
        if not s.plays:
            return "End the Play Phase"
        return f"End the Play Phase, losing {plural(s.plays, 'unused Play')}"
    cost = _plays_used(s, own)
    if verb == "draw":
        return f"Draw the top Spell of the Magic Pool into {your} Hand; {cost}"
    spell = s.content.spell_by_name.get(move.card)
    if spell is None:
        return explain(s, p, move)
    name = spell.name
    if verb == "plant":
        grows = _grows(s, p, spell, own)
        return f"Plant {name} from {your} Hand in {your} Planted area{grows}; {cost}"
    if verb == "top":
        part, effects = f"the Top Action of {name}", spell.top
    elif verb == "bottom":
        part, effects = f"the Bottom Action of {name}", spell.bottom
    else:
        part, effects = f"both Actions of {name}, Top then Bottom", spell.top + spell.bottom
    return f"Play {part} ({_kind_of(s, spell)}): {effects_words(effects, own)}; {cost}"


def _plain_monster(s: Table, p: int, move: Move, own: bool) -> str:
    """MONSTER PHASE: defeat a Monster (its cost, Favor and Reward), or none."""
    if move.verb != "defeat":
        return "Defeat no Monster this turn"
    monster = next((m for m in s.content.monsters if m.name == move.card), None)
    if monster is None:
        return explain(s, p, move)
    your = "your" if own else "their"
    cost = plural(monster.crystals, "Crystal")
    if monster.spells:
        cost += f" and {plural(monster.spells, 'Spell')} discarded from {your} Hand"
    reward = f"Reward: {effects_words(monster.reward, own)}" if monster.reward else "no Reward"
    return (
        f"Defeat the {monster.name} (Tier {monster.tier}) for {cost}, "
        f"worth {plural(monster.favor, 'Favor Point')}; {reward}"
    )


def _plain_decision(s: Table, p: int, move: Move, own: bool) -> str:
    """A decision inside an Action, a Reward, the hand limit or the Flow of Magic."""
    kind, _, n, data = s.stack[-1]
    your = "your" if own else "their"
    verb = move.verb
    rules = s.content.rules
    name = move.card
    spell = s.content.spell_by_name.get(name) if name else None
    instead = (
        "Draw the top Spell of the Magic Pool instead of drafting "
        f"(allowed from Round {rules.drafts_as_draws_round} on)"
    )
    if kind == "may":
        effects = effects_words(data, own)
        return f"Choose to {effects}" if verb == "use" else f"Decline to {effects}"
    if kind == "flow":
        offered = s.moves.name_of[data]
        if verb == "pass":
            return f"Decline to answer the Flow of Magic, leaving {offered} in the discard pile"
        magi = s.magi_of(p)
        price = (
            f"free for the {magi.name}"
            if magi.free_flow
            else f"paid with a Spell discarded from {your} Hand next"
        )
        return (
            f"Take {offered} from the discard pile into {your} Hand by the Flow of Magic, {price}"
        )
    if kind == "draft":
        if verb == "draw":
            return instead
        more = f" ({n} Drafts to make)" if n > 1 else ""
        return (
            f"Draft the top Spell of {your} Spell Book onto the discard pile of the "
            f"Magic Pool{more}"
        )
    if kind == "look":
        if verb == "draw":
            return f"{instead}; the Spell Book is shuffled afterwards"
        seen = len(s.books[p][-n:])
        return (
            f"Draft {name} from the top {plural(seen, 'Spell')} of {your} Spell Book onto the "
            "discard pile of the Magic Pool; the Spell Book is shuffled afterwards"
        )
    if kind == "search":
        return f"Take {name} into {your} Hand from the Spells looked at (Search)"
    if kind == "return":
        return (
            f"Put {name} back on top of the Magic Pool (Search): the Spells put back "
            "after it lie above it"
        )
    if spell is None:
        return explain(s, p, move)
    if kind == "plant":
        grows = _grows(s, p, spell, own)
        return f"Plant {name} from {your} Hand in {your} Planted area{grows}"
    goes = _goes(s, p, spell)
    if kind == "uproot":
        return f"Uproot {name} from {your} Planted area {goes}"
    text = f"Discard {name} from {your} Hand {goes}"
    if kind == "limit":
        held = len(s.hands[p])
        return f"{text}, to get down to the hand limit of {rules.hand_limit} ({held} in Hand)"
    if kind == "pay":
        return f"{text}, to take {s.moves.name_of[data]} by the Flow of Magic"
    return f"{text} ({n} to discard)" if n > 1 else text

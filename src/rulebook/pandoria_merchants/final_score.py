"""End of Game and Final Score: the conversions, the winner and the tie-breaker.

"Convert your remaining Resources separately 2:1 for Victory Points. Each card you bought but
did not use is worth 1 VP. Each remaining Artifact is worth 1VP." "The player with the most VP
wins! If there is a tie, the tied player who built the highest-scoring Monument wins." Family:
"the tied player with the most unused Spells wins"; solo: "If you have more total points than
the Trolls, you win!". (When the game ends is turn flow:
:meth:`~rulebook.pandoria_merchants.rules.PandoriaState._end_turn`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulebook.pandoria_merchants import solo
from rulebook.pandoria_merchants.terms import FAMILY_VP, OWNED, STANDARD_VP, count_of, sum_of

if TYPE_CHECKING:
    from rulebook.pandoria_merchants.state import PandoriaSheets


def conversions(s: PandoriaSheets, player: int) -> tuple[int, int, int]:
    """End of Game and Final Score (standard and solo): Resources 2:1, unused cards,
    remaining Artifacts, as they would count now."""
    rate = s.c.tracks.overflow_per_vp
    resources = 0
    for t in s.tracks[player]:
        resources += t // rate
    return resources, count_of(s.cards[player], OWNED), s.held_artifacts[player]


def score_breakdown(s: PandoriaSheets, player: int) -> dict[str, int]:
    """End of Game and Final Score: Crown VP by source plus the final conversions (what they
    would give now, while the game runs). Family: 1 VP per Resource scored and the Guild
    bonus."""
    vp = s.vp[player]
    if s.family:
        return dict(zip(FAMILY_VP, vp, strict=True))
    out = dict(zip(STANDARD_VP, vp, strict=True))
    out["resources"], out["unused_cards"], out["artifacts"] = conversions(s, player)
    return out


def score(s: PandoriaSheets, player: int) -> int:
    """End of Game and Final Score: a seat's score now, the sum of :func:`score_breakdown`
    (without making it)."""
    vp = sum_of(s.vp[player])
    if s.family:
        return vp
    resources, unused, artifacts = conversions(s, player)
    return vp + resources + unused + artifacts


def tiebreak(s: PandoriaSheets, player: int) -> tuple[int, ...]:
    """End of Game and Final Score: standard and solo, the highest Monument built; family,
    most unused Spells."""
    if s.family:
        return (len(s.held[player]),)
    return (max(s.monuments_won[player], default=0),)


def score_notes(s: PandoriaSheets) -> dict[str, str]:
    """End of Game and Final Score: what each category of :func:`score_breakdown` counts, in
    plain words (solo: and the Trolls' categories, :func:`solo.score_notes`)."""
    if s.family:
        return {
            "areas": "1 point for each Resource hex of an area scored, times your Workers "
            "next to it",
            "guild": "Guild Scoring: 1 bonus point for each hex of your Guild's Resource in "
            "an area scored where you had a Worker",
        }
    t = s.c.tracks
    per = t.overflow_per_vp
    notes = {
        "cities": "1 VP for each City hex of an area scored, times your Workers next to it, "
        f"+ {t.statue_vp} per City hex for each Statue you had built",
        "overflow": f"Resources earned beyond a full track ({t.maximum}): 1 VP for every {per}",
        "store": f"the Store: {t.store_vp} VP each time scoring an area filled a track past "
        f"{t.maximum}",
        "shrine": f"the Shrine: {t.shrine_vp} VP for each Spell cast once it was built",
        "academy": f"the Academy: {t.academy_vp} VP for each Building, Monument or Relic made "
        "once it was built",
        "relics": "the Relics you made (the highest-scoring one left each time)",
        "monuments": "the Monuments you built (the highest-scoring one left each time)",
        "resources": f"at the end, 1 VP for every {per} of each Resource left on your tracks",
        "unused_cards": "at the end, 1 VP for each card you bought but neither cast nor built",
        "artifacts": "at the end, 1 VP for each Artifact not made into a Relic",
    }
    return {**notes, **solo.score_notes(s)}


def solo_beats_the_trolls(s: PandoriaSheets) -> bool:
    """End of Game and Final Score (solo): "If you have more total points than the Trolls, you
    win!": only strictly more wins; a tie is not more, so the Trolls win it."""
    return score(s, 0) > solo.trolls_total(s)

"""The Merchants of Magick board for the web app: the Shoppe sheet (shared roll-and-write
sheet, ``rulebook.core.rollwrite.web``) with this game's own printed parts: the Potion each
row gives (CRAFTING, SPELL RESEARCH), the Charms' bonus Coins, the Extra Dice boxes' Potion
costs (EXTRA DICE), the Sponsored Adventurer rewards and the solo rating table; and the texts
every part explains itself with, from the data files (the cards' the same as ``card NAME``)."""

from __future__ import annotations

from typing import Any

from rulebook.core import Setup
from rulebook.core.rollwrite.web import sheet_static, sheet_tips
from rulebook.core.rollwrite.words import listed, source_note, with_note
from rulebook.core.words import plural
from rulebook.merchants_of_magick.cards import cards
from rulebook.merchants_of_magick.content import Content, content
from rulebook.merchants_of_magick.rules import CATEGORIES, TIEBREAKS, row_reward

SHARED = ("rulebook.core.rollwrite.web",)

#: what each category of rows is and the score pad's categories, as the tips say them
TIPS = sheet_tips(__name__)


def static(setup: Setup) -> dict[str, Any]:
    """The printed sheet and cards' fixed texts (the same for every seed)."""
    c = content()
    solo = setup.variant == "solo"
    out = sheet_static(
        setup, c, cards, row_reward, TIPS.categories, texts(c, solo), line="orders", value="coins"
    )
    out["explain"]["extra"] = with_note(out["explain"]["extra"], source_note(c.rules))
    for row, spec in zip(out["rows"], c.rows, strict=True):
        row["potions"] = spec.potions if spec.potions is not None else c.rules.potions_per_row
        if spec.bonus_category is not None:
            row["bonus"] = {"coins": spec.bonus_coins, "category": spec.bonus_category}
        row["explain"] = with_note(row["explain"], source_note(spec))
    r = c.rewards
    out["adventurer_rewards"] = [
        f"{r.first_potions} Potions",
        f"{r.second_free_marks} free mark",
        f"{r.third_free_marks} free mark + Coins",
    ]
    if solo:
        out["ratings"] = [[score, name] for score, name in c.solo.ratings]
    return out


def texts(c: Content, solo: bool) -> dict[str, str]:
    """The tips of this game's own parts: the deck, the score, Potions, free marks, the solo
    rating."""
    rules, r = c.rules, c.rewards
    paid = [str(i + 1) for i, cost in enumerate(rules.extra_dice_costs) if cost]
    suppliers = [f"{spec.name}: {spec.potions}" for spec in c.rows if spec.potions is not None]
    ties = ", then ".join(TIEBREAKS)
    out = {
        "deck": "The Orders deck: each Order claimed is replaced face-down from it; once it is "
        "empty, a shoppe keeps one Order fewer.",
        "score": f"Your Coins so far: {listed([TIPS.score[k] for k in CATEGORIES])}. The "
        f"most Coins after round {c.rounds} wins; ties: {ties}.",
        "potions": f"Potions: spend them with a result, each raising or lowering it by 1, or on "
        f"Extra Dice slots {listed(paid)}. You gain {plural(rules.potions_per_row, 'Potion')} "
        f"for each row you complete ({listed(suppliers)}) and {r.first_potions} for your "
        f"Sponsored Adventurer's first Order.",
        "free_marks": "Free mark: mark any open circle of your sheet, no die needed (your "
        "Sponsored Adventurer's 2nd and 3rd Orders give one each). Make it before anything "
        "else.",
    }
    if solo:
        table = "; ".join(f"{score}: {name}" for score, name in c.solo.ratings)
        lowest = c.solo.ratings[0][0]
        out["rating"] = with_note(
            f"Solo rating, the title your final score earns: {table}; below {lowest}: "
            f"{c.solo.below}.",
            source_note(c.solo),
        )
    return out

"""Archmagi's setup option: the Magi of the first seats (SETUP 5: "their chosen color")."""

from rulebook.archmagi.content import ELEMENTS
from rulebook.core import Option

MAGI_RULE = (
    f"comma-separated distinct Magi from {', '.join(ELEMENTS)}, or random; the first N are "
    "dealt to the seats"
)


def magi_option(value: str) -> str:
    """The ``magi`` option in its canonical form (lower case, no spaces): ``random`` or the
    Magi of the first seats in order (SETUP 5: "their chosen color"); ``ValueError`` saying
    what is wrong."""
    names = [name.strip().lower() for name in value.split(",")]
    if names == ["random"]:
        return "random"
    if "" in names:
        raise ValueError("an empty name between commas" if len(names) > 1 else "no Magi named")
    if "random" in names:
        raise ValueError("random stands alone (it deals every Magi)")
    unknown = list(dict.fromkeys(name for name in names if name not in ELEMENTS))
    if unknown:
        raise ValueError(f"no Magi called {', '.join(unknown)}")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"{', '.join(twice)} named twice (one seat each)")
    return ",".join(names)


#: the option: seats not named are dealt at random from the seed (``ArchmagiState._set_up``)
MAGI = Option(
    "magi",
    (),
    "random",
    description="the Magi of the first seats, e.g. fire,flora (seats not named are dealt at "
    "random from the other Magi); random: all dealt from the seed",
    rule=MAGI_RULE,
    check=magi_option,
)

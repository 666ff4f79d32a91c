"""docs/web.md states the web app's defaults as the code applies them: a clock sent without
``bank``, ``per_move``, ``grace``... gets the values ``ClockBody`` gives (issue 38)."""

from __future__ import annotations

import re
from pathlib import Path

from rulebook.web.api import ClockBody

DOC = Path(__file__).resolve().parent.parent / "docs" / "web.md"


def test_the_clock_defaults_are_documented() -> None:
    text = re.sub(r"\s+", " ", DOC.read_text(encoding="utf-8"))
    fields = ClockBody.model_fields
    defaults = {
        name: fields[name].default
        for name in ("bank", "increment", "cap", "per_move", "grace", "bot")
    }
    said = ", ".join(
        f"`{name}` {value if name != 'bot' else f'`{value}`'}" for name, value in defaults.items()
    )
    # the sentence lists them in this order, each with its value (and a gloss in brackets)
    glossed = re.sub(r" \([^()]*(?:\([^()]*\)[^()]*)*\)", "", text)
    assert said in glossed, said
    realtime = ClockBody.model_validate({"kind": "realtime"}).clock()
    turn = ClockBody.model_validate({"kind": "turn"}).clock()
    assert realtime is not None and turn is not None
    assert f'`{{"kind": "realtime"}}` alone is {realtime.describe()[len("real time ") :]}' in text
    assert f'`{{"kind": "turn"}}` alone is {turn.describe()}' in text

"""Back in Time's content pack: the board, the tracks, the tiles, the cards and the dice.

The sections and their entries are described in ``companion.titles.back_in_time.data`` and in
``docs/titles/back_in_time.md``. Almost nothing of it is public: the demo pack invents it and
says so; an owner registers their own box, entry by entry. A pack may be incomplete while it is
being registered (``check_pack`` refuses only contradictions); ``playable`` says what a game
still lacks.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _
from companion.titles.api import check_fields
from companion.titles.back_in_time import data


def _text(text: str) -> str:
    return text.strip()


def _int(text: str) -> int:
    return int(text)


# `companion cards add` fields: flag -> (sections it belongs to, help, parser or None to use
# parse_field). A flag shared by several sections lists them all.
FIELDS: dict[str, tuple[tuple[str, ...], str, Any]] = {
    "name": (("place", "item", "opportunity", "trouble"), "the name printed on it", _text),
    "role": (("place",), "for a place the rulebook names: " + ", ".join(data.ROLES), _text),
    "places": (("link",), "two adjacent place ids, e.g. elm-st,oak-st", None),
    "spaces": (("track",), "the DeLorean track's place ids in order, start first", None),
    "ready": (("track",), "the 3 Ready Zone place ids", None),
    "negative": (("love",), "how many Love Meter spaces lie below 0", _int),
    "start": (("love", "tracker"), "the Love Meter's Start space, or the tracker's start space",
              _int),
    "players": (("tracker",), "the player count of this Turn Tracker (2, 3 or 4)", _int),
    "columns": (("tracker",), "icons of all 21 spaces: columns split by /, icons by +, e.g. "
                "/move/move+love/trouble1+move", None),
    "faces": (("die",), "the six faces, e.g. love,love,love,wild,wild,biff", None),
    "cost": (("part",), "Knowledge symbols the Part costs", _int),
    "move": (("tile",), "spaces the tile moves (0-6)", _int),
    "die": (("tile",), "the colour of die the tile gives: " + ", ".join(data.COLOURS), _text),
    "modifier": (("tile",), "wild, reroll or reroll_all", _text),
    "character": (("tile", "opportunity"), "marty, doc, jennifer or einstein", _text),
    "use": (("item",), "die:<colour>, wild, reroll, reroll_all, move:N or backpack", _text),
    "assist": (("item",), "yes if it may be used while assisting", None),
    "moves": (("movement",), 'the moves in order, e.g. "george 2 clock-tower,biff 1 nearest"',
              None),
    "place": (("opportunity", "trouble"), "the place id where the card is laid", _text),
    "need": (("opportunity", "trouble"), "symbols to roll, e.g. knowledge:2,courage:1", None),
    "reward": (("opportunity", "trouble"), "what success gives, e.g. tile,love+1", None),
    "effect": (("trouble",), "what happens when it is drawn, e.g. biff+1,love-1", None),
    "level": (("trouble",), "1, 2 or 3", _int),
    "note": (tuple(data.SECTIONS), "anything to remember about the entry", _text),
}

_LISTS = ("places", "spaces", "ready", "faces", "moves", "reward", "effect")


def _fields_checked(section: str, validate):
    """``validate`` after refusing a field that ``section``'s entries do not have."""
    allowed = {"id", "source"} | {f for f, (sections, _h, _p) in FIELDS.items()
                                  if section in sections}

    def checked(entry: dict[str, Any]) -> dict[str, Any]:
        check_fields(entry, allowed, _("a {section} entry").format(section=section))
        return validate(entry)

    return checked


SECTIONS = {name: _fields_checked(name, validate) for name, validate in data.SECTIONS.items()}


def parse_field(name: str, text: str) -> Any:
    """The value of a ``cards add`` flag, from the text typed."""
    if name in _LISTS:
        return [part.strip() for part in text.split(",") if part.strip()]
    if name == "columns":
        columns = text.split("/")
        if columns and not columns[0].strip() and len(columns) == data.TRACKER_SPACES + 1:
            columns = columns[1:]
        return [[i for i in column.replace(" ", "+").split("+") if i] for column in columns]
    if name == "need":
        need = {}
        for part in text.split(","):
            symbol, _sep, n = part.strip().partition(":")
            if not symbol:
                continue
            try:
                need[symbol] = int(n or 1)
            except ValueError as exc:
                raise ValueError(_("--need {text!r}: write symbols like knowledge:2,courage:1")
                                 .format(text=text)) from exc
        return need
    if name == "assist":
        if text.strip().lower() in ("yes", "true", "1", "y"):
            return True
        if text.strip().lower() in ("no", "false", "0", "n", ""):
            return False
        raise ValueError(_("--assist {text!r}: write yes or no").format(text=text))
    parser = FIELDS[name][2] if name in FIELDS else _text
    try:
        return parser(text)
    except ValueError as exc:
        raise ValueError(_("--{name} {text!r}: write a whole number").format(
            name=name, text=text)) from exc


def describe(section: str, entry: dict[str, Any]) -> str:
    """One line for ``companion cards list``."""
    if section == "place":
        role = " [{role}]".format(role=entry["role"]) if entry.get("role") else ""
        return entry["name"] + role
    if section == "link":
        return " - ".join(entry["places"])
    if section == "track":
        return _("{spaces}; ready: {ready}").format(spaces=" > ".join(entry["spaces"]),
                                                    ready=", ".join(entry["ready"]))
    if section == "love":
        return _("{bottom} to {top}, start {start}").format(
            bottom=-entry["negative"], top=data.LOVE_TOP, start=entry["start"])
    if section == "tracker":
        used = sum(1 for c in entry["columns"] if c)
        return _("{n}P, start space {start}, {used} columns with icons").format(
            n=entry["players"], start=entry["start"], used=used)
    if section == "die":
        return ",".join(entry["faces"])
    if section == "part":
        return _("cost {n} knowledge").format(n=entry["cost"])
    if section == "tile":
        bits = [_("move {n}").format(n=entry["move"])] if entry["move"] else []
        bits += [_("{colour} die").format(colour=entry["die"])] if entry["die"] else []
        bits += [entry["modifier"]] if entry["modifier"] else []
        line = " / ".join(bits)
        if entry.get("character"):
            line = _("{tile} ({character} starter)").format(tile=line,
                                                            character=entry["character"])
        return line
    if section == "item":
        line = _("{name}: {use}").format(name=entry["name"], use=entry["use"])
        return _("{item} (assist)").format(item=line) if entry["assist"] else line
    if section == "movement":
        return "; ".join(entry["moves"])
    need = ",".join(f"{k}:{v}" for k, v in entry["need"].items())
    line = _("{name} at {place}: need {need}, reward {reward}").format(
        name=entry.get("name", entry["id"]), place=entry["place"], need=need,
        reward=",".join(entry["reward"]) or "-")
    if section == "trouble":
        line = _("level {level} {card}; effect {effect}").format(
            level=entry["level"], card=line, effect=",".join(entry["effect"]) or "-")
    return line


def users_of(sections: dict[str, list[dict[str, Any]]], section: str, entry_id: str
             ) -> list[str]:
    """The entries that name ``entry_id`` of ``section`` (a link or a card naming a place, a
    card rewarding an item), as "link 'a~b'": ``companion cards remove`` refuses to remove an
    entry still in use, and says which to remove first."""
    users: list[tuple[str, str]] = []
    if section == "place":
        for link in sections.get("link", ()):
            if entry_id in link.get("places", ()):
                users.append(("link", link["id"]))
        for track in sections.get("track", ()):
            if entry_id in track.get("spaces", ()) or entry_id in track.get("ready", ()):
                users.append(("track", track["id"]))
        for name in ("opportunity", "trouble"):
            for card in sections.get(name, ()):
                if card.get("place") == entry_id:
                    users.append((name, card["id"]))
        for card in sections.get("movement", ()):
            if any(_toward(move) == entry_id for move in card.get("moves", ())):
                users.append(("movement", card["id"]))
    elif section == "item":
        for name in ("opportunity", "trouble"):
            for card in sections.get(name, ()):
                terms = [*card.get("reward", ()), *card.get("effect", ())]
                if any(_item_of(term) == entry_id for term in terms):
                    users.append((name, card["id"]))
    return [f"{name} {user_id!r}" for name, user_id in users]


def _toward(move: Any) -> str | None:
    try:
        return data.parse_move(move)[2]
    except ValueError:
        return None


def _item_of(term: Any) -> str | None:
    try:
        return data.parse_term(term)[2]
    except ValueError:
        return None


def check_pack(pack) -> None:
    """Refuse entries that contradict each other or the box (an incomplete pack is fine)."""
    data.check_consistent(data.sections_of(pack))


def playable(pack, players: int) -> str | None:
    """What the pack still lacks for a game of ``players`` (None: it can be played)."""
    return data.missing(data.sections_of(pack), players)

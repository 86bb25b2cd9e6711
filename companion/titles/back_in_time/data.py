"""Back in Time's facts and content: what the rulebook states, and the checks on a content pack.

Pure: the standard library, ``companion.titles.api`` and ``companion.i18n`` only. The rules
engine and the ``content`` hooks both build on it.

The rulebook states the characters and their powers, the named places (Town Square, George's,
Lorraine's and Doc's Houses, the Clock Tower, Hill Valley High, the South Shops) and where the
Parts lie, the 21-space Turn Tracker, the Love Meter's zones (negative spaces, 0-12, three heart
spaces), six photo sections, three Knockdown Tokens, two dice per colour. Everything else is
content, each entry with its ``source``:

==============  =====================================================================
section         one entry is
==============  =====================================================================
``place``       a board space: ``name``, optional ``role`` (a place the rulebook names)
``link``        two adjacent places: ``places = [a, b]`` (diagonals are not links)
``track``       the DeLorean track: ``spaces`` in order (board places), ``ready`` (3)
``love``        the Love Meter: ``negative`` spaces below 0, ``start`` space
``tracker``     one player count's Turn Tracker: ``players``, ``start``, ``columns``
``die``         one colour's die: ``id`` = colour, ``faces`` (six)
``part``        a DeLorean Part: ``id`` (cable, gasoline, hook), ``cost`` (Knowledge)
``tile``        a Power Tile: ``move`` (0-6), ``die`` (colour), ``modifier``,
                ``character`` for a starter tile
``item``        an Item card: ``name``, ``use``, ``assist`` (usable while assisting)
``movement``    a Movement card: ``moves``, each ``"<who> <steps> <toward>"``
``opportunity`` an Opportunity card: ``place``, ``need``, ``reward``, ``character``
``trouble``     a Trouble card: ``level``, ``place``, ``effect``, ``need``, ``reward``
==============  =====================================================================

    >>> parse_term("love+2")
    ('love', 2, None)
    >>> parse_move("biff 1 nearest")
    ('biff', 1, 'nearest')
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from companion.i18n import N_, _

# --------------------------------------------------------------------------- rulebook facts

SYMBOLS = ("speed", "knowledge", "courage", "love")
COLOURS = SYMBOLS  # each colour of die is named after its own symbol
WILD = "wild"
BIFF = "biff"
FACES = (*SYMBOLS, WILD, BIFF)
FACE_ALIASES = {
    "speed": "speed",
    "arrow": "speed",
    "lightning": "speed",
    "knowledge": "knowledge",
    "magnifier": "knowledge",
    "courage": "courage",
    "star": "courage",
    "love": "love",
    "heart": "love",
    "wild": "wild",
    "biff": "biff",
}

CHARACTERS = ("marty", "doc", "jennifer", "einstein")
CHARACTER_NAMES = {
    "marty": N_("Marty"),
    "doc": N_("Doc"),
    "jennifer": N_("Jennifer"),
    "einstein": N_("Einstein"),
}
NPCS = ("george", "lorraine", "biff")
NPC_NAMES = {"george": N_("George"), "lorraine": N_("Lorraine"), "biff": N_("Biff")}

ROLES = (
    "town_square",
    "george_house",
    "lorraine_house",
    "clock_tower",
    "hill_valley_high",
    "south_shops",
    "doc_house",
)
ROLE_NAMES = {
    "town_square": N_("Town Square"),
    "george_house": N_("George's House"),
    "lorraine_house": N_("Lorraine's House"),
    "clock_tower": N_("Clock Tower"),
    "hill_valley_high": N_("Hill Valley High"),
    "south_shops": N_("South Shops"),
    "doc_house": N_("Doc's House"),
}
PARTS = {"cable": "hill_valley_high", "gasoline": "south_shops", "hook": "clock_tower"}
PART_NAMES = {"cable": N_("Cable"), "gasoline": N_("Gasoline"), "hook": N_("Hook")}
NPC_HOMES = {"george": "george_house", "lorraine": "lorraine_house", "biff": "clock_tower"}

TRACKER_SPACES = 21  # the last one is 10:04 p.m.
PHOTOS = 6
LOVE_PLAIN_TOP = 12  # spaces 0-12 flip one photo
HEART_SPACES = 3  # the three heart-marked spaces above 12
LOVE_TOP = LOVE_PLAIN_TOP + HEART_SPACES
READY_SPACES = 3
KNOCKDOWN_TOKENS = 3
STARTER_TILES = 5
TILE_LIMIT = 8  # the Backpack's "2 extra Power Tiles (max 10)"
BACKPACK_EXTRA = 2
MAX_MOVE = 6
DICE_PER_COLOUR = 2
TROUBLE_LEVELS = (1, 2, 3)
TROUBLE_PER_LEVEL = 6  # "18 Trouble Cards (6 per level: 1, 2, 3)"

MODIFIERS = ("wild", "reroll", "reroll_all")
TRACKER_ICONS = ("trouble1", "trouble2", "trouble3", "move", "move2", "love", "love2")
CHALLENGES = ("love", "delorean", "biff", "part", "opportunity", "trouble")


def place_role_name(role: str) -> str:
    return _(ROLE_NAMES[role])


def character_name(character: str) -> str:
    return _(CHARACTER_NAMES[character])


def npc_name(npc: str) -> str:
    return _(NPC_NAMES[npc])


def part_name(part: str) -> str:
    return _(PART_NAMES[part])


def face(value: Any) -> str:
    """The canonical face name for a face written by a person or read by the camera."""
    key = str(value).strip().lower()
    if key not in FACE_ALIASES:
        raise ValueError(
            _("{value!r} is not a Back in Time die face ({faces})").format(
                value=value, faces=", ".join(FACES)
            )
        )
    return FACE_ALIASES[key]


def colour(value: Any) -> str:
    key = str(value).strip().lower()
    if key not in COLOURS:
        raise ValueError(
            _("{value!r} is not a die colour; the colours are {colours}").format(
                value=value, colours=", ".join(COLOURS)
            )
        )
    return key


# --------------------------------------------------------------------------- small parsers

_TERM = re.compile(r"^(love|delorean|photo)([+-])(\d+)$|^(tile)(?:\+(\d+))?$|^(item)(?::(\S+))?$"
                   r"|^(biff)\+(\d+)$")


def parse_term(text: Any) -> tuple[str, int, str | None]:
    """An effect or reward term: ``love+N``, ``love-N``, ``delorean+N``, ``delorean-N``,
    ``photo+N`` (flip face up), ``photo-N`` (flip face down), ``tile`` or ``tile+N`` (draw
    Power Tiles), ``item`` (the top Item card) or ``item:<id>``, ``biff+N`` (Biff N steps toward
    the nearer of George and Lorraine). Returns (kind, amount, item id)."""
    m = _TERM.match(str(text).strip().lower()) if isinstance(text, str) else None
    if m is None:
        raise ValueError(
            _(
                "{text!r} is not an effect; write love+N, love-N, delorean+N, delorean-N, "
                "photo+N, photo-N, tile, tile+N, item, item:<id> or biff+N"
            ).format(text=text)
        )
    if m.group(1):
        n = int(m.group(3))
        return m.group(1), n if m.group(2) == "+" else -n, None
    if m.group(4):
        return "tile", int(m.group(5) or 1), None
    if m.group(6):
        return "item", 1, m.group(7)
    return "biff", int(m.group(9)), None


def parse_move(text: Any) -> tuple[str, int, str]:
    """A Movement card line ``"<who> <steps> <toward>"``: who is george, lorraine or biff;
    toward is a place id, george, lorraine or nearest (the nearer of George and Lorraine)."""
    parts = str(text).split() if isinstance(text, str) else []
    if len(parts) != 3 or parts[0] not in NPCS or not parts[1].isdigit():
        raise ValueError(
            _(
                '{text!r} is not a move; write "<who> <steps> <toward>", e.g. '
                '"george 2 clock-tower" or "biff 1 nearest"'
            ).format(text=text)
        )
    steps = int(parts[1])
    if not 1 <= steps <= MAX_MOVE:
        raise ValueError(_("{text!r}: steps must be 1-6").format(text=text))
    if parts[2] == parts[0]:
        raise ValueError(_("{text!r}: a mover cannot move toward itself").format(text=text))
    return parts[0], steps, parts[2]


def parse_need(value: Any, where: str = "need") -> dict[str, int]:
    """A challenge's required symbols, e.g. ``{knowledge = 2, courage = 1}``."""
    if not isinstance(value, dict) or not value:
        raise ValueError(
            _("{where} must name the symbols to roll, e.g. {example}").format(
                where=where, example="need = {knowledge = 2}"
            )
        )
    need: dict[str, int] = {}
    for key, n in value.items():
        if key not in SYMBOLS:
            raise ValueError(
                _("{where}: {key!r} is not a symbol ({symbols})").format(
                    where=where, key=key, symbols=", ".join(SYMBOLS)
                )
            )
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 8:
            raise ValueError(_("{where}: {key} must be a number 1-8").format(where=where, key=key))
        need[key] = n
    if sum(need.values()) > 8:
        raise ValueError(_("{where}: more than 8 symbols can never be rolled").format(where=where))
    return need


def _int(entry: dict, key: str, low: int, high: int, default: Any = None) -> int:
    value = entry.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(
            _("{key} must be a whole number from {low} to {high}, not {value!r}").format(
                key=key, low=low, high=high, value=value
            )
        )
    return value


def _text(entry: dict, key: str, required: bool = True) -> str | None:
    value = entry.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(_('{key} must be text, e.g. {key} = "..."').format(key=key))
    return value.strip()


def _list(entry: dict, key: str, default: Any = None) -> list:
    value = entry.get(key, default)
    if not isinstance(value, list):
        raise ValueError(_("{key} must be a list, e.g. {key} = [...]").format(key=key))
    return value


# --------------------------------------------------------------------------- entry validators


def validate_place(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    out["name"] = _text(entry, "name")
    role = entry.get("role")
    if role is not None and role not in ROLES:
        raise ValueError(
            _("role {role!r} must be one of {roles}").format(role=role, roles=", ".join(ROLES))
        )
    return out


def validate_link(entry: dict[str, Any]) -> dict[str, Any]:
    places = _list(entry, "places")
    if len(places) != 2 or not all(isinstance(p, str) and p for p in places):
        raise ValueError(_('places must name two place ids, e.g. places = ["elm-st", "oak-st"]'))
    if places[0] == places[1]:
        raise ValueError(_("a link joins two different places"))
    return {**entry, "places": list(places)}


def validate_track(entry: dict[str, Any]) -> dict[str, Any]:
    spaces = _list(entry, "spaces")
    if len(spaces) < READY_SPACES + 2 or not all(isinstance(s, str) and s for s in spaces):
        raise ValueError(_("spaces must list the track's board places in order (at least 5)"))
    if len(set(spaces)) != len(spaces):
        raise ValueError(_("a place appears twice on the DeLorean track"))
    ready = _list(entry, "ready")
    if len(ready) != READY_SPACES or any(r not in spaces for r in ready):
        raise ValueError(_("ready must name the 3 track spaces of the Ready Zone"))
    idx = sorted(spaces.index(r) for r in ready)
    if idx != list(range(idx[0], idx[0] + READY_SPACES)):
        raise ValueError(_("the 3 Ready Zone spaces must follow each other on the track"))
    return {**entry, "spaces": list(spaces), "ready": [spaces[i] for i in idx]}


def validate_love(entry: dict[str, Any]) -> dict[str, Any]:
    negative = _int(entry, "negative", 1, 12)
    start = _int(entry, "start", -negative, LOVE_PLAIN_TOP)
    return {**entry, "negative": negative, "start": start}


def validate_tracker(entry: dict[str, Any]) -> dict[str, Any]:
    players = _int(entry, "players", 2, 4)
    start = _int(entry, "start", 1, TRACKER_SPACES - 1)
    columns = _list(entry, "columns")
    if len(columns) != TRACKER_SPACES:
        raise ValueError(
            _("columns must list the icons of all {n} spaces, first space first ({k} given)")
            .format(n=TRACKER_SPACES, k=len(columns))
        )
    clean = []
    for number, column in enumerate(columns, start=1):
        if not isinstance(column, list) or any(i not in TRACKER_ICONS for i in column):
            raise ValueError(
                _("column {n}: list icons from {icons}, top to bottom").format(
                    n=number, icons=", ".join(TRACKER_ICONS)
                )
            )
        if sum(1 for i in column if i.startswith("trouble")) > 1:
            raise ValueError(_("column {n}: one Trouble card at most").format(n=number))
        clean.append(list(column))
    return {**entry, "players": players, "start": start, "columns": clean}


def validate_die(entry: dict[str, Any]) -> dict[str, Any]:
    colour(entry["id"])
    faces = _list(entry, "faces")
    if len(faces) != 6:
        raise ValueError(_("faces must list the six faces of the die"))
    clean = [face(f) for f in faces]
    if BIFF not in clean:
        raise ValueError(_("every die has a Biff face; list it among the six"))
    return {**entry, "faces": clean}


def validate_part(entry: dict[str, Any]) -> dict[str, Any]:
    if entry["id"] not in PARTS:
        raise ValueError(_("a Part is one of {parts}").format(parts=", ".join(PARTS)))
    return {**entry, "cost": _int(entry, "cost", 1, 8)}


def validate_tile(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    out["move"] = _int(entry, "move", 0, MAX_MOVE, 0)
    die = entry.get("die")
    out["die"] = colour(die) if die is not None else None
    modifier = entry.get("modifier")
    if modifier is not None and modifier not in MODIFIERS:
        raise ValueError(
            _("modifier {m!r} must be one of {mods}").format(m=modifier, mods=", ".join(MODIFIERS))
        )
    out["modifier"] = modifier
    character = entry.get("character")
    if character is not None and character not in CHARACTERS:
        raise ValueError(
            _("character {c!r} must be one of {chars}").format(
                c=character, chars=", ".join(CHARACTERS)
            )
        )
    out["character"] = character
    if not out["move"] and not out["die"] and not modifier:
        raise ValueError(_("a Power Tile needs a move value, a die colour or a modifier"))
    return out


def parse_use(text: Any) -> tuple[str, Any]:
    """An Item's use: ``die:<colour>``, ``wild``, ``reroll``, ``reroll_all``, ``move:N``,
    ``backpack``."""
    value = str(text).strip().lower() if isinstance(text, str) else ""
    if value in ("wild", "reroll", "reroll_all", "backpack"):
        return value, None
    kind, _sep, arg = value.partition(":")
    if kind == "die" and arg in COLOURS:
        return "die", arg
    if kind == "move" and arg.isdigit() and 1 <= int(arg) <= MAX_MOVE:
        return "move", int(arg)
    raise ValueError(
        _(
            "use {text!r} must be die:<colour>, wild, reroll, reroll_all, move:N (1-6) or backpack"
        ).format(text=text)
    )


def validate_item(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    out["name"] = _text(entry, "name")
    parse_use(entry.get("use"))
    out["use"] = str(entry["use"]).strip().lower()
    assist = entry.get("assist", False)
    if not isinstance(assist, bool):
        raise ValueError(_("assist must be true or false"))
    out["assist"] = assist
    return out


def validate_movement(entry: dict[str, Any]) -> dict[str, Any]:
    moves = _list(entry, "moves")
    if not moves:
        raise ValueError(_('moves must list at least one move, e.g. moves = ["george 1 oak-st"]'))
    for move in moves:
        parse_move(move)
    return {**entry, "moves": list(moves)}


def _terms(entry: dict, key: str) -> list[str]:
    terms = _list(entry, key, [])
    for term in terms:
        parse_term(term)
    return [str(t).strip().lower() for t in terms]


def validate_opportunity(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    out["place"] = _text(entry, "place")
    out["need"] = parse_need(entry.get("need"))
    out["reward"] = _terms(entry, "reward")
    if not out["reward"]:
        raise ValueError(_('reward must list what success gives, e.g. reward = ["tile"]'))
    character = entry.get("character")
    if character is not None and character not in CHARACTERS:
        raise ValueError(
            _("character {c!r} must be one of {chars}").format(
                c=character, chars=", ".join(CHARACTERS)
            )
        )
    return out


def validate_trouble(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    out["level"] = _int(entry, "level", 1, 3)
    out["place"] = _text(entry, "place")
    out["need"] = parse_need(entry.get("need"))
    out["effect"] = _terms(entry, "effect")
    out["reward"] = _terms(entry, "reward")
    return out


SECTIONS = {
    "place": validate_place,
    "link": validate_link,
    "track": validate_track,
    "love": validate_love,
    "tracker": validate_tracker,
    "die": validate_die,
    "part": validate_part,
    "tile": validate_tile,
    "item": validate_item,
    "movement": validate_movement,
    "opportunity": validate_opportunity,
    "trouble": validate_trouble,
}

# The box's counts: a pack may hold fewer while the owner registers it, never more.
BOX = {
    "track": 1,
    "love": 1,
    "tracker": 3,
    "die": 4,
    "part": 3,
    "tile": 44,
    "item": 13 + 2,  # two more in the expansion
    "movement": 24,
    "opportunity": 24,
    "trouble": 18,
}


# --------------------------------------------------------------------------- whole-pack checks


def sections_of(content: Any) -> dict[str, list[dict[str, Any]]]:
    """The entries by section of a Pack, or of a recorded setup's dict of sections."""
    if hasattr(content, "sections"):
        raw = content.sections
    elif isinstance(content, dict):
        raw = content
    else:
        raise ValueError(
            _("Back in Time needs a content pack with its sections (place, link, track, ...)")
        )
    return {name: [dict(e) for e in raw.get(name, ())] for name in SECTIONS}


def check_consistent(sections: dict[str, list[dict[str, Any]]]) -> None:
    """Raise ValueError for entries that contradict each other or the box, however incomplete
    the pack still is (an owner registers a box one entry at a time)."""
    for name, most in BOX.items():
        if len(sections[name]) > most:
            raise ValueError(
                _("{n} {section} entries: the box has at most {most}").format(
                    n=len(sections[name]), section=name, most=most
                )
            )
    places = {p["id"] for p in sections["place"]}
    roles: dict[str, str] = {}
    for p in sections["place"]:
        role = p.get("role")
        if role:
            if role in roles:
                raise ValueError(
                    _("places {a!r} and {b!r} both have role {role}; one place per role").format(
                        a=roles[role], b=p["id"], role=role
                    )
                )
            roles[role] = p["id"]
    seen_links = set()
    for link in sections["link"]:
        for p in link["places"]:
            if p not in places:
                raise ValueError(
                    _("link {id!r}: no place {p!r}; add the place first").format(
                        id=link["id"], p=p
                    )
                )
        key = frozenset(link["places"])
        if key in seen_links:
            raise ValueError(_("link {id!r} joins two places already linked").format(id=link["id"]))
        seen_links.add(key)
    for track in sections["track"]:
        for p in track["spaces"]:
            if p not in places:
                raise ValueError(_("track: no place {p!r}; add the place first").format(p=p))
        doc = roles.get("doc_house")
        if doc is not None:
            if doc not in track["spaces"]:
                raise ValueError(_("track: Doc's House ({p}) must be on the DeLorean track")
                                 .format(p=doc))
            if track["spaces"].index(doc) >= track["spaces"].index(track["ready"][0]):
                raise ValueError(_("track: the Ready Zone must lie beyond Doc's House"))
    for level in TROUBLE_LEVELS:
        n = sum(1 for card in sections["trouble"] if card["level"] == level)
        if n > TROUBLE_PER_LEVEL:
            raise ValueError(_("{n} Trouble cards of level {level}: the box has {most} of each "
                               "level").format(n=n, level=level, most=TROUBLE_PER_LEVEL))
    counts = [t["players"] for t in sections["tracker"]]
    if len(set(counts)) != len(counts):
        raise ValueError(_("two Turn Trackers for the same player count"))
    stars = {}
    for tile in sections["tile"]:
        if tile["character"]:
            stars[tile["character"]] = stars.get(tile["character"], 0) + 1
    for character, n in stars.items():
        if n > STARTER_TILES:
            raise ValueError(
                _("{name} has {n} starter tiles; each character has {k}").format(
                    name=character, n=n, k=STARTER_TILES
                )
            )
    items = {i["id"] for i in sections["item"]}
    for item in sections["item"]:
        if parse_use(item["use"])[0] == "backpack" and item["assist"]:
            raise ValueError(_("item {id!r}: a Backpack is never used to assist").format(
                id=item["id"]))
    for section in ("opportunity", "trouble"):
        for card in sections[section]:
            if card["place"] not in places:
                raise ValueError(
                    _("{section} {id!r}: no place {p!r}").format(
                        section=section, id=card["id"], p=card["place"]
                    )
                )
            for term in card.get("reward", []) + card.get("effect", []):
                kind, _n, item = parse_term(term)
                if kind == "item" and item is not None and item not in items:
                    raise ValueError(
                        _("{section} {id!r}: no item {item!r}").format(
                            section=section, id=card["id"], item=item
                        )
                    )
    for card in sections["movement"]:
        for move in card["moves"]:
            who, _steps, toward = parse_move(move)
            if toward == "nearest" and who != "biff":
                raise ValueError(
                    _("movement {id!r}: only Biff moves toward the nearest of George and "
                      "Lorraine").format(id=card["id"])
                )
            if toward not in NPCS and toward != "nearest" and toward not in places:
                raise ValueError(
                    _("movement {id!r}: {p!r} is neither a place nor george, lorraine, nearest")
                    .format(id=card["id"], p=toward)
                )


def missing(sections: dict[str, list[dict[str, Any]]], players: int) -> str | None:
    """What a consistent pack still lacks to play a game of ``players`` (None: nothing)."""
    places = {p["id"]: p for p in sections["place"]}
    roles = {p.get("role"): pid for pid, p in places.items() if p.get("role")}
    fix = _("add it to the pack (docs/titles/back_in_time.md tells how)")
    for role in ROLES:
        if role not in roles:
            return _("the board has no place with role {role}; {fix}").format(role=role, fix=fix)
    if not _connected(places, sections["link"]):
        return _("the board is not connected: some places cannot be reached from Town Square; "
                 "add the missing links")
    for name in ("track", "love"):
        if not sections[name]:
            return _("the pack has no {section} entry; {fix}").format(section=name, fix=fix)
    if not any(t["players"] == players for t in sections["tracker"]):
        return _("the pack has no Turn Tracker for {n} players; {fix}").format(n=players, fix=fix)
    dice = {d["id"] for d in sections["die"]}
    for c in COLOURS:
        if c not in dice:
            return _("the pack does not say the faces of the {c} die; {fix}").format(c=c, fix=fix)
    parts = {p["id"] for p in sections["part"]}
    for part in PARTS:
        if part not in parts:
            return _("the pack does not give the cost of the {p} Part; {fix}").format(p=part,
                                                                                      fix=fix)
    for character in CHARACTERS:
        n = sum(1 for t in sections["tile"] if t["character"] == character)
        if n != STARTER_TILES:
            return _("{c} has {n} of 5 starter Power Tiles; {fix}").format(c=character, n=n,
                                                                          fix=fix)
    if not sections["movement"]:
        return _("the pack has no Movement cards; {fix}").format(fix=fix)
    if len(sections["opportunity"]) < 3:
        return _("3 Opportunity cards are laid out at the start; the pack has {n}; {fix}").format(
            n=len(sections["opportunity"]), fix=fix)
    return None


def _connected(places: dict[str, Any], links: list[dict[str, Any]]) -> bool:
    if not places:
        return False
    nbr: dict[str, set[str]] = {p: set() for p in places}
    for link in links:
        a, b = link["places"]
        nbr[a].add(b)
        nbr[b].add(a)
    start = next(iter(places))
    seen = {start}
    todo = deque([start])
    while todo:
        for n in nbr[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(places)


# --------------------------------------------------------------------------- compiled content

INF = 10**6


class Content:
    """A complete pack's entries, with the lookups the engine needs (never changed)."""

    def __init__(self, sections: dict[str, list[dict[str, Any]]]):
        self.sections = sections
        self.place_ids = [p["id"] for p in sections["place"]]
        self.names = {p["id"]: p["name"] for p in sections["place"]}
        self.role = {p["role"]: p["id"] for p in sections["place"] if p.get("role")}
        self.town = self.role["town_square"]
        order = {p: i for i, p in enumerate(self.place_ids)}
        nbr: dict[str, set[str]] = {p: set() for p in self.place_ids}
        for link in sections["link"]:
            a, b = link["places"]
            nbr[a].add(b)
            nbr[b].add(a)
        self.nbr = {p: tuple(sorted(ns, key=order.__getitem__)) for p, ns in nbr.items()}
        self.npc_nbr = {
            p: tuple(n for n in ns if n != self.town) for p, ns in self.nbr.items()
        }
        self.dist = {p: self._bfs(p, self.nbr) for p in self.place_ids}
        # npc_dist[t][x]: steps for a mover who may not enter Town Square, from x to t
        self.npc_dist = {t: self._bfs(t, self.npc_nbr, start_nbr=self.nbr[t])
                         for t in self.place_ids}
        track = sections["track"][0]
        self.track = list(track["spaces"])
        self.doc_index = self.track.index(self.role["doc_house"])
        self.ready = {self.track.index(r) for r in track["ready"]}
        love = sections["love"][0]
        self.love_bottom = -love["negative"]
        self.love_start = love["start"]
        self.trackers = {t["players"]: t for t in sections["tracker"]}
        self.faces = {d["id"]: tuple(d["faces"]) for d in sections["die"]}
        self.part_cost = {p["id"]: p["cost"] for p in sections["part"]}
        self.part_place = {p: self.role[role] for p, role in PARTS.items()}
        self.tiles = {t["id"]: t for t in sections["tile"]}
        self.starters = {c: [t["id"] for t in sections["tile"] if t["character"] == c]
                         for c in CHARACTERS}
        self.standard = [t["id"] for t in sections["tile"] if not t["character"]]
        self.items = {i["id"]: {**i, "kind": parse_use(i["use"])[0],
                                "arg": parse_use(i["use"])[1]} for i in sections["item"]}
        self.item_order = [i["id"] for i in sections["item"]]
        self.movement = {c["id"]: [parse_move(m) for m in c["moves"]] for c in sections["movement"]}
        self.opportunity = {c["id"]: c for c in sections["opportunity"]}
        self.trouble = {c["id"]: c for c in sections["trouble"]}
        self.trouble_levels = {
            level: [c["id"] for c in sections["trouble"] if c["level"] == level]
            for level in TROUBLE_LEVELS
        }

    def _bfs(self, start: str, nbr: dict[str, tuple[str, ...]],
             start_nbr: tuple[str, ...] | None = None) -> dict[str, int]:
        dist = {p: INF for p in self.place_ids}
        dist[start] = 0
        todo = deque()
        for n in (start_nbr if start_nbr is not None else nbr[start]):
            if n != self.town or start_nbr is None:
                if dist[n] == INF:
                    dist[n] = 1
                    todo.append(n)
        while todo:
            p = todo.popleft()
            for n in nbr[p]:
                if dist[n] == INF:
                    dist[n] = dist[p] + 1
                    todo.append(n)
        return dist

    def name(self, place: str) -> str:
        return self.names[place]

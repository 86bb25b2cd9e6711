"""The Card Game's content as data: TimeLine events, ID cards and game cards, checked.

Three sections of a content pack (see ``docs/titles/timeline.md`` for the format):

``[[event]]``     one TimeLine card (not B-1): ``id`` (its Time Index, "A-1" to "D-6"),
                  ``kind`` ("linchpin" or "ripple"), the ``original`` and ``altered``
                  headlines, ``ripples`` (the events a Linchpin's card lists), ``pair``
                  ("and"/"or", on a Ripplepoint that depends on two events), ``holder`` (an
                  Item: only a player with it in front of them may flip this Linchpin)
``[[identity]]``  one ID card: ``character`` and ``requires`` (event -> "original"/"altered")
``[[card]]``      one game card (``count`` copies): ``name``, ``type`` and what it does

A game card does what its type says plus the effects named by its fields (the vocabulary):

==============  ===============================================================  ===========
field           meaning                                                          types
==============  ===============================================================  ===========
``memo``        cancels the card being played (an Item is discarded to do it)    item, power
``draw_bonus``  draw this many more cards at the start of each of your turns      item
``only``        flips only these Linchpins                                        time machine
``never``       cannot flip these Linchpins                                       time machine
``needs``       an Item the player must have in front of them                     time machine
``linchpin``    the one Linchpin this DoubleBack flips                            doubleback
``item``        the Item that, discarded, gives the DoubleBack a second flip      doubleback
``hitch``       flip any Linchpin if the previous player changed the TimeLine     action, power
``steal``       take an Item from in front of another player                      action, power
``trash``       another player discards an Item from in front of them             action, power
``replay``      play a card that is not a Power Action, chosen from the           action, power
                "discard" pile or the "deck" (the draw pile, then shuffled)
``draw``        draw this many cards                                              all but item
``extra_play``  this many more plays this turn                                    all but item
``out_of_turn`` may be played when it is not your turn (while a card is pending)  power
==============  ===============================================================  ===========

Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import N_, _
from companion.titles.api import check_fields
from companion.titles.timeline.graph import B1, LINCHPIN, PAIRS, POSITIONS, RIPPLE, Graph

TYPES = ("item", "time_machine", "doubleback", "action", "power_action")
TYPE_NAMES = {
    "item": N_("Item"),
    "time_machine": N_("Time Machine"),
    "doubleback": N_("DoubleBack"),
    "action": N_("Action"),
    "power_action": N_("Power Action"),
}
SIDES = ("original", "altered")
REPLAY_FROM = ("discard", "deck")
# The printed box, as the rulebook's contents list counts it (the demo pack keeps these counts).
BOX_COUNTS = {"item": 17, "time_machine": 6, "doubleback": 8, "action": 17, "power_action": 14}
BOX_IDENTITIES = 10

_COMMON = {"id", "source", "note"}
EVENT_FIELDS = _COMMON | {"kind", "original", "altered", "ripples", "pair", "holder"}
IDENTITY_FIELDS = _COMMON | {"character", "requires"}
_CARD_COMMON = _COMMON | {"name", "type", "count"}
CARD_FIELDS = {
    "item": {"memo", "draw_bonus"},
    "time_machine": {"only", "never", "needs", "extra_play", "draw"},
    "doubleback": {"linchpin", "item"},
    "action": {"hitch", "steal", "trash", "replay", "draw", "extra_play"},
    "power_action": {
        "memo", "out_of_turn", "hitch", "steal", "trash", "replay", "draw", "extra_play"
    },
}
FLAGS = ("memo", "hitch", "steal", "trash", "out_of_turn")
NUMBERS = {"draw": (1, 5), "extra_play": (1, 3), "draw_bonus": (1, 2), "count": (1, 20)}
# A card targets at most one thing; these choose what.
TARGETING = ("hitch", "steal", "trash", "replay", "memo")


def _text(entry: dict[str, Any], key: str, required: bool = False) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise ValueError(
            _("{key} must be text in quotes, not {value}").format(key=key, value=repr(value))
        )
    if required and not value.strip():
        raise ValueError(_('needs {key} = "..."').format(key=key))
    return value.strip()


def _position(value: Any, what: str) -> str:
    text = str(value).strip().upper() if isinstance(value, str) else value
    if text not in POSITIONS:
        raise ValueError(
            _('{what} {value} is not a Time Index: rows A-D, columns 1-6, written like "A-2"')
            .format(what=what, value=repr(value))
        )
    return text


def _event_list(entry: dict[str, Any], key: str) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list):
        raise ValueError(
            _('{key} must be a list of Time Indexes, e.g. ["A-6", "A-5"]').format(key=key)
        )
    out = [_position(v, _("{key} entry").format(key=key)) for v in value]
    if len(set(out)) != len(out):
        raise ValueError(_("{key} names an event twice").format(key=key))
    return out


def validate_event(entry: dict[str, Any]) -> dict[str, Any]:
    """Check one ``[[event]]`` entry on its own; return it normalised."""
    check_fields(entry, EVENT_FIELDS, _("an event"))
    eid = _position(entry.get("id"), "id")
    if eid == B1:
        raise ValueError(
            _("B-1 is the stack of cards that ends the game; the rules set it up, leave it out")
        )
    kind = entry.get("kind")
    if kind not in (LINCHPIN, RIPPLE):
        raise ValueError(_('kind {kind} must be "linchpin" or "ripple"').format(kind=repr(kind)))
    out = dict(entry)
    out["id"] = eid
    out["original"] = _text(entry, "original")
    out["altered"] = _text(entry, "altered")
    ripples = _event_list(entry, "ripples")
    if B1 in ripples:
        raise ValueError(_("B-1 cannot be a ripple: it changes only when a player flips it"))
    out["ripples"] = ripples
    if "pair" in entry:
        if kind != RIPPLE:
            raise ValueError(_("only a Ripplepoint depends on a pair (pair is for ripples)"))
        if entry["pair"] not in PAIRS:
            raise ValueError(
                _('pair {pair} must be "and" or "or"').format(pair=repr(entry["pair"]))
            )
    if "holder" in entry:
        if kind != LINCHPIN:
            raise ValueError(_("holder is for Linchpins: who may flip it"))
        out["holder"] = _text(entry, "holder", required=True)
    return out


def validate_identity(entry: dict[str, Any]) -> dict[str, Any]:
    """Check one ``[[identity]]`` (ID card) entry on its own; return it normalised."""
    check_fields(entry, IDENTITY_FIELDS, _("an ID card"))
    out = dict(entry)
    out["character"] = _text(entry, "character", required=True)
    requires = entry.get("requires")
    if not isinstance(requires, dict) or not requires:
        raise ValueError(
            _("requires must be a table of events and sides, e.g. {example}").format(
                example='requires = { A-1 = "altered", A-5 = "altered", C-5 = "original" }')
        )
    clean: dict[str, str] = {}
    for key, side in requires.items():
        eid = _position(key, _("required event"))
        if eid == B1:
            raise ValueError(_("an ID never names B-1: flipping B-1 is how everyone wins"))
        side = {"alt": "altered", "orig": "original"}.get(side, side)
        if side not in SIDES:
            raise ValueError(
                _('{event} = {side}: the side must be "original" or "altered"').format(
                    event=eid, side=repr(side)
                )
            )
        clean[eid] = side
    sides = sorted(clean.values())
    if sides != ["altered", "altered", "original"]:
        raise ValueError(
            _(
                "an ID card lists one original event and two altered ones (the rulebook: "
                '"One of these will always be an original event, and two will be alternate"); '
                "this one lists {original} original and {altered} altered"
            ).format(original=sides.count("original"), altered=sides.count("altered"))
        )
    out["requires"] = {eid: clean[eid] for eid in POSITIONS if eid in clean}
    return out


def validate_card(entry: dict[str, Any]) -> dict[str, Any]:
    """Check one ``[[card]]`` (game card) entry on its own; return it normalised."""
    kind = entry.get("type")
    if kind not in TYPES:
        raise ValueError(
            _("type {kind} must be one of {types}").format(kind=repr(kind), types=", ".join(TYPES))
        )
    what = {
        "item": _("an Item"),
        "time_machine": _("a Time Machine"),
        "doubleback": _("a DoubleBack"),
        "action": _("an Action"),
        "power_action": _("a Power Action"),
    }[kind]
    check_fields(entry, _CARD_COMMON | CARD_FIELDS[kind], what)
    if "#" in entry["id"]:
        raise ValueError(_("a card id may not contain '#' (it numbers the copies of a card)"))
    out = dict(entry)
    out["name"] = _text(entry, "name") or entry["id"]
    for key, (low, high) in NUMBERS.items():
        if key in entry:
            value = entry[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(
                    _("{key} must be a whole number from {low} to {high}, not {value}").format(
                        key=key, low=low, high=high, value=repr(value)
                    )
                )
    out["count"] = entry.get("count", 1)
    for key in FLAGS:
        if key in entry and not isinstance(entry[key], bool):
            raise ValueError(
                _("{key} must be true or false, not {value}").format(
                    key=key, value=repr(entry[key])
                )
            )
    for key in ("only", "never"):
        if key in entry:
            out[key] = _event_list(entry, key)
    if "needs" in entry:
        out["needs"] = _text(entry, "needs", required=True)
    if "replay" in entry and entry["replay"] not in REPLAY_FROM:
        raise ValueError(
            _('replay {value} must be "discard" or "deck"').format(value=repr(entry["replay"]))
        )
    if kind == "doubleback":
        out["linchpin"] = _position(entry.get("linchpin"), "linchpin")
        out["item"] = _text(entry, "item", required=True)
    targeting = [k for k in TARGETING if entry.get(k)]
    if len(targeting) > 1:
        raise ValueError(
            _("a card does one targeted thing; this one says {fields}").format(
                fields=" and ".join(targeting)
            )
        )
    if kind in ("action", "power_action") and not (
        targeting or entry.get("draw") or entry.get("extra_play")
    ):
        raise ValueError(
            _(
                "an Action must do something: give it hitch, steal, trash, replay, memo, draw "
                "or extra_play"
            )
        )
    if entry.get("out_of_turn") and (
        entry.get("hitch") or entry.get("replay") or entry.get("extra_play")
    ):
        raise ValueError(
            _(
                "a card played out of turn may only draw, steal, trash or cancel: changing the "
                "TimeLine and extra plays belong to your own turn"
            )
        )
    if entry.get("memo") and (entry.get("draw") or entry.get("extra_play")):
        raise ValueError(_("a Memo only cancels the card being played; drop draw/extra_play"))
    return out


# --------------------------------------------------------------------------- whole content


def check_content(
    events: list[dict[str, Any]] | tuple[dict[str, Any], ...],
    identities: list[dict[str, Any]] | tuple[dict[str, Any], ...],
    cards: list[dict[str, Any]] | tuple[dict[str, Any], ...],
) -> Graph:
    """Check that the entries fit together; return the TimeLine graph. ValueError otherwise."""
    graph = Graph(list(events))
    linchpins = set(graph.linchpins) | {B1}
    by_id = {c["id"]: c for c in cards}
    items = {c["id"] for c in cards if c["type"] == "item"}

    def item_ref(who: str, field: str, ref: str) -> None:
        if ref not in by_id:
            raise ValueError(
                _(
                    "{who}: {field} {ref} names no card; register the Item {ref} first "
                    "(or correct the id)"
                ).format(who=who, field=field, ref=repr(ref))
            )
        if ref not in items:
            raise ValueError(
                _("{who}: {field} {ref} is a {type}, not an Item").format(
                    who=who, field=field, ref=repr(ref), type=by_id[ref]["type"]
                )
            )

    for eid, event in graph.events.items():
        if "holder" in event:
            item_ref(_("event {event}").format(event=eid), "holder", event["holder"])
    for ident in identities:
        missing = [e for e in ident["requires"] if e not in graph.events]
        if missing:
            raise ValueError(
                _(
                    "ID {id} ({character}) names event(s) {events} that the TimeLine does not "
                    "have; register them first"
                ).format(id=repr(ident["id"]), character=ident["character"],
                         events=", ".join(missing))
            )
        if not graph.satisfiable(ident["requires"]):
            raise ValueError(
                _(
                    "ID {id} ({character}) can never be met: no setting of the Linchpins shows "
                    "all of its events as required; check its sides and the ripple lists"
                ).format(id=repr(ident["id"]), character=ident["character"])
            )
    for card in cards:
        who = _("card {id} ({name})").format(id=repr(card["id"]), name=card["name"])
        if card["type"] == "doubleback":
            if card["linchpin"] not in linchpins:
                what = _("a Ripplepoint") if card["linchpin"] in graph.events else _("not an event")
                raise ValueError(
                    _("{who}: linchpin {event} is {what}; a DoubleBack flips a Linchpin").format(
                        who=who, event=card["linchpin"], what=what
                    )
                )
            item_ref(who, "item", card["item"])
        for key in ("only", "never"):
            for eid in card.get(key, ()):
                if eid not in linchpins:
                    raise ValueError(
                        _("{who}: {key} names {event}, which is not a Linchpin").format(
                            who=who, key=key, event=eid
                        )
                    )
        if "needs" in card:
            item_ref(who, "needs", card["needs"])
    return graph


def target_kind(card: dict[str, Any]) -> str | None:
    """What a card's player chooses before it is pending: "event", "item", "pick" or None."""
    if card["type"] == "time_machine" or card.get("hitch"):
        return "event"
    if card.get("steal") or card.get("trash"):
        return "item"
    if card.get("replay"):
        return "pick"
    return None


class Content:
    """The checked content of one game: the graph, the ID cards, and every game card copy.

    Copies of a card with ``count`` > 1 are told apart as ``id#1``, ``id#2``, ...; a card
    with one copy is just ``id``. Actions may name either a copy or the card's id.
    """

    def __init__(self, sections: dict[str, Any]):
        self.sections = {
            "event": [dict(e) for e in sections.get("event", ())],
            "identity": [dict(e) for e in sections.get("identity", ())],
            "card": [dict(e) for e in sections.get("card", ())],
        }
        events = [validate_event(e) for e in self.sections["event"]]
        identities = [validate_identity(e) for e in self.sections["identity"]]
        cards = [validate_card(e) for e in self.sections["card"]]
        for name, entries in (("event", events), ("identity", identities), ("card", cards)):
            ids = [e["id"] for e in entries]
            if len(set(ids)) != len(ids):
                twice = sorted({i for i in ids if ids.count(i) > 1})
                raise ValueError(
                    _("{section} id(s) {ids} used twice").format(section=name, ids=", ".join(twice))
                )
        self.graph = check_content(events, identities, cards)
        self.identities = {i["id"]: i for i in identities}
        self.cards = {c["id"]: c for c in cards}
        self.instances: list[str] = []
        self.entry: dict[str, dict[str, Any]] = {}
        for card in cards:
            n = card["count"]
            for k in range(1, n + 1):
                inst = card["id"] if n == 1 else f"{card['id']}#{k}"
                self.instances.append(inst)
                self.entry[inst] = card
        self.card_id = {inst: card["id"] for inst, card in self.entry.items()}
        self.target = {cid: target_kind(card) for cid, card in self.cards.items()}
        self.memo_cards = {  # Memos played from the hand
            cid for cid, c in self.cards.items() if c.get("memo") and c["type"] != "item"
        }
        self.out_of_turn = {
            cid for cid, c in self.cards.items() if c.get("out_of_turn") and not c.get("memo")
        }
        self.copies = {
            cid: [i for i in self.instances if self.entry[i]["id"] == cid] for cid in self.cards
        }
        self.linchpins = self.graph.linchpins + (B1,)

    def card(self, inst: str) -> dict[str, Any]:
        return self.entry[inst]

    def name(self, inst: str) -> str:
        return self.entry[inst]["name"]

    def headline(self, eid: str, altered: bool) -> str:
        event = self.graph.events.get(eid)
        if event is None:
            return ""
        return event["altered" if altered else "original"]

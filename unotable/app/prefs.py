"""The app's preferences: the store's Settings, held in a mutable form for the screens."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

THEMES: tuple[str, ...] = ("standard", "colour-blind", "monochrome")  # unotable's own
CARD_STYLES: tuple[str, ...] = ("unicode", "ascii")


def own_themes() -> list[Any]:
    """unotable's themes as Textual themes. Standard is Textual's default look; the
    colour-blind one takes Okabe-Ito colours; monochrome is greys (and the app's
    Monochrome filter greys whatever else has colour)."""
    from dataclasses import replace

    from textual.theme import BUILTIN_THEMES

    dark = BUILTIN_THEMES["textual-dark"]
    return [
        replace(dark, name="standard"),
        replace(
            dark,
            name="colour-blind",
            primary="#0072B2",
            secondary="#56B4E9",
            accent="#E69F00",
            warning="#F0E442",
            error="#D55E00",
            success="#009E73",
        ),
        replace(
            dark,
            name="monochrome",
            primary="#8a8a8a",
            secondary="#6c6c6c",
            accent="#d0d0d0",
            warning="#bcbcbc",
            error="#eeeeee",
            success="#a8a8a8",
        ),
    ]


def theme_names() -> tuple[str, ...]:
    """Every theme offered (palette, Settings, config): unotable's, then Textual's."""
    from textual.theme import BUILTIN_THEMES

    return THEMES + tuple(name for name in BUILTIN_THEMES if name not in THEMES)


@dataclass
class Prefs:
    theme: str = "standard"
    speed: str = "normal"
    card_style: str = "unicode"
    # the last lobby setup: {"game": id, "seats": [[name, kind], ...], "options": {game: {...}}}
    last_setup: dict[str, Any] = field(default_factory=dict)
    # binding id -> keys ("table.draw": "x"), as written in the settings file
    keymap: dict[str, Any] = field(default_factory=dict)


def load_prefs(data_dir: Path | None) -> tuple[Prefs, str | None]:
    """The saved preferences and a notice to show (a damaged settings file), if any."""
    if data_dir is None:
        return Prefs(), None
    from unotable.store.settings import load_settings  # not before the lobby's first frame

    settings, notice = load_settings(settings_folder(data_dir))
    prefs = Prefs(
        settings.theme,
        settings.speed,
        settings.card_style,
        dict(settings.last_setup),
        dict(settings.keymap),
    )
    if prefs.theme not in theme_names():
        prefs.theme = "standard"
    if prefs.card_style not in CARD_STYLES:
        prefs.card_style = "unicode"
    if not isinstance(prefs.last_setup, dict):
        prefs.last_setup = {}
    return prefs, notice


def save_prefs(prefs: Prefs, data_dir: Path | None) -> str | None:
    """Save what changed (an unreadable file stays untouched until something does).

    Returns a notice if saving failed; the game goes on either way.
    """
    if data_dir is None:
        return None
    from unotable.store.settings import change_settings, load_settings

    try:
        folder = settings_folder(data_dir)
        current, _ = load_settings(folder)
        change_settings(current, folder, **asdict(prefs))
    except OSError as error:
        return f"Settings could not be saved: {error}"
    return None


def settings_folder(data_dir: Path) -> Path:
    """Where the settings for ``data_dir`` are read and written (store.paths.config_dir),
    after moving there, once, a settings file an older unotable left in the data folder."""
    from unotable.store.paths import config_dir
    from unotable.store.settings import migrate_settings

    folder = config_dir(data_dir)
    try:
        migrate_settings(data_dir, folder)
    except OSError:
        return data_dir  # it stays where it is, and is still used; moved another time
    return folder


# -- keymap: the settings file's "keymap" section -----------------------------------------

# A binding id's first part -> the class whose BINDINGS hold it ("module:Class").
BINDING_HOLDERS: dict[str, str] = {
    "app": "unotable.app.main:UnoTableApp",
    "lobby": "unotable.app.screens.lobby:LobbyScreen",
    "table": "unotable.app.screens.table:TableScreen",
    "rules": "unotable.app.screens.help:RulesScreen",
    "keys": "unotable.app.screens.help:KeysScreen",
    "settings": "unotable.app.screens.settings:SettingsScreen",
    "stats": "unotable.app.screens.stats:StatsScreen",
    "saved": "unotable.app.screens.saved:SavedMatchesScreen",
    "watch": "unotable.app.screens.saved:WatchScreen",
    "shared": "unotable.app.screens.shared:SharedTablesScreen",
    "code": "unotable.app.screens.shared:CodeScreen",
    "seat-plan": "unotable.app.screens.shared:SeatPlanScreen",
    "scores": "unotable.app.screens.scoreboard:ScoreboardScreen",
    "handover": "unotable.app.screens.handover:HandOverScreen",
    "passing": "unotable.app.screens.passing:PassCardsScreen",
    "trick": "unotable.app.screens.trick:LastTrickScreen",
    "log": "unotable.app.screens.logview:LogScreen",
    "chat": "unotable.app.screens.chat:ChatScreen",
    "dialog": "unotable.app.screens.common:ChoiceScreen",
    "confirm": "unotable.app.screens.common:ConfirmScreen",
    "choice": "unotable.app.widgets.cycle:Cycle",
}
# Bindings that share their main binding's key and move with it ("table.undo-why").
COMPANION = "-why"


def holder_bindings(group: str) -> list[Any]:
    """The bindings (with an id) that a group's class declares itself."""
    from importlib import import_module

    from textual.binding import Binding

    module, name = BINDING_HOLDERS[group].split(":")
    holder = getattr(import_module(module), name)
    own = holder.__dict__.get("BINDINGS", [])
    return [b for b in own if isinstance(b, Binding) and b.id]


def _app_keys() -> list[tuple[str, list[str]]]:
    """The app's keys, live on every screen: unotable's and Textual's (no ids)."""
    from textual.app import App

    keys = [(b.id or "", _split(b.key)) for b in holder_bindings("app")]
    keys += [(f"Textual's {b.action}", _split(b.key)) for b in App.BINDINGS if not b.system]  # type: ignore[union-attr]
    keys.append(("Textual's command palette", [App.COMMAND_PALETTE_BINDING]))
    return keys


def _split(keys: str) -> list[str]:
    return [k.strip() for k in keys.split(",") if k.strip()]


def check_keymap(keymap: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The keymap entries that can be applied, with their companions, and a one-line
    notice for each refused one: an unknown id, or a key another binding of the same
    screen (or the app) already answers to."""
    from textual.app import App

    notices: list[str] = []
    wanted: dict[str, str] = {}
    for binding_id, keys in keymap.items():
        group = str(binding_id).split(".")[0]
        if not isinstance(keys, str) or not _split(keys):
            notices.append(f'Keymap: {binding_id} needs keys as text, e.g. "x" or "x,y".')
        elif group not in BINDING_HOLDERS or not any(
            b.id == binding_id for b in holder_bindings(group)
        ):
            notices.append(f"Keymap: there is no binding {binding_id}; it is ignored.")
        else:
            wanted[binding_id] = keys
    # Textual's own spelling of keys: "?" is "question_mark"
    wanted = dict(App._normalize_keymap(wanted))
    groups = sorted({b.split(".")[0] for b in wanted} - {"app"})
    if any(b.startswith("app.") for b in wanted):
        groups = sorted(set(BINDING_HOLDERS) - {"app"})  # the app's keys reach every screen
    refused: set[str] = set()
    while True:  # a refused entry gets its default keys back, which may clash anew
        clashes = _clashes(wanted, refused, groups)
        if not clashes:
            break
        for first, second, key, loser in clashes:
            if loser not in refused:
                refused.add(loser)
                notices.append(
                    f"Keymap: {first} and {second} would both answer {key}; "
                    f"{loser} keeps its own key."
                )
    accepted = {b: k for b, k in wanted.items() if b not in refused}
    for binding_id, keys in list(accepted.items()):
        group = binding_id.split(".")[0]
        companion = binding_id + COMPANION
        if companion not in accepted and any(b.id == companion for b in holder_bindings(group)):
            accepted[companion] = keys
    return accepted, notices


def _clashes(
    wanted: dict[str, str], refused: set[str], groups: list[str]
) -> list[tuple[str, str, str, str]]:
    """(one, other, key, the remapped one to refuse) for each key two bindings share."""
    found = []
    for group in groups:
        owners: dict[str, str] = {}  # key -> the first binding answering it
        entries = [(b.id or "", _split(b.key)) for b in holder_bindings(group)]
        for binding_id, defaults in [*_app_keys(), *entries]:
            if binding_id.endswith(COMPANION):
                continue  # moves with its main binding
            mapped = binding_id in wanted and binding_id not in refused
            for key in _split(wanted[binding_id]) if mapped else defaults:
                other = owners.setdefault(key, binding_id)
                if other == binding_id:
                    continue
                other_mapped = other in wanted and other not in refused
                if mapped or other_mapped:
                    found.append((other, binding_id, key, binding_id if mapped else other))
    return found

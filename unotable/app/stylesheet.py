"""One parse of each CSS source per process, shared by every app the process runs.

Textual parses the app's CSS and each widget's default CSS again for every new app (its
parse cache belongs to the app's stylesheet). A process runs many apps: each served session
is forked from a launcher that has parsed them once, and the tests start hundreds. Parsing was
about a tenth of an app's first start (0.03 of 0.3 CPU-seconds), and a theme set at start
parsed everything twice.
"""

from __future__ import annotations

from typing import ClassVar

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

# sources (app, widgets, screens) times themes, with room to spare
SHARED_PARSES = 2048


class SharedStylesheet(Stylesheet):
    """A ``Stylesheet`` whose parsed rules are kept for every instance in the process.

    A source's rules depend on its text, where it was read from, and the variables (the
    theme's colours) substituted while parsing: the key holds all of them. Rules are never
    changed once parsed (Textual's own cache already hands the same ones out again)."""

    _parsed: ClassVar[LRUCache[tuple[object, ...], list[RuleSet]]] = LRUCache(SHARED_PARSES)

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key: tuple[tuple[str, str], ...] | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = None

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        if self._variables_key is None:
            self._variables_key = tuple(sorted(self._variables.items()))
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key)
        rules = self._parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            self._parsed[key] = rules
        return rules

    def reparse(self) -> None:
        # Textual's reparse (new variables: a theme chosen) parses into a new plain
        # Stylesheet, which shares nothing: these are its steps, into a shared one.
        fresh = SharedStylesheet(variables=self._variables)
        fresh.source = self.source.copy()
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)  # not parsed again before exit
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False

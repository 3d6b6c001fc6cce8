"""Errors a person can fix: the CLI prints them in one line instead of a traceback."""

from __future__ import annotations


class UserError(Exception):
    """A problem the person at the keyboard can fix (a bad file, a bad flag)."""


class ConfigError(UserError):
    """A bad setting: always names the key and, when it came from a file, the file."""

    def __init__(self, key: str, problem: str, source: str | None = None) -> None:
        self.key = key
        self.problem = problem
        self.source = source
        where = f" in {source}" if source else ""
        super().__init__(f"{key}{where}: {problem}")

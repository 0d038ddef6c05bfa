"""Issue 40: no message takes the filter more than 1 ms. Timing is the benchmark's job (benchmarks/chat_filter.py
prints the slowest message of every adversarial shape); these tests bound the filter's *work* instead, in units that
do not depend on the machine: the Python steps (bytecode instructions) it executes in its own modules, and the
length of the words its one-edit probe copies."""

from __future__ import annotations

import pathlib
import sys
from types import FrameType
from typing import Any

import pytest

import chatfilter
import chatfilter._misspellings as misspellings
import chatfilter._screen as screen
from chatfilter import mentions_number
from tests.chatfilter.adversarial import LIMIT, adversarial_messages
from tests.chatfilter.chat_corpus_w5 import ALL_W5

_PACKAGE = str(pathlib.Path(chatfilter.__file__).parent)
# Steps per character of the message, and a fixed part for the short ones. The slowest shape (leetspeak, read twice)
# takes about 19 steps a character since the screens of chatfilter._screen settle the distinct words at once; before
# them, distinct words that each reached every misspelling rewrite took 48, and before the first bound 1,000 single
# letters took 130 a character and 2,000 Arabic ligatures 1,100.
_STEPS_PER_CHARACTER = 25
_STEPS_FIXED = 3_000

_SHAPES = adversarial_messages()


def _steps(text: str) -> int:
    """The bytecode instructions ``mentions_number(text)`` executes in the chatfilter package."""
    count = 0

    def opcodes(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "opcode":
            count += 1
        return opcodes

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.startswith(_PACKAGE):
            return None
        frame.f_trace_opcodes = True
        return opcodes

    sys.settrace(calls)
    try:
        mentions_number(text)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_work_is_linear_in_the_message_length(shape: str) -> None:
    for text in _SHAPES[shape]:
        assert len(text) <= LIMIT
        steps = _steps(text)
        assert steps <= _STEPS_PER_CHARACTER * len(text) + _STEPS_FIXED, (text[:40], steps)


def test_work_on_ordinary_messages_is_small() -> None:
    """The bound is not slack: a short message takes a few hundred steps, a message at the limit tens of
    thousands."""
    short = [_steps(text) for text, *_ in ALL_W5[:50]]
    assert max(short) < _STEPS_FIXED
    assert _steps(_SHAPES["single letters"][0]) > 1_000


def test_steps_are_counted() -> None:
    """The counter sees the filter's work: more distinct words take more steps (a repeated word is read once)."""
    one = _steps("thirsty")
    assert 0 < one < _steps(" ".join("thirsty" + letter for letter in "abcdefghij"))
    assert _steps("thirsty " * 50) < 2 * one


class _Probes(dict[str, tuple[str, ...]]):
    """The one-edit index, recording the longest word it is asked about."""

    longest = 0

    def _saw(self, words: Any) -> list[str]:
        words = list(words)
        _Probes.longest = max([_Probes.longest, *map(len, words)])
        return words

    def keys(self) -> Any:
        probes = self

        class Keys:
            def isdisjoint(self, words: Any) -> bool:
                return dict.keys(probes).isdisjoint(probes._saw(words))

        return Keys()

    def get(self, key: str, default: Any = None) -> Any:
        self._saw([key])
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._saw([key])
        return dict.__contains__(self, key)


def test_the_one_edit_probe_copies_only_short_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe copies a word once per letter, so a word of 2,000 letters would cost 4,000,000 characters: it is
    only asked about words at most one letter longer than the longest number word. Messages still count through
    a long word where they did ("thirty" stretched, "zwei" with a spoken ending)."""
    monkeypatch.setattr(misspellings, "_INDEX", _Probes(misspellings._INDEX))
    _Probes.longest = 0
    for texts in _SHAPES.values():
        for text in texts:
            mentions_number(text)
    assert 0 < _Probes.longest <= max(map(len, misspellings.TARGETS)) + 1
    assert mentions_number("thirty" + "y" * 1990)
    assert mentions_number("zwei" + "m" * 1990)
    assert not mentions_number("thirst" + "x" * 1990)


def test_few_words_of_a_message_are_looked_up_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message at the limit holds several hundred distinct words that reach the misspelling rules (spoken-looking
    words, random words, leetspeak); the screens settle them at once and leave at most a few dozen to the word-by-word
    lookup (it took all of them before: 307 for the random words)."""
    looked_up: list[int] = []
    screened = screen._screened

    def counted(words: set[str], stretched: bool, large: bool) -> set[str]:
        found = screened(words, stretched, large)
        looked_up.append(len(found))
        return found

    # Every screen: the whole words, read in chunks, and the words spelled out letter by letter (through readable).
    monkeypatch.setattr(screen, "_screened", counted)
    for shape, texts in _SHAPES.items():
        for text in texts:
            looked_up.clear()
            mentions_number(text)
            assert sum(looked_up) <= 50, (shape, text[:40], looked_up)
    looked_up.clear()
    mentions_number(" ".join(f"zw{letter}kwabssich" for letter in "abcdefghijklmnopqrstuvwxyz"))
    assert 0 < sum(looked_up) <= 26

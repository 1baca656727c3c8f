"""Time budgets for the bounded-work tests, measured against a baseline run in the same test.

An absolute limit in seconds would be flaky on a loaded 2-CPU machine; a ratio between two inputs of
the same size, timed one after the other, is not: a linear parser takes about as long on a tricky
text as on a plain one, a super-linear one hundreds of times longer. The time is the process's CPU
time, not the clock's: the suite runs on every core, and a test waiting for a core it shares with the
other workers would otherwise be charged for their work.
"""

from collections.abc import Callable
from time import process_time
from typing import Any


def seconds(function: Callable[..., Any], *args: Any, repeat: int = 3) -> float:
    """The best of `repeat` runs: the one least disturbed by the machine's other work."""
    best = float("inf")
    for _ in range(repeat):
        start = process_time()
        function(*args)
        best = min(best, process_time() - start)
    return best


def assert_about_as_fast(
    function: Callable[[Any], Any], tricky: Any, plain: Any, *, ratio: float = 10, slack: float = 0.05
) -> None:
    """`function(tricky)` takes at most `ratio` times as long as `function(plain)`, plus `slack` seconds."""
    plain_time = seconds(function, plain)
    tricky_time = seconds(function, tricky)
    assert tricky_time <= ratio * plain_time + slack, (
        f"{tricky_time:.3f} s on the tricky input, {plain_time:.4f} s on the plain one of the same size"
    )


def assert_linear(
    function: Callable[[Any], Any],
    make_input: Callable[[int], Any],
    size: int,
    *,
    factor: int = 8,
    ratio: float = 3,
) -> None:
    """Input `factor` times larger, time at most `ratio` × `factor` times longer (plus 50 ms)."""
    small = seconds(function, make_input(size))
    large = seconds(function, make_input(size * factor))
    assert large <= ratio * factor * small + 0.05, (
        f"{large:.3f} s for {factor}× the input that took {small:.4f} s: not linear"
    )

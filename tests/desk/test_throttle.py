"""Wrong passwords at the desk: free at first, then each further try waits, then the address is
locked out; a right one forgets them; each address counted on its own. The throttle on a clock
the test moves, then through the desk's guard."""

from __future__ import annotations

import base64

import pytest

from pipeline.desk.throttle import EVERYONE, FORGET, GLOBAL_FREE, Throttle

ME, OTHER = "192.0.2.7", "192.0.2.8"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


def test_five_wrong_are_heard_then_each_further_try_waits_longer(clock):
    t = Throttle(clock=clock)
    for _ in range(4):
        assert t.heard(ME, tried=True) == 0
    # its near miss: four wrong, and the next try is still heard at once
    assert t.heard(ME, tried=True) == 0 and t.wrong(ME) == 5
    assert t.heard(ME, tried=True) == 1 and t.wrong(ME) == 5          # not heard: not counted
    assert t.heard(ME, tried=True, right=True) == 1                    # a right one is not looked at either
    clock.now += 1
    assert t.heard(ME, tried=True) == 0 and t.wrong(ME) == 6
    assert t.heard(ME, tried=True) == 2
    clock.now += 1.5
    assert t.heard(ME, tried=False) == 1                               # a request without a password waits too
    clock.now += 0.5
    assert t.heard(ME, tried=True) == 0 and t.heard(ME, tried=True) == 4


def test_after_twenty_wrong_the_address_is_locked_out_and_a_right_password_then_resets(clock):
    t = Throttle(clock=clock)
    waits = []
    while t.wrong(ME) < 20:
        wait = t.heard(ME, tried=True)
        if wait:
            waits.append(wait)
            clock.now += wait
    assert waits == [1, 2, 4, 8, 16, 32] + [60] * 9                    # the waits between the 5th and the 20th
    assert t.heard(ME, tried=True, right=True) == 15 * 60               # locked out: not even a right one is heard
    assert t.heard(OTHER, tried=True) == 0 and t.heard(OTHER, tried=True, right=True) == 0    # another address is not
    clock.now += 15 * 60 - 1
    assert t.heard(ME, tried=True, right=True) == 1
    clock.now += 1
    assert t.heard(ME, tried=True) == 0 and t.wrong(ME) == 21            # one more wrong: locked out again at once
    assert t.heard(ME, tried=True) == 15 * 60
    clock.now += 15 * 60
    assert t.heard(ME, tried=True, right=True) == 0 and t.wrong(ME) == 0
    for _ in range(5):                                                  # the count starts again from nothing
        assert t.heard(ME, tried=True) == 0


def test_a_right_password_forgets_the_wrong_ones_and_a_request_without_one_counts_none(clock):
    t = Throttle(clock=clock)
    for _ in range(4):
        t.heard(ME, tried=True)
    assert t.heard(ME, tried=True, right=True) == 0 and t.wrong(ME) == 0
    for _ in range(10):
        assert t.heard(ME, tried=False) == 0                            # the browser's first request, before it asks
    for _ in range(4):
        assert t.heard(ME, tried=True) == 0
    assert t.wrong(ME) == 4
    # its twin: without the right one between, the fifth and sixth wrong make it wait
    assert t.heard(ME, tried=True) == 0 and t.heard(ME, tried=True) == 1


def test_wrong_passwords_are_forgotten_an_hour_after_the_last(clock):
    t = Throttle(clock=clock)
    for _ in range(4):
        t.heard(ME, tried=True)
    clock.now += FORGET - 1
    t.heard(ME, tried=True)
    assert t.heard(ME, tried=True) == 1                                 # the near miss: not yet forgotten
    clock.now += FORGET
    assert t.heard(ME, tried=True) == 0 and t.wrong(ME) == 1


def test_an_attacker_with_many_addresses_cannot_fill_the_memory(clock):
    t = Throttle(clock=clock, kept=3)
    for n in range(10):
        t.heard(f"192.0.2.{n}", tried=True)
    assert len(t._counts) == 3 and t.wrong("192.0.2.9") == 1 and t.wrong("192.0.2.0") == 0


def test_guesses_spread_over_many_addresses_are_slowed_for_every_address(clock):
    """Forty addresses, five wrong passwords each (none slowed alone): past GLOBAL_FREE in all, every
    address waits, growing to a minute."""
    t = Throttle(clock=clock)
    heard = 0
    for n in range(40):
        for _ in range(5):
            if t.heard(f"198.51.100.{n}", tried=True) == 0:
                heard += 1
    assert heard == GLOBAL_FREE and t.wrong(EVERYONE) == GLOBAL_FREE
    assert t.heard("203.0.113.9", tried=True, right=True) == 1            # the office waits too, a moment
    clock.now += 1
    assert t.heard("203.0.113.9", tried=True, right=True) == 0
    for _ in range(8):                                                      # each further wrong one doubles it
        clock.now += 120
        assert t.heard("198.51.100.1", tried=True) == 0
    assert t.heard("198.51.100.2", tried=True) == 60
    # its near miss: GLOBAL_FREE - 1 wrong passwords in all make no address wait
    t = Throttle(clock=clock)
    for n in range(GLOBAL_FREE - 1):
        assert t.heard(f"198.51.100.{n}", tried=True) == 0
    assert t.heard("203.0.113.9", tried=True) == 0


def test_an_ipv6_address_is_counted_by_its_64(clock):
    t = Throttle(clock=clock)
    for n in range(5):
        assert t.heard(f"2001:db8:1:2::{n + 1}", tried=True) == 0
    assert t.heard("2001:db8:1:2::ffff", tried=True) == 1                  # the same /64: its sixth waits
    assert t.heard("2001:db8:1:3::1", tried=True) == 0                     # another /64 is another count
    assert t.wrong("2001:db8:1:2::77") == 5 and t.wrong("::ffff:192.0.2.7") == 0


def test_the_wait_is_said_in_seconds_then_minutes():
    assert Throttle.words(1) == "try again in 1 second"
    assert Throttle.words(60) == "try again in 60 seconds"
    assert Throttle.words(900) == "try again in 15 minutes"


def basic(password: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"clerk:{password}".encode()).decode()}


def test_the_desk_answers_429_with_retry_after_per_address_and_lets_a_right_password_in(desk_of, clock):
    d = desk_of(password="correct horse", throttle=Throttle(clock=clock))

    def get(password=None, address=ME):
        return d.client().get("/", base_url=f"http://127.0.0.1:{d.port}", environ_base={"REMOTE_ADDR": address},
                              headers=basic(password) if password is not None else {})

    assert get().status_code == 401                                     # no password: asked for one, not counted
    for _ in range(5):
        assert get("wrong").status_code == 401
    r = get("correct horse")
    assert r.status_code == 429 and r.headers["Retry-After"] == "1" and "too many wrong passwords" in r.text
    assert "name=\"token\"" not in r.text
    assert get("correct horse", address=OTHER).status_code == 200       # another address is let in
    clock.now += 1
    assert get("correct horse").status_code == 200                      # heard once the wait is over, and resets
    for _ in range(5):
        assert get("wrong").status_code == 401
    assert get("wrong").status_code == 429

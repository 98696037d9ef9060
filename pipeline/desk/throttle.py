"""Wrong passwords at the desk, counted per client address: the first few are free, then each
further try must wait longer, and after many the address is locked out for a while.

A try that comes before its wait is over is not heard at all (the desk answers 429 with
Retry-After, whether the password was right or not), so that guessing in parallel gains nothing.
A right password, once heard, forgets the address's wrong ones. The counts live in memory:
restarting the desk clears them.

An attacker with many addresses is held too: an IPv6 address is counted by its /64 (the block one
machine is given), and every wrong password from any address is counted together as well: past
GLOBAL_FREE of them, each further one makes every address wait (growing to LONGEST_WAIT), so that
guesses spread over many addresses gain at most one a minute. The office then waits too, and is
told so: slower, but never a password given away.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

FREE = 5                 # wrong passwords heard without any wait
LOCK_AFTER = 20          # wrong passwords after which each further one locks the address out
LOCKOUT = 15 * 60        # seconds an address is locked out
LONGEST_WAIT = 60        # seconds, the longest wait between FREE and LOCK_AFTER
FORGET = 60 * 60         # seconds after its last wrong password that an address's count is forgotten
KEPT = 4096              # addresses counted at once (an attacker with many addresses cannot fill memory)
GLOBAL_FREE = 50         # wrong passwords from every address together heard without a wait
EVERYONE = "*"           # the key of the count of every address together


@dataclass
class _Count:
    wrong: int = 0
    last: float = 0.0        # when the last wrong one was heard
    until: float = 0.0       # no try is heard before this


class Throttle:
    """heard(address, tried, right) -> 0 when the request may go on, else the seconds to wait."""

    def __init__(self, *, free: int = FREE, lock_after: int = LOCK_AFTER, lockout: float = LOCKOUT,
                 longest_wait: float = LONGEST_WAIT, forget: float = FORGET, kept: int = KEPT,
                 global_free: int = GLOBAL_FREE, clock: Callable[[], float] = time.monotonic):
        self.free, self.lock_after, self.lockout = free, lock_after, lockout
        self.global_free = global_free
        self._everyone = _Count()
        self.longest_wait, self.forget, self.kept = longest_wait, forget, kept
        self.clock = clock
        self._counts: OrderedDict[str, _Count] = OrderedDict()    # oldest last wrong password first
        self._lock = threading.Lock()

    def heard(self, address: str, *, tried: bool, right: bool = False) -> int:
        """One request from `address`; `tried` when it carried a password, `right` when that was
        the desk's. Returns 0 when the request was heard (and its password counted), else the whole
        seconds before `address` is heard again (the request was not heard, its password not looked at)."""
        address = key(address)
        with self._lock:
            now = self.clock()
            every = self._everyone
            if now >= every.until and every.wrong and now - every.last >= self.forget:
                every.wrong = 0
            if now < every.until:
                return max(1, math.ceil(every.until - now))
            count = self._counts.get(address)
            if count is not None and now >= count.until and now - count.last >= self.forget:
                del self._counts[address]
                count = None
            if count is not None and now < count.until:
                return max(1, math.ceil(count.until - now))
            if not tried:
                return 0
            if right:
                self._counts.pop(address, None)
                return 0
            if count is None:
                self._make_room(now)
                count = self._counts[address] = _Count()
            count.wrong += 1
            count.last = now
            every.wrong += 1
            every.last = now
            if every.wrong >= self.global_free:
                every.until = now + min(2 ** (every.wrong - self.global_free), self.longest_wait)
            self._counts.move_to_end(address)
            if count.wrong >= self.lock_after:
                count.until = now + self.lockout
            elif count.wrong >= self.free:
                count.until = now + min(2 ** (count.wrong - self.free), self.longest_wait)
            return 0

    @staticmethod
    def words(wait: int) -> str:
        """The wait as the desk says it: "try again in 8 seconds", "... in 15 minutes"."""
        if wait < 120:
            return f"try again in {wait} second{'s' if wait != 1 else ''}"
        return f"try again in {math.ceil(wait / 60)} minutes"

    def wrong(self, address: str) -> int:
        """The wrong passwords counted for `address` (for the tests and the desk's messages)."""
        with self._lock:
            if address == EVERYONE:
                return self._everyone.wrong
            count = self._counts.get(key(address))
            return count.wrong if count else 0

    def _make_room(self, now: float) -> None:
        if len(self._counts) < self.kept:
            return
        for address, count in list(self._counts.items()):
            if now >= count.until and now - count.last >= self.forget:
                del self._counts[address]
        while len(self._counts) >= self.kept:           # the address whose last wrong one is oldest
            self._counts.popitem(last=False)


def key(address: str) -> str:
    """What an address is counted under: an IPv6 address by its /64, any other as it is."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))

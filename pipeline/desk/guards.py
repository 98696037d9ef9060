"""The desk's guards, in the order a request meets them: the Host header must be the desk's own (DNS
rebinding); with a password file (needed to listen beyond 127.0.0.1), or with people (--users), every
request must carry a password (HTTP basic authentication), wrong ones throttled; a request that changes
anything must carry a token the page was given and, when the browser says where it comes from, come
from the desk's own origin; every answer carries the headers that keep it in its place (a review's
page sandboxed). They are the Blueprint `bp`'s, registered on the whole app (before_app_request,
after_app_request), so that they meet every request, one to an address no route answers too; the
routes (app.py) are on the same Blueprint.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass

from flask import Blueprint, abort, current_app, g, request

from pipeline.desk import people as people_
from pipeline.desk.jobs import OFFICE, Desk
from pipeline.desk.throttle import Throttle

bp = Blueprint("desk", __name__)


@dataclass(frozen=True)
class Guards:
    """Who may come in, besides the desk's password and hosts (jobs.Desk): the people and their roles
    (people.Door, None for one office user), the wrong passwords counted, and the largest file taken."""
    door: people_.Door | None
    throttle: Throttle
    max_bytes: int


def current_desk() -> Desk:
    return current_app.extensions["desk"]


def current_guards() -> Guards:
    return current_app.extensions["desk.guards"]


def _too_many(wait: int):
    return (f"too many wrong passwords from this address: {Throttle.words(wait)}", 429,
            {"Retry-After": str(wait), "Content-Type": "text/plain; charset=utf-8"})


@bp.before_app_request
def guard():
    desk = current_desk()
    guards = current_guards()
    if request.host.lower() not in desk.allowed_hosts:
        abort(400, "this desk answers only to its own address (the Host header named another)")
    g.person = None
    if guards.door is not None:
        auth = request.authorization
        given = auth.password if auth is not None else None
        person = guards.door.who(auth.username if auth is not None else None, given)
        wait = guards.throttle.heard(request.remote_addr or "", tried=given is not None, right=person is not None)
        if wait:
            return _too_many(wait)
        if person is None:
            return ("the desk needs your name and password", 401, {"WWW-Authenticate": 'Basic realm="pound desk"'})
        g.person = person
    elif desk.password is not None:
        auth = request.authorization
        given = auth.password if auth is not None else None
        right = given is not None and hmac.compare_digest(given.encode(), desk.password.encode())
        wait = guards.throttle.heard(request.remote_addr or "", tried=given is not None, right=right)
        if wait:
            return _too_many(wait)
        if not right:
            return ("the desk needs its password", 401, {"WWW-Authenticate": 'Basic realm="pound desk"'})
    if request.method not in ("GET", "HEAD"):
        origin = request.headers.get("Origin")
        scheme, _, where = (origin or "").partition("://")
        # "null" is an origin of no address: a sandboxed frame's, another page's, a file's (the desk's
        # own pages send theirs: Referrer-Policy same-origin)
        if origin and (scheme.lower() != request.scheme or where.lower() not in desk.allowed_hosts):
            abort(403, "a change may come only from the desk's own page")
        person = g.get("person")
        if not desk.token_ok(request.form.get("token"), person.name if person is not None else None):
            abort(403, "this form has no valid token: reload the desk's page and try again")
    return None

@bp.after_app_request
def headers(response):
    if request.endpoint in ("desk.files", "desk.close_file") and response.mimetype == "text/html":
        # the pages the review wrote draw their charts with inline scripts and styles: they run,
        # sandboxed in an origin of their own, so that they can neither read the desk's page
        # (its tokens) nor post to it
        response.headers["Content-Security-Policy"] = (
            "sandbox allow-scripts allow-downloads allow-popups; default-src 'self'; "
            "script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
            "connect-src 'none'; form-action 'none'; frame-ancestors 'none'")
    else:
        response.headers["Content-Security-Policy"] = ("default-src 'self'; style-src 'self'; script-src 'self'; "
                                                       "frame-ancestors 'none'; form-action 'self'")
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"     # so that the desk's own forms send its Origin
    response.headers["Cache-Control"] = "no-store"
    return response

def who() -> str:
    """Who is at the desk: the person logged in, or the office (no people given)."""
    return g.person.name if g.get("person") is not None else OFFICE

def allowed_to(action: str) -> None:
    """403 unless the person at the desk may do `action` (people.py); the page shows no such button."""
    if not people_.may(g.get("person"), action):
        abort(403, f"{g.person.name} ({g.person.role}) may not do this: it needs the role "
                   f"{people_.needed(action)}")

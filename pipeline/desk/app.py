"""The desk's web layer (Flask): one page for the office's month, its forms and its files.

The routes are the Blueprint `bp`'s (guards.py holds it, with the guards every request meets first,
and the handlers of refusals and defects here answer with the desk's page). Bodies are bounded
(MAX_CONTENT_LENGTH). One action runs at a time (jobs.Desk): a second is told that the database is
busy. The month's steps are reached only through actions.py. create_app makes the app of one desk (its
state, jobs.Desk, in app.extensions["desk"]) and registers `bp`.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from pathlib import Path

from flask import (
    Flask,
    abort,
    g,
    redirect,
    render_template,
    request,
    send_file,
    send_from_directory,
    url_for,
)
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from pipeline.core.errors import DatabaseBusy, PoundError
from pipeline.core.locks import holding
from pipeline.core.registers import DECISIONS
from pipeline.desk import actions, bundlefiles, history, hosts, looked, offered, upload
from pipeline.desk import people as people_
from pipeline.desk.guards import Guards, allowed_to, bp, current_desk, current_guards, who
from pipeline.desk.jobs import ACTIONS, Desk, doing
from pipeline.desk.throttle import Throttle


def create_app(places: actions.Places, *, host: str = "127.0.0.1", port: int = 8043, password: str | None = None,
               max_bytes: int = upload.MAX_BYTES, allowed_hosts: Iterable[str] = (),
               throttle: Throttle | None = None, people: dict | None = None) -> Flask:
    """`people` (people.read of --users): every request must then carry a person's name and password,
    and each may do only what the person's role may; without, the desk is one office user."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = max_bytes + 64 * 1024      # the form's other fields and its framing
    app.extensions["desk"] = Desk(places, password, hosts.answered(host, port, allowed_hosts))
    app.extensions["desk.guards"] = Guards(people_.Door(people) if people else None, throttle or Throttle(), max_bytes)
    app.register_blueprint(bp)
    return app


def chosen(value: str | None) -> str:
    """The month a form sends: one written YYYY-MM, or 400 (never another month in its place)."""
    try:
        actions.month_end(value or "")
    except PoundError:
        abort(400, f"{(value or '')[:20]!r} is not a month written YYYY-MM: choose the month again")
    return value

def _person_name() -> str | None:
    person = g.get("person")
    return person.name if person is not None else None


def month_of(value: str | None) -> str:
    """The month asked for, when it is a month (YYYY-MM); else the last of the months to choose from
    (Desk.months). The month's page itself takes the last month from its own read (asked, Desk.read)."""
    return asked(value) or current_desk().months()[-1]

def asked(value: str | None) -> str | None:
    """The month asked for, when it is a month (YYYY-MM); else None."""
    if value:
        try:
            actions.month_end(value)
            return value
        except Exception:
            pass
    return None

def page(month: str | None, status: int = 200, refused: str | None = None):
    """The desk's page of `month` (None: the last of the months to choose from, read with the rest)."""
    desk = current_desk()
    places = desk.places
    refused = refused or desk.said.get(request.args.get("said") or "")
    job = desk.job
    running = job is not None and job.finished is None
    read = desk.read(month)
    month = read.state.month
    found = offered.of_month(places, month)
    decided = (job.result if job is not None and not running and job.action == "decide" and job.month == month
               and job.result is not None else None)
    html = render_template(
        "desk.html", month=month, months=read.months, state=read.state, job=job, running=running,
        elapsed=(time.monotonic() - job.started) if job else 0, places=places, refused=refused,
        note=desk.note, token=desk.token(_person_name()), actions_=ACTIONS, files=_files_url, password=desk.password,
        offered_files=found, paper_names=[f.name for f in found["papers"]
                                          if f.name == "index.html" or f.name.endswith("_all.pdf")],
        running_month=actions.not_over(month), waiting=read.waiting, not_read=read.not_read,
        month_rows=read.month_rows,
        bundle_files=read.bundle_files, pounds=_pounds(), history=history.read(places.bundle, month),
        decisions=DECISIONS, may=lambda name: people_.may(g.get("person"), name), person=g.get("person"), today=dt.date.today().isoformat(),
        asked={(a.rule_id, a.subject_id): a for a in decided.refused} if decided else {})
    return html, status

def _pounds() -> list[str]:
    places = current_desk().places
    from pipeline.desk import workbooks

    return workbooks.pounds(places)

def _files_url(path: Path) -> str | None:
    """The link to a file a step wrote (offered.py names it by month, kind and name), or None."""
    places = current_desk().places
    found = offered.where(places, Path(path))
    if found is None:
        return None
    if found.kind == "close":
        return url_for("desk.close_file", month=found.month, close=found.close, name=found.name)
    return url_for("desk.files", month=found.month, kind=found.kind, name=found.name)

@bp.get("/")
def index():
    return page(asked(request.args.get("month")))

@bp.post("/do/<action>")
def do(action: str):
    desk = current_desk()
    found = actions.REGISTRY.get(action)
    if found is None:
        abort(404)
    allowed_to(action)
    month = chosen(request.form.get("month"))
    try:
        kw = found.fields(request.form, request.files)
    except PoundError as exc:
        return refused_then_shown(month, str(exc))
    if g.get("person") is not None and found.signs:
        kw["by"] = g.person.name              # signed and decided by the District Magistrate logged in
    if not desk.start(action, month, who(), **kw):
        found.discard(kw)
        running = ACTIONS.get(desk.job.action, "an action") if desk.job else "an action"
        return page(month, 409, refused=f"the database is busy: \"{running}\" is running; "
                                        "wait for it to finish, then try again")
    desk.note = None                  # the file added is being loaded (or the month has moved on)
    return redirect(url_for("desk.index", month=month), 303)

@bp.post("/show")
def show():
    """"Show the month": the month chosen is the one the page shows, and acts on."""
    return redirect(url_for("desk.index", month=chosen(request.form.get("month"))), 303)

@bp.post("/add")
def add():
    """"Add register files": each file sent saved into the bundle (upload.py), each said; one
    refused leaves the others added."""
    desk = current_desk()
    places = desk.places
    guards = current_guards()
    allowed_to("add")
    month = month_of(request.form.get("month"))
    if desk.busy():
        return page(month, 409, refused="the database is busy: an action is running; add the files when it has finished")
    sent = [f for f in request.files.getlist("file") if f is not None] or [None]
    added, refusals = [], []
    for f in sent:
        try:
            # held as an action holds it: no `pound` command loads the bundle while a file goes into it
            with holding(places.db, wait=0, what=doing("Add register files")):
                saved = upload.save(places.bundle, f.filename if f else None, f.stream if f else None, guards.max_bytes,
                                    loaded=looked.loaded_files(places), may_decide=people_.may(g.get("person"), "decide"))
        except DatabaseBusy as exc:
            refusals.append(f"the database is busy ({exc.holder or 'another program'} is using it); add the file "
                            "when it has finished; nothing was saved")
            break
        except PoundError as exc:
            refusals.append(str(exc))
            continue
        except OSError as exc:
            refusals.append(upload.not_saved(places.bundle, f.filename if f else "", exc))
            continue
        rel = f"{saved.path.parent.name}/{saved.path.name}"
        history.write(places.bundle, who(), "upload", month, "replaced the file of that name" if saved.replaced
                      else "added", file=rel)
        added.append(f"added {saved.path.name} to {saved.path.parent.name}/"
                     + (" in place of the file of that name" if saved.replaced else ""))
    desk.note = ("; ".join(added) + "; press \"Load the registers\" to load " + ("them" if len(added) > 1 else "it")
                 if added else None)
    if refusals:
        return refused_then_shown(month, "; ".join(refusals))
    return redirect(url_for("desk.index", month=month) + "#added", 303)

@bp.post("/remove")
def remove():
    """Remove a file not yet loaded from the bundle (a loaded one cannot be: bundlefiles.py)."""
    desk = current_desk()
    places = desk.places
    allowed_to("remove")
    month = month_of(request.form.get("month"))
    if desk.busy():
        return page(month, 409, refused="the database is busy: an action is running; remove the file when it has finished")
    try:
        with holding(places.db, wait=0, what=doing("Remove")):
            path = bundlefiles.removable(places, request.form.get("file"), looked.loaded_files(places),
                                         may_decide=people_.may(g.get("person"), "decide"))
            path.unlink()
    except DatabaseBusy as exc:
        return refused_then_shown(month, f"the database is busy ({exc.holder or 'another program'} is using it); "
                                         "nothing was removed")
    except PoundError as exc:
        return refused_then_shown(month, str(exc))
    rel = f"{path.parent.name}/{path.name}"
    history.write(places.bundle, who(), "remove", month, "removed", file=rel)
    desk.note = f"removed {rel} from the bundle"
    return redirect(url_for("desk.index", month=month) + "#added", 303)

@bp.post("/workbooks")
def make_workbooks():
    """"Make the keeper's workbook" (kind keeper, with a pound) and "Make the ledger workbooks"
    (kind ledgers): written as pound template writes them, then handed out (offered.py)."""
    desk = current_desk()
    places = desk.places
    from pipeline.desk import workbooks

    allowed_to("workbooks")
    month = chosen(request.form.get("month"))
    kind = request.form.get("kind")
    if kind not in ("keeper", "ledgers"):
        abort(400, "choose the keeper's workbook or the ledger workbooks")
    if desk.busy():
        return page(month, 409, refused="the database is busy: an action is running; make the workbooks when it has finished")
    try:
        with holding(places.db, wait=0, what=doing("Make the workbooks")):
            made = (workbooks.keeper(places, month, request.form.get("pound")) if kind == "keeper"
                    else workbooks.ledgers(places, month))
    except DatabaseBusy as exc:
        return refused_then_shown(month, f"the database is busy ({exc.holder or 'another program'} is using it); "
                                         "make the workbooks when it has finished")
    except PoundError as exc:
        return refused_then_shown(month, str(exc))
    history.write(places.bundle, who(), "workbooks", month, "made " + ", ".join(p.name for p in made))
    desk.note = "made " + ", ".join(p.name for p in made) + ": download below (The files of " + month + ")"
    return redirect(url_for("desk.index", month=month) + "#workbooks", 303)

def refused_then_shown(month: str, text: str):
    """A refused form: the page is shown by a GET (303), so that reloading it sends nothing again."""
    desk = current_desk()
    return redirect(url_for("desk.index", month=month, said=desk.say(text)) + "#refused", 303)

@bp.get("/files/<month>/<kind>/<name>")
def files(month: str, kind: str, name: str):
    """A file the month's steps wrote, by its month, kind and own name (offered.py); 404 for any other."""
    places = current_desk().places
    if kind == "close":
        abort(404)
    found = offered.find(places, month, kind, name)
    if found is None:
        abort(404)
    return send_file(found, max_age=0)

@bp.get("/files/<month>/close/<close>/<name>")
def close_file(month: str, close: str, name: str):
    places = current_desk().places
    found = offered.find(places, month, "close", name, close)
    if found is None:
        abort(404)
    return send_file(found, max_age=0)

@bp.get("/progress")
def progress():
    """What the running action is doing, for desk.js to show each second (the page reloads when done)."""
    desk = current_desk()
    job = desk.job
    running = job is not None and job.finished is None
    return {"running": running, "step": job.step if job else "",
            "elapsed": round(time.monotonic() - job.started) if running else 0}

@bp.get("/desk.css")
def css():
    return send_from_directory(Path(__file__).parent / "templates", "desk.css")

@bp.get("/favicon.ico")
def favicon():
    return "", 204                    # no icon: the browser's asking is answered without an error

@bp.get("/desk.js")
def js():
    return send_from_directory(Path(__file__).parent / "templates", "desk.js", mimetype="text/javascript")

@bp.app_errorhandler(HTTPException)
def refused(exc: HTTPException):
    desk = current_desk()
    guards = current_guards()
    if isinstance(exc, RequestEntityTooLarge):
        text = f"the file is larger than {guards.max_bytes // (1024 * 1024)} MB; nothing was saved"
    else:
        text = exc.description or exc.name
    if exc.code in (400, 401, 403) and request.host.lower() not in desk.allowed_hosts:
        return text, exc.code, {"Content-Type": "text/plain; charset=utf-8"}
    if exc.code == 404:
        return text, 404, {"Content-Type": "text/plain; charset=utf-8"}
    if exc.code == 401:
        return text, 401, {"Content-Type": "text/plain; charset=utf-8"}
    if isinstance(exc, RequestEntityTooLarge) and request.endpoint in ("desk.add", "desk.do"):
        # (the body unread: the month is the page's, which the form's address carries)
        return refused_then_shown(month_of(request.args.get("month")), text)
    month = month_of(request.args.get("month"))
    return page(month, exc.code or 400, refused=text)

@bp.app_errorhandler(Exception)
def failed(exc: Exception):
    """A defect met serving a request: the page says what failed and what to do (the details on
    the desk's terminal), never a bare 500."""
    import traceback

    traceback.print_exc()
    text = (f"the desk could not do this ({exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
            "show the month again and retry; if it fails again, tell whoever looks after the desk: its window "
            "shows the details")
    try:
        return page(month_of(request.values.get("month")), 500, refused=text)
    except Exception:
        return text, 500, {"Content-Type": "text/plain; charset=utf-8"}

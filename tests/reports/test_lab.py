"""The analyst's workbench: a real JupyterLab server on 127.0.0.1 (as `make lab` starts it) serves
notebooks/explore.py as a notebook, a kernel started through the server runs it top to bottom on
the golden database, and Chromium opens it in the lab, runs it and sees a chart drawn."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from helpers import read_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
# JupyterLab lives in an environment of its own (`make lab-env`, requirements-lab.lock), as `make lab` runs it
JUPYTER = ROOT / ".venv-lab" / "bin" / "jupyter"
pytestmark = [pytest.mark.notebook, pytest.mark.xdist_group("lab")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    def __init__(self, db: Path, workdir: Path):
        self.port, self.token = _free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        # a copy of notebooks/, so that the lab's autosave and checkpoints never touch the checkout
        root = shutil.copytree(NOTEBOOKS, workdir / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        env = dict(os.environ, POUND_DB=str(db), JUPYTERLAB_SETTINGS_DIR=str(root / ".jupyter/lab/user-settings"),
                   JUPYTER_RUNTIME_DIR=str(workdir / "runtime"), JUPYTER_CONFIG_DIR=str(workdir / "config"),
                   JUPYTERLAB_WORKSPACES_DIR=str(workdir / "workspaces"))
        args = [str(JUPYTER), "lab", "--no-browser", "--ip=127.0.0.1",
                f"--port={self.port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
                # its kernels talk over Unix sockets, as the rendered reports' do (render._kernel_config)
                "--KernelManager.transport=ipc"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")
        self.log = open(workdir / "lab.log", "w")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(args, env=env, cwd=workdir, stdout=self.log, stderr=subprocess.STDOUT)
        # Wait until it answers (or has died): starting is slow on a busy machine; this is no assertion on time.
        for _ in range(600):
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}: {(workdir / 'lab.log').read_text()[-2000:]}")
            try:
                self.api("GET", "/api/status")
                return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise RuntimeError("jupyter lab did not answer")

    def api(self, method: str, path: str, body: dict | None = None):
        req = urllib.request.Request(self.url + path, method=method, headers={"Authorization": f"token {self.token}"},
                                     data=json.dumps(body).encode() if body is not None else None)
        with urllib.request.urlopen(req, timeout=60) as resp:
            text = resp.read()
        return json.loads(text) if text else None

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.api("POST", "/api/shutdown")
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.terminate()
                self.proc.wait(timeout=30)
        self.log.close()


@pytest.fixture(scope="module")
def lab(golden_db, tmp_path_factory):
    if not JUPYTER.exists():
        pytest.fail(f"{JUPYTER} is missing: make lab-env (make test makes it)")
    server = Lab(golden_db, tmp_path_factory.mktemp("lab"))
    yield server
    server.stop()
    assert server.proc.returncode is not None


def _run_cells(lab: Lab, kernel_id: str, sources: list[str]) -> list[dict]:
    """Run each source on the kernel through the server's websocket; returns (per cell) its reply
    and the mimebundles it displayed.

    A cell is done when its reply (shell channel) has come and the kernel has said it is idle
    again (iopub channel), as nbclient waits: the server forwards the two channels from sockets of
    their own, so on a busy machine the reply can overtake the cell's last outputs. The kernel
    sends status idle on iopub after every output of the cell, so nothing the cell shows comes
    after it."""
    import websocket

    ws = websocket.create_connection(f"ws://127.0.0.1:{lab.port}/api/kernels/{kernel_id}/channels?token={lab.token}",
                                     timeout=600)
    session, results = uuid.uuid4().hex, []
    try:
        for source in sources:
            msg_id = uuid.uuid4().hex
            ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test",
                                           "session": session, "version": "5.3"},
                                "parent_header": {}, "metadata": {}, "channel": "shell",
                                "content": {"code": source, "silent": False, "store_history": True,
                                            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
            shown, reply, idle = [], None, False
            while reply is None or not idle:
                msg = json.loads(ws.recv())
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = msg["header"]["msg_type"]
                if kind in ("display_data", "execute_result"):
                    shown.append(msg["content"]["data"])
                elif kind == "execute_reply":
                    reply = msg["content"]
                elif kind == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True
            results.append({"reply": reply, "shown": shown})
    finally:
        ws.close()
    return results


def test_the_contents_api_serves_explore_py_as_a_notebook(lab):
    model = lab.api("GET", "/api/contents/explore.py?type=notebook")
    assert model["type"] == "notebook" and model["content"]["nbformat"] == 4
    cells = model["content"]["cells"]
    params = [c for c in cells if "parameters" in c["metadata"].get("tags", [])]
    assert len(params) == 1 and "db = None" in params[0]["source"]
    assert len([c for c in cells if c["cell_type"] == "code"]) == len(
        [c for c in read_notebook(NOTEBOOKS / "explore.py").cells if c.cell_type == "code"])


def test_a_kernel_started_through_the_server_runs_explore_on_the_golden_database(lab, golden_db):
    kernel = lab.api("POST", "/api/kernels", {"name": "python3"})
    try:
        nb = read_notebook(NOTEBOOKS / "explore.py")
        results = _run_cells(lab, kernel["id"], [c.source for c in nb.cells if c.cell_type == "code"])
    finally:
        lab.api("DELETE", f"/api/kernels/{kernel['id']}")
    failed = [(i, r["reply"].get("ename"), r["reply"].get("evalue")) for i, r in enumerate(results)
              if r["reply"]["status"] != "ok"]
    assert failed == []
    html = [b["text/html"] for r in results for b in r["shown"] if "text/html" in b]
    assert sum("plotly-graph-div" in h for h in html) >= 5      # the charts, drawn offline as HTML
    assert any(str(golden_db) in re.sub(r"<[^>]+>", "", h) for h in html)               # db = None: the server's $POUND_DB was read


@pytest.mark.browser
def test_chromium_opens_explore_in_the_lab_runs_it_and_sees_a_chart(lab, browser):
    page, requests, errors = browser.open(f"{lab.url}/lab/tree/explore.py?token={lab.token}", charts=False,
                                          wait_for=".jp-NotebookPanel .jp-Cell")
    offsite = [u for u in requests if not u.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:"))]
    assert offsite == []
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session", timeout=120000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".jp-OutputArea .main-svg", state="attached", timeout=300000)
    assert page.locator(".jp-OutputArea .plotly-graph-div").count() >= 1
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert errors == [], errors

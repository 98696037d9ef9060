"""Which cells LibreOffice Calc's own validity check marks invalid, once values are put into them.

Run with the python that has LibreOffice's `uno` module (Debian's python3-uno: /usr/bin/python3),
not the project's: it reads {"path": workbook, "cells": {sheet: [[cell, "text" | "value", value]]}}
on stdin, opens the workbook in a headless Calc, writes each value (text as text, a value as a
number), asks Calc to mark invalid data (Tools > Detective > Mark Invalid Data) and prints
{sheet: [[column, row], ...]} of the cells marked, counted from 0.

With --serve it starts Calc once and answers many requests: one JSON request a line on stdin, one
JSON answer a line on stdout, until stdin ends. Each request opens the workbook afresh and closes it
unsaved, as a start of its own would.

A request {"convert": [path, ...], "filter": name, "options": text, "ext": extension, "outdir": folder}
is `soffice --convert-to EXT:FILTER:OPTIONS --outdir FOLDER PATH...` done by the Calc already
started: each file is opened as --convert-to opens it (hidden, read only), stored through the
filter as outdir/<its stem>.<ext>, and closed; the answer is {"saved": [path, ...]}. A file that
will not open or store is an answer {"error": text}, and Calc serves on.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.append('/usr/lib/python3/dist-packages')
import uno  # noqa: E402
from com.sun.star.beans import PropertyValue  # noqa: E402


def prop(n, v):
    p = PropertyValue()
    p.Name, p.Value = n, v
    return p


def marked(desktop, req):
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(req["path"])), "_blank", 0,
                                       (prop("Hidden", True),))
    out = {}
    try:
        for sheet_name, cells in req["cells"].items():
            sh = doc.Sheets.getByName(sheet_name)
            for addr, kind, value in cells:
                cell = sh.getCellRangeByName(addr)
                if kind == "text":
                    cell.setString(value)
                else:
                    cell.setValue(value)
            sh.showInvalid()
            dp = sh.DrawPage
            bad = []
            for i in range(dp.Count):
                shape = dp.getByIndex(i)
                if shape.ShapeType != "com.sun.star.drawing.EllipseShape":
                    continue
                a = shape.Anchor
                try:
                    c = a.CellAddress
                    bad.append((c.Column, c.Row))
                except AttributeError:
                    pass
            out[sheet_name] = bad
    finally:
        doc.close(True)
    return out


def converted(desktop, req):
    saved = []
    for path in req["convert"]:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(path)), "_blank", 0,
                                           (prop("Hidden", True), prop("ReadOnly", True)))
        if doc is None:
            raise RuntimeError(f"Calc could not open {path}")
        try:
            stem = os.path.splitext(os.path.basename(path))[0]
            target = os.path.join(os.path.abspath(req["outdir"]), f"{stem}.{req['ext']}")
            args = [prop("FilterName", req["filter"]), prop("Overwrite", True)]
            if req.get("options"):
                args.append(prop("FilterOptions", req["options"]))
            doc.storeToURL(uno.systemPathToFileUrl(target), tuple(args))
            saved.append(target)
        finally:
            doc.close(True)
    return {"saved": saved}


def answer(desktop, req):
    if "convert" not in req:
        return marked(desktop, req)
    try:
        return converted(desktop, req)
    except Exception as exc:            # one file Calc will not take is that request's failure, not the server's
        return {"error": f"{type(exc).__name__}: {exc}"}


def main():
    serve = "--serve" in sys.argv[1:]
    prof = tempfile.mkdtemp()
    pipe = f"pound{os.getpid()}"
    proc = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo",
                             "-env:UserInstallation=file://" + prof, f"--accept=pipe,name={pipe};urp;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        for _ in range(120):
            try:
                ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except Exception:
                time.sleep(0.25)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        if not serve:
            json.dump(marked(desktop, json.load(sys.stdin)), sys.stdout)
            return
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(json.dumps(answer(desktop, json.loads(line))) + "\n")
                sys.stdout.flush()
    finally:
        proc.terminate()
        proc.wait(20)
        shutil.rmtree(prof, ignore_errors=True)


if __name__ == "__main__":
    main()

"""axe-core, the accessibility engine, run in a page opened by tests/browser.py.

axe-core is pinned in tests/node/package.json (its lock, tests/node/package-lock.json, holds the
tarball's hash) and installed by `make axe` (part of `make test`) from the npm registry into
tests/node/node_modules. Any test can check a page:

    from axe import violations, describe
    page, _, _ = browser.open(path, charts=False)
    assert violations(page) == [], describe(violations(page))

violations() runs the rules of WCAG 2.0 and 2.1, levels A and AA, and axe's best practices, and
returns what they found: each {id, impact, help, nodes: [selectors]}. A page is judged as it
stands when called (after its charts are drawn, say)."""

from __future__ import annotations

import functools
from pathlib import Path

NODE_DIR = Path(__file__).resolve().parent / "node"
AXE_JS = NODE_DIR / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@functools.cache
def axe_source() -> str:
    """The text of axe.min.js; a missing install is one line saying how to make it."""
    if not AXE_JS.exists():
        raise RuntimeError(f"axe-core is not installed ({AXE_JS} is missing): run 'make axe'")
    return AXE_JS.read_text(encoding="utf-8")


_RUN = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                 nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.html.slice(0, 160))}));
}"""


def violations(page, tags=TAGS) -> list[dict]:
    """axe's violations of `tags` on a playwright page (axe is added to the page if it has none)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(_RUN, list(tags))


def version(page) -> str:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate("axe.version")


def describe(found: list[dict], nodes: int = 4) -> str:
    """The violations as lines to read in a failed assertion."""
    lines = []
    for v in found:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} - {len(v['nodes'])} element(s)")
        lines += [f"    {n}" for n in v["nodes"][:nodes]]
    return "\n".join(lines)

"""The papers' sentences and their Kannada catalogue: extract them, merge them in, check it is whole.

`python -m pipeline.tools.papers_catalogue` reads the sentences marked for translation in the
papers' templates ({% trans %}, _()) and in pipeline/documents/render.py (the animals' nouns,
who signs a receipt), and merges them into pipeline/documents/locale/kn/LC_MESSAGES/papers.po:
a new sentence comes in with an empty translation, one no template uses any more goes, every
translation made is kept. `--check` (run by the tests) changes nothing and fails when a sentence
has no translation, the catalogue holds one no template uses, a translation drops or adds a
placeholder (%(day)s), or the Kannada plural rule is not CLDR's.
"""

from __future__ import annotations

import argparse
import io
import re
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from pipeline.documents.i18n import DOMAIN, KN_PLURAL_FORMS, po_path
from pipeline.documents.render import TEMPLATES

# the templates of the papers the public reads, in the languages of the catalogue; the police
# report, the findings memo and the index are the officials' own and stay in English
TEMPLATE_FILES = ("base.html.j2", "_figures.html.j2", "notice.html.j2", "release_receipt.html.j2",
                  "owner_account.html.j2", "security_receipt.html.j2")
PYTHON_FILES = (TEMPLATES.parent / "render.py",)
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted() -> Catalog:
    """Every sentence the papers use, with where it is used."""
    cat = Catalog(locale="kn", domain=DOMAIN, project="pound-accounts", fuzzy=False)
    sources = [(TEMPLATES / name, "jinja2.ext:babel_extract", {"trimmed": "true", "newstyle_gettext": "true"})
               for name in TEMPLATE_FILES if (TEMPLATES / name).exists()]
    sources += [(path, "python", {}) for path in PYTHON_FILES]
    for path, method, options in sources:
        with path.open("rb") as fh:
            for lineno, message, comments, context in extract(method, fh, keywords=KEYWORDS, options=options):
                where = f"{path.parent.name}/{path.name}"
                cat.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return cat


def _ids(cat: Catalog) -> set:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id}


def _strings(value) -> list[str]:
    return [value] if isinstance(value, str) else [v for v in (value or ()) if v is not None]


def problems(cat: Catalog, wanted: Catalog) -> list[str]:
    """What keeps the catalogue `cat` from translating every sentence of `wanted`."""
    out = []
    if cat.plural_forms.replace(" ", "") != KN_PLURAL_FORMS.replace(" ", ""):
        out.append(f"Plural-Forms is {cat.plural_forms!r}, not CLDR's {KN_PLURAL_FORMS!r}")
    have = {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in cat if m.id}
    for key in sorted(_ids(wanted), key=str):
        msg = have.get(key)
        if msg is None:
            out.append(f"missing: {key!r}")
            continue
        texts = _strings(msg.string)
        if not texts or any(not t.strip() for t in texts) or (not isinstance(key, str) and len(texts) != 2):
            out.append(f"not translated: {key!r}")
            continue
        need = set(_PLACEHOLDER.findall(key if isinstance(key, str) else " ".join(key)))
        for t in texts:
            got = set(_PLACEHOLDER.findall(t))
            if got != need:
                out.append(f"placeholders differ in {key!r}: {sorted(got)} for {sorted(need)}")
        if "\ufffd" in "".join(texts):
            out.append(f"a replacement character in the translation of {key!r}")
    for key in sorted(set(have) - _ids(wanted), key=str):
        out.append(f"no template uses: {key!r}")
    return out


def read(lang: str = "kn") -> Catalog:
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def merged(cat: Catalog, wanted: Catalog) -> Catalog:
    """`wanted`'s sentences, each with the translation `cat` has for it."""
    have = {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in cat if m.id}
    out = Catalog(locale="kn", domain=DOMAIN, project="pound-accounts", fuzzy=False,
                  language_team="awaiting a translator's check (docs/glossary-kannada.md)")
    for msg in wanted:
        if not msg.id:
            continue
        key = msg.id if isinstance(msg.id, str) else tuple(msg.id)
        old = have.get(key)
        out.add(msg.id, old.string if old else ("" if isinstance(key, str) else ("", "")), msg.locations,
                auto_comments=msg.auto_comments)
    return out


def write(cat: Catalog, lang: str = "kn") -> None:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, omit_header=False, include_previous=False)
    text = buf.getvalue().decode("utf-8")
    # Babel writes the plural rule its locale data gives; the catalogue states CLDR's for Kannada
    text = re.sub(r'"Plural-Forms: [^"]*\\n"', f'"Plural-Forms: {KN_PLURAL_FORMS}\\\\n"', text)
    text = re.sub(r'"POT-Creation-Date: [^"]*\\n"\n', "", text)
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pipeline.tools.papers_catalogue", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; fail when the Kannada catalogue is not whole")
    args = ap.parse_args(argv)
    wanted = extracted()
    cat = read("kn")
    if args.check:
        found = problems(cat, wanted)
        for line in found:
            print(line, file=sys.stderr)
        print(f"{len(_ids(wanted))} sentences; {po_path('kn').name}: "
              + ("complete" if not found else f"{len(found)} problems"))
        return 1 if found else 0
    write(merged(cat, wanted))
    untranslated = [p for p in problems(read("kn"), wanted) if p.startswith(("not translated", "placeholders"))]
    print(f"wrote {po_path('kn')}: {len(_ids(wanted))} sentences, {len(untranslated)} to translate")
    return 0


if __name__ == "__main__":
    sys.exit(main())

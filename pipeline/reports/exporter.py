"""nbconvert's HTML exporter for the report pages.

PageExporter is HTMLExporter with the reports' settings as the defaults of its documented
traits (template_name, extra_template_basedirs, the exclude_* options that hide the code, and
optimistic_validation: the page's notebook validated once, not after each preprocessor).

It overrides one method, from_notebook_node, to leave out a pass the reports' pages never need.
HTMLExporter renders the page, then parses the whole of it with BeautifulSoup to give an <img>
without alt its words and to make every cell of a `jp-Notebook` body a tab stop, then writes the
page out again. The reports' template gives the body no class jp-Notebook (templates/pound), and
their pages hold no <img>: on them the pass finds nothing to do, and it was most of the export's
time (about 0.6 CPU s on a district's largest page of 10,000 tags). So the page is rendered as
HTMLExporter renders it (the same two filters registered, then TemplateExporter's own render),
and the pass is run, through HTMLExporter itself, only on a page where it could change something
(`_needs_pass`). The lines copied are those of nbconvert NBCONVERT_VERSION (pinned in
requirements.lock); tests/reports/test_exporter.py fails when nbconvert's version or the source of
HTMLExporter.from_notebook_node changes, and checks the page against HTMLExporter's own.

This module imports nbconvert (and so nbformat): pipeline.reports.render imports it only when it
exports a page.
"""

from __future__ import annotations

import re
from pathlib import Path

from nbconvert import HTMLExporter
from nbconvert.exporters.templateexporter import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from traitlets import default

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"     # templates/pound: the reports' page
NBCONVERT_VERSION = "7.17.2"

# what HTMLExporter's pass acts on: an <img> (given alt words when it has none), or an element of the
# class jp-Notebook (whose cells it makes tab stops)
_IMG = re.compile(r"<img\b", re.I)
# (a class attribute naming jp-Notebook among its words: one regular expression over the page, not a
# look at each of a large page's 40,000 class attributes in turn)
_NOTEBOOK_CLASS = re.compile(r"""(?i:\sclass)\s*=\s*(?:"(?:[^"]*\s)?jp-Notebook(?:\s[^"]*)?"|'(?:[^']*\s)?jp-Notebook(?:\s[^']*)?')""")


def _needs_pass(page: str) -> bool:
    return _IMG.search(page) is not None or _NOTEBOOK_CLASS.search(page) is not None


class PageExporter(HTMLExporter):
    """HTMLExporter with the report template, and no code, prompt or input shown."""

    @default("template_name")
    def _template_name_default(self) -> str:
        return "pound"

    @default("extra_template_basedirs")
    def _extra_template_basedirs_default(self) -> list[str]:
        return [str(TEMPLATE_DIR)]

    @default("exclude_input")
    def _exclude_input_default(self) -> bool:
        return True

    @default("exclude_input_prompt")
    def _exclude_input_prompt_default(self) -> bool:
        return True

    @default("exclude_output_prompt")
    def _exclude_output_prompt_default(self) -> bool:
        return True

    @default("optimistic_validation")
    def _optimistic_validation_default(self) -> bool:
        # the notebook validated once, after every preprocessor has run, rather than after each
        return True

    def from_notebook_node(self, nb, resources=None, **kw):
        """HTMLExporter.from_notebook_node without its BeautifulSoup pass where the pass would change
        nothing (module docstring); where it could, HTMLExporter's own, pass and all."""
        given = resources
        langinfo = nb.metadata.get("language_info", {})
        lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
        highlight_code = self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self))
        resources = self._init_resources(resources)
        filter_data_type = WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources)
        self.register_filter("highlight_code", highlight_code)
        self.register_filter("filter_data_type", filter_data_type)
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        if _needs_pass(html):
            return HTMLExporter.from_notebook_node(self, nb, given, **kw)
        return html, resources

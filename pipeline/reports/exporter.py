"""nbconvert's HTML exporter for the report pages, without its last step.

HTMLExporter.from_notebook_node renders the template and then passes the whole page through
BeautifulSoup (html.parser) and back, to give images without one an alt text and to make the
input and output areas focusable (tabindex="0"). On a page of 500-row tables (20,000 cells) that
round trip took 3-4 s of the 5 s of the export. The report pages hold no images (a page that does
still goes the whole way, as before), and the tabindex is added here on the text, in the place
the round trip puts it; what a browser reads is the same page (the reports' tests read it).

This module imports nbconvert (and so nbformat): pipeline.reports.render imports it only when it
exports a page.
"""

from __future__ import annotations

import re

from nbconvert import HTMLExporter
from nbconvert.exporters import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

# the elements HTMLExporter makes focusable: every input wrapper and output area of the page
_FOCUSABLE = re.compile(r'(<div class="(?:jp-Cell-inputWrapper|[^"<>]*\bjp-OutputArea-output\b[^"<>]*)"[^<>]*)>')


def focusable(page: str) -> str:
    """The page with tabindex="0" on its input wrappers and output areas (as HTMLExporter adds it)."""
    return _FOCUSABLE.sub(r'\1 tabindex="0">', page)


class PageExporter(HTMLExporter):
    """HTMLExporter whose from_notebook_node stops before the BeautifulSoup round trip."""

    def from_notebook_node(self, nb, resources=None, **kw):
        # HTMLExporter.from_notebook_node (nbconvert 7.17) up to its BeautifulSoup step
        given = resources
        langinfo = nb.metadata.get("language_info", {})
        lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
        self.register_filter("highlight_code",
                             self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)))
        resources = self._init_resources(resources)
        self.register_filter("filter_data_type",
                             WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self,
                                                   resources=resources))
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        if "<img" in html:
            return super().from_notebook_node(nb, given, **kw)
        return focusable(html), resources

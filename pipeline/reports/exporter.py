"""nbconvert's HTML exporter for the report pages.

PageExporter is HTMLExporter with the reports' settings as the defaults of its documented
traits (template_name, extra_template_basedirs, and the exclude_* options that hide the code);
it overrides no method, so every step of the export is nbconvert's own, BeautifulSoup pass
included (about 0.3 s on a district's largest page; tests/reports/test_exporter.py checks the
page against HTMLExporter's).

This module imports nbconvert (and so nbformat): pipeline.reports.render imports it only when it
exports a page.
"""

from __future__ import annotations

from pathlib import Path

from nbconvert import HTMLExporter
from traitlets import default

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"     # templates/pound: the reports' page


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
